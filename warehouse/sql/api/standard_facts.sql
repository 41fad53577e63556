-- Standard concepts of one company (grain: cik, standard_concept, unit, period): the fallback chain
-- applied per period, with the tag it matched and the tags tried. Optionally one concept
-- ($chain_concepts: the XBRL concepts of its chain, agent/chain_concepts.sql; NULL with no concept),
-- fiscal year and period. Now ($as_of NULL): the current standard facts loads keep (standard_facts,
-- read by company); at $as_of: computed for that company and concept only
-- (company_standard_facts_as_of_only over the versions public then). DuckDB plans both branches
-- (the parameter is not a constant at planning): the now branch costs the as-of branch's planning.
WITH s AS (
    SELECT * FROM standard_facts
    WHERE $as_of IS NULL AND cik = $cik AND ($concept IS NULL OR standard_concept = $concept)
    UNION ALL
    SELECT * FROM company_standard_facts_as_of_only([$cik], CAST($as_of AS TIMESTAMP),
                                                    CASE WHEN $concept IS NOT NULL THEN [$concept] END, $chain_concepts)
    WHERE $as_of IS NOT NULL AND ($concept IS NULL OR standard_concept = $concept)
)
SELECT s.cik, s.standard_concept, s.fiscal_year, s.fiscal_period, s.duration_class, s.period_start,
       s.period_end, s.value, s.unit, s.taxonomy, s.matched_tag, s.tags_tried, s.accession, s.form, s.filed,
       s.known_from, s.derivation
FROM s
WHERE ($fiscal_year IS NULL OR s.fiscal_year = $fiscal_year)
  AND ($fiscal_period IS NULL OR s.fiscal_period = $fiscal_period)
ORDER BY s.standard_concept, s.unit, s.period_end, s.period_start NULLS FIRST;
