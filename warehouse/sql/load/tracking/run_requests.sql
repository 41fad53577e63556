-- What each recent run cost in requests to SEC and what it brought (reads run_requests, load_runs;
-- one row per load run).
SELECT r.load_id[:8] AS load_id, l.command, strftime(l.started_at, '%Y-%m-%d %H:%M:%S') AS started_utc,
       round(epoch(l.finished_at - l.started_at), 1) AS seconds, l.status, count(*) AS requests,
       count(*) FILTER (WHERE r.kind = 'daily_index') AS indexes,
       count(*) FILTER (WHERE r.kind = 'companyfacts') AS companyfacts,
       count(*) FILTER (WHERE r.kind IN ('submissions', 'submissions_page')) AS submissions,
       count(*) FILTER (WHERE r.kind = 'archive') AS archives,
       count(*) FILTER (WHERE r.status IS NULL OR r.status >= 400) AS failed,
       round(sum(coalesce(r.body_bytes, 0)) / 1e6, 2) AS mb,
       l.documents_loaded AS loaded, l.documents_unchanged AS unchanged, l.documents_rejected AS rejected,
       l.documents_not_fetched AS not_fetched, l.row_counts AS rows_added
FROM run_requests r
JOIN load_runs l USING (load_id)
GROUP BY ALL
ORDER BY started_utc DESC
LIMIT 5;
