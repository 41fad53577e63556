-- Derived metrics of one company (grain: metric version): the versions current at $as_of (NULL =
-- now: derived_metrics_current is derived_metrics_as_of at the sentinel, one rule), optionally one
-- metric, fiscal year and period; in period order, the USD-input version of a period first. Margins
-- and growth are fractions. The notebook's metrics() and the MCP tool get_derived_metric read this file.
-- reads: derived_metrics_as_of
-- grain: metric_id
SELECT m.metric_id, m.metric, m.cik, m.fiscal_year, m.fiscal_period, m.duration_class, m.period_start,
       m.period_end, m.value, m.unit, m.input_unit, m.formula, m.rule_version, m.version, m.known_from,
       m.null_reason, m.flags
FROM derived_metrics_as_of(coalesce(CAST($as_of AS TIMESTAMP), TIMESTAMP '9999-12-31')) m
WHERE m.cik = $cik AND ($metric IS NULL OR m.metric = $metric)
  AND ($fiscal_year IS NULL OR m.fiscal_year = $fiscal_year)
  AND ($fiscal_period IS NULL OR m.fiscal_period = $fiscal_period)
ORDER BY m.metric, m.period_end, m.period_start, m.input_unit = 'USD' DESC, m.input_unit;
