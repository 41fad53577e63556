-- compare(): each company's fiscal year end for fiscal year $fy, known even where the value is
-- missing: from its fiscal calendar (observed/extrapolated), else from companies.fiscal_year_end
-- (MMDD, SEC's submissions) placed in calendar year $fy.
-- reads: companies, fiscal_calendar
-- grain: cik
SELECT k.cik, c.name,
       coalesce(fc.fy_end,
                try_strptime(CAST($fy AS VARCHAR) || c.fiscal_year_end, '%Y%m%d')::DATE) AS fy_end,
       CASE WHEN fc.fy_end IS NOT NULL THEN 'fiscal_calendar (' || fc.basis || ')'
            WHEN c.fiscal_year_end IS NOT NULL THEN 'companies.fiscal_year_end ' || c.fiscal_year_end END AS fy_end_source
FROM (SELECT unnest($ciks) AS cik) k
LEFT JOIN companies c ON c.cik = k.cik
LEFT JOIN fiscal_calendar fc ON fc.cik = k.cik AND fc.fiscal_year = $fy
WHERE c.cik IS NOT NULL OR fc.cik IS NOT NULL
