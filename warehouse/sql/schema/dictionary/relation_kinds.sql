-- Every table and view of the open warehouse's main schema, and which it is (the live schema).
-- reads: -
-- grain: table_name
SELECT table_name, 'table' FROM duckdb_tables() WHERE database_name = current_database() AND schema_name = 'main' AND NOT internal AND NOT temporary
UNION ALL SELECT view_name, 'view' FROM duckdb_views() WHERE database_name = current_database() AND schema_name = 'main' AND NOT internal AND NOT temporary
