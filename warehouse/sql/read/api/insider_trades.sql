-- Open-market purchases and sales of one issuer, one row per transaction line, with owners;
-- optionally from a first transaction date.
SELECT * FROM insider_open_market
WHERE issuer_cik = $cik AND ($since IS NULL OR transaction_date >= CAST($since AS DATE))
ORDER BY ALL;
