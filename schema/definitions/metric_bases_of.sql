-- reads: derived_metrics_current, metric_lineage, facts, filings, standard_concepts
-- metric_bases_of(ciks): the audit of bases (issue 21) for the companies listed in ciks (NULL = every
-- company: the view metric_bases): one row per current derived metric whose inputs are not on one
-- basis, with the filings involved:
--   inputs_from_different_filings  no single filing reports every input value of the metric (its
--       lineage: each input's period and value, under any tag of its standard concept's chain: the same
--       value re-filed under another tag is the same input; the year-to-date parts a derived quarter subtracts
--       are one group, the parts it subtracts another, so Q4 = FY - 9M of a 10-K and a 10-Q is one
--       basis per side). A metric that must combine filings by its formula (ttm_revenue, the discrete
--       quarters themselves) is left out: its flags say what a recast changed;
--   recast_after_basis  the metric kept a consistent set as filed in one filing, and a later filing
--       recast some of its inputs (its flag names both);
--   no_filing_reports_every_input  its value is NULL for that reason.
-- filings: every filing that reports one of its input values (sorted); detail: the flag or reason,
-- or which inputs no common filing reports.
-- grain: (metric_id, issue).
CREATE OR REPLACE MACRO metric_bases_of(ciks) AS TABLE
WITH m AS (
    SELECT metric_id, metric, cik, fiscal_year, fiscal_period, duration_class, period_start, period_end, input_unit,
           value, null_reason, flags, derivation
    FROM derived_metrics_current
    WHERE (ciks IS NULL OR (cik BETWEEN list_min(ciks) AND list_max(ciks) AND list_contains(ciks, cik)))
),
inp AS (  -- each input value of a combined metric, in its basis group
    SELECT m.metric_id, m.cik, CASE WHEN l.step = 'less_ytd' THEN 'less_ytd' ELSE 'main' END AS grp,
           l.role || ':' || l.step || ':' || l.concept AS input, l.standard_concept, l.taxonomy, l.concept, l.unit,
           l.period_start, l.period_end, l.value
    FROM m JOIN metric_lineage l ON l.metric_id = m.metric_id AND l.cik = m.cik
    -- the metric's own derivation (a NOT IN over every company's current metrics ranked them all: 0.5 s at 100x)
    WHERE m.value IS NOT NULL AND m.metric <> 'ttm_revenue' AND m.derivation NOT LIKE 'derived_%'
),
said AS (  -- the filings that report each input value
    SELECT DISTINCT i.metric_id, i.grp, i.input, f.accession
    FROM inp i
    JOIN (SELECT standard_concept, taxonomy, concept FROM standard_concepts) c
      ON c.standard_concept = i.standard_concept
    JOIN facts f
      ON f.cik = i.cik AND f.taxonomy = c.taxonomy AND f.concept = c.concept AND f.unit = i.unit
     AND f.period_start IS NOT DISTINCT FROM i.period_start AND f.period_end = i.period_end AND f.value = i.value
    WHERE (ciks IS NULL OR (f.cik BETWEEN list_min(ciks) AND list_max(ciks) AND list_contains(ciks, f.cik)))
),
groups AS (
    SELECT metric_id, grp, count(DISTINCT input) AS n FROM inp GROUP BY ALL
),
common AS (  -- the groups some filing reports whole
    SELECT DISTINCT s.metric_id, s.grp FROM said s JOIN groups g USING (metric_id, grp)
    GROUP BY s.metric_id, s.grp, s.accession, g.n HAVING count(DISTINCT s.input) = g.n
),
split AS (
    SELECT g.metric_id, list(g.grp ORDER BY g.grp) AS groups FROM groups g
    ANTI JOIN common c ON c.metric_id = g.metric_id AND c.grp = g.grp
    GROUP BY g.metric_id
),
filings AS (SELECT metric_id, list(DISTINCT accession ORDER BY accession) AS filings FROM said GROUP BY metric_id)
SELECT m.* EXCLUDE (derivation), 'inputs_from_different_filings' AS issue, f.filings,
       'no one filing reports every input value (' || array_to_string(s.groups, ', ') || ')' AS detail
FROM m JOIN split s USING (metric_id) LEFT JOIN filings f USING (metric_id)
UNION ALL
SELECT m.* EXCLUDE (derivation), 'recast_after_basis' AS issue, f.filings, list_filter(m.flags, lambda x: x LIKE 'as filed in %')[1] AS detail
FROM m LEFT JOIN filings f USING (metric_id)
WHERE len(list_filter(m.flags, lambda x: x LIKE 'as filed in %')) > 0
UNION ALL
SELECT m.* EXCLUDE (derivation), 'no_filing_reports_every_input' AS issue, CAST(NULL AS VARCHAR[]) AS filings, m.null_reason AS detail
FROM m WHERE m.null_reason LIKE 'no filing reports %';
