-- 0003 insider: Forms 3, 4 and 5 (and their /A amendments) with every table of the ownership
-- document, every reporting owner and every footnote, linked. Depends on 0001 only.
-- Values are exact (DECIMAL(38,10) parsed from the XML text), times are naive UTC.
-- Tables only (squashed 2026-11-30: the views, macros and COMMENTs this file first carried are
-- definitions now, schema/definitions/ and schema/columns.toml; the old sha256 is accepted as
-- superseded, see schema/superseded.toml).

-- grain: one ownership filing (accession). Append-only; amends_accession/amendment_rule/
-- amendment_candidates are recomputed for an issuer's amendments whenever one of its filings loads,
-- so the link does not depend on the order originals and amendments arrive in. A row first loaded
-- from a bare XML (container 'xml', no SEC header) gets its SEC-header columns (container,
-- submission_type, filed, acceptance_time, acceptance_time_eastern) filled in once when the full
-- .txt of the same accession loads (header_source_document_id); its lines are never touched.
CREATE TABLE insider_filings (
    accession                   VARCHAR PRIMARY KEY,
    accession_is_derived        BOOLEAN NOT NULL,
    accession_source            VARCHAR NOT NULL,
    container                   VARCHAR NOT NULL,
    document_type               VARCHAR NOT NULL,
    submission_type             VARCHAR,
    schema_version              VARCHAR,
    period_of_report            DATE,
    date_of_original_submission DATE,
    no_securities_owned         BOOLEAN,
    not_subject_to_section16    BOOLEAN,
    form3_holdings_reported     BOOLEAN,
    form4_transactions_reported BOOLEAN,
    aff10b5one                  BOOLEAN,
    issuer_cik                  INTEGER NOT NULL,
    issuer_name                 VARCHAR,
    issuer_ticker               VARCHAR,
    issuer_foreign_ticker       VARCHAR,
    remarks                     VARCHAR,
    signatures                  STRUCT(signature_name VARCHAR, signature_date DATE)[],
    filed                       DATE,
    acceptance_time             TIMESTAMP,
    acceptance_time_eastern     VARCHAR,
    header_source_document_id   BIGINT,
    xml_sha256                  VARCHAR NOT NULL,
    owner_count                 INTEGER NOT NULL,
    transaction_count           INTEGER NOT NULL,
    holding_count               INTEGER NOT NULL,
    footnote_count              INTEGER NOT NULL,
    amends_accession            VARCHAR,
    amendment_rule              VARCHAR,
    amendment_candidates        INTEGER,
    source_document_id          BIGINT NOT NULL,
    load_id                     VARCHAR NOT NULL
);

-- grain: (accession, owner_number): one reporting owner of one filing, in document order.
CREATE TABLE insider_owners (
    accession            VARCHAR NOT NULL,
    owner_number         INTEGER NOT NULL,
    owner_cik            INTEGER,
    owner_name           VARCHAR,
    street1              VARCHAR,
    street2              VARCHAR,
    city                 VARCHAR,
    state                VARCHAR,
    zip_code             VARCHAR,
    state_description    VARCHAR,
    non_us_address       BOOLEAN,
    is_director          BOOLEAN,
    is_officer           BOOLEAN,
    officer_title        VARCHAR,
    is_ten_percent_owner BOOLEAN,
    is_other             BOOLEAN,
    other_text           VARCHAR,
    source_document_id   BIGINT NOT NULL,
    load_id              VARCHAR NOT NULL,
    PRIMARY KEY (accession, owner_number)
);

-- grain: (accession, table_kind, line_number): one transaction line of Table I (non_derivative) or
-- Table II (derivative), line_number 1-based in document order within its table.
CREATE TABLE insider_transactions (
    accession                    VARCHAR NOT NULL,
    table_kind                   VARCHAR NOT NULL,
    line_number                  INTEGER NOT NULL,
    security_title               VARCHAR,
    transaction_date             DATE,
    deemed_execution_date        DATE,
    transaction_form_type        VARCHAR,
    transaction_code             VARCHAR,
    equity_swap_involved         BOOLEAN,
    transaction_timeliness       VARCHAR,
    shares                       DECIMAL(38, 10),
    total_value                  DECIMAL(38, 10),
    price_per_share              DECIMAL(38, 10),
    acquired_disposed            VARCHAR,
    shares_owned_following       DECIMAL(38, 10),
    value_owned_following        DECIMAL(38, 10),
    direct_indirect              VARCHAR,
    nature_of_ownership          VARCHAR,
    conversion_or_exercise_price DECIMAL(38, 10),
    exercise_date                DATE,
    expiration_date              DATE,
    underlying_security_title    VARCHAR,
    underlying_shares            DECIMAL(38, 10),
    underlying_value             DECIMAL(38, 10),
    price_is_weighted_average    BOOLEAN NOT NULL,
    price_range_low              DECIMAL(38, 10),
    price_range_high             DECIMAL(38, 10),
    footnote_ids                 VARCHAR[] NOT NULL,
    source_document_id           BIGINT NOT NULL,
    load_id                      VARCHAR NOT NULL,
    PRIMARY KEY (accession, table_kind, line_number)
);

-- grain: (accession, table_kind, line_number): one holding line (nonDerivativeHolding /
-- derivativeHolding), line_number 1-based in document order among the holdings of its table.
CREATE TABLE insider_holdings (
    accession VARCHAR NOT NULL, table_kind VARCHAR NOT NULL, line_number INTEGER NOT NULL,
    security_title VARCHAR, transaction_form_type VARCHAR,
    -- the position held
    shares_owned_following DECIMAL(38, 10), value_owned_following DECIMAL(38, 10),
    direct_indirect VARCHAR, nature_of_ownership VARCHAR,
    -- derivatives only
    conversion_or_exercise_price DECIMAL(38, 10), exercise_date DATE, expiration_date DATE,
    underlying_security_title VARCHAR, underlying_shares DECIMAL(38, 10), underlying_value DECIMAL(38, 10),
    footnote_ids VARCHAR[] NOT NULL, source_document_id BIGINT NOT NULL, load_id VARCHAR NOT NULL,
    PRIMARY KEY (accession, table_kind, line_number)
);

-- grain: (accession, footnote_id): one footnote of one filing.
CREATE TABLE insider_footnotes (
    accession          VARCHAR NOT NULL,
    footnote_id        VARCHAR NOT NULL,
    text               VARCHAR NOT NULL,
    footnote_number    INTEGER NOT NULL,
    source_document_id BIGINT NOT NULL,
    load_id            VARCHAR NOT NULL,
    PRIMARY KEY (accession, footnote_id)
);

-- grain: one footnoteId reference: (accession, table_name, table_kind, line_number, xml_element, footnote_id).
CREATE TABLE insider_footnote_refs (
    accession          VARCHAR NOT NULL,
    table_name         VARCHAR NOT NULL,
    table_kind         VARCHAR,
    line_number        INTEGER,
    field              VARCHAR NOT NULL,
    xml_element        VARCHAR NOT NULL,
    footnote_id        VARCHAR NOT NULL,
    source_document_id BIGINT NOT NULL,
    load_id            VARCHAR NOT NULL
);
