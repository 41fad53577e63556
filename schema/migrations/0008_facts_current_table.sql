-- 0008 current facts kept as data: the latest-published version of every fact key, with its
-- version bookkeeping (what the view facts_current shows), maintained by every load for the
-- companies it changed (schema/stored/facts_current_rows.sql) and inserted sorted by
-- (cik, taxonomy, concept, ...), so a company's current facts or one concept's are read by key
-- instead of ranking every version of every fact on each query (issue 13). The rows of every company
-- are computed by that file when the table is new and whenever a definition it reads changes
-- (warehouse/stored_rows.py). Described in schema/columns.toml.

-- grain: (cik, taxonomy, concept, unit, period_start, period_end)
CREATE TABLE facts_current_rows (
    cik                   INTEGER NOT NULL,
    taxonomy              VARCHAR NOT NULL,
    concept               VARCHAR NOT NULL,
    unit                  VARCHAR NOT NULL,
    period_start          DATE,
    period_end            DATE NOT NULL,
    value                 DECIMAL(38, 10),
    accession             VARCHAR NOT NULL,
    form                  VARCHAR,
    filed                 DATE,
    known_from            TIMESTAMP,
    frame                 VARCHAR,
    filing_fy             INTEGER,
    filing_fp             VARCHAR,
    fiscal_year           INTEGER,
    fiscal_period         VARCHAR,
    duration_days         INTEGER,
    duration_class        VARCHAR,
    versions              BIGINT,
    confirmations         INTEGER,
    restated              BOOLEAN,
    value_first_accession VARCHAR,
    value_first_filed     DATE,
    prior_value           DECIMAL(38, 10),
    prior_accession       VARCHAR,
    prior_filed           DATE,
    first_value           DECIMAL(38, 10),
    first_accession       VARCHAR,
    first_filed           DATE,
    source_document_id    BIGINT,
    load_id               VARCHAR
);
