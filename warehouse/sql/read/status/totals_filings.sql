-- Filing-history totals (needs the 0002 filings migration).
SELECT 'filings (one row per cik, accession)' AS what, count(*) AS n FROM filings
UNION ALL SELECT 'filings amended (superseded_by set)', count(*) FROM filings WHERE superseded_by IS NOT NULL
UNION ALL SELECT 'XBRL filings without facts', count(*) FROM xbrl_filings_without_facts
UNION ALL SELECT 'fact accessions unknown to filings', count(*) FROM facts_unknown_to_filings
UNION ALL SELECT 'registry tickers', count(*) FROM company_tickers;
