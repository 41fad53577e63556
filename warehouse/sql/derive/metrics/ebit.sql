-- metric:   ebit  (currency)
-- formula:  pretax_income + interest_expense
-- inputs:   pretax_income and interest_expense of the same exact period; same cik and unit (currency), one taxonomy family, else value NULL with null_reason
-- rows:     one per (cik, period_start, period_end, input unit, input versions)
-- rule_version: ebit.v1
-- reads: sum_at
-- appends: metric_candidates
SELECT * FROM sum_at('ebit', 'pretax_income', 'interest_expense', 'pretax_income + interest_expense', 'ebit.v1')
