-- Companies the warehouse holds (grain: CIK) with names, tickers and fiscal year end.
-- reads: companies
-- grain: cik
SELECT cik, name, tickers, exchanges, fiscal_year_end, entity_type, sic, sic_description,
       state_of_incorporation, category
FROM companies
ORDER BY cik;
