-- What each filing said for each slot: one row per slot and filing that became the period's answer
-- when filed, with that filing's pick among the tags IT reports by chain_pick_key (general-scope
-- totals first, the largest general-scope currency flow, then chain order); totals before parts
-- across filings too: once a filing reported a general-scope tag for the period, a later filing of
-- narrower tags only is not its answer (standard_value_timeline_of says the rule the same way). A
-- slot whose versions are all of one tag (most slots) skips the ranking: every filing's version of
-- that tag (a version SEC re-issued too: the value it said until the re-issue). Confirmations are rows here (a filing that re-files a value still reports it: the
-- metrics take every input of a period from one filing, refresh/45 and 46); refresh/20 collapses
-- the rows that repeat the value before them into the standard value's intervals.
-- grain: (slot, accession).
-- reads: std_cand, chain_pick_key, value_exponent, fact_version_order
-- creates: std_obs
CREATE OR REPLACE TEMP TABLE std_obs AS
WITH n AS (SELECT slot, count(DISTINCT taxonomy || ':' || concept) = 1 AS alone FROM std_cand GROUP BY slot),
one AS (SELECT c.* FROM std_cand c SEMI JOIN n ON n.slot = c.slot AND n.alone),
multi AS (  -- the versions each filing reports in slots of several tags (SEC's re-issue replaces a version)
    SELECT c.* FROM std_cand c SEMI JOIN n ON n.slot = c.slot AND NOT n.alone WHERE NOT c.superseded
),
filing AS (  -- per slot and filing: the largest general-scope currency flow, and its place in filing order
    SELECT slot, accession,
           max(CASE WHEN scope = 'general' AND additive AND value_kind = 'currency' THEN value END) AS top,
           max(fact_version_order(known_from, filed, accession, revision)) AS filing_order
    FROM multi GROUP BY slot, accession
),
picked AS (  -- each filing's pick; the exponents are columns computed once per row where chain_pick_key
            -- compares with rounding (value <> top): passed as expressions, the macro would copy them into each
            -- place it uses them
    SELECT * EXCLUDE (top, value_e, top_e)
    FROM (SELECT m.*, f.filing_order, f.top, CASE WHEN m.value <> f.top THEN value_exponent(m.value) END AS value_e,
                 CASE WHEN m.value <> f.top THEN value_exponent(f.top) END AS top_e
          FROM multi m JOIN filing f ON f.slot = m.slot AND f.accession = m.accession)
    QUALIFY row_number() OVER (PARTITION BY slot, accession
                               ORDER BY chain_pick_key(scope, additive, value_kind, value, chain_rank, top,
                                                       value_e, top_e)) = 1
),
first_total AS (  -- the first filing whose pick is a general-scope tag
    SELECT slot, min(filing_order) AS first_order FROM picked WHERE scope = 'general' GROUP BY slot
)
SELECT p.* EXCLUDE (superseded) FROM picked p LEFT JOIN first_total t USING (slot)
WHERE p.scope = 'general' OR t.first_order IS NULL OR p.filing_order < t.first_order
UNION ALL BY NAME
SELECT * EXCLUDE (superseded), fact_version_order(known_from, filed, accession, revision) AS filing_order FROM one;
