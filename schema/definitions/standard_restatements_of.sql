-- reads: standard_value_timeline_of, fact_restatements, facts, plain_number
-- standard_restatements_of(ciks): the restatements of STANDARD values of the companies listed in
-- ciks (NULL = every company: the view standard_restatements), the sibling of fact_restatements at
-- the standard-concept level: one row per change of a period's standard value between two
-- consecutive filings of its timeline (standard_value_timeline_of: what each filing said, whatever
-- tag it used), so a restatement that moved to another tag is seen. change_kind, first that holds:
--   tag_migration  the new filing says it under another tag than the filing before (evidence: both
--                  tags and values, and whether the new filing still reports the old tag);
--   otherwise the fact-level restatement of the same tag in that filing (fact_restatements: split,
--   rounding, amendment, reclassification, ... with its evidence), else comparative_revision.
-- grain: (cik, standard_concept, unit, period_start, period_end, new_accession).
CREATE OR REPLACE MACRO standard_restatements_of(ciks) AS TABLE
WITH t AS (
    SELECT *, lag(pick) OVER w AS old, lag(accession) OVER w AS old_accession
    FROM standard_value_timeline_of(ciks, TIMESTAMP '9999-12-31 00:00:00', NULL::VARCHAR[], NULL)
    WINDOW w AS (PARTITION BY slot ORDER BY filing_order)
)
SELECT t.cik, t.standard_concept, t.unit, t.period_start, t.period_end, t.pick.fiscal_year AS fiscal_year,
       t.pick.fiscal_period AS fiscal_period, t.old.value AS old_value, t.pick.value AS new_value,
       t.pick.value - t.old.value AS change,
       t.old.taxonomy || ':' || t.old.concept AS old_tag, t.pick.taxonomy || ':' || t.pick.concept AS new_tag,
       t.old_accession, t.accession AS new_accession, t.old.filed AS old_filed, t.pick.filed AS new_filed,
       t.pick.form AS new_form,
       CASE WHEN t.old.concept <> t.pick.concept OR t.old.taxonomy <> t.pick.taxonomy THEN 'tag_migration'
            ELSE coalesce(r.change_kind, 'comparative_revision') END AS change_kind,
       CASE WHEN t.old.concept <> t.pick.concept OR t.old.taxonomy <> t.pick.taxonomy
            THEN t.old.concept || '=' || plain_number(t.old.value) || ' in ' || t.old_accession || ' ('
                 || CAST(t.old.filed AS VARCHAR) || ') -> ' || t.pick.concept || '=' || plain_number(t.pick.value)
                 || ' in ' || t.accession || ' (' || CAST(t.pick.filed AS VARCHAR) || '); the new filing '
                 || CASE WHEN o.accession IS NOT NULL THEN 'also reports ' || t.old.concept
                         ELSE 'no longer reports ' || t.old.concept END
            ELSE r.evidence END AS evidence
FROM t
LEFT JOIN (SELECT DISTINCT cik, taxonomy, concept, unit, period_start, period_end, accession FROM facts
           WHERE ciks IS NULL OR (cik BETWEEN list_min(ciks) AND list_max(ciks) AND list_contains(ciks, cik))) o
  ON o.cik = t.cik AND o.taxonomy = t.old.taxonomy AND o.concept = t.old.concept AND o.unit = t.unit
 AND o.period_start IS NOT DISTINCT FROM t.period_start AND o.period_end = t.period_end AND o.accession = t.accession
LEFT JOIN fact_restatements r
  ON r.cik = t.cik AND r.taxonomy = t.pick.taxonomy AND r.concept = t.pick.concept AND r.unit = t.unit
 AND r.period_start IS NOT DISTINCT FROM t.period_start AND r.period_end = t.period_end
 AND r.new_accession = t.accession AND r.new_value = t.pick.value
 AND (ciks IS NULL OR (r.cik BETWEEN list_min(ciks) AND list_max(ciks) AND list_contains(ciks, r.cik)))
WHERE t.old IS NOT NULL AND t.old.value <> t.pick.value;
