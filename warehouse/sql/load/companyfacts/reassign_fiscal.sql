-- After a company's calendar is rebuilt (a new annual filing can move a year boundary or turn an
-- extrapolated year into an observed one), refresh the derived fiscal columns of its older rows
-- from cf_refiscal (rid, cal_* assigned by warehouse.load.fiscal.fiscal_year_columns).
-- Values, accessions and dates are never touched. `facts.cik = $cik` (the rows' company) lets the
-- scan skip other companies' row groups: joined by rowid alone it read all of facts (0.55-0.65 s CPU
-- at 100x, 15.7M facts, for one company).
UPDATE facts
SET fiscal_year = n.cal_year,
    fiscal_period = fiscal_period_of(facts.period_start, facts.period_end, facts.duration_days, n.cal_start, n.cal_end),
    fiscal_basis = n.cal_basis
FROM cf_refiscal n
WHERE facts.cik = $cik
  AND facts.rowid = n.rid
  AND (facts.fiscal_year IS DISTINCT FROM n.cal_year
       OR facts.fiscal_basis IS DISTINCT FROM n.cal_basis
       OR facts.fiscal_period IS DISTINCT FROM
          fiscal_period_of(facts.period_start, facts.period_end, facts.duration_days, n.cal_start, n.cal_end));
