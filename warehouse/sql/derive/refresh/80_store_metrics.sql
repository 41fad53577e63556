-- Append the new metric versions (version bookkeeping is renumbered afterwards).
-- reads: metric_new, metric_candidates
-- creates: -
INSERT INTO derived_metrics (metric_id, metric, cik, fiscal_year, fiscal_period, duration_class, period_start,
                             period_end, value, unit, input_unit, taxonomy, derivation, formula, rule_version,
                             known_from, null_reason, flags, computed_at, load_id)
SELECT n.metric_id, m.metric, m.cik, m.fiscal_year, m.fiscal_period, m.duration_class, m.period_start, m.period_end,
       m.value, m.unit, m.input_unit, m.taxonomy, m.derivation, m.formula, m.rule_version, m.known_from,
       m.null_reason, n.flags, CAST(now() AT TIME ZONE 'UTC' AS TIMESTAMP), $load_id
FROM metric_new n JOIN metric_candidates m ON m.rowid = n.rid;
