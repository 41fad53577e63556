-- reads: standard_facts_as_of
CREATE OR REPLACE VIEW standard_facts AS
SELECT * FROM standard_facts_as_of(TIMESTAMP '9999-12-31 00:00:00');
