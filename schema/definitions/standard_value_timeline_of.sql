-- reads: fact_versions, standard_concept_chains, chain_pick_key, value_exponent, plain_number, fact_version_order
-- The timeline of every REPORTED standard value of the companies listed in ciks (NULL = every
-- company), as public at ts, reading only the XBRL concepts in chain_concepts (NULL = all): one row
-- per period slot (cik, standard_concept, unit, period_start, period_end) and filing (accession)
-- that reports any of the chain's tags for that period and so became its answer, with what that
-- filing says: the pick among the tags THAT filing reports (chain_pick_key: general-scope totals
-- before parts, the largest general-scope currency flow, else chain order) and its candidates
-- (tag=value, pick order). Totals before parts across filings too: once a filing reported a
-- general-scope tag for the period, a later filing reporting only narrower ones (restricted cash in
-- a cash-flow statement, a segment's goods revenue) is not the period's answer and has no row. A
-- tag's value from an older filing never competes with a newer filing's figures, so the standard
-- value of a period is the last row (the latest such filing, by fact_version_order;
-- company_standard_facts_as_of_only takes its prior value from here), and a change between two
-- consecutive rows is a restatement of the standard concept even when the tag changed
-- (standard_restatements). Within one filing a tag re-issued by SEC counts in its latest revision.
-- grain: (cik, standard_concept, unit, period_start, period_end, accession).
CREATE OR REPLACE MACRO standard_value_timeline_of(ciks, ts, chain_concepts) AS TABLE
WITH v AS (  -- every version public at ts of a chain tag, the latest revision per tag and filing
    SELECT f.cik, c.standard_concept, f.unit, f.period_start, f.period_end, f.accession, f.taxonomy, f.concept,
           hash(f.cik, c.standard_concept, f.unit, f.period_start, f.period_end) AS slot,
           arg_max({'chain_rank': c.chain_rank, 'scope': c.scope, 'additive': c.additive, 'value_kind': c.value_kind,
                    'value': f.value, 'form': f.form, 'filed': f.filed, 'known_from': f.known_from,
                    'revision': f.revision, 'fiscal_year': f.fiscal_year, 'fiscal_period': f.fiscal_period,
                    'duration_class': f.duration_class}, f.revision) AS x
    FROM fact_versions f
    JOIN standard_concept_chains c ON c.taxonomy = f.taxonomy AND c.concept = f.concept
    WHERE f.known_from <= CAST(ts AS TIMESTAMP)
      AND (ciks IS NULL OR (f.cik BETWEEN list_min(ciks) AND list_max(ciks) AND list_contains(ciks, f.cik)))
      AND (chain_concepts IS NULL OR list_contains(chain_concepts, f.concept))
      AND CASE WHEN c.period_type = 'instant' THEN f.duration_class = 'instant'
               ELSE f.duration_class IN ('quarter', 'six_months', 'nine_months', 'annual') END
    GROUP BY ALL
),
pub AS (  -- per slot and filing: how many tags, the largest general-scope currency flow
    SELECT slot, accession, count(*) AS n,
           max(CASE WHEN x.scope = 'general' AND x.additive AND x.value_kind = 'currency' THEN x.value END) AS top
    FROM v GROUP BY slot, accession
),
keyed AS (
    SELECT v.*, chain_pick_key(x.scope, x.additive, x.value_kind, x.value, x.chain_rank, p.top,
                               CASE WHEN x.value <> p.top THEN value_exponent(x.value) END,
                               CASE WHEN x.value <> p.top THEN value_exponent(p.top) END) AS pick_key,
           v.taxonomy || ':' || v.concept || '=' || plain_number(x.value) AS tag_value
    FROM v JOIN pub p ON p.slot = v.slot AND p.accession = v.accession
),
g AS (
    SELECT any_value(cik) AS cik, any_value(standard_concept) AS standard_concept, any_value(unit) AS unit,
           any_value(period_start) AS period_start, any_value(period_end) AS period_end, accession,
           arg_min({'taxonomy': taxonomy, 'concept': concept, 'chain_rank': x.chain_rank, 'scope': x.scope,
                    'value': x.value, 'form': x.form, 'filed': x.filed, 'known_from': x.known_from,
                    'revision': x.revision, 'fiscal_year': x.fiscal_year, 'fiscal_period': x.fiscal_period,
                    'duration_class': x.duration_class}, pick_key) AS pick,
           max(fact_version_order(x.known_from, x.filed, accession, x.revision)) AS filing_order,
           list_transform(list_sort(list((pick_key, tag_value))), e -> e[2]) AS candidates,
           slot
    FROM keyed
    GROUP BY slot, accession
),
first_total AS (  -- per slot, the first filing that reported a general-scope tag (a total)
    SELECT slot, min(filing_order) AS first_order FROM g WHERE pick.scope = 'general' GROUP BY slot
)
SELECT g.* FROM g LEFT JOIN first_total t USING (slot)
WHERE g.pick.scope = 'general' OR t.first_order IS NULL OR g.filing_order < t.first_order;
