-- A run of one batch, recorded when it ends (parameters in the order of the columns).
-- reads: -
INSERT INTO load_runs (load_id, flow_run_id, command, started_at, finished_at, status,
                       documents_loaded, documents_unchanged, documents_rejected, row_counts, error, pid, host)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
