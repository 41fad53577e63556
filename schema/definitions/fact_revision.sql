-- reads:
-- fact_revision(cik, taxonomy, concept, unit, period_start, period_end, accession, payload_vintage,
-- source_document_id): a window expression, 0 for the first value a fact key carries under an
-- accession and 1, 2... for values SEC re-issued later under the same accession, in payload order
-- (payload_vintage, then source document). The one rule: fact_versions and facts_current_of read it.
-- The windows are partitioned by (cik, taxonomy, concept) only, as facts_ordered_as_of's are (DuckDB
-- pays a fixed cost per populated partition, and nearly every (key, accession) holds one row): a
-- key's values under one accession are peers of rank()'s order, so row_number() in the finer payload
-- order minus rank() is the place within them (tests/warehouse/test_fact_revision.py).
CREATE OR REPLACE MACRO fact_revision(cik, taxonomy, concept, unit, period_start, period_end, accession,
                                      payload_vintage, source_document_id) AS
    (row_number() OVER (PARTITION BY cik, taxonomy, concept
                        ORDER BY unit, period_start, period_end, accession, payload_vintage, source_document_id)
     - rank() OVER (PARTITION BY cik, taxonomy, concept ORDER BY unit, period_start, period_end, accession))::SMALLINT;
