-- One check's result for run $load_id over every company the run checked (check_company_results):
-- the sum of their offending rows and the five most severe rows of all (same order as
-- company_results.sql); 0 rows and no sample when none flagged anything. forget_result.sql runs first.
-- reads: check_company_results
-- creates: -
INSERT INTO check_results (load_id, check_name, offending_rows, sample, checked_at)
SELECT $load_id, $check_name,
       coalesce((SELECT sum(offending_rows) FROM check_company_results
                 WHERE load_id = $load_id AND check_name = $check_name), 0),
       (SELECT CAST(to_json(list(s ORDER BY CAST(s ->> 'severity' AS DOUBLE) DESC, CAST(s AS VARCHAR))[1:5]) AS JSON)
        FROM check_company_results c, unnest(CAST(c.sample AS JSON[])) AS u(s)
        WHERE c.load_id = $load_id AND c.check_name = $check_name),
       CAST(now() AT TIME ZONE 'UTC' AS TIMESTAMP)
