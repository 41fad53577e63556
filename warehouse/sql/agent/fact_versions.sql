-- Agent tools: every version of the facts of one company and one or more tags, as public at $as_of
-- (NULL = now), ranked by facts_ranked_as_of (version order and prior = last different value, said
-- once there), with the filing's acceptance time and the company name.
-- Reads facts_ranked_as_of, filings, companies.
-- Params: $cik, $tags (list of 'taxonomy:Concept'), $fy, $fp (NULL = any), $as_of (NULL = now).
-- Grain: one fact version (key + accession + revision).
-- reads: companies, facts_ranked_as_of, filings
-- grain: cik, taxonomy, concept, unit, period_start, period_end, accession, revision
SELECT v.cik, c.name AS company_name, v.taxonomy, v.concept, v.unit, v.period_start, v.period_end,
       v.duration_class, v.fiscal_year, v.fiscal_period, v.value, v.accession, v.revision, v.form, v.filed,
       f.acceptance_time, v.known_from, v.version_number, v.versions,
       (min(v.value) OVER k) IS DISTINCT FROM (max(v.value) OVER k) AS restated,
       v.prior_value, v.prior_accession, v.first_value, v.first_accession,
       v.version_number = v.versions AS is_latest
FROM facts_ranked_as_of(CAST($as_of AS TIMESTAMP)) v
LEFT JOIN companies c ON c.cik = v.cik
LEFT JOIN filings f ON f.cik = v.cik AND f.accession = v.accession
WHERE v.cik = $cik
  AND list_contains($tags, v.taxonomy || ':' || v.concept)
  AND ($fy IS NULL OR v.fiscal_year = $fy)
  AND ($fp IS NULL OR v.fiscal_period = $fp)
-- k: the fact key's versions (its peers in unit and period within the concept: one partition per
-- concept, see facts_ordered_as_of for why)
WINDOW k AS (PARTITION BY v.taxonomy, v.concept ORDER BY v.unit, v.period_start, v.period_end
             RANGE BETWEEN CURRENT ROW AND CURRENT ROW)
ORDER BY v.period_end DESC, v.period_start DESC NULLS FIRST, v.taxonomy, v.concept, v.unit, v.version_number
