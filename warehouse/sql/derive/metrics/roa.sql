-- metric:   roa  (a FRACTION)
-- formula:  net_income(fiscal year) / total_assets(at the year end)
-- inputs:   net_income of a fiscal year and total_assets at its end; assets must be positive; same cik and unit (currency), one taxonomy family, else value NULL with null_reason
-- rows:     one per (cik, period_start, period_end, input unit, input versions)
-- rule_version: roa.v1
-- reads: quotient_at
-- appends: metric_candidates
SELECT * FROM quotient_at('roa', 'net_income', 'total_assets', 'net_income',
                           'net_income(fiscal year) / total_assets(at the year end)', 'roa.v1')
WHERE duration_class = 'annual'
