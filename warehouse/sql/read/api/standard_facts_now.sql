-- Standard concepts of one company now (grain: cik, standard_concept, unit, period): the current
-- standard facts loads keep (standard_facts, read by company), optionally one concept, fiscal year
-- and period. warehouse/read/api.py runs this file when no as_of is given and api/standard_facts.sql
-- (computed over the versions public then) when one is: one file per path, so the now path never
-- plans the as-of computation (DuckDB plans both branches of a UNION whose condition is a parameter).
-- The columns and their order are api/standard_facts.sql's. Reads standard_facts.
-- reads: standard_facts
-- grain: cik, standard_concept, unit, period_start, period_end
SELECT s.cik, s.standard_concept, s.fiscal_year, s.fiscal_period, s.duration_class, s.period_start,
       s.period_end, s.value, s.unit, s.taxonomy, s.matched_tag, s.tags_tried, s.accession, s.form, s.filed,
       s.known_from, s.derivation
FROM standard_facts s
WHERE s.cik = $cik AND ($concept IS NULL OR s.standard_concept = $concept)
  AND ($fiscal_year IS NULL OR s.fiscal_year = $fiscal_year)
  AND ($fiscal_period IS NULL OR s.fiscal_period = $fiscal_period)
ORDER BY s.standard_concept, s.unit, s.period_end, s.period_start NULLS FIRST;
