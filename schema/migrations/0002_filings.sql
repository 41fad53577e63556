-- 0002 filings: submissions (filing histories, all pages), the company registry (tickers) and
-- company identity observations. Every time is naive UTC.
-- Tables only (squashed 2026-11-30: the views, macros and COMMENTs this file first carried are
-- definitions now, schema/definitions/ and schema/columns.toml; the old sha256 is accepted as
-- superseded, see schema/superseded.toml).

-- companies (grain: CIK) gains the identity SEC's submissions give. Latest known values only; the
-- dated history of name/tickers/exchanges is company_observations / company_history.
ALTER TABLE companies ADD COLUMN tickers VARCHAR[];

ALTER TABLE companies ADD COLUMN exchanges VARCHAR[];

ALTER TABLE companies ADD COLUMN fiscal_year_end VARCHAR;

ALTER TABLE companies ADD COLUMN entity_type VARCHAR;

ALTER TABLE companies ADD COLUMN sic VARCHAR;

ALTER TABLE companies ADD COLUMN sic_description VARCHAR;

ALTER TABLE companies ADD COLUMN category VARCHAR;

ALTER TABLE companies ADD COLUMN state_of_incorporation VARCHAR;

ALTER TABLE companies ADD COLUMN state_of_incorporation_description VARCHAR;

ALTER TABLE companies ADD COLUMN ein VARCHAR;

ALTER TABLE companies ADD COLUMN lei VARCHAR;

ALTER TABLE companies ADD COLUMN owner_org VARCHAR;

ALTER TABLE companies ADD COLUMN phone VARCHAR;

ALTER TABLE companies ADD COLUMN website VARCHAR;

ALTER TABLE companies ADD COLUMN flags VARCHAR;

ALTER TABLE companies ADD COLUMN insider_transaction_for_owner_exists BOOLEAN;

ALTER TABLE companies ADD COLUMN insider_transaction_for_issuer_exists BOOLEAN;

ALTER TABLE companies ADD COLUMN addresses JSON;

ALTER TABLE companies ADD COLUMN former_names STRUCT(name VARCHAR, from_date DATE, to_date DATE)[];

ALTER TABLE companies ADD COLUMN submissions_observed_at TIMESTAMP;

ALTER TABLE companies ADD COLUMN submissions_source_document_id BIGINT;

-- grain: (cik, source_document_id): one company identity as one submissions payload stated it.
CREATE TABLE company_observations (
    cik                INTEGER NOT NULL,
    observed_at        TIMESTAMP NOT NULL,
    name               VARCHAR,
    tickers            VARCHAR[],
    exchanges          VARCHAR[],
    source_document_id BIGINT NOT NULL,
    load_id            VARCHAR NOT NULL,
    PRIMARY KEY (cik, source_document_id)
);

-- grain: (cik, accession): one filing in one company's submissions history. An accession listed in
-- several histories (an insider's Form 4 is listed under the insider and the issuer; co-registrant
-- reports) has one row per CIK, so every company's history is complete on its own.
CREATE TABLE filings (
    cik                     INTEGER NOT NULL,
    accession               VARCHAR NOT NULL,
    form                    VARCHAR NOT NULL,
    base_form               VARCHAR NOT NULL,
    is_amendment            BOOLEAN NOT NULL,
    filing_date             DATE NOT NULL,
    acceptance_time         TIMESTAMP,
    acceptance_time_raw     VARCHAR,
    acceptance_time_basis   VARCHAR,
    report_date             DATE,
    act                     VARCHAR,
    file_number             VARCHAR,
    film_number             VARCHAR,
    items                   VARCHAR,
    core_type               VARCHAR,
    size                    BIGINT,
    is_xbrl                 BOOLEAN,
    is_inline_xbrl          BOOLEAN,
    is_xbrl_numeric         BOOLEAN,
    primary_document        VARCHAR,
    primary_doc_description VARCHAR,
    index_url               VARCHAR,
    document_url            VARCHAR,
    amends_accession        VARCHAR,
    superseded_by           VARCHAR,
    amend_rule              VARCHAR,
    page                    VARCHAR,
    source_document_id      BIGINT NOT NULL,
    load_id                 VARCHAR NOT NULL,
    PRIMARY KEY (cik, accession)
);

-- grain: (cik, page_name): one page of a company's older filings, as declared by its main file.
CREATE TABLE submission_pages (
    cik                            INTEGER NOT NULL,
    page_name                      VARCHAR NOT NULL,
    declared                       BOOLEAN NOT NULL,
    filing_count                   INTEGER,
    filing_from                    DATE,
    filing_to                      DATE,
    declared_by_source_document_id BIGINT NOT NULL,
    loaded                         BOOLEAN NOT NULL,
    loaded_rows                    INTEGER,
    page_source_document_id        BIGINT,
    load_id                        VARCHAR NOT NULL,
    PRIMARY KEY (cik, page_name)
);

-- grain: (source_document_id, cik, ticker): one row of one loaded SEC ticker file (snapshot).
CREATE TABLE company_tickers (
    cik                INTEGER NOT NULL,
    ticker             VARCHAR NOT NULL,
    title              VARCHAR,
    exchange           VARCHAR,
    source_kind        VARCHAR NOT NULL,
    source_document_id BIGINT NOT NULL,
    load_id            VARCHAR NOT NULL
);
