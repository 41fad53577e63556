-- 0004 metrics: standard concepts (ordered fallback chains; the rows are the definition
-- schema/definitions/standard_concepts.csv), derived metrics with lineage to the exact fact
-- versions, and stored data-quality check results. Depends on 0001 only.
-- Margins and growth rates are stored as FRACTIONS (0.1369 = 13.69 %).
-- Tables only (squashed 2026-11-30: the views, macros and COMMENTs this file first carried are
-- definitions now, schema/definitions/ and schema/columns.toml; the old sha256 is accepted as
-- superseded, see schema/superseded.toml).

-- grain: (standard_concept, chain_rank): one tag of one standard concept's ordered fallback chain.
CREATE TABLE standard_concepts (
    standard_concept VARCHAR NOT NULL,
    chain_rank       INTEGER NOT NULL,
    taxonomy         VARCHAR NOT NULL,
    concept          VARCHAR NOT NULL,
    scope            VARCHAR NOT NULL,
    period_type      VARCHAR NOT NULL,
    additive         BOOLEAN NOT NULL,
    value_kind       VARCHAR NOT NULL,
    note             VARCHAR,
    PRIMARY KEY (standard_concept, chain_rank)
);

-- grain: one computed value of one metric for one company and period from ONE combination of input
-- fact versions (metric_id). Append-only: a restated input produces a new row; old rows stay.
CREATE TABLE derived_metrics (
    metric_id               VARCHAR PRIMARY KEY,
    metric                  VARCHAR NOT NULL,
    cik                     INTEGER NOT NULL,
    fiscal_year             INTEGER,
    fiscal_period           VARCHAR,
    duration_class          VARCHAR,
    period_start            DATE,
    period_end              DATE NOT NULL,
    value                   DECIMAL(38, 10),
    unit                    VARCHAR,
    input_unit              VARCHAR,
    taxonomy                VARCHAR,
    derivation              VARCHAR NOT NULL,
    formula                 VARCHAR NOT NULL,
    rule_version            VARCHAR NOT NULL,
    known_from              TIMESTAMP NOT NULL,
    null_reason             VARCHAR,
    flags                   VARCHAR[],
    version                 INTEGER,
    superseded_by_metric_id VARCHAR,
    superseded_at           TIMESTAMP,
    computed_at             TIMESTAMP NOT NULL,
    load_id                 VARCHAR
);

-- grain: (metric_id, role, step): one input edge = one exact fact version used by a metric version.
CREATE TABLE metric_lineage (
    metric_id        VARCHAR NOT NULL,
    role             VARCHAR NOT NULL,
    step             VARCHAR NOT NULL,
    standard_concept VARCHAR,
    derivation       VARCHAR,
    taxonomy         VARCHAR NOT NULL,
    concept          VARCHAR NOT NULL,
    unit             VARCHAR NOT NULL,
    period_start     DATE,
    period_end       DATE NOT NULL,
    accession        VARCHAR NOT NULL,
    revision         SMALLINT NOT NULL DEFAULT 0,
    value            DECIMAL(38, 10),
    known_from       TIMESTAMP,
    input_metric_id  VARCHAR,
    load_id          VARCHAR,
    PRIMARY KEY (metric_id, role, step)
);

-- grain: (load_id, check_name): one run of one data-quality check.
CREATE TABLE check_results (
    load_id        VARCHAR NOT NULL,
    check_name     VARCHAR NOT NULL,
    offending_rows BIGINT NOT NULL,
    sample         JSON,
    checked_at     TIMESTAMP NOT NULL,
    PRIMARY KEY (load_id, check_name)
);
