-- reads: facts_ranked
CREATE OR REPLACE VIEW fact_restatements AS
SELECT cik, taxonomy, concept, unit, period_start, period_end, fiscal_year, fiscal_period,
       prior_value AS old_value, value AS new_value, value - prior_value AS change,
       prior_accession AS old_accession, accession AS new_accession,
       prior_filed AS old_filed, filed AS new_filed, form AS new_form,
       CASE WHEN accession = prior_accession THEN 'sec_correction'
            WHEN form LIKE '%/A' THEN 'amendment'
            WHEN prior_value = 0 OR value = 0 THEN 'zeroed_or_filled'
            WHEN abs(value) = abs(prior_value) THEN 'sign_change'
            WHEN abs(value / prior_value) BETWEEN 999 AND 1001 OR abs(prior_value / value) BETWEEN 999 AND 1001
                THEN 'scale_change'
            ELSE 'comparative_revision' END AS change_kind
FROM facts_ranked
WHERE version_number > 1 AND value <> prior_value;
