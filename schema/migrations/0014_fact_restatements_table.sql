-- 0014 restatements kept as data: one row per change of a fact's value with its change_kind and
-- evidence (what the view fact_restatements shows), maintained by every load for the companies whose
-- current facts it recomputes (schema/stored/fact_restatements_rows.sql) and inserted sorted by
-- company, so a company's restatement history is read by key instead of ranking its versions on
-- each query (issue 13). The rows of every company are computed by that file when the table is new
-- and whenever a definition it reads changes (warehouse/stored_rows.py). Described in
-- schema/columns.toml.

-- grain: (cik, taxonomy, concept, unit, period_start, period_end, new_accession, new_value)
CREATE TABLE fact_restatements_rows (
    cik           INTEGER NOT NULL,
    taxonomy      VARCHAR NOT NULL,
    concept       VARCHAR NOT NULL,
    unit          VARCHAR NOT NULL,
    period_start  DATE,
    period_end    DATE NOT NULL,
    fiscal_year   INTEGER,
    fiscal_period VARCHAR,
    old_value     DECIMAL(38, 10),
    new_value     DECIMAL(38, 10),
    change        DECIMAL(38, 10),
    old_accession VARCHAR,
    new_accession VARCHAR,
    old_filed     DATE,
    new_filed     DATE,
    new_form      VARCHAR,
    change_kind   VARCHAR,
    evidence      VARCHAR
);
