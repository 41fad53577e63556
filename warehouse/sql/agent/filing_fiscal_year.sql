-- Agent tools: the fiscal year a filing reports for (its facts' filing_fy, from companyfacts' fy), NULL
-- when the warehouse holds none of its facts. Reads facts. Params: $cik, $accession. Grain: one row.
-- reads: facts
SELECT max(filing_fy) AS filing_fy FROM facts WHERE cik = $cik AND accession = $accession;
