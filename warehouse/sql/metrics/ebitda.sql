-- metric:   ebitda  (currency)
-- formula:  operating_income + depreciation_amortization
-- inputs:   operating_income and depreciation_amortization of the same exact period (discrete quarter or fiscal year); same cik and unit (currency), one taxonomy family, else value NULL with null_reason
-- grain:    (cik, period_start, period_end, input unit, input versions)
-- rule_version: ebitda.v1
-- reads: inputs_at, edge
-- appends: metric_candidates
SELECT 'ebitda' AS metric, cik, fiscal_year, fiscal_period, duration_class, period_start, period_end,
       CASE WHEN len(list_distinct(map_values(tax))) = 1
            THEN v['operating_income'] + v['depreciation_amortization'] END AS value,
       unit AS unit, unit AS input_unit, tax['operating_income'] AS taxonomy, 'formula' AS derivation,
       'operating_income + depreciation_amortization' AS formula, 'ebitda.v1' AS rule_version, known_from,
       CASE WHEN len(list_distinct(map_values(tax))) > 1 THEN 'taxonomy mismatch: ' || CAST(tax AS VARCHAR)

       END AS null_reason,
       CAST([] AS VARCHAR[]) AS flags, inputs
FROM inputs_at('operating_income', ['depreciation_amortization'])
WHERE v['depreciation_amortization'] IS NOT NULL
