-- The basis of the metrics of DERIVED quarters (issue 21): a derived quarter is the difference of two
-- year-to-date values of two filings (Q4 = FY of a 10-K - nine months of a 10-Q), so a metric that
-- combines derived quarters is on one basis only when one filing reports every longer value it uses
-- (its "main" parts: a tagged input and the ytd parts) and one filing every shorter value (its
-- less_ytd parts). refresh/45, 46 and the growth rule take each input from the latest filing that
-- reports them all, a derived quarter counting under its ytd filing; this step checks both sides
-- by value as std_obs has them (what each filing said for each period, under any of the chain's
-- tags) and flags derived_quarters_from_different_filings on a candidate with a side no one
-- filing reports whole, unless a basis flag already says where its inputs come from ('as filed in
-- ...', years_from_different_filings). The value is kept: the flag says what it mixes (the audit
-- metric_bases lists the same metrics by the facts). A derived quarter itself (discrete_quarters)
-- and ttm_revenue combine filings by their formula and flag a recast part in their own files.
-- reads: metric_candidates, std_obs
-- creates: -
UPDATE metric_candidates
SET flags = list_append(flags, 'derived_quarters_from_different_filings')
FROM (
    WITH c AS (  -- the candidates combining a derived quarter with another input, no basis flag yet
        SELECT rowid AS rid, cik, inputs FROM metric_candidates
        WHERE derivation = 'formula' AND metric <> 'ttm_revenue' AND value IS NOT NULL
          AND len(list_filter(inputs, lambda x: x.step = 'less_ytd')) > 0
          AND len(list_filter(flags, lambda x: x LIKE 'as filed in %' OR x = 'years_from_different_filings')) = 0
    ),
    e AS (  -- each input value in its side: the shorter year-to-date values, and the others
        SELECT rid, cik, CASE WHEN x.step = 'less_ytd' THEN 'less_ytd' ELSE 'main' END AS side,
               concat_ws(':', x.role, x.step, x.standard_concept) AS input,
               hash(cik, x.standard_concept, x.unit, x.period_start, x.period_end) AS slot, x.value
        FROM (SELECT rid, cik, unnest(inputs) AS x FROM c)
    ),
    sides AS (SELECT rid, side, count(DISTINCT input) AS n FROM e GROUP BY ALL),
    whole AS (  -- the sides some filing reports whole
        SELECT DISTINCT e.rid, e.side
        FROM e JOIN std_obs o ON o.slot = e.slot AND o.value = e.value
        JOIN sides s ON s.rid = e.rid AND s.side = e.side
        GROUP BY e.rid, e.side, o.accession, s.n
        HAVING count(DISTINCT e.input) = s.n
    )
    SELECT DISTINCT s.rid FROM sides s ANTI JOIN whole w ON w.rid = s.rid AND w.side = s.side
) split
WHERE metric_candidates.rowid = split.rid;
