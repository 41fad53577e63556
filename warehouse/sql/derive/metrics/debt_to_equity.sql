-- metric:   debt_to_equity  (a RATIO)
-- formula:  total_debt / stockholders_equity (balance-sheet date)
-- inputs:   total_debt and stockholders_equity at the same balance-sheet date; equity must be positive; same cik and unit (currency), one taxonomy family, else value NULL with null_reason
-- rows:     one per (cik, period_start, period_end, input unit, input versions)
-- rule_version: debt_to_equity.v1
-- reads: quotient_at
-- appends: metric_candidates
SELECT * FROM quotient_at('debt_to_equity', 'total_debt', 'stockholders_equity', 'stockholders_equity',
                           'total_debt / stockholders_equity (balance-sheet date)', 'debt_to_equity.v1')
