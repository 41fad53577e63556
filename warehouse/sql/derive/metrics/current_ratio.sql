-- metric:   current_ratio  (a RATIO)
-- formula:  current_assets / current_liabilities (balance-sheet date)
-- inputs:   current_assets and current_liabilities at the same balance-sheet date; liabilities must be positive; same cik and unit (currency), one taxonomy family, else value NULL with null_reason
-- rows:     one per (cik, period_start, period_end, input unit, input versions)
-- rule_version: current_ratio.v1
-- reads: quotient_at
-- appends: metric_candidates
SELECT * FROM quotient_at('current_ratio', 'current_assets', 'current_liabilities', 'current_assets',
                           'current_assets / current_liabilities (balance-sheet date)', 'current_ratio.v1')
