-- reads: facts, filings, financial_statement_form
-- Coverage audit, every form: XBRL filings none of whose facts are in the warehouse (8-Ks, proxies
-- and prospectuses included: SEC's companyfacts carry only some of their facts).
CREATE OR REPLACE VIEW xbrl_filings_without_facts_all AS
SELECT f.cik, f.accession, f.form, f.filing_date, f.report_date, f.is_inline_xbrl,
       EXISTS (SELECT 1 FROM facts x WHERE x.cik = f.cik) AS company_has_facts,
       financial_statement_form(f.base_form) AS carries_financial_statements
FROM filings f
WHERE f.is_xbrl AND NOT EXISTS (SELECT 1 FROM facts x WHERE x.accession = f.accession);
