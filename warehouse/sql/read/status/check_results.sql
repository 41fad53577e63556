-- The latest result of every data-quality check (grain: check_name).
-- reads: check_results
-- grain: check_name
SELECT check_name, offending_rows, load_id[:8] AS load_id, checked_at
FROM check_results
QUALIFY row_number() OVER (PARTITION BY check_name ORDER BY checked_at DESC) = 1
ORDER BY check_name;
