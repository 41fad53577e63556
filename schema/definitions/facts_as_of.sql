-- reads: company_facts_as_of
-- What was public at ts: the latest version of every fact key known at ts, every company (the rule:
-- company_facts_as_of, said once; a reader who wants one company asks it for that company).
CREATE OR REPLACE MACRO facts_as_of(ts) AS TABLE
SELECT * FROM company_facts_as_of(NULL::INTEGER[], ts);
