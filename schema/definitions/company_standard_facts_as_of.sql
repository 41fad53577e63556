-- reads: company_standard_facts_as_of_only
-- Point-in-time standard facts of the companies listed in ciks (NULL = every company:
-- standard_facts_as_of), every standard concept: the rules are company_standard_facts_as_of_only's
-- (said once there). grain: (cik, standard_concept, unit, period_start, period_end).
CREATE OR REPLACE MACRO company_standard_facts_as_of(ciks, ts) AS TABLE
SELECT * FROM company_standard_facts_as_of_only(ciks, ts, NULL::VARCHAR[], NULL::VARCHAR[]);
