-- Stage the companyfacts payloads of one load step (registered Arrow table cf_arrow: one or more
-- payloads of DIFFERENT companies, each row carrying its payload's cik, payload_vintage and
-- source_document_id, warehouse/load/companyfacts.py) with typed columns: a view, so the Arrow data
-- is read straight into facts without an intermediate copy.
-- rows: one per reported (cik, taxonomy, concept, unit, period_start, period_end, accession).
CREATE OR REPLACE TEMP VIEW cf_stage AS
SELECT CAST(cik AS INTEGER)                                    AS cik,
       taxonomy, concept, unit,
       CAST(period_start AS DATE)                              AS period_start,
       CAST(period_end AS DATE)                                AS period_end,
       -- decimals go through their shortest decimal text (SEC's literal), never the binary double
       coalesce(CAST(val_int AS DECIMAL(38, 10)),
                CAST(CAST(val_float AS VARCHAR) AS DECIMAL(38, 10))) AS value,
       val_float,
       accession, form,
       CAST(filed AS DATE)                                     AS filed,
       CAST(payload_vintage AS DATE)                           AS payload_vintage,
       frame, filing_fy, filing_fp,
       CAST(CAST(period_end AS DATE) - CAST(period_start AS DATE) AS INTEGER) AS duration_days,
       source_document_id,
       cal_year, cal_start, cal_end, cal_basis   -- the value's fiscal year (warehouse.load.fiscal)
FROM cf_arrow;
