-- Timeline of the REPORTED standard value of each slot: the filings of std_obs (refresh/15: what
-- each filing that became the period's answer said, by the rule that the latest filing reporting
-- any of the chain's tags gives the value, so a tag the company stopped using keeps no value
-- standing) in filing order, the ones that repeat the value and tag before them (a confirmation)
-- collapsed into one interval [valid_from, valid_to) that keeps the first one's pick, so its lineage
-- names the filing that first reported it; the same value under another tag starts an interval (the
-- matched tag is the latest filing's, as in standard_facts) but no metric version (refresh/70). The same rule as standard_facts (company_standard_facts_as_of_only,
-- which lists the candidates; the refresh needs only the pick).
-- grain: (slot, valid_from).
-- reads: std_obs
-- creates: std_rep
CREATE OR REPLACE TEMP TABLE std_rep AS
SELECT * EXCLUDE (filing_order, is_change, known_from),
       known_from AS valid_from, known_from AS fact_known_from,
       lead(known_from) OVER (PARTITION BY slot ORDER BY filing_order) AS valid_to
FROM (SELECT * FROM std_obs
      QUALIFY lag({'value': value, 'taxonomy': taxonomy, 'concept': concept}) OVER (PARTITION BY slot ORDER BY filing_order)
              IS DISTINCT FROM {'value': value, 'taxonomy': taxonomy, 'concept': concept});
