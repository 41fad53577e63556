-- period_inputs: inputs_at(anchor, needs) for every (anchor, needs) the metric rule files ask it
-- for ($inputs_at: {anchor, needs} structs, read from the rule files by warehouse.derive.metrics),
-- in ONE pass over sfv instead of one per rule: for every period of the anchor standard concept
-- (fiscal years, discrete quarters, or balance-sheet instants) and every moment one of its inputs
-- changed, the version of each concept in [anchor] + needs current then: flows of the same exact
-- period, balance-sheet instants at the period's end, in the anchor's unit. One row per (cik,
-- period, unit, moment) holding every concept found: v (concept -> value), tax (concept ->
-- taxonomy; map(keys, values) of two lists of one aggregate: the same order, and cheaper than
-- map_from_entries of structs), inputs (lineage edges, role = concept). A metric tests which
-- concepts it has. ONE basis: the versions are those current when the latest filing that said every
-- concept of [anchor] + needs for the period was public (std_obs, confirmations included; a derived
-- quarter under its year-to-date filing), basis_flags says which a later filing recast ('as filed in
-- X; revenue recast to ... by Y'), basis_null_reason that no filing so far said them all (the
-- versions are then those current at the moment, which the metric does not combine).
-- grain: (key_anchor, key_needs, cik, period_start, period_end, unit, known_from).
-- reads: sfv, std_obs, edge, recast_note
-- creates: period_inputs
CREATE OR REPLACE TEMP TABLE period_inputs AS
WITH d AS (SELECT row_number() OVER () AS key_id, k.anchor AS key_anchor, k.needs AS key_needs
           FROM (SELECT DISTINCT unnest($inputs_at) AS k)),
dc AS (SELECT DISTINCT key_id, key_anchor, unnest(list_prepend(key_anchor, key_needs)) AS concept FROM d),
a AS (SELECT DISTINCT d.key_id, d.key_anchor, s.cik, s.fiscal_year, s.fiscal_period, s.duration_class, s.period_start,
                      s.period_end, s.unit
      FROM d JOIN sfv s ON s.standard_concept = d.key_anchor AND s.duration_class IN ('quarter', 'annual', 'instant')),
parts AS (
    SELECT a.key_id, a.key_anchor, a.cik, a.fiscal_year, a.fiscal_period, a.duration_class, a.period_start,
           a.period_end, a.unit, s.standard_concept, s.value, s.taxonomy, s.inputs, s.metric_id, s.known_from, s.valid_to,
           s.accession
    FROM a JOIN dc ON dc.key_id = a.key_id
    JOIN sfv s ON s.cik = a.cik AND s.unit = a.unit AND s.period_end = a.period_end AND s.standard_concept = dc.concept
     AND (s.duration_class = 'instant' OR (a.duration_class <> 'instant' AND s.period_start = a.period_start))
),
ev AS (SELECT DISTINCT key_id, cik, period_start, period_end, unit, known_from AS t FROM parts),
dn AS (SELECT key_id, count(*) AS n FROM dc GROUP BY key_id),
obs AS (  -- the filings that said each concept's value for an anchor period (a derived quarter: its
          -- year-to-date filing)
    SELECT a.key_id, a.cik, a.period_start, a.period_end, a.unit, dc.concept, o.accession, o.known_from
    FROM a JOIN dc ON dc.key_id = a.key_id
    JOIN (SELECT standard_concept, cik, unit, period_start, period_end, duration_class, accession, known_from FROM std_obs
          UNION ALL
          SELECT standard_concept, cik, unit, period_start, period_end, duration_class, accession, known_from FROM sfv
          WHERE derivation <> 'reported') o
      ON o.cik = a.cik AND o.unit = a.unit AND o.period_end = a.period_end AND o.standard_concept = dc.concept
     AND (o.duration_class = 'instant' OR (a.duration_class <> 'instant' AND o.period_start = a.period_start))
),
fulls AS (  -- the filings that said every concept of the key for the period, and when
    SELECT o.key_id, o.cik, coalesce(o.period_start, DATE '0001-01-01') AS p_start, o.period_end, o.unit, o.accession,
           max(o.known_from) AS moment
    FROM obs o JOIN dn ON dn.key_id = o.key_id
    GROUP BY o.key_id, o.cik, o.period_start, o.period_end, o.unit, o.accession, dn.n
    HAVING count(DISTINCT o.concept) = dn.n
),
based AS (  -- at each moment, the latest such filing public then
    SELECT ev.*, f.accession AS basis_accession, f.moment AS basis_moment
    FROM ev ASOF LEFT JOIN fulls f
      ON f.key_id = ev.key_id AND f.cik = ev.cik AND f.p_start = coalesce(ev.period_start, DATE '0001-01-01')
     AND f.period_end = ev.period_end AND f.unit = ev.unit AND ev.t >= f.moment
),
at_basis AS (  -- each concept's version current when that filing was public (none: at the moment itself), and at the moment
    SELECT b.t, b.basis_accession, p.*, n.value AS now_value, n.accession AS now_accession
    FROM based b
    JOIN parts p ON p.key_id = b.key_id AND p.cik = b.cik AND p.period_start IS NOT DISTINCT FROM b.period_start
                AND p.period_end = b.period_end AND p.unit = b.unit
                AND p.known_from <= coalesce(b.basis_moment, b.t) AND coalesce(b.basis_moment, b.t) < coalesce(p.valid_to, TIMESTAMP 'infinity')
    LEFT JOIN parts n ON n.key_id = b.key_id AND n.cik = b.cik AND n.period_start IS NOT DISTINCT FROM b.period_start
                AND n.period_end = b.period_end AND n.unit = b.unit AND n.standard_concept = p.standard_concept
                AND n.known_from <= b.t AND b.t < coalesce(n.valid_to, TIMESTAMP 'infinity')
),
g AS (
    SELECT key_id, key_anchor, t AS known_from, cik, any_value(fiscal_year) AS fiscal_year,
           any_value(fiscal_period) AS fiscal_period, any_value(duration_class) AS duration_class, period_start,
           period_end, unit,
           map(list(standard_concept), list(value)) AS v,
           map(list(standard_concept), list(taxonomy)) AS tax,
           flatten(list(list_transform(inputs, lambda x: edge(standard_concept, x, metric_id)))) AS inputs,  -- any order: metric_key sorts
           CASE WHEN any_value(basis_accession) IS NULL
                THEN 'no filing reports every input (' || array_to_string(list_sort(list(standard_concept)), ', ')
                     || ') for this period' END AS basis_null_reason,
           CASE WHEN bool_or(now_value <> value)
                THEN ['as filed in ' || any_value(basis_accession) || '; '
                      || array_to_string(list_sort(list(CASE WHEN now_value <> value  -- (the note only where it is one)
                                                                THEN recast_note(standard_concept, now_value, now_accession) END)
                                                       FILTER (WHERE now_value <> value)), '; ')]
                ELSE CAST([] AS VARCHAR[]) END AS basis_flags
    FROM at_basis
    GROUP BY key_id, key_anchor, cik, period_start, period_end, unit, t
    HAVING bool_or(standard_concept = key_anchor)
)
SELECT d.key_needs, g.* EXCLUDE (key_id) FROM g JOIN d ON d.key_id = g.key_id;
