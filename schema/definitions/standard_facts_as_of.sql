-- reads: company_standard_facts_as_of
-- Point-in-time standard facts of every company (the rules: company_standard_facts_as_of, said once).
-- grain: (cik, standard_concept, unit, period_start, period_end).
CREATE OR REPLACE MACRO standard_facts_as_of(ts) AS TABLE
SELECT * FROM company_standard_facts_as_of(NULL::INTEGER[], ts);
