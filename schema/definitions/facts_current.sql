-- reads: facts_current_rows
-- The latest-published version of every fact key: the rows loads keep in facts_current_rows
-- (computed by facts_current_of for the companies each load changed; sorted by company and concept).
CREATE OR REPLACE VIEW facts_current AS SELECT * FROM facts_current_rows;
