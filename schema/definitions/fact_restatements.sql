-- reads: fact_restatements_of
-- One row per change of a fact's value, every company: the rules and the evidence are
-- fact_restatements_of's (said once there); a reader who wants one company asks
-- fact_restatements_of([cik]), which reads only that company's versions.
CREATE OR REPLACE VIEW fact_restatements AS SELECT * FROM fact_restatements_of(NULL::INTEGER[]);
