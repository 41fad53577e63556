-- Standard concepts of one company as known at $as_of (grain: cik, standard_concept, unit, period),
-- each with its receipt: the fallback chain applied per period over the versions public then
-- (company_standard_facts_as_of_only, computed for that company and concept only), the matched tag's
-- version statistics at the same instant (versions, restated, prior = last different value, from
-- facts_ranked_as_of), the filing's acceptance time and the company name; optionally one concept
-- ($concept NULL: all), fiscal year and period. The columns and their order are
-- read/api/standard_facts_now.sql's (the notebook and the MCP tools read that file when no as_of is
-- given). $chain_concepts: the concepts of $concept's chains (read/api/chain_concepts.sql, never
-- NULL): with $cik a filter on the partition key of facts_ranked_as_of's windows, so only those
-- versions are read and ranked, in both the standard values and their receipts.
-- reads: companies, company_standard_facts_as_of_only, facts_ranked_as_of, filings, standard_concepts
-- grain: cik, standard_concept, unit, period_start, period_end
WITH s AS (
    SELECT * FROM company_standard_facts_as_of_only([$cik], coalesce(CAST($as_of AS TIMESTAMP), TIMESTAMP '9999-12-31'),
                                                    CASE WHEN $concept IS NOT NULL THEN [$concept] END, $chain_concepts)
    WHERE cik = $cik AND ($concept IS NULL OR standard_concept = $concept)
      AND ($fiscal_year IS NULL OR fiscal_year = $fiscal_year)
      AND ($fiscal_period IS NULL OR fiscal_period = $fiscal_period)
), v AS (
    SELECT r.taxonomy, r.concept, r.unit, r.period_start, r.period_end, r.accession, r.revision, r.versions,
           (min(r.value) OVER k) IS DISTINCT FROM (max(r.value) OVER k) AS restated,
           r.prior_value, r.prior_accession, r.first_value, r.first_accession
    FROM facts_ranked_as_of(CAST($as_of AS TIMESTAMP)) r
    SEMI JOIN standard_concepts sc
        ON ($concept IS NULL OR sc.standard_concept = $concept) AND sc.taxonomy = r.taxonomy AND sc.concept = r.concept
    WHERE r.cik = $cik AND list_contains($chain_concepts, r.concept)
    WINDOW k AS (PARTITION BY r.taxonomy, r.concept, r.unit, r.period_start, r.period_end)
)
SELECT s.cik, s.standard_concept, s.fiscal_year, s.fiscal_period, s.duration_class, s.period_start,
       s.period_end, s.value, s.unit, s.taxonomy, s.matched_tag, s.tags_tried, s.accession, s.form, s.filed,
       s.known_from, s.derivation, c.name AS company_name, f.acceptance_time,
       v.versions, coalesce(v.restated, false) AS restated, v.prior_value, v.prior_accession, v.first_value,
       v.first_accession
FROM s
LEFT JOIN v ON s.derivation = 'reported' AND v.taxonomy = s.taxonomy AND v.concept = s.matched_tag
    AND v.unit = s.unit AND v.period_start IS NOT DISTINCT FROM s.period_start AND v.period_end = s.period_end
    AND v.accession = s.accession
LEFT JOIN companies c ON c.cik = s.cik
LEFT JOIN filings f ON f.cik = $cik AND f.cik = s.cik AND f.accession = s.accession  -- $cik: filtered at the scan
QUALIFY row_number() OVER (PARTITION BY s.standard_concept, s.unit, s.period_start, s.period_end, s.duration_class
                           ORDER BY v.revision DESC NULLS LAST) = 1
ORDER BY s.standard_concept, s.unit, s.period_end, s.period_start NULLS FIRST;
