-- Every public table, view and table macro of the warehouse with its comment (describe_schema).
-- reads: -
-- grain: name
SELECT table_name AS name, 'table' AS kind, comment FROM duckdb_tables() WHERE NOT internal AND schema_name = 'main'
UNION ALL
SELECT view_name, 'view', comment FROM duckdb_views() WHERE NOT internal AND schema_name = 'main'
UNION ALL
SELECT DISTINCT function_name, 'table_macro', comment FROM duckdb_functions()
WHERE function_type = 'table_macro' AND NOT internal AND schema_name = 'main'
ORDER BY name
