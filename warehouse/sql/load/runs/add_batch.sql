-- Add one more batch to a run of several (parameters in order: finished_at, status, documents loaded,
-- unchanged and rejected by the batch, the run's row counts so far, error, load_id).
-- reads: load_runs
UPDATE load_runs SET finished_at = ?, status = ?, documents_loaded = documents_loaded + ?,
                     documents_unchanged = documents_unchanged + ?, documents_rejected = documents_rejected + ?,
                     row_counts = ?, error = ?
WHERE load_id = ?
