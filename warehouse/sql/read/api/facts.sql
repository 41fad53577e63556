-- Facts of one company (grain: one fact version), latest versions (facts_current) or what was
-- public at $as_of (facts_as_of), optionally one concept (and taxonomy), fiscal year and period.
-- Every row carries its receipt.
-- reads: facts_as_of, facts_current
-- grain: cik, taxonomy, concept, unit, period_start, period_end
SELECT f.cik, f.taxonomy, f.concept, f.unit, f.period_start, f.period_end, f.value,
       f.fiscal_year, f.fiscal_period, f.duration_class, f.accession, f.form, f.filed, f.known_from
FROM (SELECT * FROM facts_current WHERE $as_of IS NULL
      UNION ALL BY NAME
      SELECT * EXCLUDE (revision, known_from_basis, payload_vintage, fiscal_basis)
      FROM facts_as_of(coalesce(CAST($as_of AS TIMESTAMP), TIMESTAMP '1900-01-01')) WHERE $as_of IS NOT NULL) f
WHERE f.cik = $cik AND ($concept IS NULL OR f.concept = $concept)
  AND ($taxonomy IS NULL OR f.taxonomy = $taxonomy)
  AND ($fiscal_year IS NULL OR f.fiscal_year = $fiscal_year)
  AND ($fiscal_period IS NULL OR f.fiscal_period = $fiscal_period)
ORDER BY f.concept, f.unit, f.period_end, f.period_start NULLS FIRST;
