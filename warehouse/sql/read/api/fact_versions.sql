-- Every version of one company's facts public at $as_of (NULL = now), in publication order within
-- each fact key (grain: one fact version: key + accession + revision), ranked by facts_ranked_as_of
-- (version order and prior = last different value, said once there): version_number, how many
-- versions, the prior and first values, whether this version changed the value of the version just
-- before it (changed_value: a version that starts a run of equal values, other than the first),
-- whether the key's values ever differed (restated), whether it is the key's latest (is_latest),
-- with the filing's acceptance time and the company name. Optionally some tags ($tags: a list of
-- 'taxonomy:Concept', NULL = every concept), fiscal year and period. The notebook's fact_versions()
-- and the MCP tools get_facts (a tag's latest versions), get_fact_history and verify_claims read this
-- file.
-- reads: companies, facts_ranked_as_of, filings
-- grain: cik, taxonomy, concept, unit, period_start, period_end, accession, revision
SELECT v.cik, c.name AS company_name, v.taxonomy, v.concept, v.unit, v.period_start, v.period_end, v.value,
       v.fiscal_year, v.fiscal_period, v.duration_class, v.accession, v.revision, v.form, v.filed,
       f.acceptance_time, v.known_from, v.known_from_basis, v.version_number, v.versions,
       (min(v.value) OVER k) IS DISTINCT FROM (max(v.value) OVER k) AS restated,
       v.prior_value, v.prior_accession, v.first_value, v.first_accession,
       v.confirmations = 0 AND v.version_number > 1 AS changed_value,
       v.version_number = v.versions AS is_latest
FROM facts_ranked_as_of(CAST($as_of AS TIMESTAMP)) v
LEFT JOIN companies c ON c.cik = v.cik
LEFT JOIN filings f ON f.cik = v.cik AND f.accession = v.accession
WHERE v.cik = $cik
  AND ($tags IS NULL OR list_contains($tags, v.taxonomy || ':' || v.concept))
  AND ($fiscal_year IS NULL OR v.fiscal_year = $fiscal_year)
  AND ($fiscal_period IS NULL OR v.fiscal_period = $fiscal_period)
-- k: the fact key's versions (its peers in unit and period within the concept: one partition per
-- concept, see facts_ordered_as_of for why)
WINDOW k AS (PARTITION BY v.taxonomy, v.concept ORDER BY v.unit, v.period_start, v.period_end
             RANGE BETWEEN CURRENT ROW AND CURRENT ROW)
ORDER BY v.concept, v.unit, v.period_end, v.period_start NULLS FIRST, v.version_number;
