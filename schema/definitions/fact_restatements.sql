-- reads: fact_restatements_rows
-- One row per change of a fact's value, every company: the rows loads keep in fact_restatements_rows
-- (computed by fact_restatements_of, where the rules and the evidence are said, for the companies
-- each load changed; sorted by company), so a reader asking for one company reads it by key.
CREATE OR REPLACE VIEW fact_restatements AS SELECT * FROM fact_restatements_rows;
