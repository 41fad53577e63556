-- Standard concepts of one company (grain: cik, standard_concept, unit, period): the fallback chain
-- applied per period (standard_facts, or standard_facts_as_of($as_of)), with the tag it matched and
-- the tags tried. Optionally one concept ($chain_concepts: the XBRL concepts of its chain,
-- agent/chain_concepts.sql; NULL with no concept), fiscal year and period. Only that company and
-- concept are computed (company_standard_facts_as_of_only; standard_facts is standard_facts_as_of far in
-- the future).
SELECT s.cik, s.standard_concept, s.fiscal_year, s.fiscal_period, s.duration_class, s.period_start,
       s.period_end, s.value, s.unit, s.taxonomy, s.matched_tag, s.tags_tried, s.accession, s.form, s.filed,
       s.known_from, s.derivation
FROM company_standard_facts_as_of_only([$cik], coalesce(CAST($as_of AS TIMESTAMP), TIMESTAMP '9999-12-31 00:00:00'),
                                       CASE WHEN $concept IS NOT NULL THEN [$concept] END, $chain_concepts) s
WHERE ($concept IS NULL OR s.standard_concept = $concept)
  AND ($fiscal_year IS NULL OR s.fiscal_year = $fiscal_year)
  AND ($fiscal_period IS NULL OR s.fiscal_period = $fiscal_period)
ORDER BY s.standard_concept, s.unit, s.period_end, s.period_start NULLS FIRST;
