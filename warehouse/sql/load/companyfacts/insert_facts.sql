-- Append the staged versions that are not in facts yet (same company, key, accession AND value),
-- each with its own fiscal year/period from its company's fiscal calendar (cal_* columns, assigned
-- by warehouse.load.fiscal.fiscal_year_columns) and its payload's source document. A different value
-- under an accession already stored is an SEC-side correction: a new row, ordered by payload_vintage.
-- $ciks: the staged companies (the range test first: other companies' row groups are skipped).
INSERT INTO facts (cik, taxonomy, concept, unit, period_start, period_end, value, accession, form, filed,
                   frame, filing_fy, filing_fp, payload_vintage, fiscal_year, fiscal_period, duration_days,
                   duration_class, fiscal_basis, source_document_id, load_id)
SELECT s.cik, s.taxonomy, s.concept, s.unit, s.period_start, s.period_end, s.value, s.accession,
       s.form, s.filed, s.frame, s.filing_fy, s.filing_fp,
       s.payload_vintage,
       s.cal_year AS fiscal_year,
       fiscal_period_of(s.period_start, s.period_end, s.duration_days, s.cal_start, s.cal_end) AS fiscal_period,
       s.duration_days,
       duration_class_of(s.period_start, s.duration_days) AS duration_class,
       s.cal_basis AS fiscal_basis,
       s.source_document_id,
       $load_id AS load_id
FROM (
    SELECT st.*
    FROM cf_stage st
    ANTI JOIN (SELECT * FROM facts
               WHERE cik BETWEEN list_min($ciks) AND list_max($ciks) AND list_contains($ciks, cik)) f
      ON f.cik = st.cik AND f.taxonomy = st.taxonomy AND f.concept = st.concept AND f.unit = st.unit
     AND f.period_start IS NOT DISTINCT FROM st.period_start AND f.period_end = st.period_end
     AND f.accession = st.accession AND f.value = st.value
) s;
