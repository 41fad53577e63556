-- Empty table the metric rule files (warehouse/sql/derive/metrics/*.sql) append their rows to: the
-- columns of derived_metrics that a rule computes, plus inputs (a list of lineage_edge).
-- reads: derived_metrics, lineage_edge
-- creates: metric_candidates
CREATE OR REPLACE TEMP TABLE metric_candidates AS
SELECT metric, cik, fiscal_year, fiscal_period, duration_class, period_start, period_end, value, unit, input_unit,
       taxonomy, derivation, formula, rule_version, known_from, null_reason, flags,
       [lineage_edge(NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)] AS inputs
FROM derived_metrics
WHERE false;
