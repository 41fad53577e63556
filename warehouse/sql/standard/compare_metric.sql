-- compare(): one derived metric (current version) for a fiscal year/period across companies
-- ($ciks), one row per company (USD inputs preferred). matched_tag lists the tags its inputs
-- matched; accession the filings of its input fact versions. ttm_revenue for FY = its Q4 value.
SELECT d.cik, d.fiscal_year, d.fiscal_period, d.duration_class, d.period_start, d.period_end, d.value, d.unit,
       d.input_unit AS currency, d.taxonomy,
       (SELECT string_agg(DISTINCT l.concept, ',' ORDER BY l.concept) FROM metric_lineage l
        WHERE l.metric_id = d.metric_id) AS matched_tag,
       (SELECT string_agg(DISTINCT l.accession, ',' ORDER BY l.accession) FROM metric_lineage l
        WHERE l.metric_id = d.metric_id) AS accession,
       d.derivation, d.null_reason, d.known_from, d.metric_id, d.formula, d.rule_version, d.flags
FROM derived_metrics_current d
WHERE d.metric = $name AND list_contains($ciks, d.cik) AND d.fiscal_year = $fy
  AND CASE WHEN d.metric = 'ttm_revenue' THEN d.fiscal_period = CASE WHEN $fp = 'FY' THEN 'Q4' ELSE $fp END
           WHEN $fp = 'FY' THEN d.fiscal_period = 'FY' AND d.duration_class = 'annual'
           ELSE d.fiscal_period = $fp AND d.duration_class = 'quarter' END
QUALIFY row_number() OVER (PARTITION BY d.cik ORDER BY d.input_unit = 'USD' DESC, d.input_unit) = 1
