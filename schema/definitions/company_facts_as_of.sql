-- reads: company_facts_as_of_only
-- What was public at ts for the companies listed in ciks (NULL = every company: facts_as_of), every
-- concept: the rule is company_facts_as_of_only's (said once there).
-- grain: (cik, taxonomy, concept, unit, period_start, period_end).
CREATE OR REPLACE MACRO company_facts_as_of(ciks, ts) AS TABLE
SELECT * FROM company_facts_as_of_only(ciks, ts, NULL::VARCHAR[]);
