-- check: metric_bases: no current derived metric combines input values that no single filing
-- reports without saying so (issue 21: one basis per number): metric_bases rows of kind
-- inputs_from_different_filings that carry no basis flag ('as filed in ...', years_from_different_filings,
-- derived_quarters_from_different_filings), for the companies being checked.
-- tolerance: none (a number has one filing's basis, or a flag or NULL reason saying it has not).
-- grain of offending rows: metric_id. severity = 1 (each is a number no filing supports).
-- input: $ciks = the companies being checked (warehouse/derive/checks.py passes it to a check that names it).
-- reads: metric_bases_of
SELECT b.metric_id, b.metric, b.cik, b.fiscal_year, b.fiscal_period, b.period_start, b.period_end, b.value,
       b.filings, b.detail, 1.0 AS severity
FROM metric_bases_of(CAST($ciks AS INTEGER[])) b  -- a constant: pushed into the scans (a subquery here ranked every company's metrics)
WHERE b.issue = 'inputs_from_different_filings'
  AND len(list_filter(b.flags, lambda x: x LIKE 'as filed in %'  -- the flags that say where the inputs come from
                                         OR x IN ('years_from_different_filings', 'derived_quarters_from_different_filings'))) = 0
