-- 0017 the checks' findings per company: check_results held one row per (load, check) that every
-- batch of a run replaced, so after `load --batch-size 1` or a bootstrap only the last batch's
-- companies were counted (issue 27). Each batch now replaces the rows of the companies it checked
-- here, and check_results is the sum over the run's companies. Described in schema/columns.toml.

-- grain: (load_id, check_name, cik): the rows one check flagged for one company, when it flagged any.
CREATE TABLE check_company_results (
    load_id        VARCHAR NOT NULL,
    check_name     VARCHAR NOT NULL,
    cik            INTEGER NOT NULL,
    offending_rows BIGINT NOT NULL,
    sample         JSON,
    checked_at     TIMESTAMP NOT NULL,
    PRIMARY KEY (load_id, check_name, cik)
);
