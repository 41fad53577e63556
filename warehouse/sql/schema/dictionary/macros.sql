-- Every macro and table macro of the open warehouse's main schema with its comment and its
-- parameter lists (the data dictionary; one row per name, its overloads' parameters joined).
-- reads: -
-- grain: function_name
SELECT function_name, any_value(function_type), any_value(comment),
       string_agg(DISTINCT array_to_string(parameters, ', '), ' | ' ORDER BY array_to_string(parameters, ', '))
FROM duckdb_functions() WHERE database_name = current_database() AND schema_name = 'main' AND NOT internal AND function_type IN ('macro', 'table_macro')
GROUP BY 1 ORDER BY 1
