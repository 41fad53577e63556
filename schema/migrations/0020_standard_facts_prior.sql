-- 0020 a standard value's prior value across tags (issue 21): the current standard value of a period
-- is what the latest filing reporting any of its chain's tags says, and prior_value / prior_accession
-- / prior_filed are the last DIFFERENT value of that period's timeline (what each filing said, in
-- filing order, whatever tag it used: standard_value_timeline_of) and the filing that said it. The
-- rows are computed again by schema/stored/standard_facts_rows.sql, as the definitions they read
-- changed (warehouse/schema/stored_tables.py). Described in schema/columns.toml.
ALTER TABLE standard_facts_rows ADD COLUMN prior_value DECIMAL(38, 10);
ALTER TABLE standard_facts_rows ADD COLUMN prior_accession VARCHAR;
ALTER TABLE standard_facts_rows ADD COLUMN prior_filed DATE;
