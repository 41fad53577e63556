-- Every company the warehouse holds, in CIK order (grain: cik).
-- reads: companies
-- grain: cik
SELECT cik FROM companies ORDER BY cik;
