-- 0001 core: provenance (source_documents, load_runs), companyfacts (facts, concepts) and the
-- fiscal calendar. Every time is naive UTC.
-- Tables only (squashed 2026-11-30: the views, macros and COMMENTs this file first carried are
-- definitions now, schema/definitions/ and schema/columns.toml; the old sha256 is accepted as
-- superseded, see schema/superseded.toml).

-- grain: one fetched or loaded payload (a re-fetch with identical bytes is not a new row)
CREATE SEQUENCE source_document_id_seq START 1;

CREATE TABLE source_documents (
    source_document_id BIGINT PRIMARY KEY DEFAULT nextval('source_document_id_seq'),
    kind               VARCHAR NOT NULL,
    uri                VARCHAR NOT NULL,
    origin             VARCHAR NOT NULL,
    sha256             VARCHAR NOT NULL,
    bytes              BIGINT NOT NULL,
    fetched_at         TIMESTAMP NOT NULL,
    http_status        INTEGER,
    etag               VARCHAR,
    last_modified      VARCHAR,
    cik                INTEGER,
    accession          VARCHAR,
    status             VARCHAR NOT NULL,
    reject_reason      VARCHAR,
    raw_path           VARCHAR,
    load_id            VARCHAR NOT NULL
);

-- grain: one load run (one CLI load / one refresh flow run)
CREATE TABLE load_runs (
    load_id             VARCHAR PRIMARY KEY,
    flow_run_id         VARCHAR,
    command             VARCHAR NOT NULL,
    started_at          TIMESTAMP NOT NULL,
    finished_at         TIMESTAMP,
    status              VARCHAR NOT NULL,
    documents_loaded    INTEGER NOT NULL DEFAULT 0,
    documents_unchanged INTEGER NOT NULL DEFAULT 0,
    documents_rejected  INTEGER NOT NULL DEFAULT 0,
    row_counts          JSON,
    error               VARCHAR
);

-- grain: one company (CIK). Extended by later migrations (submissions, registry).
CREATE TABLE companies (
    cik                INTEGER PRIMARY KEY,
    name               VARCHAR,
    source_document_id BIGINT,
    load_id            VARCHAR
);

-- grain: one XBRL concept (taxonomy, concept)
CREATE TABLE concepts (
    taxonomy    VARCHAR NOT NULL,
    concept     VARCHAR NOT NULL,
    label       VARCHAR,
    description VARCHAR,
    PRIMARY KEY (taxonomy, concept)
);

-- grain: (cik, taxonomy, concept, unit, period_start, period_end, accession, value): EVERY
-- reported version of every companyfacts fact. Append-only: a later filing adds a row, never
-- replaces one. Normally one value per accession; when SEC re-issues a different value under the
-- SAME accession in a later companyfacts payload (seen: Apple par value 0 -> 0.00001), both rows
-- are kept and payload_vintage (the newest filed date in the payload) orders them.
CREATE TABLE facts (
    cik                INTEGER NOT NULL,
    taxonomy           VARCHAR NOT NULL,
    concept            VARCHAR NOT NULL,
    unit               VARCHAR NOT NULL,
    period_start       DATE,
    period_end         DATE NOT NULL,
    value              DECIMAL(38, 10) NOT NULL,
    accession          VARCHAR NOT NULL,
    form               VARCHAR,
    filed              DATE NOT NULL,
    frame              VARCHAR,
    filing_fy          INTEGER,
    filing_fp          VARCHAR,
    payload_vintage    DATE NOT NULL,
    fiscal_year        INTEGER,
    fiscal_period      VARCHAR,
    duration_days      INTEGER,
    duration_class     VARCHAR NOT NULL,
    fiscal_basis       VARCHAR,
    source_document_id BIGINT NOT NULL,
    load_id            VARCHAR NOT NULL
);

-- grain: (cik, fiscal_year): one fiscal year of one company, derived from its annual filings.
CREATE TABLE fiscal_calendar (
    cik            INTEGER NOT NULL,
    fiscal_year    INTEGER NOT NULL,
    fy_start       DATE NOT NULL,
    fy_end         DATE NOT NULL,
    weeks_53       BOOLEAN,
    basis          VARCHAR NOT NULL,
    load_id        VARCHAR NOT NULL,
    PRIMARY KEY (cik, fiscal_year)
);
