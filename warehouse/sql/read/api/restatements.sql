-- Changes of value between consecutive published versions, one company (grain: one change);
-- optionally one concept (and taxonomy) and fiscal year. fact_restatements reads the rows loads keep
-- (fact_restatements_rows, sorted by company; the rules: fact_restatements_of), so one company is
-- read by key.
-- reads: fact_restatements
-- grain: cik, taxonomy, concept, unit, period_start, period_end, new_accession, new_value
SELECT * FROM fact_restatements
WHERE cik = $cik AND ($concept IS NULL OR concept = $concept)
  AND ($taxonomy IS NULL OR taxonomy = $taxonomy)
  AND ($fiscal_year IS NULL OR fiscal_year = $fiscal_year)
ORDER BY concept, period_end, new_filed;
