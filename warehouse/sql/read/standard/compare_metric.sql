-- compare(): one derived metric ($name, current version) for a fiscal year/period across companies
-- ($ciks): every input unit a company has for that period (the caller picks the reporting
-- currency), with unit_rows = how many of the company's current values of the metric use it.
-- matched_tag lists the tags its inputs matched; accession the filings of its input fact
-- versions. ttm_revenue for FY = its Q4 value.
-- reads: derived_metrics_current, metric_lineage
WITH m AS (SELECT * FROM derived_metrics_current WHERE metric = $name AND list_contains($ciks, cik)),
usage AS (SELECT cik, input_unit, count(*) AS unit_rows FROM m GROUP BY cik, input_unit),
inputs AS (  -- metric_lineage read by company (its cik: zone maps skip other companies' row groups)
    SELECT l.metric_id, string_agg(DISTINCT l.concept, ',' ORDER BY l.concept) AS matched_tag,
           string_agg(DISTINCT l.accession, ',' ORDER BY l.accession) AS accession
    FROM metric_lineage l SEMI JOIN m ON m.metric_id = l.metric_id
    WHERE l.cik BETWEEN list_min($ciks) AND list_max($ciks) AND list_contains($ciks, l.cik)
    GROUP BY l.metric_id
)
SELECT d.cik, d.fiscal_year, d.fiscal_period, d.duration_class, d.period_start, d.period_end, d.value, d.unit,
       d.input_unit AS currency, d.taxonomy, i.matched_tag, i.accession,
       d.derivation, d.null_reason, d.known_from, d.metric_id, d.formula, d.rule_version, d.flags,
       usage.unit_rows, 0 AS chain_rank
FROM m d JOIN usage ON usage.cik = d.cik AND usage.input_unit = d.input_unit
LEFT JOIN inputs i ON i.metric_id = d.metric_id
WHERE d.fiscal_year = $fy
  AND CASE WHEN d.metric = 'ttm_revenue' THEN d.fiscal_period = CASE WHEN $fp = 'FY' THEN 'Q4' ELSE $fp END
           WHEN $fp = 'FY' THEN d.fiscal_period = 'FY' AND d.duration_class = 'annual'
           ELSE d.fiscal_period = $fp AND d.duration_class = 'quarter' END
