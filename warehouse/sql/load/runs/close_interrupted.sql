-- Close a run whose process is gone: partial when it committed documents, else failed, with why
-- (parameters: the reason, the load_id).
-- reads: load_runs
UPDATE load_runs SET status = CASE WHEN documents_loaded + documents_unchanged + documents_rejected > 0
                                   THEN 'partial' ELSE 'failed' END,
                     error = coalesce(error || '; ', '') || ?
WHERE load_id = ?
