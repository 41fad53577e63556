-- The applied definitions, one row per name with its sha256 (created before they are first applied; the
-- lake's catalog has its own copy without the key: warehouse/store/lake.py).
-- reads: -
-- creates: schema_definitions
-- grain: name
CREATE TABLE IF NOT EXISTS schema_definitions (
    name VARCHAR PRIMARY KEY, kind VARCHAR NOT NULL, sha256 VARCHAR NOT NULL,
    applied_at TIMESTAMP NOT NULL DEFAULT current_timestamp)
