-- reads: derived_metrics
CREATE OR REPLACE VIEW derived_metrics_current AS
SELECT * FROM derived_metrics
QUALIFY row_number() OVER (PARTITION BY metric, cik, period_start, period_end, input_unit
                           ORDER BY known_from DESC, computed_at DESC, metric_id DESC) = 1;
