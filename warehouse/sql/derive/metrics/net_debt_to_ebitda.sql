-- metric:   net_debt_to_ebitda  (a RATIO)
-- formula:  (total_debt - cash) / (operating_income + depreciation_amortization)
-- inputs:   operating_income and depreciation_amortization of a fiscal year, total_debt and cash at its end; EBITDA must be positive; same cik and unit (currency), one taxonomy family, else value NULL with null_reason
-- rows:     one per (cik, period_start, period_end, input unit, input versions)
-- rule_version: net_debt_to_ebitda.v1
-- reads: inputs_at, edge
-- appends: metric_candidates
SELECT 'net_debt_to_ebitda' AS metric, cik, fiscal_year, fiscal_period, duration_class, period_start, period_end,
       CASE WHEN len(list_distinct(map_values(tax))) = 1 AND basis_null_reason IS NULL AND NOT (v['operating_income'] + v['depreciation_amortization'] <= 0)
            THEN CAST(round(CAST(v['total_debt'] - v['cash'] AS DOUBLE) / CAST(v['operating_income'] + v['depreciation_amortization'] AS DOUBLE), 10) AS DECIMAL(38, 10)) END AS value,
       'pure' AS unit, unit AS input_unit, tax['operating_income'] AS taxonomy, 'formula' AS derivation,
       '(total_debt - cash) / (operating_income + depreciation_amortization)' AS formula, 'net_debt_to_ebitda.v1' AS rule_version, known_from,
       CASE WHEN len(list_distinct(map_values(tax))) > 1 THEN 'taxonomy mismatch: ' || CAST(tax AS VARCHAR)
            WHEN basis_null_reason IS NOT NULL THEN basis_null_reason
            WHEN v['operating_income'] + v['depreciation_amortization'] <= 0 THEN 'EBITDA is zero or negative'
       END AS null_reason,
       basis_flags AS flags, inputs
FROM inputs_at('operating_income', ['depreciation_amortization', 'total_debt', 'cash'])
WHERE v['depreciation_amortization'] IS NOT NULL AND v['total_debt'] IS NOT NULL AND v['cash'] IS NOT NULL AND duration_class = 'annual'
