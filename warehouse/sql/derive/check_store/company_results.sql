-- The rows one check ($check_sql, spliced in by warehouse/derive/checks.py) flags, per company, for run
-- $load_id: their count and the five most severe (ties by the row's text, so a sample never
-- depends on scan order).
-- reads: check_facts (through the check)
-- creates: -
INSERT INTO check_company_results (load_id, check_name, cik, offending_rows, sample, checked_at)
SELECT $load_id, $check_name, t.cik, count(*),
       CAST(to_json(list(t ORDER BY t.severity DESC, CAST(to_json(t) AS VARCHAR))[1:5]) AS JSON),
       CAST(now() AT TIME ZONE 'UTC' AS TIMESTAMP)
FROM ({check_sql}) t
GROUP BY t.cik
