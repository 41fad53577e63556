"""STORAGE layer: DuckDB connection, migrations, loaders, derived metrics, queries. Never does HTTP."""
