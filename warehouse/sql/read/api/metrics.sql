-- Derived metrics of one company (grain: metric version): the current versions, or those known
-- at $as_of (derived_metrics_as_of); optionally one metric, fiscal year and period. Margins and
-- growth are fractions.
SELECT m.metric_id, m.metric, m.cik, m.fiscal_year, m.fiscal_period, m.period_start, m.period_end, m.value,
       m.unit, m.formula, m.rule_version, m.version, m.known_from, m.null_reason
FROM (SELECT * FROM derived_metrics_current WHERE $as_of IS NULL
      UNION ALL BY NAME
      SELECT * FROM derived_metrics_as_of(coalesce(CAST($as_of AS TIMESTAMP), TIMESTAMP '1900-01-01'))
      WHERE $as_of IS NOT NULL) m
WHERE m.cik = $cik AND ($metric IS NULL OR m.metric = $metric)
  AND ($fiscal_year IS NULL OR m.fiscal_year = $fiscal_year)
  AND ($fiscal_period IS NULL OR m.fiscal_period = $fiscal_period)
ORDER BY m.metric, m.period_end, m.period_start;
