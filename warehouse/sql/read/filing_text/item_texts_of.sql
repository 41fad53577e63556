-- The text of the items ($accessions[i], $items[i]).
-- reads: filing_sections
-- grain: accession, item
SELECT s.accession, s.item, s.text
FROM (SELECT unnest($accessions::VARCHAR[]) AS accession, unnest($items::VARCHAR[]) AS item) k
JOIN filing_sections s USING (accession, item);
