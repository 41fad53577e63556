-- Standard concepts of one company now (grain: cik, standard_concept, unit, period), each with its
-- receipt: the current standard facts loads keep (standard_facts, read by company), the matched tag's
-- version statistics (versions, restated, prior = last different value of that tag's fact, first
-- value) from the current rows loads keep (facts_current: the bookkeeping of facts_ranked for each
-- key's last version, so no version is ranked), the filing's acceptance time and the company name;
-- optionally one concept ($concept NULL: all), fiscal year and period. The notebook's
-- standard_facts() and the MCP tools get_facts / get_fact_history read this file when no as_of is
-- given, and read/api/standard_facts.sql (the same columns, computed over the versions public then)
-- when one is: one file per path, so the now path never plans the as-of computation.
-- $chain_concepts: the concepts of $concept's chains (read/api/chain_concepts.sql, never NULL): with
-- $cik a filter on the current rows' sort key, so only those rows are read. (A shared struct macro
-- for the receipt's columns cost 10-35 ms CPU per call.)
-- reads: companies, facts_current, filings, standard_facts
-- grain: cik, standard_concept, unit, period_start, period_end
WITH s AS (
    SELECT * FROM standard_facts
    WHERE cik = $cik AND ($concept IS NULL OR standard_concept = $concept)
      AND ($fiscal_year IS NULL OR fiscal_year = $fiscal_year)
      AND ($fiscal_period IS NULL OR fiscal_period = $fiscal_period)
), v AS (
    SELECT taxonomy, concept, unit, period_start, period_end, accession, versions, restated, prior_value,
           prior_accession, first_value, first_accession
    FROM facts_current
    WHERE cik = $cik AND list_contains($chain_concepts, concept)
)
SELECT s.cik, s.standard_concept, s.fiscal_year, s.fiscal_period, s.duration_class, s.period_start,
       s.period_end, s.value, s.unit, s.taxonomy, s.matched_tag, s.tags_tried, s.accession, s.form, s.filed,
       s.known_from, s.derivation, c.name AS company_name, f.acceptance_time,
       v.versions, coalesce(v.restated, false) AS restated, v.prior_value, v.prior_accession, v.first_value,
       v.first_accession
FROM s
LEFT JOIN v ON s.derivation = 'reported' AND v.taxonomy = s.taxonomy AND v.concept = s.matched_tag
    AND v.unit = s.unit AND v.period_start IS NOT DISTINCT FROM s.period_start AND v.period_end = s.period_end
LEFT JOIN companies c ON c.cik = s.cik
LEFT JOIN filings f ON f.cik = $cik AND f.cik = s.cik AND f.accession = s.accession  -- $cik: filtered at the scan
ORDER BY s.standard_concept, s.unit, s.period_end, s.period_start NULLS FIRST;
