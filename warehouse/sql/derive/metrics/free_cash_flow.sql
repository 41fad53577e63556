-- metric:   free_cash_flow
-- formula:  operating_cash_flow - capital_expenditure  (capex is reported as a positive payment)
-- inputs:   operating_cash_flow, capital_expenditure: same cik, exact period (discrete quarter or
--           fiscal year), unit and taxonomy family; else value NULL with null_reason
-- rows:     one per (cik, period_start, period_end, input unit, input versions); unit = the input currency
-- rule_version: free_cash_flow.v1
-- reads: sfv, edge, same_period_pair
-- appends: metric_candidates
SELECT 'free_cash_flow' AS metric, cik, fiscal_year, fiscal_period, duration_class, period_start, period_end,
       CASE WHEN a_unit = b_unit AND a_taxonomy = b_taxonomy AND basis_null_reason IS NULL THEN a_value - b_value END AS value,
       a_unit AS unit, a_unit AS input_unit, a_taxonomy AS taxonomy, 'formula' AS derivation,
       'operating_cash_flow - capital_expenditure' AS formula, 'free_cash_flow.v1' AS rule_version, known_from,
       CASE WHEN a_unit <> b_unit
                THEN 'unit mismatch: operating_cash_flow in ' || a_unit || ', capital_expenditure in ' || b_unit
            WHEN a_taxonomy <> b_taxonomy
                THEN 'taxonomy mismatch: operating_cash_flow from ' || a_taxonomy || ', capital_expenditure from ' || b_taxonomy
            ELSE basis_null_reason
       END AS null_reason,
       basis_flags AS flags,
       list_concat(list_transform(a_inputs, lambda x: edge('operating_cash_flow', x, a_metric_id)),
                   list_transform(b_inputs, lambda x: edge('capital_expenditure', x, b_metric_id))) AS inputs
FROM same_period_pair('operating_cash_flow', 'capital_expenditure')
