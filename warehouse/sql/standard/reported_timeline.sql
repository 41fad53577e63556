-- Timeline of the REPORTED standard value of each slot: at each moment a version of any chain tag
-- became public, the chain is re-applied (first tag in chain order with a value, its latest
-- version then); consecutive moments with the same pick collapse into one interval
-- [known_from, valid_to). Same rule as standard_facts_as_of(ts), evaluated at every change.
-- grain: (slot, known_from).
CREATE OR REPLACE TEMP TABLE std_rep AS
WITH ev AS (SELECT DISTINCT slot, known_from AS t FROM std_cand),
pick AS (
    SELECT ev.t, c.*
    FROM ev JOIN std_cand c ON c.slot = ev.slot AND c.known_from <= ev.t
    QUALIFY row_number() OVER (PARTITION BY ev.slot, ev.t
                               ORDER BY c.chain_rank, c.known_from DESC, c.filed DESC, c.accession DESC, c.revision DESC) = 1
),
changes AS (
    SELECT * FROM pick
    QUALIFY lag(taxonomy || ':' || concept || ':' || accession || ':' || revision) OVER (PARTITION BY slot ORDER BY t)
            IS DISTINCT FROM taxonomy || ':' || concept || ':' || accession || ':' || revision
)
SELECT * EXCLUDE (t, known_from),
       t AS valid_from,
       known_from AS fact_known_from,
       lead(t) OVER (PARTITION BY slot ORDER BY t) AS valid_to
FROM changes;
