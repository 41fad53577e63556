-- reads: facts_ranked
CREATE OR REPLACE VIEW facts_current AS
SELECT r.cik, r.taxonomy, r.concept, r.unit, r.period_start, r.period_end, r.value,
       r.accession, r.form, r.filed, r.known_from, r.frame, r.filing_fy, r.filing_fp,
       r.fiscal_year, r.fiscal_period, r.duration_days, r.duration_class,
       r.versions, r.confirmations,
       (min(r.value) OVER k) <> (max(r.value) OVER k) AS restated,
       r.value_first_accession, r.value_first_filed,
       r.prior_value, r.prior_accession, r.prior_filed,
       r.first_value, r.first_accession, r.first_filed,
       r.source_document_id, r.load_id
FROM facts_ranked r
WINDOW k AS (PARTITION BY cik, taxonomy, concept, unit, period_start, period_end)
QUALIFY r.version_number = r.versions;
