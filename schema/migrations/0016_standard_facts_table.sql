-- 0016 current standard facts kept as data: for every company the standard concepts' values now
-- (what the view standard_facts shows: the fallback chain applied per period over the current facts,
-- derived quarters, tags_tried, candidates, flags, inputs), recomputed by every load for the companies
-- whose current facts it recomputes (schema/stored/standard_facts_rows.sql) and inserted sorted
-- by company and standard concept, so a company's standard values are read by key instead of
-- applying the chains on each query (issue 13). The rows of every company are computed by that file
-- when the table is new and whenever a definition it reads changes: the rules, the chains
-- (standard_concepts.csv), the current facts (warehouse/stored_rows.py). Described in
-- schema/columns.toml.

-- grain: (cik, standard_concept, unit, period_start, period_end)
CREATE TABLE standard_facts_rows (
    cik              INTEGER NOT NULL,
    standard_concept VARCHAR NOT NULL,
    fiscal_year      INTEGER,
    fiscal_period    VARCHAR,
    duration_class   VARCHAR,
    duration_days    INTEGER,
    period_start     DATE,
    period_end       DATE NOT NULL,
    value            DECIMAL(38, 10),
    unit             VARCHAR NOT NULL,
    taxonomy         VARCHAR,
    matched_tag      VARCHAR,
    chain_rank       INTEGER,
    scope            VARCHAR,
    tags_tried       VARCHAR[],
    candidates       VARCHAR[],
    accession        VARCHAR,
    form             VARCHAR,
    filed            DATE,
    known_from       TIMESTAMP,
    derivation       VARCHAR,
    flags            VARCHAR[],
    inputs           STRUCT(step VARCHAR, taxonomy VARCHAR, concept VARCHAR, unit VARCHAR, period_start DATE,
                            period_end DATE, accession VARCHAR, "value" DECIMAL(38, 10), known_from TIMESTAMP)[]
);
