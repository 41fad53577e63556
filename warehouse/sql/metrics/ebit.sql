-- metric:   ebit  (currency)
-- formula:  pretax_income + interest_expense
-- inputs:   pretax_income and interest_expense of the same exact period; same cik and unit (currency), one taxonomy family, else value NULL with null_reason
-- grain:    (cik, period_start, period_end, input unit, input versions)
-- rule_version: ebit.v1
-- reads: inputs_at, edge
-- appends: metric_candidates
SELECT 'ebit' AS metric, cik, fiscal_year, fiscal_period, duration_class, period_start, period_end,
       CASE WHEN len(list_distinct(map_values(tax))) = 1
            THEN v['pretax_income'] + v['interest_expense'] END AS value,
       unit AS unit, unit AS input_unit, tax['pretax_income'] AS taxonomy, 'formula' AS derivation,
       'pretax_income + interest_expense' AS formula, 'ebit.v1' AS rule_version, known_from,
       CASE WHEN len(list_distinct(map_values(tax))) > 1 THEN 'taxonomy mismatch: ' || CAST(tax AS VARCHAR)

       END AS null_reason,
       CAST([] AS VARCHAR[]) AS flags, inputs
FROM inputs_at('pretax_income', ['interest_expense'])
WHERE v['interest_expense'] IS NOT NULL
