-- 0025 filing documents: the primary document of a 10-K, 10-Q or 8-K filing (every era: full
-- submission .txt, HTML in the SGML wrapper, inline XBRL) and its items, as parsed by
-- pipelines/filing_documents.py. The raw bytes are the payload's (source_documents.sha256, the raw
-- store); every offset here leads back to them. Described in schema/columns.toml.

-- grain: accession (one primary document per filing). When two payloads of one filing load (its
-- full submission .txt and its primary .htm), the row is the one of the preferred envelope
-- (full_submission, inline_xbrl, sgml_wrapper, html; then the smaller sha256), whichever arrived
-- first, so the table does not depend on the order of arrival.
CREATE TABLE filing_documents (
    accession             VARCHAR PRIMARY KEY,
    accession_source      VARCHAR NOT NULL,
    cik                   INTEGER NOT NULL,
    cik_source            VARCHAR NOT NULL,
    form                  VARCHAR NOT NULL,
    form_family           VARCHAR NOT NULL,
    company_name          VARCHAR,
    filed                 DATE,
    period_of_report      DATE,
    acceptance_time       TIMESTAMP,
    envelope              VARCHAR NOT NULL,
    file_name             VARCHAR,
    document_url          VARCHAR NOT NULL,
    sha256                VARCHAR NOT NULL,
    bytes                 BIGINT NOT NULL,
    text                  VARCHAR NOT NULL,
    text_byte_start       BIGINT NOT NULL,
    text_byte_end         BIGINT NOT NULL,
    has_table_of_contents BOOLEAN NOT NULL,
    section_count         INTEGER NOT NULL,
    exhibits              STRUCT(type VARCHAR, sequence VARCHAR, file_name VARCHAR, description VARCHAR,
                                 byte_start BIGINT, byte_end BIGINT)[] NOT NULL,
    source_document_id    BIGINT NOT NULL,
    load_id               VARCHAR NOT NULL
);

-- grain: (accession, item): one item of a filing document, in document order (ordinal). Items the
-- document lacks have no row; a heading that names several items ("Items 1 and 2.") is one row
-- whose covers lists them all.
CREATE TABLE filing_sections (
    accession          VARCHAR NOT NULL,
    item               VARCHAR NOT NULL,
    ordinal            INTEGER NOT NULL,
    cik                INTEGER NOT NULL,
    part               VARCHAR,
    heading            VARCHAR NOT NULL,
    text               VARCHAR NOT NULL,
    text_start         BIGINT NOT NULL,
    text_end           BIGINT NOT NULL,
    body_start         BIGINT NOT NULL,
    byte_start         BIGINT NOT NULL,
    byte_end           BIGINT NOT NULL,
    flags              VARCHAR[] NOT NULL,
    covers             VARCHAR[] NOT NULL,
    confidence         DOUBLE NOT NULL,
    confidence_reason  VARCHAR NOT NULL,
    term_count         INTEGER NOT NULL,
    source_document_id BIGINT NOT NULL,
    load_id            VARCHAR NOT NULL,
    PRIMARY KEY (accession, item)
);

-- grain: (term, accession, item): the keyword index of filing_sections (pipelines/filing_search.py
-- says what a term is): how often the term occurs in the item's heading and text. Written with the
-- item's rows by the load, so the index is current after every load without rebuilding it; ranked
-- queries score it with BM25 (warehouse/sql/read/filing_text/search_keywords.sql).
CREATE TABLE filing_terms (
    term      VARCHAR NOT NULL,
    accession VARCHAR NOT NULL,
    item      VARCHAR NOT NULL,
    tf        INTEGER NOT NULL
);
