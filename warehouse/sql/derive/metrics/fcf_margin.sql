-- metric:   fcf_margin  (a FRACTION)
-- formula:  (operating_cash_flow - capital_expenditure) / revenue
-- inputs:   revenue, operating_cash_flow, capital_expenditure of the same exact period; revenue must be positive; same cik and unit (currency), one taxonomy family, else value NULL with null_reason
-- rows:     one per (cik, period_start, period_end, input unit, input versions)
-- rule_version: fcf_margin.v1
-- reads: inputs_at, edge
-- appends: metric_candidates
SELECT 'fcf_margin' AS metric, cik, fiscal_year, fiscal_period, duration_class, period_start, period_end,
       CASE WHEN len(list_distinct(map_values(tax))) = 1 AND basis_null_reason IS NULL AND NOT (v['revenue'] <= 0)
            THEN CAST(round(CAST(v['operating_cash_flow'] - v['capital_expenditure'] AS DOUBLE) / CAST(v['revenue'] AS DOUBLE), 10) AS DECIMAL(38, 10)) END AS value,
       'pure' AS unit, unit AS input_unit, tax['revenue'] AS taxonomy, 'formula' AS derivation,
       '(operating_cash_flow - capital_expenditure) / revenue' AS formula, 'fcf_margin.v1' AS rule_version, known_from,
       CASE WHEN len(list_distinct(map_values(tax))) > 1 THEN 'taxonomy mismatch: ' || CAST(tax AS VARCHAR)
            WHEN basis_null_reason IS NOT NULL THEN basis_null_reason
            WHEN v['revenue'] <= 0 THEN 'revenue is zero or negative'
       END AS null_reason,
       basis_flags AS flags, inputs
FROM inputs_at('revenue', ['operating_cash_flow', 'capital_expenditure'])
WHERE v['operating_cash_flow'] IS NOT NULL AND v['capital_expenditure'] IS NOT NULL
