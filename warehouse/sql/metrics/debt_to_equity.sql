-- metric:   debt_to_equity  (a RATIO)
-- formula:  total_debt / stockholders_equity (balance-sheet date)
-- inputs:   total_debt and stockholders_equity at the same balance-sheet date; equity must be positive; same cik and unit (currency), one taxonomy family, else value NULL with null_reason
-- grain:    (cik, period_start, period_end, input unit, input versions)
-- rule_version: debt_to_equity.v1
-- reads: inputs_at, edge
-- appends: metric_candidates
SELECT 'debt_to_equity' AS metric, cik, fiscal_year, fiscal_period, duration_class, period_start, period_end,
       CASE WHEN len(list_distinct(map_values(tax))) = 1 AND NOT (v['stockholders_equity'] <= 0)
            THEN CAST(round(CAST(v['total_debt'] AS DOUBLE) / CAST(v['stockholders_equity'] AS DOUBLE), 10) AS DECIMAL(38, 10)) END AS value,
       'pure' AS unit, unit AS input_unit, tax['stockholders_equity'] AS taxonomy, 'formula' AS derivation,
       'total_debt / stockholders_equity (balance-sheet date)' AS formula, 'debt_to_equity.v1' AS rule_version, known_from,
       CASE WHEN len(list_distinct(map_values(tax))) > 1 THEN 'taxonomy mismatch: ' || CAST(tax AS VARCHAR)
            WHEN v['stockholders_equity'] <= 0 THEN 'stockholders_equity is zero or negative'
       END AS null_reason,
       CAST([] AS VARCHAR[]) AS flags, inputs
FROM inputs_at('stockholders_equity', ['total_debt'])
WHERE v['total_debt'] IS NOT NULL
