-- period_pairs: same_period_pair(a, b) for every pair of standard concepts the metric rule files
-- ask it for ($pairs: [a, b] lists, read from the rule files by warehouse.derive.metrics), in ONE
-- pass over sfv instead of one per rule: for two standard concepts of the same company and exact
-- period (discrete quarters and fiscal years), at every moment either's value changed (known_from),
-- the pair on ONE basis: the values the latest filing reporting both said (std_obs: every filing
-- that said a value, confirmations included; a derived quarter counts under its year-to-date
-- filing), as the versions current when it was filed; basis_flags says when a later filing recast
-- one of them and not the other ('as filed in X; revenue recast to 4,054,000,000 by Y': the metric
-- keeps the consistent pair), basis_null_reason when no filing so far reported both (the pair is
-- then the current versions, which the metric does not divide). One row per a-unit: the b with the
-- same unit when there is one (else another unit, which the metric turns into a NULL with a reason).
-- rows: one per (pair_a, pair_b, cik, period_start, period_end, a unit, known_from).
-- reads: sfv, std_obs
-- creates: period_pairs
CREATE OR REPLACE TEMP TABLE period_pairs AS
WITH d AS (SELECT k[1] AS pair_a, k[2] AS pair_b FROM (SELECT DISTINCT unnest($pairs) AS k)),
     a AS (SELECT d.pair_a, d.pair_b, s.* FROM d JOIN sfv s ON s.standard_concept = d.pair_a
           WHERE s.duration_class IN ('quarter', 'annual')),
     b AS (SELECT d.pair_a, d.pair_b, s.* FROM d JOIN sfv s ON s.standard_concept = d.pair_b
           WHERE s.duration_class IN ('quarter', 'annual')),
     ev AS (SELECT pair_a, pair_b, cik, period_start, period_end, known_from AS t FROM a
            UNION
            SELECT pair_a, pair_b, cik, period_start, period_end, known_from AS t FROM b),
     cur AS (  -- the versions current at each moment
         SELECT ev.pair_a, ev.pair_b, ev.t AS known_from, a.cik, a.fiscal_year, a.fiscal_period, a.duration_class,
                a.period_start, a.period_end, a.unit AS a_unit, a.value AS a_value, a.accession AS a_accession,
                b.unit AS b_unit, b.value AS b_value, b.accession AS b_accession
         FROM ev
         JOIN a ON a.pair_a = ev.pair_a AND a.pair_b = ev.pair_b
               AND a.cik = ev.cik AND a.period_start = ev.period_start AND a.period_end = ev.period_end
               AND a.known_from <= ev.t AND ev.t < coalesce(a.valid_to, TIMESTAMP 'infinity')
         JOIN b ON b.pair_a = ev.pair_a AND b.pair_b = ev.pair_b
               AND b.cik = ev.cik AND b.period_start = ev.period_start AND b.period_end = ev.period_end
               AND b.known_from <= ev.t AND ev.t < coalesce(b.valid_to, TIMESTAMP 'infinity')
         QUALIFY row_number() OVER (PARTITION BY ev.pair_a, ev.pair_b, ev.t, a.cik, a.period_start, a.period_end, a.unit
                                    ORDER BY (a.unit = b.unit) DESC, (a.taxonomy = b.taxonomy) DESC, b.unit) = 1
     ),
     obs AS (  -- every filing that said a value of a pair's concept (a derived quarter: its year-to-date filing)
         SELECT o.standard_concept, o.cik, o.unit, o.period_start, o.period_end, o.accession, o.known_from
         FROM std_obs o SEMI JOIN (SELECT pair_a AS c FROM d UNION SELECT pair_b FROM d) x ON x.c = o.standard_concept
         WHERE o.duration_class IN ('quarter', 'annual')
         UNION ALL
         SELECT standard_concept, cik, unit, period_start, period_end, accession, known_from FROM sfv
         WHERE derivation <> 'reported'
     ),
     together AS (  -- the filings that said both values of a pair for a period, in one unit, and when
         SELECT d.pair_a, d.pair_b, oa.cik, oa.unit, oa.period_start, oa.period_end, oa.accession,
                greatest(max(oa.known_from), max(ob.known_from)) AS moment
         FROM d JOIN obs oa ON oa.standard_concept = d.pair_a
         JOIN obs ob ON ob.standard_concept = d.pair_b AND ob.cik = oa.cik AND ob.unit = oa.unit
                    AND ob.period_start = oa.period_start AND ob.period_end = oa.period_end AND ob.accession = oa.accession
         GROUP BY ALL
     ),
     based AS (  -- the latest filing reporting both, public at the moment
         SELECT c.*, f.accession AS basis_accession, f.moment AS basis_moment
         FROM cur c ASOF LEFT JOIN together f
           ON f.pair_a = c.pair_a AND f.pair_b = c.pair_b AND f.cik = c.cik AND f.unit = c.a_unit
          AND f.period_start = c.period_start AND f.period_end = c.period_end AND c.known_from >= f.moment
     ),
     with_a AS (  -- a as current when that filing was public (the current version where there is none)
         SELECT x.*, a.value AS ba_value, a.taxonomy AS ba_taxonomy, a.inputs AS ba_inputs, a.metric_id AS ba_metric_id
         FROM based x ASOF JOIN a
           ON a.pair_a = x.pair_a AND a.pair_b = x.pair_b AND a.cik = x.cik AND a.unit = x.a_unit
          AND a.period_start = x.period_start AND a.period_end = x.period_end
          AND coalesce(x.basis_moment, x.known_from) >= a.known_from
     ),
     with_b AS (
         SELECT x.*, b.value AS bb_value, b.taxonomy AS bb_taxonomy, b.inputs AS bb_inputs, b.metric_id AS bb_metric_id
         FROM with_a x ASOF JOIN b
           ON b.pair_a = x.pair_a AND b.pair_b = x.pair_b AND b.cik = x.cik AND b.unit = x.b_unit
          AND b.period_start = x.period_start AND b.period_end = x.period_end
          AND coalesce(x.basis_moment, x.known_from) >= b.known_from
     )
SELECT pair_a, pair_b, known_from, cik, fiscal_year, fiscal_period, duration_class, period_start, period_end,
       ba_value AS a_value, a_unit, ba_taxonomy AS a_taxonomy, ba_inputs AS a_inputs, ba_metric_id AS a_metric_id,
       bb_value AS b_value, b_unit, bb_taxonomy AS b_taxonomy, bb_inputs AS b_inputs, bb_metric_id AS b_metric_id,
       CASE WHEN basis_accession IS NULL
            THEN 'no filing reports both ' || pair_a || ' and ' || pair_b || ' for this period' END AS basis_null_reason,
       CASE WHEN basis_accession IS NOT NULL AND (a_value <> ba_value OR b_value <> bb_value)
            THEN ['as filed in ' || basis_accession || '; '
                  || array_to_string(list_filter([CASE WHEN a_value <> ba_value THEN recast_note(pair_a, a_value, a_accession) END,
                                                  CASE WHEN b_value <> bb_value THEN recast_note(pair_b, b_value, b_accession) END],
                                                 lambda x: x IS NOT NULL), '; ')]
            ELSE CAST([] AS VARCHAR[]) END AS basis_flags
FROM with_b;
