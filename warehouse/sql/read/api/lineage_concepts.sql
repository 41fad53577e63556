-- The concepts the input edges of some derived metrics ($metric_ids) of one company
-- ($cik) cite, for read/api/lineage.sql's filter. Reads metric_lineage by company (its cik: zone maps
-- skip other companies' row groups; no index on metric_id). Grain: one list.
-- reads: concepts, metric_lineage
SELECT coalesce(list(DISTINCT concept ORDER BY concept), []) AS concepts
FROM metric_lineage
WHERE cik = $cik AND list_contains($metric_ids, metric_id) AND concept IS NOT NULL
