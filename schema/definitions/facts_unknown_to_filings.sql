-- reads: companies, facts, filings
CREATE OR REPLACE VIEW facts_unknown_to_filings AS
SELECT x.cik, x.accession, any_value(x.form) AS form, min(x.filed) AS filed, count(*) AS fact_rows,
       EXISTS (SELECT 1 FROM companies c WHERE c.cik = x.cik AND c.submissions_observed_at IS NOT NULL)
           AS company_submissions_loaded
FROM facts x
WHERE NOT EXISTS (SELECT 1 FROM filings f WHERE f.accession = x.accession)
GROUP BY x.cik, x.accession;
