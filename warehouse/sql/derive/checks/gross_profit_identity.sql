-- check: gross_profit_identity: gross_profit = revenue - cost_of_revenue for the same company,
-- exact period and unit, where all three standard values exist (tagged or derived quarters).
-- tolerance: 0.5 % of revenue, at least 1 unit. A failure often means the revenue or cost chain
-- matched a narrower tag (goods_only...) than the one the company's gross profit is built on.
-- grain of offending rows: (cik, period_start, period_end, unit). severity = |difference| / |revenue|.
-- input: check_facts = standard_facts of the companies being checked (staged by warehouse.derive.checks).
-- reads: check_facts
WITH s AS (SELECT * FROM check_facts WHERE duration_class IN ('quarter', 'six_months', 'nine_months', 'annual')
             AND standard_concept IN ('revenue', 'cost_of_revenue', 'gross_profit')),
p AS (
    PIVOT (SELECT cik, period_start, period_end, unit, fiscal_year, fiscal_period, duration_class,
                  standard_concept, value, matched_tag FROM s)
    ON standard_concept IN ('revenue', 'cost_of_revenue', 'gross_profit')
    USING any_value(value) AS v, any_value(matched_tag) AS tag
    GROUP BY cik, period_start, period_end, unit, fiscal_year, fiscal_period, duration_class
)
SELECT cik, period_start, period_end, unit, fiscal_year, fiscal_period, duration_class,
       revenue_v AS revenue, cost_of_revenue_v AS cost_of_revenue, gross_profit_v AS gross_profit,
       revenue_v - cost_of_revenue_v - gross_profit_v AS difference,
       [revenue_tag, cost_of_revenue_tag, gross_profit_tag] AS matched_tags,
       CAST(abs(revenue_v - cost_of_revenue_v - gross_profit_v) AS DOUBLE)
           / greatest(abs(CAST(revenue_v AS DOUBLE)), 1) AS severity
FROM p
WHERE revenue_v IS NOT NULL AND cost_of_revenue_v IS NOT NULL AND gross_profit_v IS NOT NULL
  AND abs(revenue_v - cost_of_revenue_v - gross_profit_v) > greatest(0.005 * abs(revenue_v), 1)
