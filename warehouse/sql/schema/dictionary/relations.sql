-- Every table and view of the open warehouse's main schema with its comment (the data dictionary).
-- reads: -
-- grain: table_name
SELECT table_name, 'table', comment FROM duckdb_tables() WHERE database_name = current_database() AND schema_name = 'main' AND NOT internal AND NOT temporary
UNION ALL SELECT view_name, 'view', comment FROM duckdb_views() WHERE database_name = current_database() AND schema_name = 'main' AND NOT internal AND NOT temporary
ORDER BY 1
