-- check: balance_sheet_identity: total_assets = total_liabilities + total_equity (equity including
-- noncontrolling interests when tagged) on the same balance-sheet date and unit, where all three are
-- tagged; and total_assets = liabilities_and_equity where both are tagged.
-- tolerance: 0.5 % of total assets (mezzanine/temporary equity is not part of either side), at least 1 unit.
-- grain of offending rows: (cik, period_end, unit, identity). severity = |difference| / |total_assets|.
-- input: check_facts = standard_facts of the companies being checked (staged by warehouse.derive.checks).
-- reads: check_facts
WITH s AS (SELECT * FROM check_facts WHERE duration_class = 'instant'
             AND standard_concept IN ('total_assets', 'total_liabilities', 'total_equity', 'liabilities_and_equity')),
p AS (
    PIVOT (SELECT cik, period_end, unit, fiscal_year, fiscal_period, standard_concept, value, accession FROM s)
    ON standard_concept IN ('total_assets', 'total_liabilities', 'total_equity', 'liabilities_and_equity')
    USING any_value(value) AS v, any_value(accession) AS acc
    GROUP BY cik, period_end, unit, fiscal_year, fiscal_period
),
d AS (
    SELECT cik, period_end, unit, fiscal_year, fiscal_period, 'assets = liabilities + equity' AS identity,
           total_assets_v AS total_assets, total_liabilities_v + total_equity_v AS other_side,
           [total_assets_acc, total_liabilities_acc, total_equity_acc] AS accessions
    FROM p WHERE total_assets_v IS NOT NULL AND total_liabilities_v IS NOT NULL AND total_equity_v IS NOT NULL
    UNION ALL
    SELECT cik, period_end, unit, fiscal_year, fiscal_period, 'assets = liabilities_and_equity',
           total_assets_v, liabilities_and_equity_v, [total_assets_acc, liabilities_and_equity_acc]
    FROM p WHERE total_assets_v IS NOT NULL AND liabilities_and_equity_v IS NOT NULL
)
SELECT cik, period_end, unit, fiscal_year, fiscal_period, identity, total_assets, other_side,
       total_assets - other_side AS difference, accessions,
       CAST(abs(total_assets - other_side) AS DOUBLE) / greatest(abs(CAST(total_assets AS DOUBLE)), 1) AS severity
FROM d
WHERE abs(total_assets - other_side) > greatest(0.005 * abs(total_assets), 1)
