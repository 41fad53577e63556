-- 0011 derived_metrics and metric_lineage without PRIMARY KEYs, and metric_lineage keyed by company.
-- DuckDB 1.5 re-serialises a table's ART index whole at every CHECKPOINT that follows a write to it:
-- the keys of these two tables cost every load that writes a metric ~0.4-0.9 s at 10x, growing with
-- the warehouse (issue 13). Their uniqueness is by construction (refresh/70 keeps one row per new
-- metric_id; refresh/81 one edge per (role, step) of it) and checked, like every declared grain, by
-- warehouse.integrity.integrity_problems (tests and the crash harness). Rows are clustered by cik
-- (each load appends its companies' rows; the rows kept here are written in cik order), so the
-- zone maps of cik skip other companies' row groups: metric_lineage carries its metric's cik, and
-- forgetting a company's lineage reads only that company's row groups. Described in schema/columns.toml.
-- The tables are rebuilt (DuckDB cannot drop a PRIMARY KEY) with every row and column kept.

-- grain: metric_id (one metric, company, period, input unit and combination of input fact versions)
CREATE TABLE derived_metrics_0011 (
    metric_id               VARCHAR NOT NULL,
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

INSERT INTO derived_metrics_0011
SELECT * FROM derived_metrics ORDER BY cik, metric, period_end, period_start, known_from, metric_id;

-- grain: (metric_id, role, step): one input edge = one exact fact version used by a metric version
CREATE TABLE metric_lineage_0011 (
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
    cik              INTEGER NOT NULL
);

-- (every edge belongs to a stored metric version: refresh/81 writes edges of the versions refresh/80
-- wrote, and derive/forget_lineage forgets edges before their versions)
INSERT INTO metric_lineage_0011
SELECT l.*, d.cik FROM metric_lineage l JOIN derived_metrics d ON d.metric_id = l.metric_id
ORDER BY d.cik, l.metric_id, l.role, l.step;

DROP TABLE metric_lineage;
DROP TABLE derived_metrics;
ALTER TABLE derived_metrics_0011 RENAME TO derived_metrics;
ALTER TABLE metric_lineage_0011 RENAME TO metric_lineage;
