-- Standard concepts of one company as known at $as_of (grain: cik, standard_concept, unit, period):
-- the fallback chain applied per period over the versions public then, with the tag it matched and
-- the tags tried, computed for that company and concept only (company_standard_facts_as_of_only;
-- $chain_concepts: the XBRL concepts of $concept's chain, agent/chain_concepts.sql, NULL with no
-- concept), optionally one fiscal year and period. $as_of NULL computes now (the same rows as the
-- stored ones, tests/warehouse/derive/test_standard_facts_paths.py); warehouse/read/api.py reads those instead,
-- by company (api/standard_facts_now.sql, the same columns in the same order).
-- Reads company_standard_facts_as_of_only.
-- reads: company_standard_facts_as_of_only
-- grain: cik, standard_concept, unit, period_start, period_end
SELECT s.cik, s.standard_concept, s.fiscal_year, s.fiscal_period, s.duration_class, s.period_start,
       s.period_end, s.value, s.unit, s.taxonomy, s.matched_tag, s.tags_tried, s.accession, s.form, s.filed,
       s.known_from, s.derivation
FROM company_standard_facts_as_of_only([$cik], coalesce(CAST($as_of AS TIMESTAMP), TIMESTAMP '9999-12-31'),
                                       CASE WHEN $concept IS NOT NULL THEN [$concept] END, $chain_concepts) s
WHERE ($concept IS NULL OR s.standard_concept = $concept)
  AND ($fiscal_year IS NULL OR s.fiscal_year = $fiscal_year)
  AND ($fiscal_period IS NULL OR s.fiscal_period = $fiscal_period)
ORDER BY s.standard_concept, s.unit, s.period_end, s.period_start NULLS FIRST;
