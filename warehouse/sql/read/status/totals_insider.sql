-- Insider-filing totals (needs the 0003 insider migration).
SELECT 'insider filings (Forms 3/4/5)' AS what, count(*) AS n FROM insider_filings
UNION ALL SELECT 'insider owners', count(*) FROM insider_owners
UNION ALL SELECT 'insider transaction lines', count(*) FROM insider_transactions
UNION ALL SELECT 'insider holding lines', count(*) FROM insider_holdings
UNION ALL SELECT 'insider footnotes', count(*) FROM insider_footnotes;
