-- reads: companies, facts, facts_unknown_to_filings, filings, submission_pages
CREATE OR REPLACE VIEW company_coverage AS
SELECT c.cik, c.name,
       c.submissions_observed_at IS NOT NULL AS submissions_loaded,
       (SELECT count(*) FROM filings f WHERE f.cik = c.cik) AS filings_loaded,
       (SELECT count(*) FROM submission_pages p WHERE p.cik = c.cik AND p.declared) AS pages_declared,
       (SELECT count(*) FROM submission_pages p WHERE p.cik = c.cik AND p.declared AND p.loaded) AS pages_loaded,
       (SELECT count(*) FROM submission_pages p WHERE p.cik = c.cik AND p.declared AND NOT p.loaded) AS pages_missing,
       (SELECT count(*) FROM filings f WHERE f.cik = c.cik AND f.is_xbrl) AS xbrl_filings,
       (SELECT count(*) FROM filings f WHERE f.cik = c.cik AND f.is_xbrl
            AND EXISTS (SELECT 1 FROM facts x WHERE x.accession = f.accession)) AS xbrl_filings_with_facts,
       (SELECT count(*) FROM facts_unknown_to_filings u WHERE u.cik = c.cik) AS facts_accessions_unknown_to_filings,
       c.submissions_observed_at IS NOT NULL
           AND NOT EXISTS (SELECT 1 FROM submission_pages p WHERE p.cik = c.cik AND p.declared AND NOT p.loaded)
           AS complete
FROM companies c;
