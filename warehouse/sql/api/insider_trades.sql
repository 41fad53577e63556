-- Open-market purchases and sales of one issuer, one row per transaction line, with owners.
SELECT * FROM insider_open_market WHERE issuer_cik = $cik ORDER BY ALL;
