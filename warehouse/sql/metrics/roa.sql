-- metric:   roa  (a FRACTION)
-- formula:  net_income(fiscal year) / total_assets(at the year end)
-- inputs:   net_income of a fiscal year and total_assets at its end; assets must be positive; same cik and unit (currency), one taxonomy family, else value NULL with null_reason
-- grain:    (cik, period_start, period_end, input unit, input versions)
-- rule_version: roa.v1
-- reads: inputs_at, edge
-- appends: metric_candidates
SELECT 'roa' AS metric, cik, fiscal_year, fiscal_period, duration_class, period_start, period_end,
       CASE WHEN len(list_distinct(map_values(tax))) = 1 AND NOT (v['total_assets'] <= 0)
            THEN CAST(round(CAST(v['net_income'] AS DOUBLE) / CAST(v['total_assets'] AS DOUBLE), 10) AS DECIMAL(38, 10)) END AS value,
       'pure' AS unit, unit AS input_unit, tax['net_income'] AS taxonomy, 'formula' AS derivation,
       'net_income(fiscal year) / total_assets(at the year end)' AS formula, 'roa.v1' AS rule_version, known_from,
       CASE WHEN len(list_distinct(map_values(tax))) > 1 THEN 'taxonomy mismatch: ' || CAST(tax AS VARCHAR)
            WHEN v['total_assets'] <= 0 THEN 'total_assets is zero or negative'
       END AS null_reason,
       CAST([] AS VARCHAR[]) AS flags, inputs
FROM inputs_at('net_income', ['total_assets'])
WHERE v['total_assets'] IS NOT NULL AND duration_class = 'annual'
