-- metric:   ttm_revenue  (trailing twelve months, currency)
-- formula:  revenue(Q-3) + revenue(Q-2) + revenue(Q-1) + revenue(Q) over four contiguous discrete
--           quarters (tagged or derived) spanning 350..380 days; when the last quarter is a fiscal
--           Q4 and the fiscal year's revenue exists for the period ending that day: revenue(FY)
-- flags:    a quarter whose value a later filing recast (it differs from the figure first filed for
--           it) is named: 'revenue 2025-01-01..2025-03-31 recast to 4,054,000,000 by 0001628280-26-007567'
--           (the sum combines filings by its formula: the flag says which part is on another basis)
-- inputs:   roles q1..q4 (oldest to latest quarter) or fiscal_year; same cik, unit and taxonomy
--           family, else value NULL with null_reason
-- rows:     one per (cik, period_start, period_end, input unit, input versions); period = the twelve months
-- rule_version: ttm_revenue.v1
-- reads: sfv, edge, recast_note
-- appends: metric_candidates
WITH q AS (SELECT *, first_value(value) OVER (PARTITION BY cik, unit, period_start, period_end ORDER BY known_from)
                        AS first_value  -- the quarter's value as first filed
           FROM sfv WHERE standard_concept = 'revenue' AND duration_class = 'quarter'),
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
    SELECT hash(k4.cik, k4.unit, k1.period_start, k1.period_end, k2.period_start, k2.period_end,
                k3.period_start, k3.period_end, k4.period_start, k4.period_end) AS chain_id,
           k4.cik, k4.unit, k4.fiscal_year, k4.fiscal_period,
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
positions AS (  -- the four quarters of each chain, one row each
    SELECT ch.chain_id, ch.cik, ch.unit, ch.fiscal_year, ch.fiscal_period, ch.s1, ch.e4, p.pos, p.ps, p.pe
    FROM chains ch,
         LATERAL (SELECT unnest([1, 2, 3, 4]) AS pos, unnest([ch.s1, ch.s2, ch.s3, ch.s4]) AS ps,
                         unnest([ch.e1, ch.e2, ch.e3, ch.e4]) AS pe) p
),
chain_ev AS (  -- every moment one of the four quarters changed
    SELECT DISTINCT p.chain_id, q.known_from AS t
    FROM positions p
    JOIN q ON q.cik = p.cik AND q.unit = p.unit AND q.period_start = p.ps AND q.period_end = p.pe
),
ev_pos AS MATERIALIZED (  -- each moment with the chain's four quarters (joined first: the planner
    SELECT ev.t, p.*      -- otherwise pairs every moment with every version on time alone)
    FROM chain_ev ev
    JOIN positions p ON p.chain_id = ev.chain_id
),
picked AS (  -- the version of each quarter current at each such moment
    SELECT p.*, q.value, q.taxonomy, q.inputs, q.metric_id, q.accession, q.first_value
    FROM ev_pos p
    JOIN q ON q.cik = p.cik AND q.unit = p.unit AND q.period_start = p.ps AND q.period_end = p.pe
          AND q.known_from <= p.t AND p.t < coalesce(q.valid_to, TIMESTAMP 'infinity')
),
summed AS (
    SELECT cik, any_value(fiscal_year) AS fiscal_year, any_value(fiscal_period) AS fiscal_period,
           s1 AS period_start, e4 AS period_end, unit, t,
           sum(value) AS total,
           CASE WHEN count(DISTINCT taxonomy) = 1 THEN NULL ELSE 'taxonomy mismatch between quarters' END AS null_reason,
           max(taxonomy) AS taxonomy,
           flatten(list(list_transform(inputs, lambda x: edge('q' || pos, x, metric_id)))) AS inputs,  -- any order: the id sorts them
           'revenue(q1) + revenue(q2) + revenue(q3) + revenue(q4)' AS formula,
           coalesce(list_sort(list(CASE WHEN value <> first_value  -- (the note only where it is one)
                                        THEN recast_note('revenue ' || ps || '..' || pe, value, accession) END)
                              FILTER (WHERE value <> first_value)),
                    CAST([] AS VARCHAR[])) AS recast_parts  -- (list() of no row is NULL)
    FROM picked
    GROUP BY chain_id, cik, unit, s1, e4, t
    HAVING count(DISTINCT pos) = 4
    -- two chains of different quarters over the same twelve months: keep one, deterministically
    QUALIFY row_number() OVER (PARTITION BY cik, unit, s1, e4, t ORDER BY chain_id) = 1
),
from_fy AS (
    SELECT f.cik, f.fiscal_year, 'Q4' AS fiscal_period, f.period_start, f.period_end, f.unit, f.known_from AS t,
           f.value AS total, CAST(NULL AS VARCHAR) AS null_reason, f.taxonomy,
           list_transform(f.inputs, lambda x: edge('fiscal_year', x, f.metric_id)) AS inputs,
           'revenue(FY)' AS formula, CAST([] AS VARCHAR[]) AS recast_parts
    FROM fy f
    SEMI JOIN qk ON qk.cik = f.cik AND qk.unit = f.unit AND qk.period_end = f.period_end AND qk.fiscal_period = 'Q4'
)
SELECT 'ttm_revenue' AS metric, cik, fiscal_year, fiscal_period, 'annual' AS duration_class, period_start, period_end,
       CASE WHEN null_reason IS NULL THEN total END AS value, unit, unit AS input_unit, taxonomy,
       'formula' AS derivation, formula, 'ttm_revenue.v1' AS rule_version, t AS known_from, null_reason,
       recast_parts AS flags, inputs
FROM (SELECT * FROM summed UNION ALL BY NAME SELECT * FROM from_fy)
