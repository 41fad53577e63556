-- Version number and successor of every metric version of the refreshed companies, in known_from
-- order within (metric, cik, period_start, period_end, input_unit). Values are never touched.
-- reads: derived_metrics
-- creates: -
UPDATE derived_metrics
SET version = r.version, superseded_by_metric_id = r.next_id, superseded_at = r.next_at
FROM (
    SELECT metric_id,
           row_number() OVER w AS version,
           lead(metric_id) OVER w AS next_id,
           lead(known_from) OVER w AS next_at
    FROM derived_metrics
    WHERE cik BETWEEN list_min($ciks) AND list_max($ciks) AND list_contains($ciks, cik)  -- range: row-group pruning
    WINDOW w AS (PARTITION BY metric, cik, period_start, period_end, input_unit
                 ORDER BY known_from, computed_at, metric_id)
) r
WHERE derived_metrics.metric_id = r.metric_id
  AND (derived_metrics.version IS DISTINCT FROM r.version
       OR derived_metrics.superseded_by_metric_id IS DISTINCT FROM r.next_id
       OR derived_metrics.superseded_at IS DISTINCT FROM r.next_at);
