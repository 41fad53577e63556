-- reads: facts, facts_current_rows, accession_acceptance, source_documents, fact_known_from, fact_revision, fact_version_order, same_within_rounding, same_within_rounding_at, plain_number, value_exponent
-- fact_restatements_of(ciks): the restatements of the companies listed in ciks (NULL = every company:
-- the view fact_restatements). Every read of facts is filtered by company where it happens (the
-- BETWEEN lets the scan skip other companies' row groups). Only the keys that can give a row or its
-- evidence are ranked: those whose versions carry different values (facts_current_rows.restated,
-- kept by every load before this is computed: a key re-filed unchanged has no change) and the
-- bottom lines (totals below) of a company, unit and period where some value changed (the only
-- place their evidence is read); each is ranked as facts_ranked_as_of does
-- (fact_revision, fact_known_from, fact_version_order), in one window: a change is a version whose
-- value differs from the one before it (its prior value is that version's), a confirmation one
-- whose value does not.
-- One row per change of a fact's value (re-filing an unchanged value is a confirmation, not here),
-- with change_kind and the evidence for it, first rule that holds:
--   sec_correction    SEC re-issued the value under the same accession;
--   split             a per-share value divided / share count multiplied by a split ratio k (1.5..100,
--                     within 2 % or the rounding of the reported value), cross-checked: at least two
--                     other per-share or share values of the same filing changed by the same k, or the
--                     company reported a split ratio k (StockholdersEquityNoteStockSplitConversionRatio1...);
--                     a reverse split (1/k) only when the company reported it;
--   rounding          the two values differ only by rounding (same_within_rounding);
--   amendment         the new value came in a /A form;
--   zeroed_or_filled, sign_change, scale_change (x1000);
--   reclassification  other values of the same period changed in the same filing while a bottom
--                     line of that period (assets, net income, cash-flow totals) re-filed unchanged;
--   comparative_revision  anything else.
CREATE OR REPLACE MACRO fact_restatements_of(ciks) AS TABLE
WITH totals AS (  -- bottom lines whose re-report in a filing confirms the total did not move
    SELECT * FROM (VALUES ('us-gaap', 'Assets'), ('us-gaap', 'LiabilitiesAndStockholdersEquity'),
                          ('us-gaap', 'NetIncomeLoss'), ('us-gaap', 'ProfitLoss'),
                          ('us-gaap', 'NetCashProvidedByUsedInOperatingActivities'),
                          ('us-gaap', 'NetCashProvidedByUsedInInvestingActivities'),
                          ('us-gaap', 'NetCashProvidedByUsedInFinancingActivities'),
                          ('ifrs-full', 'Assets'), ('ifrs-full', 'EquityAndLiabilities'), ('ifrs-full', 'ProfitLoss'),
                          ('ifrs-full', 'CashFlowsFromUsedInOperatingActivities'))
           t(taxonomy, concept)
),
candidates AS (  -- the companies' keys that can matter: values that differ (restated), and bottom lines
    SELECT c.cik, c.taxonomy, c.concept, c.unit, c.period_start, c.period_end, c.restated
    FROM facts_current_rows c LEFT JOIN totals t ON t.taxonomy = c.taxonomy AND t.concept = c.concept
    WHERE (ciks IS NULL OR (c.cik BETWEEN list_min(ciks) AND list_max(ciks) AND list_contains(ciks, c.cik)))
      AND (c.restated OR t.concept IS NOT NULL)
),
keyed AS (  -- the keys to rank: the restated ones, and the bottom lines re-filed unchanged only where
            -- their evidence can be read (unchanged_totals is joined on a change's cik, unit and period:
            -- a bottom line of a period, unit and company with no change gives no row and no evidence)
    SELECT cik, taxonomy, concept, unit, period_start, period_end FROM candidates WHERE restated
    UNION ALL
    SELECT c.cik, c.taxonomy, c.concept, c.unit, c.period_start, c.period_end
    FROM candidates c
    SEMI JOIN (SELECT DISTINCT cik, unit, period_start, period_end FROM candidates WHERE restated) r
      ON r.cik = c.cik AND r.unit = c.unit AND r.period_start IS NOT DISTINCT FROM c.period_start
     AND r.period_end = c.period_end
    WHERE NOT c.restated
),
versions AS (  -- every version of those keys, as fact_versions has it
    SELECT x.*, fact_known_from(x.revision, a.acceptance_time, x.filed, d.fetched_at) AS known_from
    FROM (SELECT f.cik, f.taxonomy, f.concept, f.unit, f.period_start, f.period_end, f.fiscal_year,
                 f.fiscal_period, f.value, f.accession, f.filed, f.form, f.source_document_id,
                 fact_revision(f.cik, f.taxonomy, f.concept, f.unit, f.period_start, f.period_end, f.accession,
                               f.payload_vintage, f.source_document_id) AS revision
          FROM facts f
          SEMI JOIN keyed k
            ON k.cik = f.cik AND k.taxonomy = f.taxonomy AND k.concept = f.concept AND k.unit = f.unit
           AND k.period_start IS NOT DISTINCT FROM f.period_start AND k.period_end = f.period_end
          WHERE ciks IS NULL OR (f.cik BETWEEN list_min(ciks) AND list_max(ciks) AND list_contains(ciks, f.cik))) x
    LEFT JOIN accession_acceptance a ON a.accession = x.accession
    LEFT JOIN source_documents d ON d.source_document_id = x.source_document_id
),
ranked AS (  -- run_start: the value differs from the version before it (a key's first version: NULL)
    SELECT *, lag_value <> value AS run_start
    FROM (SELECT *, lag(value) OVER w AS lag_value, lag(accession) OVER w AS lag_accession,
                 lag(filed) OVER w AS lag_filed
          FROM versions
          WINDOW w AS (PARTITION BY cik, taxonomy, concept, unit, period_start, period_end
                       ORDER BY fact_version_order(known_from, filed, accession, revision)))
),
ch AS (
    SELECT cik, taxonomy, concept, unit, period_start, period_end, fiscal_year, fiscal_period,
           lag_value AS old_value, value AS new_value, value - lag_value AS change,
           lag_accession AS old_accession, accession AS new_accession,
           lag_filed AS old_filed, filed AS new_filed, form AS new_form,
           near, CASE WHEN near THEN value_exponent(lag_value) END AS old_exponent,
           CASE WHEN near THEN value_exponent(value) END AS new_exponent  -- once per value, only where used
    FROM (SELECT *,  -- near: can differ only by rounding (same_within_rounding_at needs |a - b| <= 0.5 x 10^e
                     -- <= |L| / 20 for the less precise value L; in DOUBLE with a wide margin: / 10)
                 CAST(abs(value - lag_value) AS DOUBLE) * 10 <= CAST(greatest(abs(value), abs(lag_value)) AS DOUBLE) AS near
          FROM ranked WHERE run_start)
),
split_ratio AS (  -- per-share values divided, share counts multiplied by k (k < 1: reverse split)
    SELECT *, CASE WHEN f BETWEEN 1.4 AND 100 THEN round(f * 2) / 2
                   WHEN f BETWEEN 1 / 100.0 AND 1 / 1.4 THEN 2 / round(2 / f) END AS k
    FROM (SELECT ch.*, CASE WHEN unit = 'shares' THEN CAST(new_value AS DOUBLE) / CAST(old_value AS DOUBLE)
                            ELSE CAST(old_value AS DOUBLE) / CAST(new_value AS DOUBLE) END AS f
          FROM ch WHERE (unit = 'shares' OR unit LIKE '%/shares') AND old_value > 0 AND new_value > 0)
),
split_cand AS (
    SELECT * FROM split_ratio
    WHERE k IS NOT NULL AND (abs(f / k - 1) <= 0.02
          OR same_within_rounding(CASE WHEN unit = 'shares' THEN old_value * CAST(k AS DECIMAL(18, 6))
                                       ELSE old_value / CAST(k AS DECIMAL(18, 6)) END, new_value))
),
peers AS (SELECT cik, new_accession, k, count(*) AS n FROM split_cand GROUP BY ALL),
declared AS (  -- split ratios the company itself reported
    SELECT cik, CAST(value AS DOUBLE) AS k, min(filed) AS filed, any_value(concept) AS concept
    FROM facts WHERE (ciks IS NULL OR (cik BETWEEN list_min(ciks) AND list_max(ciks) AND list_contains(ciks, cik)))
      AND concept IN ('StockholdersEquityNoteStockSplitConversionRatio1',
                                 'StockholdersEquityNoteStockSplitConversionRatio', 'StockholdersEquityReverseStockSplit')
      AND unit = 'pure' AND value > 0
    GROUP BY cik, value, period_end  -- one row per split event (its date)
),
splits AS (
    SELECT s.cik, s.taxonomy, s.concept, s.unit, s.period_start, s.period_end, s.new_accession,
           'split ' || CASE WHEN s.k >= 1 THEN regexp_replace(CAST(s.k AS VARCHAR), '\.0$', '') || ':1'
                            ELSE '1:' || regexp_replace(CAST(1 / s.k AS VARCHAR), '\.0$', '') END
           || ' (' || CASE WHEN s.unit = 'shares' THEN 'shares x ' ELSE 'per share / ' END
           || regexp_replace(CAST(s.k AS VARCHAR), '\.0$', '') || ')'
           || CASE WHEN p.n > 1 THEN '; ' || (p.n - 1) || ' other per-share/share values in ' || s.new_accession
                                     || ' changed by the same ratio' ELSE '' END
           || coalesce('; the company reported ' || d.concept || ' = ' || regexp_replace(CAST(d.k AS VARCHAR), '\.0$', ''), '')
               AS evidence
    FROM split_cand s
    JOIN peers p ON p.cik = s.cik AND p.new_accession = s.new_accession AND p.k = s.k
    LEFT JOIN declared d ON d.cik = s.cik AND abs(d.k - s.k) < 1e-9
                        AND d.filed BETWEEN s.old_filed AND s.new_filed + INTERVAL 400 DAY
    WHERE d.cik IS NOT NULL OR (s.k > 1 AND p.n > 2)  -- a reverse split only when the company reported it
    QUALIFY row_number() OVER (PARTITION BY s.cik, s.taxonomy, s.concept, s.unit, s.period_start, s.period_end,
                                            s.new_accession ORDER BY d.filed DESC NULLS LAST) = 1
),
unchanged_totals AS (
    SELECT r.cik, r.accession, r.unit, r.period_start, r.period_end,
           string_agg(r.taxonomy || ':' || r.concept || ' = ' || plain_number(r.value), ', ' ORDER BY r.concept) AS totals
    FROM ranked r SEMI JOIN totals t ON t.taxonomy = r.taxonomy AND t.concept = r.concept
    WHERE NOT r.run_start
    GROUP BY ALL
),
moved AS (  -- other values of the same filing, period and unit that changed too
    SELECT ch.cik, ch.new_accession, ch.unit, ch.period_start, ch.period_end, count(*) AS n
    FROM ch ANTI JOIN totals t ON t.taxonomy = ch.taxonomy AND t.concept = ch.concept
    GROUP BY ALL
)
SELECT * EXCLUDE (near, old_exponent, new_exponent, split_evidence, totals, n),
       CASE change_kind  -- said once per kind: the rule that chose the kind is not evaluated again
            WHEN 'sec_correction' THEN 'SEC re-issued the value under the same accession'
            WHEN 'split' THEN split_evidence
            WHEN 'rounding'
                THEN plain_number(old_value) || ' and ' || plain_number(new_value) || ' agree to 10^'
                     || greatest(old_exponent, new_exponent)
                     || ', the precision of the less precise value'
            WHEN 'amendment' THEN 'reported again in ' || new_form
            WHEN 'reclassification'
                THEN (n - 1) || ' other values of the same period changed in ' || new_accession
                     || ' while its total(s) stayed: ' || totals END AS evidence
FROM (
SELECT ch.*, sp.evidence AS split_evidence, ut.totals, mv.n,
       CASE WHEN ch.new_accession = ch.old_accession THEN 'sec_correction'
            WHEN sp.evidence IS NOT NULL THEN 'split'
            WHEN ch.near AND same_within_rounding_at(ch.new_value, ch.old_value, ch.new_exponent, ch.old_exponent)
                THEN 'rounding'
            WHEN ch.new_form LIKE '%/A' THEN 'amendment'
            WHEN ch.old_value = 0 OR ch.new_value = 0 THEN 'zeroed_or_filled'
            WHEN abs(ch.new_value) = abs(ch.old_value) THEN 'sign_change'
            WHEN abs(ch.new_value / ch.old_value) BETWEEN 999 AND 1001 OR abs(ch.old_value / ch.new_value) BETWEEN 999 AND 1001
                THEN 'scale_change'
            WHEN ut.totals IS NOT NULL AND mv.n > 1 AND t.concept IS NULL THEN 'reclassification'
            ELSE 'comparative_revision' END AS change_kind
FROM ch
LEFT JOIN splits sp ON sp.cik = ch.cik AND sp.taxonomy = ch.taxonomy AND sp.concept = ch.concept AND sp.unit = ch.unit
                   AND sp.period_start IS NOT DISTINCT FROM ch.period_start AND sp.period_end = ch.period_end
                   AND sp.new_accession = ch.new_accession
LEFT JOIN unchanged_totals ut ON ut.cik = ch.cik AND ut.accession = ch.new_accession AND ut.unit = ch.unit
                             AND ut.period_start IS NOT DISTINCT FROM ch.period_start AND ut.period_end = ch.period_end
LEFT JOIN moved mv ON mv.cik = ch.cik AND mv.new_accession = ch.new_accession AND mv.unit = ch.unit
                  AND mv.period_start IS NOT DISTINCT FROM ch.period_start AND mv.period_end = ch.period_end
LEFT JOIN totals t ON t.taxonomy = ch.taxonomy AND t.concept = ch.concept
) kinds;
