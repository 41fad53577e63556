"""ORCHESTRATION layer: Prefect flows and the `edgar-warehouse` CLI. No parsing, no SQL."""
