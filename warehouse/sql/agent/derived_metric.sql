-- Agent tools: the versions of one derived metric of one company current at $as_of (NULL = now).
-- Reads derived_metrics_as_of.
-- Params: $cik, $metric, $fy, $fp. Grain: one metric version (metric_id).
SELECT metric_id, metric, cik, fiscal_year, fiscal_period, duration_class, period_start, period_end, value,
       unit, formula, rule_version, version, null_reason, flags, known_from
FROM derived_metrics_as_of(coalesce(CAST($as_of AS TIMESTAMP), TIMESTAMP '9999-12-31'))
WHERE cik = $cik AND metric = $metric AND fiscal_year = $fy AND fiscal_period = $fp
ORDER BY period_end DESC, input_unit = 'USD' DESC, input_unit
