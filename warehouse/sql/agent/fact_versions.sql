-- Agent tools: every version of the facts of one company and one or more tags, as public at $as_of
-- (NULL = now), numbered in publication order within each fact key (same order as facts_ranked),
-- with the filing's acceptance time and the company name. Reads fact_versions, filings, companies.
-- Params: $cik, $tags (list of 'taxonomy:Concept'), $fy, $fp (NULL = any), $as_of (NULL = now).
-- Grain: one fact version (key + accession + revision).
WITH v AS (
    SELECT fv.*,
           row_number() OVER ko AS version_number,
           count(*) OVER k AS versions,
           (min(fv.value) OVER k) IS DISTINCT FROM (max(fv.value) OVER k) AS restated,
           lag(fv.value) OVER ko AS prior_value,
           lag(fv.accession) OVER ko AS prior_accession,
           first_value(fv.value) OVER ko AS first_value,
           first_value(fv.accession) OVER ko AS first_accession
    FROM fact_versions fv
    WHERE fv.cik = $cik
      AND list_contains($tags, fv.taxonomy || ':' || fv.concept)
      AND ($fy IS NULL OR fv.fiscal_year = $fy)
      AND ($fp IS NULL OR fv.fiscal_period = $fp)
      AND fv.known_from <= coalesce(CAST($as_of AS TIMESTAMP), TIMESTAMP '9999-12-31')
    WINDOW k AS (PARTITION BY fv.taxonomy, fv.concept, fv.unit, fv.period_start, fv.period_end),
           ko AS (k ORDER BY fv.known_from, fv.filed, fv.accession, fv.revision)
)
SELECT v.cik, c.name AS company_name, v.taxonomy, v.concept, v.unit, v.period_start, v.period_end,
       v.duration_class, v.fiscal_year, v.fiscal_period, v.value, v.accession, v.revision, v.form, v.filed,
       f.acceptance_time, v.known_from, v.version_number, v.versions, v.restated,
       v.prior_value, v.prior_accession, v.first_value, v.first_accession,
       v.version_number = v.versions AS is_latest
FROM v
LEFT JOIN companies c ON c.cik = v.cik
LEFT JOIN filings f ON f.cik = v.cik AND f.accession = v.accession
ORDER BY v.period_end DESC, v.period_start DESC NULLS FIRST, v.taxonomy, v.concept, v.unit, v.version_number
