-- Timeline of DERIVED discrete quarters (the rule, said once: derived_quarter, Q2 = H1 - Q1,
-- Q3 = 9M - H1, Q4 = FY - 9M from the year-to-date values of ONE tag, the pick among tags and its
-- flag: derived_quarter_pick; the point-in-time standard facts call both too), computed for EVERY
-- chain tag that reports both periods, so a quarter exists whenever any tag gives both (the year
-- may be reported under one tag and the nine months under another: NVIDIA FY2021). Additive
-- currency/share-count flows only: never per-share values, ratios or instants. An interval ends
-- when a tagged discrete quarter ending on the same day becomes public.
-- rows: one per (derived slot, valid_from).
-- reads: std_cand, std_rep, ytd_steps_one_quarter, derived_quarter, derived_quarter_pick, subtractable_unit, lineage_edge
-- creates: std_der
CREATE OR REPLACE TEMP TABLE std_der AS
WITH tagv AS (  -- each tag's value runs in each slot, [valid_from, valid_to)
    SELECT c.*, c.known_from AS valid_from,
           lead(c.known_from) OVER (PARTITION BY c.slot, c.taxonomy, c.concept
                                    ORDER BY c.known_from, c.filed, c.accession, c.revision) AS valid_to
    FROM std_cand c
    WHERE c.is_change AND c.additive AND subtractable_unit(c.unit)
),
keys AS (
    SELECT slot, taxonomy, concept, any_value(cik) AS cik, any_value(standard_concept) AS standard_concept,
           any_value(unit) AS unit, any_value(period_start) AS period_start, any_value(period_end) AS period_end,
           any_value(fiscal_year) AS fiscal_year, any_value(duration_class) AS duration_class
    FROM tagv GROUP BY slot, taxonomy, concept
),
pairs AS (
    SELECT l.slot AS l_slot, s.slot AS s_slot, l.taxonomy, l.concept,
           hash(l.cik, l.standard_concept, l.unit,
                derived_quarter(l.duration_class, l.period_end, NULL, s.period_end, NULL).period_start, l.period_end) AS dslot
    FROM keys l
    JOIN keys s
      ON s.cik = l.cik AND s.standard_concept = l.standard_concept AND s.unit = l.unit
     AND s.taxonomy = l.taxonomy AND s.concept = l.concept
     AND s.period_start = l.period_start AND s.fiscal_year = l.fiscal_year
     AND ytd_steps_one_quarter(l.duration_class, s.duration_class, l.period_end, s.period_end)
),
ev AS (  -- every moment either side of one tag's pair changed
    SELECT *, lead(t) OVER (PARTITION BY l_slot, s_slot, taxonomy, concept ORDER BY t) AS t_next
    FROM (SELECT p.*, v.valid_from AS t FROM pairs p
          JOIN tagv v ON v.slot = p.l_slot AND v.taxonomy = p.taxonomy AND v.concept = p.concept
          UNION  -- two equi-joins, not one OR join (which DuckDB runs as a nested loop)
          SELECT p.*, v.valid_from AS t FROM pairs p
          JOIN tagv v ON v.slot = p.s_slot AND v.taxonomy = p.taxonomy AND v.concept = p.concept)
),
-- the year-to-date side first, materialised (no many-to-many blow-up on the tag join)
ev_l AS MATERIALIZED (
    SELECT ev.t, ev.t_next, ev.dslot, ev.s_slot, l.*
    FROM ev
    JOIN tagv l ON l.slot = ev.l_slot AND l.taxonomy = ev.taxonomy AND l.concept = ev.concept
               AND l.valid_from <= ev.t AND ev.t < coalesce(l.valid_to, TIMESTAMP 'infinity')
),
combo AS (  -- one tag's derived quarter (derived_quarter), valid over [t, t_next)
    SELECT * EXCLUDE (q), q.period_start, q.value, q.fiscal_period, q.duration_days, q.derivation
    FROM (
        SELECT l.t, l.t_next, l.dslot, l.slot AS l_slot, l.cik, l.standard_concept, l.chain_rank, l.scope,
               l.taxonomy, l.concept, l.unit, l.period_end, l.accession, l.revision, l.form, l.filed, l.fiscal_year,
               derived_quarter(l.duration_class, l.period_end, l.value, s.period_end, s.value) AS q,
               s.accession AS s_accession, s.revision AS s_revision,
               -- the two input fact versions' other fields (their lineage edges are built for the picked rows only)
               l.period_start AS l_period_start, l.value AS l_value, l.known_from AS l_known_from,
               s.period_start AS s_period_start, s.period_end AS s_period_end, s.value AS s_value,
               s.known_from AS s_known_from
        FROM ev_l l
        JOIN tagv s ON s.slot = l.s_slot AND s.taxonomy = l.taxonomy AND s.concept = l.concept
                   AND s.valid_from <= l.t AND l.t < coalesce(s.valid_to, TIMESTAMP 'infinity'))
),
dev AS (  -- every moment any tag's derivation, or the longer period's pick, changed
    SELECT DISTINCT dslot, t FROM combo
    UNION
    SELECT DISTINCT c.dslot, r.valid_from FROM (SELECT DISTINCT dslot, l_slot FROM combo) c
    JOIN std_rep r ON r.slot = c.l_slot
),
at_t AS (
    SELECT dev.t AS moment, c.* EXCLUDE (t, t_next, dslot), dev.dslot
    FROM dev JOIN combo c ON c.dslot = dev.dslot AND c.t <= dev.t AND dev.t < coalesce(c.t_next, TIMESTAMP 'infinity')
),
with_year AS (
    SELECT a.*, coalesce(r.taxonomy = a.taxonomy AND r.concept = a.concept, false) AS same_tag_as_ytd
    FROM at_t a
    LEFT JOIN std_rep r ON r.slot = a.l_slot AND r.valid_from <= a.moment AND a.moment < coalesce(r.valid_to, TIMESTAMP 'infinity')
),
picked AS (  -- the answer among the tags' derivations at each moment (derived_quarter_pick: least key)
    SELECT * FROM with_year
    QUALIFY row_number() OVER (PARTITION BY dslot, moment
                               ORDER BY derived_quarter_pick(same_tag_as_ytd, chain_rank, taxonomy, concept,
                                                             l_period_start).key) = 1
),
changes AS (
    SELECT *, lead(moment) OVER (PARTITION BY dslot ORDER BY moment) AS next_at
    FROM (SELECT * FROM picked
          QUALIFY lag(concat_ws(':', taxonomy, concept, accession, revision, s_accession, s_revision, same_tag_as_ytd))
                      OVER (PARTITION BY dslot ORDER BY moment)
                  IS DISTINCT FROM concat_ws(':', taxonomy, concept, accession, revision, s_accession, s_revision,
                                             same_tag_as_ytd))
),
tagged AS (
    SELECT cik, standard_concept, unit, period_end, min(valid_from) AS first_tagged
    FROM std_rep WHERE duration_class = 'quarter'
    GROUP BY ALL
)
SELECT c.* EXCLUDE (moment, next_at, dslot, l_slot, s_accession, s_revision, same_tag_as_ytd, l_period_start, l_value,
                   l_known_from, s_period_start, s_period_end, s_value, s_known_from),
       [lineage_edge(NULL, 'ytd', c.standard_concept, NULL, c.taxonomy, c.concept, c.unit, c.l_period_start,
                     c.period_end, c.accession, c.revision, c.l_value, c.l_known_from, NULL),
        lineage_edge(NULL, 'less_ytd', c.standard_concept, NULL, c.taxonomy, c.concept, c.unit, c.s_period_start,
                     c.s_period_end, c.s_accession, c.s_revision, c.s_value, c.s_known_from, NULL)] AS raw_inputs,
       c.dslot AS slot,
       'quarter' AS duration_class,
       derived_quarter_pick(c.same_tag_as_ytd, c.chain_rank, c.taxonomy, c.concept, c.l_period_start).flags AS flags,
       c.moment AS valid_from,
       CASE WHEN g.first_tagged IS NULL THEN c.next_at
            WHEN c.next_at IS NULL THEN g.first_tagged
            ELSE least(c.next_at, g.first_tagged) END AS valid_to
FROM changes c
LEFT JOIN tagged g ON g.cik = c.cik AND g.standard_concept = c.standard_concept AND g.unit = c.unit
                  AND g.period_end = c.period_end
WHERE g.first_tagged IS NULL OR c.moment < g.first_tagged;
