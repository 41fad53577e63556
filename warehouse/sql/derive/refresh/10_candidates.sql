-- Every version of every chain tag for the companies being refreshed ($ciks), with its standard
-- concept, chain rank and "slot" (cik, standard_concept, unit, period_start, period_end), and two
-- marks: is_change (its value differs from the tag's version before it: a later filing that re-files
-- a tag's value unchanged is a confirmation, not a new input, so a metric gets a new version only
-- when an input's value changes, and its lineage names the filing that FIRST reported each input
-- value) and superseded (SEC re-issued it under the same accession: the filing says the later one).
-- Confirmations are kept because the standard value of a period is what the latest filing reporting
-- any of its tags says (refresh/20): a filing that confirms one tag and drops another is news.
-- $chain_concepts (every concept a chain lists, a constant list) filters the scan of facts itself,
-- below fact_versions' windows (a join alone would filter after them); the range of $ciks is
-- tested first so the scan skips the row groups of other companies (list_contains alone is
-- evaluated on every row of the warehouse).
-- rows: one fact version x one standard concept whose chain lists its tag.
-- reads: fact_versions, standard_concepts
-- creates: std_cand
CREATE OR REPLACE TEMP TABLE std_cand AS
SELECT * EXCLUDE (prev_value, next_accession), prev_value IS DISTINCT FROM value AS is_change,
       coalesce(next_accession = accession, false) AS superseded
FROM (
    SELECT f.cik, c.standard_concept, c.chain_rank, c.scope, c.additive, c.value_kind,
           f.taxonomy, f.concept, f.unit, f.period_start, f.period_end, f.value, f.accession, f.revision, f.form,
           f.filed, f.known_from, f.fiscal_year, f.fiscal_period, f.duration_class, f.duration_days,
           hash(f.cik, c.standard_concept, f.unit, f.period_start, f.period_end) AS slot,
           lag(f.value) OVER k AS prev_value, lead(f.accession) OVER k AS next_accession
    FROM fact_versions f
    JOIN standard_concepts c ON c.taxonomy = f.taxonomy AND c.concept = f.concept  -- (the chains table itself: no tags_tried window)
    WHERE f.cik BETWEEN list_min($ciks) AND list_max($ciks) AND list_contains($ciks, f.cik)
      AND list_contains($chain_concepts, f.concept)
      AND CASE WHEN c.period_type = 'instant' THEN f.duration_class = 'instant'
               ELSE f.duration_class IN ('quarter', 'six_months', 'nine_months', 'annual') END
    WINDOW k AS (PARTITION BY f.cik, c.standard_concept, f.taxonomy, f.concept, f.unit, f.period_start, f.period_end
                 ORDER BY f.known_from, f.filed, f.accession, f.revision)
);
