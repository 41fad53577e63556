-- Append the new metric versions (version bookkeeping is renumbered afterwards).
-- reads: metric_new
-- creates: -
INSERT INTO derived_metrics (metric_id, metric, cik, fiscal_year, fiscal_period, duration_class, period_start,
                             period_end, value, unit, input_unit, taxonomy, derivation, formula, rule_version,
                             known_from, null_reason, flags, computed_at, load_id)
SELECT metric_id, metric, cik, fiscal_year, fiscal_period, duration_class, period_start, period_end, value, unit,
       input_unit, taxonomy, derivation, formula, rule_version, known_from, null_reason, flags,
       CAST(now() AT TIME ZONE 'UTC' AS TIMESTAMP), $load_id
FROM metric_new;
