-- metric:   current_ratio  (a RATIO)
-- formula:  current_assets / current_liabilities (balance-sheet date)
-- inputs:   current_assets and current_liabilities at the same balance-sheet date; liabilities must be positive; same cik and unit (currency), one taxonomy family, else value NULL with null_reason
-- grain:    (cik, period_start, period_end, input unit, input versions)
-- rule_version: current_ratio.v1
-- reads: inputs_at, edge
-- appends: metric_candidates
SELECT 'current_ratio' AS metric, cik, fiscal_year, fiscal_period, duration_class, period_start, period_end,
       CASE WHEN len(list_distinct(map_values(tax))) = 1 AND NOT (v['current_liabilities'] <= 0)
            THEN CAST(round(CAST(v['current_assets'] AS DOUBLE) / CAST(v['current_liabilities'] AS DOUBLE), 10) AS DECIMAL(38, 10)) END AS value,
       'pure' AS unit, unit AS input_unit, tax['current_assets'] AS taxonomy, 'formula' AS derivation,
       'current_assets / current_liabilities (balance-sheet date)' AS formula, 'current_ratio.v1' AS rule_version, known_from,
       CASE WHEN len(list_distinct(map_values(tax))) > 1 THEN 'taxonomy mismatch: ' || CAST(tax AS VARCHAR)
            WHEN v['current_liabilities'] <= 0 THEN 'current_liabilities is zero or negative'
       END AS null_reason,
       CAST([] AS VARCHAR[]) AS flags, inputs
FROM inputs_at('current_assets', ['current_liabilities'])
WHERE v['current_liabilities'] IS NOT NULL
