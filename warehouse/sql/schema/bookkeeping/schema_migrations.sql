-- The applied table migrations, one row per file (created before the first migration runs; the lake's
-- catalog has its own copy without the key: warehouse/store/lake.py).
-- reads: -
-- creates: schema_migrations
-- grain: version
CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY, name VARCHAR NOT NULL, sha256 VARCHAR NOT NULL,
    applied_at TIMESTAMP NOT NULL DEFAULT current_timestamp)
