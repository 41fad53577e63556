-- metric:   revenue_growth_yoy  (a FRACTION: 0.2636 = +26.36 %)
-- formula:  revenue(current) / revenue(prior) - 1
-- inputs:   role current, role prior = revenue of the same cik, unit, taxonomy and duration class
--           (discrete quarter or fiscal year) whose period ends 351..379 days apart (one year +- 14
--           days); prior must be positive, else value NULL with null_reason
-- flags:    53_week_year when either fiscal year has 53 weeks (annual periods), duration_days_differ
--           when the two periods' lengths differ by more than 3 days
-- grain:    (cik, current period_start, period_end, input unit, input versions); unit = pure
-- rule_version: revenue_growth_yoy.v1
-- reads: sfv, edge, fiscal_calendar
-- appends: metric_candidates
WITH r AS (SELECT * FROM sfv WHERE standard_concept = 'revenue' AND duration_class IN ('quarter', 'annual')),
keys AS (
    SELECT cik, unit, duration_class, period_start, period_end,
           any_value(fiscal_year) AS fiscal_year, any_value(duration_days) AS duration_days
    FROM r GROUP BY ALL
),
pairs AS (
    SELECT c.cik, c.unit, c.duration_class, c.period_start AS c_start, c.period_end AS c_end,
           p.period_start AS p_start, p.period_end AS p_end, c.fiscal_year AS c_fy, p.fiscal_year AS p_fy,
           c.duration_days AS c_days, p.duration_days AS p_days
    FROM keys c
    JOIN keys p ON p.cik = c.cik AND p.unit = c.unit AND p.duration_class = c.duration_class
               AND c.period_end - p.period_end BETWEEN 351 AND 379
    QUALIFY row_number() OVER (PARTITION BY c.cik, c.unit, c.period_start, c.period_end
                               ORDER BY abs(c.period_end - p.period_end - 364), p.period_start) = 1
),
ev AS (
    SELECT DISTINCT pairs.*, r.known_from AS t
    FROM pairs
    JOIN r ON r.cik = pairs.cik AND r.unit = pairs.unit
          AND ((r.period_start = pairs.c_start AND r.period_end = pairs.c_end)
               OR (r.period_start = pairs.p_start AND r.period_end = pairs.p_end))
)
SELECT 'revenue_growth_yoy' AS metric, ev.cik, c.fiscal_year, c.fiscal_period, ev.duration_class,
       ev.c_start AS period_start, ev.c_end AS period_end,
       CASE WHEN c.taxonomy = p.taxonomy AND p.value > 0
            THEN CAST(round(CAST(c.value AS DOUBLE) / CAST(p.value AS DOUBLE) - 1, 10) AS DECIMAL(38, 10)) END AS value,
       'pure' AS unit, ev.unit AS input_unit, c.taxonomy, 'formula' AS derivation,
       'revenue(period) / revenue(same period one year earlier) - 1' AS formula,
       'revenue_growth_yoy.v1' AS rule_version, ev.t AS known_from,
       CASE WHEN c.taxonomy <> p.taxonomy
                THEN 'taxonomy mismatch: current from ' || c.taxonomy || ', prior from ' || p.taxonomy
            WHEN p.value = 0 THEN 'prior revenue is zero'
            WHEN p.value < 0 THEN 'prior revenue is negative' END AS null_reason,
       list_filter([CASE WHEN ev.duration_class = 'annual' AND (coalesce(fc.weeks_53, false) OR coalesce(fp.weeks_53, false))
                         THEN '53_week_year' END,
                    CASE WHEN abs(ev.c_days - ev.p_days) > 3 THEN 'duration_days_differ' END], lambda x: x IS NOT NULL)
           AS flags,
       list_concat(list_transform(c.inputs, lambda x: edge('current', x, c.metric_id)),
                   list_transform(p.inputs, lambda x: edge('prior', x, p.metric_id))) AS inputs
FROM ev
JOIN r c ON c.cik = ev.cik AND c.unit = ev.unit AND c.period_start = ev.c_start AND c.period_end = ev.c_end
        AND c.known_from <= ev.t AND ev.t < coalesce(c.valid_to, TIMESTAMP 'infinity')
JOIN r p ON p.cik = ev.cik AND p.unit = ev.unit AND p.period_start = ev.p_start AND p.period_end = ev.p_end
        AND p.known_from <= ev.t AND ev.t < coalesce(p.valid_to, TIMESTAMP 'infinity')
LEFT JOIN fiscal_calendar fc ON fc.cik = ev.cik AND fc.fiscal_year = ev.c_fy
LEFT JOIN fiscal_calendar fp ON fp.cik = ev.cik AND fp.fiscal_year = ev.p_fy
