-- 0031 filing statements as presented (issue 24): for each inline-XBRL filing its income statement,
-- balance sheet, cash-flow, equity and comprehensive-income statements as the document prints them,
-- found among its HTML tables by pipelines/statements.py. Depends on 0030 (filing_facts) only in
-- meaning: every value's element_id / byte_offset is a fact of filing_facts' document. Described in
-- schema/columns.toml.

-- grain: (accession, statement): one statement of one filing, at most one of each kind.
CREATE TABLE filing_statements (
    accession          VARCHAR NOT NULL,
    statement          VARCHAR NOT NULL,
    cik                INTEGER,
    form               VARCHAR,
    title              VARCHAR,
    byte_offset        BIGINT NOT NULL,
    score              INTEGER NOT NULL,
    line_count         INTEGER NOT NULL,
    source_document_id BIGINT NOT NULL,
    load_id            VARCHAR NOT NULL,
    PRIMARY KEY (accession, statement)
);

-- grain: (accession, statement, line_number): one printed line of a statement, in printed order
-- (headings without values included), its cells one per value column as shown.
CREATE TABLE filing_statement_lines (
    accession          VARCHAR NOT NULL,
    statement          VARCHAR NOT NULL,
    line_number        INTEGER NOT NULL,
    label              VARCHAR NOT NULL,
    concept            VARCHAR,
    depth              INTEGER NOT NULL,
    indent             DOUBLE NOT NULL,
    cells              STRUCT(period_start DATE, period_end DATE, value DECIMAL(38, 10), fact_value DECIMAL(38, 10),
                              shown_negative BOOLEAN, dimensions MAP(VARCHAR, VARCHAR), concept VARCHAR,
                              element_id VARCHAR, byte_offset BIGINT)[] NOT NULL,
    source_document_id BIGINT NOT NULL,
    load_id            VARCHAR NOT NULL,
    PRIMARY KEY (accession, statement, line_number)
);
