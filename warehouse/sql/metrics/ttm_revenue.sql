-- metric:   ttm_revenue  (trailing twelve months, currency)
-- formula:  revenue(Q-3) + revenue(Q-2) + revenue(Q-1) + revenue(Q) over four contiguous discrete
--           quarters (tagged or derived) spanning 350..380 days; when the last quarter is a fiscal
--           Q4 and the fiscal year's revenue exists for the period ending that day: revenue(FY)
-- inputs:   roles q1..q4 (oldest to latest quarter) or fiscal_year; same cik, unit and taxonomy
--           family, else value NULL with null_reason
-- grain:    (cik, period_start, period_end, input unit, input versions); period = the twelve months
-- rule_version: ttm_revenue.v1
WITH q AS (SELECT * FROM sfv WHERE standard_concept = 'revenue' AND duration_class = 'quarter'),
fy AS (SELECT * FROM sfv WHERE standard_concept = 'revenue' AND duration_class = 'annual'),
qk AS (SELECT cik, unit, period_start, period_end, any_value(fiscal_year) AS fiscal_year,
              any_value(fiscal_period) AS fiscal_period
       FROM q GROUP BY ALL),
fyk AS (SELECT DISTINCT cik, unit, period_end FROM fy),
qn AS (  -- each quarter with the start dates its successor may have (1..3 days after its end)
    SELECT qk.*, CAST(qk.period_end + d * INTERVAL 1 DAY AS DATE) AS next_start
    FROM qk, range(1, 4) r(d)
),
chains AS (
    SELECT k4.cik, k4.unit, k4.fiscal_year, k4.fiscal_period,
           k1.period_start AS s1, k1.period_end AS e1, k2.period_start AS s2, k2.period_end AS e2,
           k3.period_start AS s3, k3.period_end AS e3, k4.period_start AS s4, k4.period_end AS e4
    FROM qk k4
    JOIN qn k3 ON k3.cik = k4.cik AND k3.unit = k4.unit AND k3.next_start = k4.period_start
    JOIN qn k2 ON k2.cik = k4.cik AND k2.unit = k4.unit AND k2.next_start = k3.period_start
    JOIN qn k1 ON k1.cik = k4.cik AND k1.unit = k4.unit AND k1.next_start = k2.period_start
    LEFT JOIN fyk ON fyk.cik = k4.cik AND fyk.unit = k4.unit AND fyk.period_end = k4.period_end
    WHERE k4.period_end - k1.period_start BETWEEN 350 AND 380
      AND NOT (k4.fiscal_period = 'Q4' AND fyk.cik IS NOT NULL)
),
chain_ev AS (  -- every moment one of the four quarters changed
    SELECT DISTINCT ch.*, q.known_from AS t
    FROM chains ch,
         LATERAL (SELECT unnest([ch.s1, ch.s2, ch.s3, ch.s4]) AS ps, unnest([ch.e1, ch.e2, ch.e3, ch.e4]) AS pe) p
    JOIN q ON q.cik = ch.cik AND q.unit = ch.unit AND q.period_start = p.ps AND q.period_end = p.pe
),
summed AS (
    SELECT ev.cik, ev.fiscal_year, ev.fiscal_period, ev.s1 AS period_start, ev.e4 AS period_end, ev.unit, ev.t,
           q1.value + q2.value + q3.value + q4.value AS total,
           CASE WHEN q1.taxonomy = q4.taxonomy AND q2.taxonomy = q4.taxonomy AND q3.taxonomy = q4.taxonomy
                THEN NULL ELSE 'taxonomy mismatch between quarters' END AS null_reason,
           q4.taxonomy,
           list_concat(list_transform(q1.inputs, x -> edge('q1', x, q1.metric_id)),
                       list_transform(q2.inputs, x -> edge('q2', x, q2.metric_id)),
                       list_transform(q3.inputs, x -> edge('q3', x, q3.metric_id)),
                       list_transform(q4.inputs, x -> edge('q4', x, q4.metric_id))) AS inputs,
           'revenue(q1) + revenue(q2) + revenue(q3) + revenue(q4)' AS formula
    FROM chain_ev ev
    JOIN q q1 ON q1.cik = ev.cik AND q1.unit = ev.unit AND q1.period_start = ev.s1 AND q1.period_end = ev.e1
             AND q1.known_from <= ev.t AND (q1.valid_to IS NULL OR ev.t < q1.valid_to)
    JOIN q q2 ON q2.cik = ev.cik AND q2.unit = ev.unit AND q2.period_start = ev.s2 AND q2.period_end = ev.e2
             AND q2.known_from <= ev.t AND (q2.valid_to IS NULL OR ev.t < q2.valid_to)
    JOIN q q3 ON q3.cik = ev.cik AND q3.unit = ev.unit AND q3.period_start = ev.s3 AND q3.period_end = ev.e3
             AND q3.known_from <= ev.t AND (q3.valid_to IS NULL OR ev.t < q3.valid_to)
    JOIN q q4 ON q4.cik = ev.cik AND q4.unit = ev.unit AND q4.period_start = ev.s4 AND q4.period_end = ev.e4
             AND q4.known_from <= ev.t AND (q4.valid_to IS NULL OR ev.t < q4.valid_to)
),
from_fy AS (
    SELECT f.cik, f.fiscal_year, 'Q4' AS fiscal_period, f.period_start, f.period_end, f.unit, f.known_from AS t,
           f.value AS total, CAST(NULL AS VARCHAR) AS null_reason, f.taxonomy,
           list_transform(f.inputs, x -> edge('fiscal_year', x, f.metric_id)) AS inputs,
           'revenue(FY)' AS formula
    FROM fy f
    SEMI JOIN qk ON qk.cik = f.cik AND qk.unit = f.unit AND qk.period_end = f.period_end AND qk.fiscal_period = 'Q4'
)
SELECT 'ttm_revenue' AS metric, cik, fiscal_year, fiscal_period, 'annual' AS duration_class, period_start, period_end,
       CASE WHEN null_reason IS NULL THEN total END AS value, unit, unit AS input_unit, taxonomy,
       'formula' AS derivation, formula, 'ttm_revenue.v1' AS rule_version, t AS known_from, null_reason,
       CAST([] AS VARCHAR[]) AS flags, inputs
FROM (SELECT * FROM summed UNION ALL BY NAME SELECT * FROM from_fy)
