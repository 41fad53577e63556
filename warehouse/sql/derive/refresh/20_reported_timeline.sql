-- Timeline of the REPORTED standard value of each slot, by filing: the value of a period is what the
-- latest filing reporting any of the chain's tags for it says, the pick among the tags THAT filing
-- reports by chain_pick_key (general-scope totals first, the largest general-scope currency flow,
-- then chain order), so a tag's value from an older filing never beats a newer filing's figure (a
-- tag the company stopped using keeps no value standing); totals before parts across filings too:
-- once a filing reported a general-scope tag for the period, a later filing of narrower tags only is
-- not its answer (standard_value_timeline_of, said the same way). Consecutive filings that say the same
-- value (a confirmation, or the same value under another tag) collapse into one interval
-- [valid_from, valid_to) that keeps the first one's pick: a metric gets a new version only when a
-- value changes. A slot whose versions are all of one tag (most slots) skips the ranking: the
-- tag's changes of value, each from its known_from on. The same rule as standard_facts
-- (company_standard_facts_as_of_only, which lists the candidates; the refresh needs only the pick).
-- grain: (slot, valid_from).
-- reads: std_cand, chain_pick_key, value_exponent, fact_version_order
-- creates: std_rep
CREATE OR REPLACE TEMP TABLE std_rep AS
WITH n AS (SELECT slot, count(DISTINCT taxonomy || ':' || concept) = 1 AS alone FROM std_cand GROUP BY slot),
one AS (SELECT c.* FROM std_cand c SEMI JOIN n ON n.slot = c.slot AND n.alone WHERE c.is_change),
multi AS (  -- the versions each filing reports in slots of several tags (SEC's re-issue replaces a version)
    SELECT c.* FROM std_cand c SEMI JOIN n ON n.slot = c.slot AND NOT n.alone WHERE NOT c.superseded
),
filing AS (  -- per slot and filing: the largest general-scope currency flow, and its place in filing order
    SELECT slot, accession,
           max(CASE WHEN scope = 'general' AND additive AND value_kind = 'currency' THEN value END) AS top,
           max(fact_version_order(known_from, filed, accession, revision)) AS filing_order
    FROM multi GROUP BY slot, accession
),
picked AS (  -- each filing's pick (the exponents once per row, where chain_pick_key compares with rounding)
    SELECT m.*, f.filing_order FROM multi m JOIN filing f ON f.slot = m.slot AND f.accession = m.accession
    QUALIFY row_number() OVER (PARTITION BY m.slot, m.accession
                               ORDER BY chain_pick_key(m.scope, m.additive, m.value_kind, m.value, m.chain_rank, f.top,
                                                       CASE WHEN m.value <> f.top THEN value_exponent(m.value) END,
                                                       CASE WHEN m.value <> f.top THEN value_exponent(f.top) END)) = 1
),
first_total AS (  -- totals before parts across filings: the first filing whose pick is a general-scope tag
    SELECT slot, min(filing_order) AS first_order FROM picked WHERE scope = 'general' GROUP BY slot
),
answers AS (  -- the filings that became the period's answer: after a total, a filing of parts only is not
    SELECT p.* FROM picked p LEFT JOIN first_total t USING (slot)
    WHERE p.scope = 'general' OR t.first_order IS NULL OR p.filing_order < t.first_order
),
changes AS (
    SELECT * FROM answers
    QUALIFY lag(value) OVER (PARTITION BY slot ORDER BY filing_order) IS DISTINCT FROM value
)
SELECT * EXCLUDE (filing_order, is_change, superseded, known_from),
       known_from AS valid_from, known_from AS fact_known_from,
       lead(known_from) OVER (PARTITION BY slot ORDER BY filing_order) AS valid_to
FROM changes
UNION ALL BY NAME
SELECT * EXCLUDE (is_change, superseded, known_from), known_from AS valid_from, known_from AS fact_known_from,
       lead(known_from) OVER (PARTITION BY slot ORDER BY known_from, filed, accession, revision) AS valid_to
FROM one;
