-- reads: standard_facts_rows
-- The current standard facts of every company: the rows loads keep in standard_facts_rows (computed
-- by company_standard_facts_as_of now for the companies each load changed; sorted by company and
-- standard concept). Equal to standard_facts_as_of(TIMESTAMP '9999-12-31')
-- (tests/warehouse/test_standard_facts_paths.py).
CREATE OR REPLACE VIEW standard_facts AS SELECT * FROM standard_facts_rows;
