-- Agent tools: the standard-concept values of one company ({source} = standard_facts, or
-- standard_facts_as_of(ts)), each with its receipt: the matched tag's version statistics at the same
-- instant (versions, restated, prior value), the filing's acceptance time and the company name.
-- Reads standard_facts[_as_of], fact_versions, standard_concepts, filings, companies.
-- Params: $cik, $concept (standard concept), $fy, $fp (NULL = any), $as_of (NULL = now), $limit.
-- Grain: one (standard concept, unit, period) value.
WITH s AS (
    SELECT * FROM {source}
    WHERE cik = $cik AND standard_concept = $concept
      AND ($fy IS NULL OR fiscal_year = $fy) AND ($fp IS NULL OR fiscal_period = $fp)
), v AS (
    SELECT fv.taxonomy, fv.concept, fv.unit, fv.period_start, fv.period_end, fv.accession, fv.revision,
           count(*) OVER k AS versions,
           (min(fv.value) OVER k) IS DISTINCT FROM (max(fv.value) OVER k) AS restated,
           lag(fv.value) OVER ko AS prior_value,
           lag(fv.accession) OVER ko AS prior_accession,
           first_value(fv.value) OVER ko AS first_value,
           first_value(fv.accession) OVER ko AS first_accession
    FROM fact_versions fv
    SEMI JOIN standard_concepts sc
        ON sc.standard_concept = $concept AND sc.taxonomy = fv.taxonomy AND sc.concept = fv.concept
    WHERE fv.cik = $cik
      AND ($fy IS NULL OR fv.fiscal_year = $fy)
      AND fv.known_from <= coalesce(CAST($as_of AS TIMESTAMP), TIMESTAMP '9999-12-31')
    WINDOW k AS (PARTITION BY fv.taxonomy, fv.concept, fv.unit, fv.period_start, fv.period_end),
           ko AS (k ORDER BY fv.known_from, fv.filed, fv.accession, fv.revision)
)
SELECT s.cik, c.name AS company_name, s.standard_concept, s.taxonomy, s.matched_tag, s.tags_tried, s.unit,
       s.period_start, s.period_end, s.duration_class, s.fiscal_year, s.fiscal_period, s.value,
       s.accession, s.form, s.filed, f.acceptance_time, s.known_from, s.derivation,
       v.versions, coalesce(v.restated, false) AS restated, v.prior_value, v.prior_accession, v.first_value, v.first_accession
FROM s
LEFT JOIN v ON s.derivation = 'reported' AND v.taxonomy = s.taxonomy AND v.concept = s.matched_tag
    AND v.unit = s.unit AND v.period_start IS NOT DISTINCT FROM s.period_start AND v.period_end = s.period_end
    AND v.accession = s.accession
LEFT JOIN companies c ON c.cik = s.cik
LEFT JOIN filings f ON f.cik = s.cik AND f.accession = s.accession
QUALIFY row_number() OVER (PARTITION BY s.unit, s.period_start, s.period_end, s.duration_class
                           ORDER BY v.revision DESC NULLS LAST) = 1
ORDER BY s.period_end DESC, s.duration_class, s.unit
LIMIT $limit
