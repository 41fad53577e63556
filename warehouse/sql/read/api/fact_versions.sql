-- Every published version of one company's facts (grain: one fact version), in publication order
-- within each fact key: version_number, how many versions, the prior (last different) value, whether
-- this version changed the value of the version just before it (a version that starts a run of equal
-- values, confirmations = 0, other than the first). Optionally one concept (and taxonomy), fiscal year and period.
-- reads: facts_ranked
-- grain: cik, taxonomy, concept, unit, period_start, period_end, accession, revision
SELECT r.cik, r.taxonomy, r.concept, r.unit, r.period_start, r.period_end, r.value,
       r.fiscal_year, r.fiscal_period, r.duration_class, r.accession, r.form, r.filed, r.known_from,
       r.known_from_basis, r.revision, r.version_number, r.versions, r.prior_value, r.prior_accession,
       r.confirmations = 0 AND r.version_number > 1 AS changed_value
FROM facts_ranked r
WHERE r.cik = $cik AND ($concept IS NULL OR r.concept = $concept)
  AND ($taxonomy IS NULL OR r.taxonomy = $taxonomy)
  AND ($fiscal_year IS NULL OR r.fiscal_year = $fiscal_year)
  AND ($fiscal_period IS NULL OR r.fiscal_period = $fiscal_period)
ORDER BY r.concept, r.unit, r.period_end, r.period_start NULLS FIRST, r.version_number;
