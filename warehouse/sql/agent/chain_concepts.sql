-- Agent tools: the concepts of one standard concept's fallback chain ($concept), for
-- agent/standard_facts.sql's filter. Reads standard_concepts. Grain: one list.
-- reads: concepts, standard_concepts
SELECT coalesce(list(DISTINCT concept ORDER BY concept), []) AS concepts
FROM standard_concepts
WHERE standard_concept = $concept
