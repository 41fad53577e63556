-- Timeline of the REPORTED standard value of each slot: at each moment a chain tag's value
-- changed, the candidates are the latest value of every chain tag for that period, ranked by
-- chain_pick_key (general-scope totals first, the largest general-scope currency flow, then chain
-- order); consecutive moments with the same pick collapse into one interval [valid_from, valid_to).
-- candidates lists every candidate with its value, in rank order (the matched tag first), as of the
-- moment the pick last changed; tags_tried is the chain up to the matched tag.
-- grain: (slot, valid_from).
-- reads: std_cand, chain_pick_key, same_within_rounding, plain_number
-- creates: std_rep
CREATE OR REPLACE TEMP TABLE std_rep AS
WITH ev AS (SELECT DISTINCT slot, known_from AS t FROM std_cand),
latest AS (  -- the latest value of each chain tag of the slot at moment t
    SELECT ev.t, c.*
    FROM ev JOIN std_cand c ON c.slot = ev.slot AND c.known_from <= ev.t
    QUALIFY row_number() OVER (PARTITION BY ev.slot, ev.t, c.taxonomy, c.concept
                               ORDER BY c.known_from DESC, c.filed DESC, c.accession DESC, c.revision DESC) = 1
),
tops AS (
    SELECT *, max(CASE WHEN scope = 'general' AND additive AND value_kind = 'currency' THEN value END)
                  OVER (PARTITION BY slot, t) AS top
    FROM latest
),
keyed AS (
    SELECT * EXCLUDE (top), chain_pick_key(scope, additive, value_kind, value, chain_rank, top) AS pick_key FROM tops
),
ranked AS (
    SELECT * EXCLUDE (pick_key), row_number() OVER (PARTITION BY slot, t ORDER BY pick_key) AS pick_rank
    FROM keyed
),
tried AS (  -- a grouped ordered list: an ordered list() window is far slower in DuckDB
    SELECT slot, t, list(taxonomy || ':' || concept || '=' || plain_number(value) ORDER BY pick_rank) AS candidates
    FROM ranked GROUP BY slot, t
),
changes AS (
    SELECT r.* EXCLUDE (pick_rank), tried.candidates FROM ranked r
    JOIN tried ON tried.slot = r.slot AND tried.t = r.t
    WHERE r.pick_rank = 1
    QUALIFY lag(r.taxonomy || ':' || r.concept || ':' || r.accession || ':' || r.revision)
                OVER (PARTITION BY r.slot ORDER BY r.t)
            IS DISTINCT FROM r.taxonomy || ':' || r.concept || ':' || r.accession || ':' || r.revision
)
SELECT * EXCLUDE (t, known_from),
       t AS valid_from,
       known_from AS fact_known_from,
       lead(t) OVER (PARTITION BY slot ORDER BY t) AS valid_to
FROM changes;
