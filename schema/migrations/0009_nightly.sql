-- 0009 nightly: the tracked universe and every HTTP request a run made. Described in
-- schema/columns.toml. No PRIMARY KEY, no sequence: the same DDL runs on DuckLake, which refuses
-- both; warehouse/tracking.py keeps one row per cik by anti-join and numbers requests itself.

-- grain: one tracked company (cik)
CREATE TABLE tracked_companies (
    cik            INTEGER NOT NULL,
    tracked_ticker VARCHAR,
    tracked_at     TIMESTAMP NOT NULL,
    tracked_by     VARCHAR NOT NULL,
    synced_through DATE,
    synced_load_id VARCHAR
);

-- grain: one HTTP request (each attempt, retries and redirect hops included) made by a run
CREATE TABLE run_requests (
    load_id    VARCHAR NOT NULL,
    seq        INTEGER NOT NULL,
    url        VARCHAR NOT NULL,
    kind       VARCHAR,
    status     INTEGER,
    body_bytes BIGINT,
    sent_at    TIMESTAMP NOT NULL,
    elapsed_ms DOUBLE,
    failure    VARCHAR
);
