-- Agent tools: the standard-concept values of one company now, each with its receipt: the current
-- standard facts loads keep (standard_facts, read by company), the matched tag's version statistics
-- (versions, restated, prior = last different value, first value) from the current rows loads keep
-- (facts_current: the bookkeeping of facts_ranked for each key's last version, so no version is
-- ranked), the filing's acceptance time and the company name. The same at an earlier instant:
-- agent/standard_facts_as_of.sql (computes the values and ranks the versions public then).
-- Reads standard_facts, facts_current, filings, companies. The receipt's columns are those of
-- agent/standard_facts_as_of.sql (a shared struct macro for them cost 10-35 ms CPU per call).
-- Params: $cik, $concept (standard concept), $fy, $fp (NULL = any), $limit, $chain_concepts (the
-- concepts of $concept's chain, agent/chain_concepts.sql: with $cik a filter on the current rows'
-- sort key, so only those rows are read).
-- Grain: one (standard concept, unit, period) value.
-- reads: companies, facts_current, filings, standard_facts
WITH s AS (
    SELECT * FROM standard_facts
    WHERE cik = $cik AND standard_concept = $concept
      AND ($fy IS NULL OR fiscal_year = $fy) AND ($fp IS NULL OR fiscal_period = $fp)
), v AS (
    SELECT taxonomy, concept, unit, period_start, period_end, accession, versions, restated, prior_value,
           prior_accession, first_value, first_accession
    FROM facts_current
    WHERE cik = $cik AND list_contains($chain_concepts, concept)
)
SELECT s.cik, c.name AS company_name, s.standard_concept, s.taxonomy, s.matched_tag, s.tags_tried, s.unit,
       s.period_start, s.period_end, s.duration_class, s.fiscal_year, s.fiscal_period, s.value,
       s.accession, s.form, s.filed, f.acceptance_time, s.known_from, s.derivation,
       v.versions, coalesce(v.restated, false) AS restated, v.prior_value, v.prior_accession, v.first_value, v.first_accession
FROM s
LEFT JOIN v ON s.derivation = 'reported' AND v.taxonomy = s.taxonomy AND v.concept = s.matched_tag
    AND v.unit = s.unit AND v.period_start IS NOT DISTINCT FROM s.period_start AND v.period_end = s.period_end
LEFT JOIN companies c ON c.cik = s.cik
LEFT JOIN filings f ON f.cik = $cik AND f.cik = s.cik AND f.accession = s.accession  -- $cik: filtered at the scan
ORDER BY s.period_end DESC, s.duration_class, s.unit
LIMIT $limit
