-- metric:   net_margin  (a FRACTION: 0.1369 = 13.69 %)
-- formula:  net_income / revenue
-- inputs:   role numerator = net_income, role denominator = revenue: same cik, exact period (discrete
--           quarter or fiscal year), unit (currency) and taxonomy family; revenue must be positive;
--           else value NULL with null_reason
-- rows:     one per (cik, period_start, period_end, input unit, input versions); unit = pure
-- rule_version: net_margin.v1
-- reads: sfv, edge, ratio_of
-- appends: metric_candidates
SELECT * FROM ratio_of('net_margin', 'net_income', 'revenue', 'net_margin.v1')
