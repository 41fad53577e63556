-- Forget check $check_name's result for run $load_id before results.sql writes it again (plain DELETE
-- and INSERT, not INSERT OR REPLACE: the DuckLake backend's tables have no keys to replace by).
-- reads: check_results
-- creates: -
DELETE FROM check_results WHERE load_id = $load_id AND check_name = $check_name
