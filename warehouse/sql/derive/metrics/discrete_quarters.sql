-- metric:   <standard concept> (revenue, operating_cash_flow, capital_expenditure, ...) for a DERIVED quarter
-- formula:  Q2 = H1 - Q1 (derived_q2), Q3 = 9M - H1 (derived_q3), Q4 = FY - 9M (derived_q4)
-- inputs:   role ytd = the longer year-to-date fact version, role less_ytd = the shorter one; same
--           tag, cik, unit, fiscal year and period_start; additive currency flows only (never
--           per-share values, ratios or instants); only when no tagged discrete quarter ends that day
-- grain:    (standard concept, cik, period_start, period_end, unit, input versions)
-- flags:    tag_differs_from_ytd_pick when the quarter comes from another tag than the one the longer
--           period's standard value matched (that tag does not report the shorter period)
-- rule_version: discrete_quarter.v1
-- reads: sfv, edge
-- appends: metric_candidates
SELECT standard_concept AS metric, cik, fiscal_year, fiscal_period, duration_class, period_start, period_end,
       value, unit, unit AS input_unit, taxonomy, derivation,
       CASE derivation
           WHEN 'derived_q2' THEN standard_concept || '(six months YTD) - ' || standard_concept || '(Q1)'
           WHEN 'derived_q3' THEN standard_concept || '(nine months YTD) - ' || standard_concept || '(six months YTD)'
           ELSE standard_concept || '(FY) - ' || standard_concept || '(nine months YTD)' END AS formula,
       'discrete_quarter.v1' AS rule_version, known_from, CAST(NULL AS VARCHAR) AS null_reason,
       flags,
       list_transform(inputs, lambda x: edge(x.step, x, NULL)) AS inputs
FROM sfv
WHERE derivation LIKE 'derived_%'
