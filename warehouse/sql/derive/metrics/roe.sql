-- metric:   roe  (a FRACTION)
-- formula:  net_income(fiscal year) / stockholders_equity(at the year end)
-- inputs:   net_income of a fiscal year and stockholders_equity at its end; equity must be positive; same cik and unit (currency), one taxonomy family, else value NULL with null_reason
-- rows:     one per (cik, period_start, period_end, input unit, input versions)
-- rule_version: roe.v1
-- reads: quotient_at
-- appends: metric_candidates
SELECT * FROM quotient_at('roe', 'net_income', 'stockholders_equity', 'net_income',
                           'net_income(fiscal year) / stockholders_equity(at the year end)', 'roe.v1')
WHERE duration_class = 'annual'
