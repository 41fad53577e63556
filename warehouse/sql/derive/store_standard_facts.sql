-- The current standard facts of the companies $ciks, kept as data (standard_facts_rows, migration
-- 0016; the view standard_facts reads them): computed by the one definition of the rules,
-- company_standard_facts_as_of now (which reads these companies' current facts by key), after
-- forget_standard_facts.sql, and inserted sorted by company and standard concept so a company's
-- values are read by key. grain: (cik, standard_concept, unit, period_start, period_end).
-- reads: company_standard_facts_as_of
-- creates: -
INSERT INTO standard_facts_rows
SELECT * FROM company_standard_facts_as_of($ciks, TIMESTAMP '9999-12-31 00:00:00')
ORDER BY cik, standard_concept, unit, period_end, period_start
