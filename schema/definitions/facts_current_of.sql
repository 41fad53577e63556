-- reads: facts_ordered_as_of
-- The current version of every fact key of the companies listed in ciks (NULL = every company),
-- computed from all their versions: the one definition of facts_current's rows. The company filter
-- is applied where the facts are read (facts_ordered_as_of: the range test lets the scan skip the
-- row groups whose cik range misses the list, where list_contains alone would test every row of
-- the warehouse against the whole list). Loads store its rows in facts_current_rows for the
-- companies they changed (warehouse/sql/companyfacts/current_facts.sql); the view facts_current
-- reads that table.
-- The bookkeeping is facts_ranked_as_of's for the key's last version, found without a second
-- window over every version: the current version's run of equal values starts at the key's last
-- version whose value differs from the one before it (a run start; the first version is one); that
-- version's predecessor is the prior value, it is the value's first filing, and the versions since
-- it are confirmations. restated = there is a prior value (values are never NULL).
-- tests/warehouse/test_companyfacts_load.py checks these rows against facts_ranked's.
CREATE OR REPLACE MACRO facts_current_of(ciks) AS TABLE
WITH o AS (
    SELECT * FROM facts_ordered_as_of(ciks, NULL)
),
run_start AS (  -- per key, the start of the current run of equal values
    SELECT cik, taxonomy, concept, unit, period_start, period_end,
           arg_max({'prior_value': lag_value, 'prior_accession': lag_accession, 'prior_filed': lag_filed,
                    'accession': accession, 'filed': filed, 'version_number': version_number},
                   version_number) AS s
    FROM o
    WHERE lag_value IS DISTINCT FROM value
    GROUP BY cik, taxonomy, concept, unit, period_start, period_end
)
SELECT r.cik, r.taxonomy, r.concept, r.unit, r.period_start, r.period_end, r.value,
       r.accession, r.form, r.filed, r.known_from, r.frame, r.filing_fy, r.filing_fp,
       r.fiscal_year, r.fiscal_period, r.duration_days, r.duration_class,
       r.versions, CAST(r.version_number - s.s.version_number AS INTEGER) AS confirmations,
       s.s.prior_value IS NOT NULL AS restated,
       s.s.accession AS value_first_accession, s.s.filed AS value_first_filed,
       s.s.prior_value AS prior_value, s.s.prior_accession AS prior_accession, s.s.prior_filed AS prior_filed,
       r.first_value, r.first_accession, r.first_filed,
       r.source_document_id, r.load_id
FROM o r
JOIN run_start s
  ON s.cik = r.cik AND s.taxonomy = r.taxonomy AND s.concept = r.concept AND s.unit = r.unit
 AND s.period_start IS NOT DISTINCT FROM r.period_start AND s.period_end = r.period_end
WHERE r.version_number = r.versions;
