-- The companies of the staged payloads (registered Arrow table companies_arrow) not held yet, each
-- as its first payload names it ($load: the load run).
-- reads: companies_arrow, companies
INSERT INTO companies (cik, name, source_document_id, load_id)
SELECT cik, name, source_document_id, $load FROM companies_arrow c
WHERE NOT EXISTS (SELECT 1 FROM companies k WHERE k.cik = c.cik)
