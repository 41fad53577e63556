-- Timeline of the REPORTED standard value of each slot: at each moment a chain tag's value
-- changed, the candidates are the latest value of every chain tag for that period, ranked by
-- chain_pick_key (general-scope totals first, the largest general-scope currency flow, then chain
-- order); consecutive moments with the same pick collapse into one interval [valid_from, valid_to).
-- A slot with one candidate (most slots) skips all of it: that candidate from its known_from on.
-- (standard_facts lists the candidates with their values; the refresh needs only the pick.)
-- grain: (slot, valid_from).
-- reads: std_cand, chain_pick_key, value_exponent
-- creates: std_rep
CREATE OR REPLACE TEMP TABLE std_rep AS
WITH n AS (SELECT slot, count(*) = 1 AS alone FROM std_cand GROUP BY slot),
one AS (SELECT c.* FROM std_cand c SEMI JOIN n ON n.slot = c.slot AND n.alone),
multi AS (  -- each chain tag's value runs in each slot with several candidates, [known_from, valid_to)
    SELECT c.*, lead(c.known_from) OVER (PARTITION BY c.slot, c.taxonomy, c.concept
                                         ORDER BY c.known_from, c.filed, c.accession, c.revision) AS valid_to
    FROM std_cand c SEMI JOIN n ON n.slot = c.slot AND NOT n.alone
),
ev AS (SELECT DISTINCT slot, known_from AS t FROM multi),
latest AS (  -- the latest value of each chain tag of the slot at moment t
    SELECT ev.t, c.* EXCLUDE (valid_to)
    FROM ev JOIN multi c ON c.slot = ev.slot AND c.known_from <= ev.t AND ev.t < coalesce(c.valid_to, TIMESTAMP 'infinity')
),
tops AS (  -- the exponents once per row, where chain_pick_key compares with rounding (value <> top)
    SELECT *, CASE WHEN value <> top THEN value_exponent(value) END AS value_e,
              CASE WHEN value <> top THEN value_exponent(top) END AS top_e
    FROM (SELECT *, max(CASE WHEN scope = 'general' AND additive AND value_kind = 'currency' THEN value END)
                        OVER (PARTITION BY slot, t) AS top
          FROM latest)
),
picked AS (
    SELECT * EXCLUDE (top, value_e, top_e) FROM tops
    QUALIFY row_number() OVER (PARTITION BY slot, t
                               ORDER BY chain_pick_key(scope, additive, value_kind, value, chain_rank, top,
                                                       value_e, top_e)) = 1
),
changes AS (
    SELECT * FROM picked
    QUALIFY lag(taxonomy || ':' || concept || ':' || accession || ':' || revision) OVER (PARTITION BY slot ORDER BY t)
            IS DISTINCT FROM taxonomy || ':' || concept || ':' || accession || ':' || revision
)
SELECT * EXCLUDE (t, known_from),
       t AS valid_from,
       known_from AS fact_known_from,
       lead(t) OVER (PARTITION BY slot ORDER BY t) AS valid_to
FROM changes
UNION ALL BY NAME
SELECT * EXCLUDE (known_from), known_from AS valid_from, known_from AS fact_known_from,
       CAST(NULL AS TIMESTAMP) AS valid_to
FROM one;
