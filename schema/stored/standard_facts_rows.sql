-- reads: company_standard_facts_as_of
-- The rows of standard_facts_rows (migration 0016): every company's current standard facts, computed
-- whole by the one definition of the rules, company_standard_facts_as_of now, sorted by company and
-- standard concept. warehouse/migrate.py runs this whenever the definitions it reads (transitively:
-- the rules, the chains, standard_concepts.csv, facts_current, ...) are applied with another sha256
-- than the rows were computed with, in the same transaction, so the stored rows never disagree with
-- the rules (warehouse/stored_rows.py). Loads keep them for the companies they change
-- (warehouse/sql/derive/store_standard_facts.sql). grain: (cik, standard_concept, unit, period_start, period_end).
DELETE FROM standard_facts_rows;
INSERT INTO standard_facts_rows
SELECT * FROM company_standard_facts_as_of(NULL, TIMESTAMP '9999-12-31 00:00:00')
ORDER BY cik, standard_concept, unit, period_end, period_start;
