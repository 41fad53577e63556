-- metric:   gross_margin  (a FRACTION: 0.1369 = 13.69 %)
-- formula:  gross_profit / revenue
-- inputs:   role numerator = gross_profit, role denominator = revenue: same cik, exact period (discrete
--           quarter or fiscal year), unit (currency) and taxonomy family; revenue must be positive;
--           else value NULL with null_reason
-- grain:    (cik, period_start, period_end, input unit, input versions); unit = pure
-- rule_version: gross_margin.v1
SELECT 'gross_margin' AS metric, cik, fiscal_year, fiscal_period, duration_class, period_start, period_end,
       CASE WHEN a_unit = b_unit AND a_taxonomy = b_taxonomy AND b_value > 0
            THEN CAST(round(CAST(a_value AS DOUBLE) / CAST(b_value AS DOUBLE), 10) AS DECIMAL(38, 10)) END AS value,
       'pure' AS unit, a_unit AS input_unit, a_taxonomy AS taxonomy, 'formula' AS derivation,
       'gross_profit / revenue' AS formula, 'gross_margin.v1' AS rule_version, known_from,
       CASE WHEN a_unit <> b_unit THEN 'unit mismatch: gross_profit in ' || a_unit || ', revenue in ' || b_unit
            WHEN a_taxonomy <> b_taxonomy
                THEN 'taxonomy mismatch: gross_profit from ' || a_taxonomy || ', revenue from ' || b_taxonomy
            WHEN b_value = 0 THEN 'revenue is zero'
            WHEN b_value < 0 THEN 'revenue is negative'
       END AS null_reason,
       CAST([] AS VARCHAR[]) AS flags,
       list_concat(list_transform(a_inputs, x -> edge('numerator', x, a_metric_id)),
                   list_transform(b_inputs, x -> edge('denominator', x, b_metric_id))) AS inputs
FROM same_period_pair('gross_profit', 'revenue')
