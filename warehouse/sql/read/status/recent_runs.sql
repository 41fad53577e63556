-- The latest load runs (grain: load run).
-- reads: load_runs
-- grain: load_id
SELECT load_id[:8] AS load_id, command, strftime(started_at, '%Y-%m-%d %H:%M:%S') AS started_utc,
       round(epoch(finished_at - started_at), 1) AS seconds, status,
       documents_loaded AS loaded, documents_unchanged AS unchanged, documents_rejected AS rejected, error
FROM load_runs
ORDER BY started_at DESC
LIMIT 5;
