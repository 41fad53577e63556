-- The inputs of one derived metric version (grain: input edge): exact fact versions or metrics.
-- reads: metric_lineage
-- grain: metric_id, role, step
SELECT * FROM metric_lineage WHERE metric_id = $metric_id ORDER BY ALL;
