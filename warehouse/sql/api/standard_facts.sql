-- Standard concepts of one company (grain: cik, standard_concept, unit, period): the fallback chain
-- applied per period (standard_facts, or standard_facts_as_of($as_of)), with the tag it matched and
-- the tags tried. Optionally one concept, fiscal year and period.
SELECT s.cik, s.standard_concept, s.fiscal_year, s.fiscal_period, s.duration_class, s.period_start,
       s.period_end, s.value, s.unit, s.taxonomy, s.matched_tag, s.tags_tried, s.accession, s.form, s.filed,
       s.known_from, s.derivation
FROM (SELECT * FROM standard_facts WHERE $as_of IS NULL AND cik = $cik
      UNION ALL BY NAME
      SELECT * FROM standard_facts_as_of(coalesce(CAST($as_of AS TIMESTAMP), TIMESTAMP '1900-01-01'))
      WHERE $as_of IS NOT NULL AND cik = $cik) s
WHERE ($concept IS NULL OR s.standard_concept = $concept)
  AND ($fiscal_year IS NULL OR s.fiscal_year = $fiscal_year)
  AND ($fiscal_period IS NULL OR s.fiscal_period = $fiscal_period)
ORDER BY s.standard_concept, s.unit, s.period_end, s.period_start NULLS FIRST;
