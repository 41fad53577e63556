-- metric:   ebitda  (currency)
-- formula:  operating_income + depreciation_amortization
-- inputs:   operating_income and depreciation_amortization of the same exact period (discrete quarter or fiscal year); same cik and unit (currency), one taxonomy family, else value NULL with null_reason
-- rows:     one per (cik, period_start, period_end, input unit, input versions)
-- rule_version: ebitda.v1
-- reads: sum_at
-- appends: metric_candidates
SELECT * FROM sum_at('ebitda', 'operating_income', 'depreciation_amortization',
                      'operating_income + depreciation_amortization', 'ebitda.v1')
