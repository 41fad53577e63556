-- After a company's calendar is rebuilt (a new annual filing can move a year boundary or turn an
-- extrapolated year into an observed one), refresh the derived fiscal columns of its older rows.
-- Values, accessions and dates are never touched.
UPDATE facts SET fiscal_year = n.fiscal_year, fiscal_period = n.fiscal_period, fiscal_basis = n.basis
FROM (
    SELECT s.rowid AS rid, c.fiscal_year, c.basis,
           CASE WHEN c.fiscal_year IS NOT NULL
                THEN fiscal_period_of(s.period_start, s.period_end, s.duration_days, c.fy_start, c.fy_end) END AS fiscal_period
    FROM (SELECT rowid, *, CAST(period_end - INTERVAL 3 DAY AS DATE) AS match_date
          FROM facts WHERE cik = $cik AND load_id <> $load_id) s
    ASOF LEFT JOIN (SELECT * FROM fiscal_calendar_covering WHERE cik = $cik) c
      ON s.cik = c.cik AND s.match_date <= c.fy_end
) n
WHERE facts.rowid = n.rid
  AND (facts.fiscal_year IS DISTINCT FROM n.fiscal_year
       OR facts.fiscal_period IS DISTINCT FROM n.fiscal_period
       OR facts.fiscal_basis IS DISTINCT FROM n.basis);
