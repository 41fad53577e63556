-- metric:   gross_margin  (a FRACTION: 0.1369 = 13.69 %)
-- formula:  gross_profit / revenue
-- inputs:   role numerator = gross_profit, role denominator = revenue: same cik, exact period (discrete
--           quarter or fiscal year), unit (currency) and taxonomy family; revenue must be positive;
--           else value NULL with null_reason
-- rows:     one per (cik, period_start, period_end, input unit, input versions); unit = pure
-- rule_version: gross_margin.v1
-- reads: sfv, edge, ratio_of
-- appends: metric_candidates
SELECT * FROM ratio_of('gross_margin', 'gross_profit', 'revenue', 'gross_margin.v1')
