-- reads: standard_restatements_of
-- One row per change of a standard value between two consecutive filings, every company, across
-- tags (the rules: standard_restatements_of, said once there).
CREATE OR REPLACE VIEW standard_restatements AS SELECT * FROM standard_restatements_of(NULL::INTEGER[]);
