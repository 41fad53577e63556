-- Open-market purchases and sales of one issuer, one row per transaction line, with owners (their
-- names a list in the filing's order, as read/api/insider_transactions.sql gives them; the view
-- insider_open_market joins them with '; ');
-- optionally from a first transaction date.
-- reads: insider_open_market, insider_filings, insider_owners
-- grain: accession, table_kind, line_number
SELECT t.* REPLACE (coalesce(o.names, []) AS owner_names)
FROM insider_open_market t
LEFT JOIN (SELECT accession, list(owner_name ORDER BY owner_number) AS names
           FROM insider_owners
           WHERE accession IN (SELECT accession FROM insider_filings WHERE issuer_cik = $cik)
           GROUP BY accession) o USING (accession)
WHERE t.issuer_cik = $cik AND ($since IS NULL OR t.transaction_date >= CAST($since AS DATE))
ORDER BY ALL;
