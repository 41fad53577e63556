-- One run's summary: documents, requests, duration and rows per table (reads load_runs,
-- run_requests; grain: one row).
SELECT l.load_id, l.command, l.status, l.documents_loaded, l.documents_unchanged, l.documents_rejected,
       l.documents_not_fetched, l.row_counts, round(epoch(coalesce(l.finished_at, now()::TIMESTAMP) - l.started_at), 1) AS seconds,
       (SELECT count(*) FROM run_requests r WHERE r.load_id = l.load_id) AS requests,
       (SELECT coalesce(sum(r.body_bytes), 0) FROM run_requests r WHERE r.load_id = l.load_id) AS bytes
FROM load_runs l WHERE l.load_id = $load_id;
