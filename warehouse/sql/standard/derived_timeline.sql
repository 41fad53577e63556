-- Timeline of DERIVED discrete quarters: Q2 = H1 - Q1, Q3 = 9M - H1, Q4 = FY - 9M, from reported
-- year-to-date values of the SAME tag, cik, unit, fiscal year and period_start, at every moment
-- either input changed. Additive currency/share-count flows only: never per-share values, ratios
-- or instants. An interval ends when a tagged discrete quarter ending on the same day becomes
-- public (the tagged one is used from then on).
-- grain: (derived slot, valid_from).
CREATE OR REPLACE TEMP TABLE std_der AS
WITH keys AS (
    SELECT slot, any_value(cik) AS cik, any_value(standard_concept) AS standard_concept,
           any_value(unit) AS unit, any_value(period_start) AS period_start,
           any_value(period_end) AS period_end, any_value(fiscal_year) AS fiscal_year,
           any_value(duration_class) AS duration_class, bool_and(additive) AS additive
    FROM std_rep GROUP BY slot
),
pairs AS (
    SELECT l.slot AS l_slot, s.slot AS s_slot
    FROM keys l
    JOIN keys s
      ON s.cik = l.cik AND s.standard_concept = l.standard_concept AND s.unit = l.unit
     AND s.period_start = l.period_start AND s.fiscal_year = l.fiscal_year
     AND ytd_steps_one_quarter(l.duration_class, s.duration_class, l.period_end, s.period_end)
    WHERE l.additive AND subtractable_unit(l.unit)
),
ev AS (
    SELECT l_slot, s_slot, t, lead(t) OVER (PARTITION BY l_slot, s_slot ORDER BY t) AS t_next
    FROM (SELECT p.l_slot, p.s_slot, r.valid_from AS t FROM pairs p JOIN std_rep r ON r.slot = p.l_slot
          UNION  -- two equi-joins, not one OR join (which DuckDB runs as a nested loop)
          SELECT p.l_slot, p.s_slot, r.valid_from AS t FROM pairs p JOIN std_rep r ON r.slot = p.s_slot)
),
-- the year-to-date side first, materialised: joining the two std_rep sides on tag first would be
-- a many-to-many blow-up (the planner has no statistics on temp tables inside a transaction)
ev_l AS MATERIALIZED (
    SELECT ev.t, ev.t_next, ev.s_slot, l.*
    FROM ev
    JOIN std_rep l ON l.slot = ev.l_slot AND l.valid_from <= ev.t AND (l.valid_to IS NULL OR ev.t < l.valid_to)
),
combo AS (
    SELECT l.t, l.t_next, l.cik, l.standard_concept, l.chain_rank, l.scope, l.tags_tried, l.taxonomy,
           l.concept, l.unit, CAST(s.period_end + INTERVAL 1 DAY AS DATE) AS period_start, l.period_end,
           l.value - s.value AS value, l.accession, l.form, l.filed, l.fiscal_year,
           CASE l.duration_class WHEN 'six_months' THEN 'Q2' WHEN 'nine_months' THEN 'Q3' ELSE 'Q4' END
               AS fiscal_period,
           CAST(l.period_end - s.period_end - 1 AS INTEGER) AS duration_days,
           [{'step': 'ytd', 'taxonomy': l.taxonomy, 'concept': l.concept, 'unit': l.unit,
             'period_start': l.period_start, 'period_end': l.period_end, 'accession': l.accession, 'revision': l.revision,
             'value': l.value, 'known_from': l.fact_known_from},
            {'step': 'less_ytd', 'taxonomy': s.taxonomy, 'concept': s.concept, 'unit': s.unit,
             'period_start': s.period_start, 'period_end': s.period_end, 'accession': s.accession, 'revision': s.revision,
             'value': s.value, 'known_from': s.fact_known_from}] AS raw_inputs
    FROM ev_l l
    JOIN std_rep s ON s.slot = l.s_slot AND s.valid_from <= l.t AND (s.valid_to IS NULL OR l.t < s.valid_to)
    WHERE l.taxonomy = s.taxonomy AND l.concept = s.concept
),
tagged AS (
    SELECT cik, standard_concept, unit, period_end, min(valid_from) AS first_tagged
    FROM std_rep WHERE duration_class = 'quarter'
    GROUP BY ALL
)
SELECT c.* EXCLUDE (t, t_next),
       hash(c.cik, c.standard_concept, c.unit, c.period_start, c.period_end) AS slot,
       'quarter' AS duration_class,
       'derived_' || lower(c.fiscal_period) AS derivation,
       c.t AS valid_from,
       CASE WHEN g.first_tagged IS NULL THEN c.t_next
            WHEN c.t_next IS NULL THEN g.first_tagged
            ELSE least(c.t_next, g.first_tagged) END AS valid_to
FROM combo c
LEFT JOIN tagged g ON g.cik = c.cik AND g.standard_concept = c.standard_concept AND g.unit = c.unit
                  AND g.period_end = c.period_end
WHERE g.first_tagged IS NULL OR c.t < g.first_tagged
QUALIFY row_number() OVER (PARTITION BY c.cik, c.standard_concept, c.unit, c.period_start, c.period_end, c.t
                           ORDER BY c.accession) = 1;
