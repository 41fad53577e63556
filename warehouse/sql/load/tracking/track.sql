-- Track companies not tracked yet (reads tracked_companies; writes tracked_companies). One row per
-- cik by anti-join, no constraint and no RETURNING needed (DuckLake). $ciks, $tickers, $by: parallel lists.
INSERT INTO tracked_companies (cik, tracked_ticker, tracked_at, tracked_by)
SELECT DISTINCT ON (r.cik) r.cik, r.ticker, $now, r.tracked_by
FROM (SELECT unnest($ciks::INTEGER[]) AS cik, unnest($tickers::VARCHAR[]) AS ticker,
             unnest($by::VARCHAR[]) AS tracked_by) r
WHERE NOT EXISTS (SELECT 1 FROM tracked_companies t WHERE t.cik = r.cik);
