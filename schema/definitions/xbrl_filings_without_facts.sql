-- reads: xbrl_filings_without_facts_all
-- Coverage audit (returns the bad rows): 10-K, 10-Q, 20-F and 40-F filings (and amendments) with
-- XBRL none of whose facts are in the warehouse: the real gaps. Other forms: xbrl_filings_without_facts_all.
CREATE OR REPLACE VIEW xbrl_filings_without_facts AS
SELECT * EXCLUDE (carries_financial_statements) FROM xbrl_filings_without_facts_all
WHERE carries_financial_statements;
