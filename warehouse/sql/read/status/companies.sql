-- What the warehouse holds per company (grain: cik): facts, versions, restatements, fiscal years.
-- reads: companies, fact_versions, facts
-- grain: cik
SELECT c.cik,
       c.name,
       count(f.cik)                                   AS fact_versions,
       count(DISTINCT f.accession)                    AS accessions,
       min(f.fiscal_year)                             AS first_fiscal_year,
       max(f.fiscal_year)                             AS last_fiscal_year,
       max(f.filed)                                   AS last_filed
FROM companies c
LEFT JOIN facts f ON f.cik = c.cik
GROUP BY c.cik, c.name
ORDER BY c.cik;
