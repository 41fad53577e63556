-- reads: facts, accession_acceptance, source_documents, fact_revision, fact_known_from, standard_concept_chains, chain_pick_key, value_exponent, fact_version_order
-- The timeline of every REPORTED standard value of the companies listed in ciks (NULL = every
-- company), as public at ts, reading only the XBRL concepts in chain_concepts (NULL = all): one row
-- per period slot (cik, standard_concept, unit, period_start, period_end) and filing (accession)
-- that reports any of the chain's tags for that period and so became its answer, with what that
-- filing says: the pick among the tags THAT filing reports (chain_pick_key: general-scope totals
-- before parts, the largest general-scope currency flow, else chain order). Totals before parts across filings too: once a filing reported a
-- general-scope tag for the period, a later filing reporting only narrower ones (restricted cash in
-- a cash-flow statement, a segment's goods revenue) is not the period's answer and has no row. A
-- tag's value from an older filing never competes with a newer filing's figures, so the standard
-- value of a period is the last row (the latest such filing, by fact_version_order;
-- company_standard_facts_as_of_only takes its prior value from here), and a change between two
-- consecutive rows is a restatement of the standard concept even when the tag changed
-- (standard_restatements). A filing SEC re-issued counts as a filing of its own (its revision).
-- keys (NULL = all; positional, since DuckLake cannot store a macro parameter's NULL default): only the facts of these keys, hash(cik, taxonomy, concept, unit, period_start,
-- period_end) (a slot's timeline is its tags' keys': company_standard_facts_as_of_only passes the
-- keys of the slots it needs, so the other facts are neither ranked nor grouped).
-- grain: (cik, standard_concept, unit, period_start, period_end, accession, revision).
CREATE OR REPLACE MACRO standard_value_timeline_of(ciks, ts, chain_concepts, keys) AS TABLE
WITH ranked AS (  -- the companies' facts of chain tags (only those are ranked), with their revision
    SELECT f.*, fact_revision(f.cik, f.taxonomy, f.concept, f.unit, f.period_start, f.period_end, f.accession,
                              f.payload_vintage, f.source_document_id) AS revision
    FROM facts f
    SEMI JOIN (SELECT DISTINCT taxonomy, concept FROM standard_concept_chains) k
      ON k.taxonomy = f.taxonomy AND k.concept = f.concept
    WHERE (ciks IS NULL OR (f.cik BETWEEN list_min(ciks) AND list_max(ciks) AND list_contains(ciks, f.cik)))
      AND (chain_concepts IS NULL OR list_contains(chain_concepts, f.concept))
      AND (keys IS NULL OR hash(f.cik, f.taxonomy, f.concept, f.unit, f.period_start, f.period_end) IN (SELECT unnest(keys)))
),
tagged AS (  -- each with every standard concept whose chain lists its tag
    SELECT f.cik, c.standard_concept, c.chain_rank, c.scope, c.additive, c.value_kind, f.taxonomy, f.concept, f.unit,
           f.period_start, f.period_end, f.value, f.accession, f.form, f.filed, f.fiscal_year, f.fiscal_period,
           f.duration_class, f.source_document_id, f.revision
    FROM ranked f
    JOIN standard_concept_chains c ON c.taxonomy = f.taxonomy AND c.concept = f.concept
    WHERE CASE WHEN c.period_type = 'instant' THEN f.duration_class = 'instant'
               ELSE f.duration_class IN ('quarter', 'six_months', 'nine_months', 'annual') END
),
v AS (  -- every version public at ts of a chain tag (known_from as fact_versions has it)
    SELECT t.cik, t.standard_concept, t.unit, t.period_start, t.period_end, t.accession, t.revision, t.taxonomy,
           t.concept, hash(t.cik, t.standard_concept, t.unit, t.period_start, t.period_end) AS slot,
           {'chain_rank': t.chain_rank, 'scope': t.scope, 'additive': t.additive, 'value_kind': t.value_kind,
            'value': t.value, 'form': t.form, 'filed': t.filed,
            'known_from': fact_known_from(t.revision, a.acceptance_time, t.filed, d.fetched_at),
            'fiscal_year': t.fiscal_year, 'fiscal_period': t.fiscal_period, 'duration_class': t.duration_class} AS x
    FROM tagged t
    LEFT JOIN accession_acceptance a ON a.accession = t.accession
    LEFT JOIN source_documents d ON d.source_document_id = t.source_document_id
    WHERE fact_known_from(t.revision, a.acceptance_time, t.filed, d.fetched_at) <= CAST(ts AS TIMESTAMP)
),
pub AS (  -- per slot and filing (an SEC re-issue of it: a filing of its own): the largest general-scope currency flow
    SELECT slot, accession, revision,
           max(CASE WHEN x.scope = 'general' AND x.additive AND x.value_kind = 'currency' THEN x.value END) AS top
    FROM v GROUP BY slot, accession, revision
),
keyed AS (  -- the exponents are columns computed once per row where chain_pick_key compares with rounding
            -- (value <> top): passed as expressions, the macro would copy them into each place it uses them
    SELECT * EXCLUDE (top, value_e, top_e),
           chain_pick_key(x.scope, x.additive, x.value_kind, x.value, x.chain_rank, top, value_e, top_e) AS pick_key
    FROM (SELECT v.*, p.top, CASE WHEN v.x.value <> p.top THEN value_exponent(v.x.value) END AS value_e,
                 CASE WHEN v.x.value <> p.top THEN value_exponent(p.top) END AS top_e
          FROM v JOIN pub p ON p.slot = v.slot AND p.accession = v.accession AND p.revision = v.revision)
),
g AS (
    SELECT any_value(cik) AS cik, any_value(standard_concept) AS standard_concept, any_value(unit) AS unit,
           any_value(period_start) AS period_start, any_value(period_end) AS period_end, accession, revision,
           arg_min({'taxonomy': taxonomy, 'concept': concept, 'scope': x.scope, 'value': x.value, 'form': x.form,
                    'filed': x.filed, 'fiscal_year': x.fiscal_year, 'fiscal_period': x.fiscal_period}, pick_key) AS pick,
           max(fact_version_order(x.known_from, x.filed, accession, revision)) AS filing_order,
           slot
    FROM keyed
    GROUP BY slot, accession, revision
),
first_total AS (  -- per slot, the first filing that reported a general-scope tag (a total)
    SELECT slot, min(filing_order) AS first_order FROM g WHERE pick.scope = 'general' GROUP BY slot
)
SELECT g.* FROM g LEFT JOIN first_total t USING (slot)
WHERE g.pick.scope = 'general' OR t.first_order IS NULL OR g.filing_order < t.first_order;
