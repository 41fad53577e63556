-- Facts of one company (grain: one fact key: cik, taxonomy, concept, unit, period): the latest
-- version of each key now (facts_current, the rows loads keep) or public at $as_of (ranked from the
-- versions public then, facts_ranked_as_of: its latest version; the same rule, said there), each
-- with its receipt: the key's version statistics (versions, restated = an earlier version said
-- another value, prior = last different value, first value), the filing's acceptance time and the
-- company name. Optionally some tags ($tags: a list of 'taxonomy:Concept', NULL = every concept),
-- fiscal year and period. The notebook's facts() and the MCP tool get_facts (for a tag) read this file.
-- reads: companies, facts_current, facts_ranked_as_of, filings
-- grain: cik, taxonomy, concept, unit, period_start, period_end
SELECT f.cik, c.name AS company_name, f.taxonomy, f.concept, f.unit, f.period_start, f.period_end, f.value,
       f.fiscal_year, f.fiscal_period, f.duration_class, f.accession, f.form, f.filed, a.acceptance_time,
       f.known_from, f.versions, f.restated, f.prior_value, f.prior_accession, f.first_value, f.first_accession
FROM (SELECT cik, taxonomy, concept, unit, period_start, period_end, value, fiscal_year, fiscal_period,
             duration_class, accession, form, filed, known_from, versions, restated, prior_value, prior_accession,
             first_value, first_accession
      FROM facts_current WHERE $as_of IS NULL
      UNION ALL BY NAME
      SELECT cik, taxonomy, concept, unit, period_start, period_end, value, fiscal_year, fiscal_period,
             duration_class, accession, form, filed, known_from, versions, prior_value IS NOT NULL AS restated,
             prior_value, prior_accession, first_value, first_accession
      -- (NULL as_of: an instant before any version, so this branch, planned too, reads nothing)
      FROM facts_ranked_as_of(coalesce(CAST($as_of AS TIMESTAMP), TIMESTAMP '1900-01-01'))
      WHERE $as_of IS NOT NULL AND version_number = versions) f
LEFT JOIN companies c ON c.cik = f.cik
LEFT JOIN filings a ON a.cik = $cik AND a.cik = f.cik AND a.accession = f.accession  -- $cik: filtered at the scan
WHERE f.cik = $cik
  AND ($tags IS NULL OR list_contains($tags, f.taxonomy || ':' || f.concept))
  AND ($fiscal_year IS NULL OR f.fiscal_year = $fiscal_year)
  AND ($fiscal_period IS NULL OR f.fiscal_period = $fiscal_period)
ORDER BY f.concept, f.unit, f.period_end, f.period_start NULLS FIRST;
