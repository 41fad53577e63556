-- reads: facts, filings
-- Coverage audits (they return the bad rows).
CREATE OR REPLACE VIEW xbrl_filings_without_facts AS
SELECT f.cik, f.accession, f.form, f.filing_date, f.report_date, f.is_inline_xbrl,
       EXISTS (SELECT 1 FROM facts x WHERE x.cik = f.cik) AS company_has_facts
FROM filings f
WHERE f.is_xbrl AND NOT EXISTS (SELECT 1 FROM facts x WHERE x.accession = f.accession);
