-- Every version of every chain tag for the companies being refreshed, with its standard concept,
-- chain rank and "slot" (cik, standard_concept, unit, period_start, period_end).
-- grain: one fact version x one standard concept whose chain lists its tag.
CREATE OR REPLACE TEMP TABLE std_cand AS
SELECT f.cik, c.standard_concept, c.chain_rank, c.scope, c.additive, c.tags_tried,
       f.taxonomy, f.concept, f.unit, f.period_start, f.period_end, f.value, f.accession, f.revision, f.form,
       f.filed, f.known_from, f.fiscal_year, f.fiscal_period, f.duration_class, f.duration_days,
       hash(f.cik, c.standard_concept, f.unit, f.period_start, f.period_end) AS slot
FROM fact_versions f
JOIN standard_concept_chains c ON c.taxonomy = f.taxonomy AND c.concept = f.concept
WHERE list_contains($ciks, f.cik)
  AND CASE WHEN c.period_type = 'instant' THEN f.duration_class = 'instant'
           ELSE f.duration_class IN ('quarter', 'six_months', 'nine_months', 'annual') END;
