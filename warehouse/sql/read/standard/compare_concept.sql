-- compare(): one standard concept ($name) for a fiscal year/period across companies ($ciks): every
-- unit a company has for that period (the caller picks the reporting currency), with unit_rows =
-- how many of the company's values of the concept are in that unit. FY = the annual value or the
-- instant at the fiscal year end; Qn = the discrete quarter (tagged or derived) or the instant.
-- Reads standard_facts (the current standard facts loads keep, sorted by company: the range of
-- $ciks is tested first so the scan skips other companies' row groups).
-- reads: standard_facts
WITH sf AS (SELECT * FROM standard_facts
            WHERE cik BETWEEN list_min($ciks) AND list_max($ciks) AND list_contains($ciks, cik)
              AND standard_concept = $name),
usage AS (SELECT cik, unit, count(*) AS unit_rows FROM sf GROUP BY cik, unit)
SELECT sf.cik, fiscal_year, fiscal_period, duration_class, period_start, period_end, value, sf.unit,
       split_part(sf.unit, '/', 1) AS currency, taxonomy, matched_tag, scope, tags_tried, accession, derivation,
       CAST(NULL AS VARCHAR) AS null_reason, known_from, chain_rank, usage.unit_rows
FROM sf JOIN usage ON usage.cik = sf.cik AND usage.unit = sf.unit
WHERE fiscal_year = $fy AND fiscal_period = $fp
  AND duration_class IN ('instant', CASE WHEN $fp = 'FY' THEN 'annual' ELSE 'quarter' END)
