-- Agent tools: the versions of one derived metric of one company current now ({source} =
-- derived_metrics_current) or at $as_of (derived_metrics_as_of(ts)). Reads derived_metrics*.
-- Params: $cik, $metric, $fy, $fp. Grain: one metric version (metric_id).
SELECT metric_id, metric, cik, fiscal_year, fiscal_period, duration_class, period_start, period_end, value,
       unit, formula, rule_version, version, null_reason, flags, known_from
FROM {source}
WHERE cik = $cik AND metric = $metric AND fiscal_year = $fy AND fiscal_period = $fp
ORDER BY period_end DESC, input_unit = 'USD' DESC, input_unit
