"""SOURCES layer: talk to SEC and parse payloads into plain records. Never imports duckdb."""
