-- metric:   revenue_growth_yoy  (a FRACTION: 0.2636 = +26.36 %)
-- formula:  revenue(current) / revenue(prior) - 1
-- inputs:   role current, role prior = revenue of the same cik, unit, taxonomy and duration class
--           (discrete quarter or fiscal year) whose period ends 351..379 days apart (one year +- 14
--           days); prior must be positive, else value NULL with null_reason
-- basis:    both years from the latest filing reporting both (the company's own comparatives), as the
--           versions current when it was public; a later recast of one year flags 'as filed in X;
--           revenue recast to ... by Y' (prior year: 'prior revenue'); no filing reporting both (a
--           derived quarter counts under its first year-to-date filing): the current values, flagged
--           years_from_different_filings
-- flags:    53_week_year when either fiscal year has 53 weeks (annual periods), duration_days_differ
--           when the two periods' lengths differ by more than 3 days; the basis flags above
-- rows:     one per (cik, current period_start, period_end, input unit, input versions); unit = pure
-- rule_version: revenue_growth_yoy.v1
-- reads: sfv, std_obs, edge, fiscal_calendar, recast_note
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
ev0 AS (
    SELECT DISTINCT pairs.*, r.known_from AS t
    FROM pairs
    JOIN r ON r.cik = pairs.cik AND r.unit = pairs.unit
          AND ((r.period_start = pairs.c_start AND r.period_end = pairs.c_end)
               OR (r.period_start = pairs.p_start AND r.period_end = pairs.p_end))
),
obs AS (  -- every filing that said a revenue value (a derived quarter: its year-to-date filing)
    SELECT cik, unit, period_start, period_end, accession, known_from FROM std_obs
    WHERE standard_concept = 'revenue' AND duration_class IN ('quarter', 'annual')
    UNION ALL
    SELECT cik, unit, period_start, period_end, accession, known_from FROM r WHERE derivation <> 'reported'
),
together AS (  -- the filings that said both years
    SELECT p.cik, p.unit, p.c_start, p.c_end, p.p_start, p.p_end, oc.accession,
           greatest(max(oc.known_from), max(op.known_from)) AS moment
    FROM pairs p
    JOIN obs oc ON oc.cik = p.cik AND oc.unit = p.unit AND oc.period_start = p.c_start AND oc.period_end = p.c_end
    JOIN obs op ON op.cik = p.cik AND op.unit = p.unit AND op.period_start = p.p_start AND op.period_end = p.p_end
               AND op.accession = oc.accession
    GROUP BY ALL
),
ev AS (  -- at each moment, the latest filing saying both years public then, and the moment to read them at
    SELECT e.*, f.accession AS basis_accession, coalesce(f.moment, e.t) AS at
    FROM ev0 e ASOF LEFT JOIN together f
      ON f.cik = e.cik AND f.unit = e.unit AND f.c_start = e.c_start AND f.c_end = e.c_end
     AND f.p_start = e.p_start AND f.p_end = e.p_end AND e.t >= f.moment
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
                    CASE WHEN abs(ev.c_days - ev.p_days) > 3 THEN 'duration_days_differ' END,
                    CASE WHEN ev.basis_accession IS NULL THEN 'years_from_different_filings'
                         WHEN cn.value <> c.value OR pn.value <> p.value
                         THEN 'as filed in ' || ev.basis_accession || '; ' || array_to_string(list_filter(
                             [CASE WHEN cn.value <> c.value THEN recast_note('revenue', cn.value, cn.accession) END,
                              CASE WHEN pn.value <> p.value THEN recast_note('prior revenue', pn.value, pn.accession) END],
                             lambda x: x IS NOT NULL), '; ') END], lambda x: x IS NOT NULL)
           AS flags,
       list_concat(list_transform(c.inputs, lambda x: edge('current', x, c.metric_id)),
                   list_transform(p.inputs, lambda x: edge('prior', x, p.metric_id))) AS inputs
FROM ev  -- each year's version current at the basis moment (c, p) and now (cn, pn): ASOF joins (range
         -- joins let the planner pair the versions of one period with each other first), then the
         -- version's interval must hold the moment (a derived quarter's ends when a tagged one appears)
ASOF JOIN r c ON c.cik = ev.cik AND c.unit = ev.unit AND c.period_start = ev.c_start AND c.period_end = ev.c_end
             AND ev.at >= c.known_from
ASOF JOIN r p ON p.cik = ev.cik AND p.unit = ev.unit AND p.period_start = ev.p_start AND p.period_end = ev.p_end
             AND ev.at >= p.known_from
ASOF JOIN r cn ON cn.cik = ev.cik AND cn.unit = ev.unit AND cn.period_start = ev.c_start AND cn.period_end = ev.c_end
              AND ev.t >= cn.known_from
ASOF JOIN r pn ON pn.cik = ev.cik AND pn.unit = ev.unit AND pn.period_start = ev.p_start AND pn.period_end = ev.p_end
              AND ev.t >= pn.known_from
LEFT JOIN fiscal_calendar fc ON fc.cik = ev.cik AND fc.fiscal_year = ev.c_fy
LEFT JOIN fiscal_calendar fp ON fp.cik = ev.cik AND fp.fiscal_year = ev.p_fy
WHERE ev.at < coalesce(c.valid_to, TIMESTAMP 'infinity') AND ev.at < coalesce(p.valid_to, TIMESTAMP 'infinity')
  AND ev.t < coalesce(cn.valid_to, TIMESTAMP 'infinity') AND ev.t < coalesce(pn.valid_to, TIMESTAMP 'infinity')
