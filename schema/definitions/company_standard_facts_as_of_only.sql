-- reads: facts_current, company_facts_as_of_only, standard_value_timeline_of, standard_concept_chains, subtractable_unit, ytd_steps_one_quarter, derived_quarter, derived_quarter_pick, chain_pick_key, value_exponent, plain_number, fact_version_order
-- Point-in-time standard facts of some companies, the same rules as the metrics refresh (warehouse/sql/derive/refresh/):
-- * per period (cik, standard_concept, unit, period_start, period_end) over facts_as_of(ts), the
--   value is what the LATEST filing reporting any of the chain's tags for that period says (by
--   fact_version_order of the tags' current versions: never an older filing's figure under a tag
--   the company stopped using; totals before parts: the latest filing reporting a general-scope tag
--   when one did): the chain tags that filing reports are ranked by chain_pick_key: general-scope
--   totals before parts, the largest general-scope currency flow (equal within rounding: chain
--   order), else chain order; candidates lists every chain tag's current value, the matched tag
--   first, the latest filing's tags in pick order, then the older filings' tags ranked the same way
--   among themselves (tags_tried: the chain up to the matched tag); prior_value /
--   prior_accession / prior_filed: the last DIFFERENT value in the period's timeline across tags
--   (standard_value_timeline_of: what each filing said) and the filing that said it;
-- * discrete quarters Q2/Q3/Q4 are derived from year-to-date values of ONE tag (derived_quarter, the
--   rule the metrics refresh calls too), from every tag reporting both periods, when no tagged
--   discrete quarter ends on that date; the pick among tags and its flags: derived_quarter_pick.
--   Never for per-share values, ratios or instants.
-- ciks: the companies to compute (NULL = every company: standard_facts_as_of), their facts read by
-- key, so one company costs that company's facts, not the warehouse's: now (ts at or after
-- 9999-12-31, what standard_facts and every "current" caller pass) the facts public at ts are the
-- current versions loads keep sorted by company in facts_current, read by key with no version
-- ranked and no acceptance time looked up; an earlier ts ranks the companies' versions public then
-- (company_facts_as_of_only). Both give the same rows (tests/warehouse/derive/test_standard_facts_paths.py).
-- standard_names (NULL = all): the standard concepts to compute; chain_concepts (NULL = all): the XBRL concepts their chains read (read/api/chain_concepts.sql), a
-- constant the facts scan filters on, so only those tags' versions are read and ranked. A caller
-- that passes chain_concepts must pass every concept of the chains it asks for.
-- grain: (cik, standard_concept, unit, period_start, period_end).
CREATE OR REPLACE MACRO company_standard_facts_as_of_only(ciks, ts, standard_names, chain_concepts) AS TABLE
WITH public_at AS (  -- the latest version of every fact key public at ts (one branch is planned: ts is a constant)
    SELECT cik, taxonomy, concept, unit, period_start, period_end, value, accession, form, filed, known_from,
           fiscal_year, fiscal_period, duration_class, duration_days,
           {'value': prior_value, 'accession': prior_accession, 'filed': prior_filed} AS key_prior
    FROM facts_current
    WHERE CAST(ts AS TIMESTAMP) >= TIMESTAMP '9999-12-31'
      AND (ciks IS NULL OR CASE WHEN len(ciks) = 1 THEN cik = ciks[1]
                                ELSE cik BETWEEN list_min(ciks) AND list_max(ciks) AND list_contains(ciks, cik) END)
      AND (chain_concepts IS NULL OR list_contains(chain_concepts, concept))
    UNION ALL
    SELECT cik, taxonomy, concept, unit, period_start, period_end, value, accession, form, filed, known_from,
           fiscal_year, fiscal_period, duration_class, duration_days,
           CAST(NULL AS STRUCT("value" DECIMAL(38, 10), accession VARCHAR, filed DATE)) AS key_prior
    FROM company_facts_as_of_only(ciks, ts, chain_concepts)
    WHERE CAST(ts AS TIMESTAMP) < TIMESTAMP '9999-12-31'
),
cand AS (  -- every chain tag's current value of each slot
    SELECT f.cik, c.standard_concept, c.chain_rank, c.scope, c.additive, c.value_kind, c.tags_tried,
           f.taxonomy, f.concept, f.unit, f.period_start, f.period_end, f.value, f.accession, f.form,
           f.filed, f.known_from, f.fiscal_year, f.fiscal_period, f.duration_class, f.duration_days, f.key_prior,
           hash(f.cik, c.standard_concept, f.unit, f.period_start, f.period_end) AS slot,
           f.taxonomy || ':' || f.concept || '=' || plain_number(f.value) AS tag_value  -- as candidates lists it
    FROM public_at f
    JOIN standard_concept_chains c ON c.taxonomy = f.taxonomy AND c.concept = f.concept
    WHERE (standard_names IS NULL OR list_contains(standard_names, c.standard_concept))
      AND CASE WHEN c.period_type = 'instant' THEN f.duration_class = 'instant'
               ELSE f.duration_class IN ('quarter', 'six_months', 'nine_months', 'annual') END
),
slots AS (  -- per slot: how many candidates, and the latest filing reporting any of them (one reporting a
            -- general-scope tag, a total, when some filing did: standard_value_timeline_of)
    SELECT slot, count(*) AS n,
           arg_max(accession, {'total': scope = 'general',
                               'order': fact_version_order(known_from, filed, accession, 0)}) AS latest
    FROM cand GROUP BY slot
),
several AS (  -- the candidates of slots of several (one candidate, most slots, is its slot's pick), marked
              -- when the latest filing reports them
    SELECT c.*, c.accession = s.latest AS in_latest FROM cand c JOIN slots s ON s.slot = c.slot AND s.n > 1
),
tops AS (  -- the largest general-scope currency flow among the latest filing's candidates, and the others'
    SELECT slot, max(CASE WHEN scope = 'general' AND additive AND value_kind = 'currency' THEN value END) AS top,
           in_latest
    FROM several GROUP BY slot, in_latest
),
keyed AS (  -- with their pick key: the latest filing's tags first, then chain_pick_key within each group; the
            -- exponents are columns computed once per row where chain_pick_key compares with rounding
            -- (value <> top): passed as expressions, a macro would copy them into each place it uses them
    SELECT * EXCLUDE (top, value_e, top_e, in_latest),
           list_prepend(CASE WHEN in_latest THEN 0 ELSE 1 END,
                        chain_pick_key(scope, additive, value_kind, value, chain_rank, top, value_e, top_e)) AS pick_key
    FROM (SELECT c.*, t.top, CASE WHEN c.value <> t.top THEN value_exponent(c.value) END AS value_e,
                 CASE WHEN c.value <> t.top THEN value_exponent(t.top) END AS top_e
          FROM several c JOIN tops t ON t.slot = c.slot AND t.in_latest = c.in_latest)
),
tried AS (  -- the pick (the least key: unique in its slot, the chain rank is its last part: a tag of the
            -- latest filing) and the candidates in pick order: (key, text) pairs sorted, aggregates over slots, never a window partitioned by
            -- slot (DuckDB pays a fixed cost per partition) nor an ORDER BY aggregate
    SELECT slot, min(pick_key) AS best,
           list_transform(list_sort(list((pick_key, tag_value))), lambda e: e[2]) AS candidates
    FROM keyed GROUP BY slot
),
reported AS (
    SELECT c.*, [c.tag_value] AS candidates, true AS alone
    FROM cand c SEMI JOIN slots s ON s.slot = c.slot AND s.n = 1
    UNION ALL BY NAME
    SELECT k.* EXCLUDE (pick_key), t.candidates, false AS alone
    FROM keyed k JOIN tried t ON t.slot = k.slot AND t.best = k.pick_key
),
per_tag AS (  -- the quarter derived from each tag that reports both year-to-date periods (the rule:
             -- derived_quarter, which the metrics refresh calls too)
    SELECT l.cik, l.standard_concept, l.chain_rank, l.scope, l.tags_tried, l.taxonomy, l.concept, l.unit,
           l.period_end, l.accession, l.form, l.filed,
           greatest(l.known_from, s.known_from) AS known_from, l.fiscal_year, 'quarter' AS duration_class,
           derived_quarter(l.duration_class, l.period_end, l.value, s.period_end, s.value) AS q,
           coalesce(y.taxonomy = l.taxonomy AND y.concept = l.concept, false) AS same_tag_as_ytd,
           [{'step': 'ytd', 'taxonomy': l.taxonomy, 'concept': l.concept, 'unit': l.unit,
             'period_start': l.period_start, 'period_end': l.period_end, 'accession': l.accession,
             'value': l.value, 'known_from': l.known_from},
            {'step': 'less_ytd', 'taxonomy': s.taxonomy, 'concept': s.concept, 'unit': s.unit,
             'period_start': s.period_start, 'period_end': s.period_end, 'accession': s.accession,
             'value': s.value, 'known_from': s.known_from}] AS inputs
    FROM cand l
    JOIN cand s
      ON s.cik = l.cik AND s.standard_concept = l.standard_concept AND s.unit = l.unit
     AND s.taxonomy = l.taxonomy AND s.concept = l.concept
     AND s.period_start = l.period_start AND s.fiscal_year = l.fiscal_year
     AND ytd_steps_one_quarter(l.duration_class, s.duration_class, l.period_end, s.period_end)
    LEFT JOIN reported y ON y.slot = l.slot
    ANTI JOIN (SELECT cik, standard_concept, unit, period_end FROM reported WHERE duration_class = 'quarter') r
      ON r.cik = l.cik AND r.standard_concept = l.standard_concept AND r.unit = l.unit AND r.period_end = l.period_end
    WHERE l.additive AND subtractable_unit(l.unit)
),
prior AS (  -- the last different value of each reported slot across tags, and the filing that said it: now,
            -- a slot of one tag ever is its fact key's (facts_current.prior_value: the same timeline, one tag)
    SELECT slot, key_prior AS p FROM reported
    WHERE alone AND CAST(ts AS TIMESTAMP) >= TIMESTAMP '9999-12-31' AND key_prior.value IS NOT NULL
    UNION ALL
    SELECT t.slot, arg_max({'value': t.pick.value, 'accession': t.accession, 'filed': t.pick.filed},
                           t.filing_order) AS p
    FROM standard_value_timeline_of(  -- now: only the keys of the slots of several tags (the others took theirs above)
             ciks, ts, chain_concepts,
             CASE WHEN CAST(ts AS TIMESTAMP) >= TIMESTAMP '9999-12-31'
                          THEN (SELECT list(hash(cik, taxonomy, concept, unit, period_start, period_end)) FROM several) END) t
    JOIN reported r ON r.slot = t.slot AND t.pick.value <> r.value
     AND (NOT r.alone OR CAST(ts AS TIMESTAMP) < TIMESTAMP '9999-12-31')
    GROUP BY t.slot
),
derived AS (  -- with its pick (derived_quarter_pick, the refresh's too): the tag the longer period matched,
              -- else chain order (a tag twice, from year-to-date periods of two starts: the earlier start)
    SELECT * EXCLUDE (q), q.period_start, q.value, q.fiscal_period, q.duration_days, q.derivation,
           derived_quarter_pick(same_tag_as_ytd, chain_rank, taxonomy, concept, inputs[1].period_start) AS pick
    FROM per_tag
),
derived_tried AS (  -- per derived slot: the pick (the least key) and the tags in pick order
    SELECT cik, standard_concept, unit, period_start, period_end,
           min(pick.key) AS best, list_transform(list_sort(list((pick.key, taxonomy || ':' || concept))), lambda e: e[2]) AS candidates
    FROM derived GROUP BY cik, standard_concept, unit, period_start, period_end
)
SELECT cik, standard_concept, fiscal_year, fiscal_period, duration_class, duration_days,
       period_start, period_end, value, unit, taxonomy, concept AS matched_tag, chain_rank, scope,
       tags_tried, candidates, accession, form, filed, known_from, 'reported' AS derivation, CAST([] AS VARCHAR[]) AS flags,
       [{'step': 'reported', 'taxonomy': taxonomy, 'concept': concept, 'unit': unit,
         'period_start': period_start, 'period_end': period_end, 'accession': accession,
         'value': value, 'known_from': known_from}] AS inputs,
       p.p.value AS prior_value, p.p.accession AS prior_accession, p.p.filed AS prior_filed
FROM reported LEFT JOIN prior p USING (slot)
UNION ALL BY NAME
SELECT d.cik, d.standard_concept, d.fiscal_year, d.fiscal_period, d.duration_class, d.duration_days,
       d.period_start, d.period_end, d.value, d.unit, d.taxonomy, d.concept AS matched_tag, d.chain_rank, d.scope,
       d.tags_tried, t.candidates, d.accession, d.form, d.filed, d.known_from, d.derivation, d.pick.flags AS flags,
       d.inputs, CAST(NULL AS DECIMAL(38, 10)) AS prior_value, CAST(NULL AS VARCHAR) AS prior_accession,
       CAST(NULL AS DATE) AS prior_filed
FROM derived d
JOIN derived_tried t ON t.cik = d.cik AND t.standard_concept = d.standard_concept AND t.unit = d.unit
                    AND t.period_start = d.period_start AND t.period_end = d.period_end
                    AND t.best = d.pick.key;
