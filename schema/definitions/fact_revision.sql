-- reads:
-- fact_revision(cik, taxonomy, concept, unit, period_start, period_end, accession, payload_vintage,
-- source_document_id): a window expression, 0 for the first value a fact key carries under an
-- accession and 1, 2... for values SEC re-issued later under the same accession, in payload order
-- (payload_vintage, then source document). The one rule: fact_versions and facts_current_of read it.
CREATE OR REPLACE MACRO fact_revision(cik, taxonomy, concept, unit, period_start, period_end, accession,
                                      payload_vintage, source_document_id) AS
    (row_number() OVER (PARTITION BY cik, taxonomy, concept, unit, period_start, period_end, accession
                        ORDER BY payload_vintage, source_document_id) - 1)::SMALLINT;
