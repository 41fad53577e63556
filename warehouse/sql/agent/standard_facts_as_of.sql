-- Agent tools: the standard-concept values of one company public at $as_of, each with
-- its receipt: the matched tag's version statistics at the same instant (versions, restated, prior =
-- last different value, from facts_ranked_as_of), the filing's acceptance time and the company name.
-- Reads company_standard_facts_as_of_only, facts_ranked_as_of, standard_concepts, filings, companies.
-- Params: $cik, $concept (standard concept), $fy, $fp (NULL = any), $as_of (NULL = now), $limit,
-- $chain_concepts (the concepts of $concept's chain, agent/chain_concepts.sql: with $cik a filter on
-- the partition key of facts_ranked_as_of's windows, so only those versions are read and ranked, in
-- both the standard values and their receipts).
-- Grain: one (standard concept, unit, period) value.
-- reads: companies, company_standard_facts_as_of_only, facts_ranked_as_of, filings, standard_concepts
WITH s AS (
    SELECT * FROM company_standard_facts_as_of_only([$cik], coalesce(CAST($as_of AS TIMESTAMP), TIMESTAMP '9999-12-31'),
                                                    [$concept], $chain_concepts)
    WHERE cik = $cik AND standard_concept = $concept
      AND ($fy IS NULL OR fiscal_year = $fy) AND ($fp IS NULL OR fiscal_period = $fp)
), v AS (
    SELECT r.taxonomy, r.concept, r.unit, r.period_start, r.period_end, r.accession, r.revision, r.versions,
           (min(r.value) OVER k) IS DISTINCT FROM (max(r.value) OVER k) AS restated,
           r.prior_value, r.prior_accession, r.first_value, r.first_accession
    FROM facts_ranked_as_of(CAST($as_of AS TIMESTAMP)) r
    SEMI JOIN standard_concepts sc
        ON sc.standard_concept = $concept AND sc.taxonomy = r.taxonomy AND sc.concept = r.concept
    WHERE r.cik = $cik AND list_contains($chain_concepts, r.concept)
    WINDOW k AS (PARTITION BY r.taxonomy, r.concept, r.unit, r.period_start, r.period_end)
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
LEFT JOIN filings f ON f.cik = $cik AND f.cik = s.cik AND f.accession = s.accession  -- $cik: filtered at the scan
QUALIFY row_number() OVER (PARTITION BY s.unit, s.period_start, s.period_end, s.duration_class
                           ORDER BY v.revision DESC NULLS LAST) = 1
ORDER BY s.period_end DESC, s.duration_class, s.unit
LIMIT $limit
