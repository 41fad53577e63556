-- The XBRL concepts the fallback chain of one standard concept reads ($concept; NULL: every chain),
-- for the standard-facts files' filters (read/api/standard_facts_now.sql, read/api/standard_facts.sql,
-- company_standard_facts_as_of_only's chain_concepts). Grain: one list.
-- reads: concepts, standard_concepts
SELECT coalesce(list(DISTINCT concept ORDER BY concept), []) AS concepts
FROM standard_concepts
WHERE $concept IS NULL OR standard_concept = $concept
