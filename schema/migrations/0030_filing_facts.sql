-- 0030 filing_facts: every fact of a filing's inline XBRL (issue 24), as pipelines/inline_xbrl.py reads
-- it from the filing's primary document. Depends on 0001 (source_documents, load_runs) only.
-- Values are exact (DECIMAL(38,10) from the displayed text, scale, sign and format), missing is NULL.
-- Described in schema/columns.toml.

-- grain: (accession, fact_number): one distinct fact of the filing, fact_number 1-based in document order
-- of its first occurrence. A fact repeated with the same value (the same concept, context content,
-- unit and value) is one row with its occurrences; different values of one concept, context and unit
-- are a row each, flagged inconsistent. One inline document per accession: a second document for a
-- loaded accession adds nothing (order of arrival does not matter).
CREATE TABLE filing_facts (
    accession          VARCHAR NOT NULL,
    fact_number        INTEGER NOT NULL,
    cik                INTEGER,
    form               VARCHAR,
    fact_kind          VARCHAR NOT NULL,
    concept            VARCHAR NOT NULL,
    taxonomy           VARCHAR NOT NULL,
    value              DECIMAL(38, 10),
    text_value         VARCHAR,
    displayed          VARCHAR,
    is_nil             BOOLEAN NOT NULL,
    unit               VARCHAR,
    period_type        VARCHAR,
    period_start       DATE,
    period_end         DATE,
    dimensions         MAP(VARCHAR, VARCHAR) NOT NULL,
    decimals           VARCHAR,
    scale              INTEGER,
    sign               VARCHAR,
    format             VARCHAR,
    context_id         VARCHAR NOT NULL,
    element_id         VARCHAR,
    byte_offset        BIGINT NOT NULL,
    occurrences        INTEGER NOT NULL,
    inconsistent       BOOLEAN NOT NULL,
    problem            VARCHAR,
    source_document_id BIGINT NOT NULL,
    load_id            VARCHAR NOT NULL,
    PRIMARY KEY (accession, fact_number)
);
