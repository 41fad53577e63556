-- The text of some items (reads filing_sections). $accessions: their filings; the caller picks its
-- (accession, item) pairs out of the rows.
-- reads: filing_sections
-- grain: accession, item
SELECT accession, item, text FROM filing_sections WHERE list_contains($accessions, accession);
