-- Agent tools: the concepts the input edges of some derived metrics ($metric_ids) cite, for
-- agent/lineage.sql's filter. Reads metric_lineage. Grain: one list.
SELECT coalesce(list(DISTINCT concept ORDER BY concept), []) AS concepts
FROM metric_lineage
WHERE list_contains($metric_ids, metric_id) AND concept IS NOT NULL
