-- The tracked universe with what the warehouse holds of each (reads tracked_companies, companies;
-- grain: cik).
SELECT t.cik, t.tracked_ticker AS ticker, c.name, t.tracked_by, strftime(t.tracked_at, '%Y-%m-%d %H:%M:%S') AS tracked_utc,
       t.synced_through, t.text_since
FROM tracked_companies t
LEFT JOIN companies c ON c.cik = t.cik
ORDER BY t.cik;
