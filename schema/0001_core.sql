-- 0001 core: provenance (source_documents, load_runs), companyfacts (facts, concepts),
-- the fiscal calendar and the version views (fact_versions, facts_current, fact_restatements,
-- facts_as_of). Every time is naive UTC.

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
COMMENT ON TABLE source_documents IS 'One row per fetched or loaded SEC payload (grain: payload). Every warehouse row points here through source_document_id; raw bytes are kept content-addressed by sha256 so any table can be rebuilt.';
COMMENT ON COLUMN source_documents.source_document_id IS 'Surrogate id referenced by every loaded row.';
COMMENT ON COLUMN source_documents.kind IS 'Payload kind: companyfacts, submissions, submissions_page, company_tickers, company_tickers_exchange, ownership, daily_index.';
COMMENT ON COLUMN source_documents.uri IS 'URL fetched (http/replay) or local file path (file).';
COMMENT ON COLUMN source_documents.origin IS 'http (live SEC), replay (recorded responses) or file (edgar-warehouse load).';
COMMENT ON COLUMN source_documents.sha256 IS 'SHA-256 of the decoded payload bytes; also the raw store key.';
COMMENT ON COLUMN source_documents.bytes IS 'Size of the decoded payload in bytes.';
COMMENT ON COLUMN source_documents.fetched_at IS 'When the payload was fetched or read (UTC).';
COMMENT ON COLUMN source_documents.http_status IS 'HTTP status of the response (NULL for files).';
COMMENT ON COLUMN source_documents.etag IS 'ETag response header, used for conditional re-fetch.';
COMMENT ON COLUMN source_documents.last_modified IS 'Last-Modified response header as sent by SEC.';
COMMENT ON COLUMN source_documents.cik IS 'Company the payload is about, when known (integer CIK).';
COMMENT ON COLUMN source_documents.accession IS 'Accession number the payload belongs to (Archives documents), when known.';
COMMENT ON COLUMN source_documents.status IS 'loaded, or rejected (then reject_reason says why and nothing from it was loaded).';
COMMENT ON COLUMN source_documents.reject_reason IS 'Why the payload was rejected: one sentence naming what was wrong.';
COMMENT ON COLUMN source_documents.raw_path IS 'Path of the gzip-compressed raw payload, relative to the raw store (<db>.raw/).';
COMMENT ON COLUMN source_documents.load_id IS 'Load run that recorded this payload (load_runs.load_id).';

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
COMMENT ON TABLE load_runs IS 'One row per load run (grain: run). A run commits all of its documents in one transaction, so readers never see half of it.';
COMMENT ON COLUMN load_runs.load_id IS 'Run id (UUID) carried by every row the run inserted.';
COMMENT ON COLUMN load_runs.flow_run_id IS 'Prefect flow run id when the run was a flow, else NULL.';
COMMENT ON COLUMN load_runs.command IS 'What started the run, e.g. "load", "refresh".';
COMMENT ON COLUMN load_runs.started_at IS 'Start of the run (UTC).';
COMMENT ON COLUMN load_runs.finished_at IS 'End of the run (UTC); NULL while running or after a crash.';
COMMENT ON COLUMN load_runs.status IS 'running, succeeded, partial (some documents rejected) or failed (nothing committed).';
COMMENT ON COLUMN load_runs.documents_loaded IS 'Documents whose rows were committed.';
COMMENT ON COLUMN load_runs.documents_unchanged IS 'Documents skipped because identical bytes were already loaded.';
COMMENT ON COLUMN load_runs.documents_rejected IS 'Documents recorded as rejected (see source_documents.reject_reason).';
COMMENT ON COLUMN load_runs.row_counts IS 'JSON object: table name -> rows inserted by this run.';
COMMENT ON COLUMN load_runs.error IS 'Error that failed the run, when status = failed.';

-- grain: one company (CIK). Extended by later migrations (submissions, registry).
CREATE TABLE companies (
    cik                INTEGER PRIMARY KEY,
    name               VARCHAR,
    source_document_id BIGINT,
    load_id            VARCHAR
);
COMMENT ON TABLE companies IS 'One row per company (grain: CIK): the latest known identity.';
COMMENT ON COLUMN companies.cik IS 'SEC Central Index Key as an integer.';
COMMENT ON COLUMN companies.name IS 'Latest known entity name.';
COMMENT ON COLUMN companies.source_document_id IS 'Payload the current name came from.';
COMMENT ON COLUMN companies.load_id IS 'Load run that last changed this row.';

-- grain: one XBRL concept (taxonomy, concept)
CREATE TABLE concepts (
    taxonomy    VARCHAR NOT NULL,
    concept     VARCHAR NOT NULL,
    label       VARCHAR,
    description VARCHAR,
    PRIMARY KEY (taxonomy, concept)
);
COMMENT ON TABLE concepts IS 'One row per XBRL concept seen in companyfacts (grain: taxonomy, concept): its label and documentation as SEC gave them (NULL when SEC gave none).';
COMMENT ON COLUMN concepts.taxonomy IS 'Taxonomy prefix: us-gaap, ifrs-full, dei, srt, ecd, ffd, invest, ...';
COMMENT ON COLUMN concepts.concept IS 'Concept (element) name, e.g. Revenues.';
COMMENT ON COLUMN concepts.label IS 'Standard label (may be NULL: SEC omits it for some ifrs-full concepts).';
COMMENT ON COLUMN concepts.description IS 'Standard documentation text.';

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
COMMENT ON TABLE facts IS 'Every reported version of every XBRL companyfacts fact (grain: cik, taxonomy, concept, unit, period_start, period_end, accession; a second value under the same accession only when SEC re-issued it). Append-only; see facts_current for the latest version and facts_as_of(ts) for point-in-time.';
COMMENT ON COLUMN facts.cik IS 'Reporting company (integer CIK).';
COMMENT ON COLUMN facts.taxonomy IS 'Taxonomy prefix (us-gaap, ifrs-full, dei, srt, ecd, ffd, invest, ...).';
COMMENT ON COLUMN facts.concept IS 'XBRL concept name.';
COMMENT ON COLUMN facts.unit IS 'Unit as SEC gave it: USD, shares, USD/shares, pure, TWD, EUR, or free-form (Store, segment...).';
COMMENT ON COLUMN facts.period_start IS 'First day of a duration; NULL for an instant.';
COMMENT ON COLUMN facts.period_end IS 'Last day of the duration, or the instant date.';
COMMENT ON COLUMN facts.value IS 'The value exactly as published (integers exact; decimals to the digits SEC gave). Never 0 for missing.';
COMMENT ON COLUMN facts.accession IS 'Accession number of the filing that reported this version (0000000000-00-000000).';
COMMENT ON COLUMN facts.form IS 'Form type of that filing (10-K, 10-Q, 10-K/A, 8-K, 20-F, ...).';
COMMENT ON COLUMN facts.filed IS 'Filing date of that filing.';
COMMENT ON COLUMN facts.frame IS 'SEC calendar frame (CY2023, CY2023Q3I, ...) when SEC assigned one to this version.';
COMMENT ON COLUMN facts.filing_fy IS 'Fiscal year of the FILING as SEC gave it (fy). Not the value''s own year: a comparative keeps the filing''s fy.';
COMMENT ON COLUMN facts.filing_fp IS 'Fiscal period of the FILING as SEC gave it (fp: FY, Q1, Q2, Q3).';
COMMENT ON COLUMN facts.payload_vintage IS 'Newest filed date in the companyfacts payload this row came from: orders two values SEC published for the same key and accession (an SEC-side correction in a later payload); both rows are kept.';
COMMENT ON COLUMN facts.fiscal_year IS 'The VALUE''s own fiscal year, from the company''s fiscal calendar (see fiscal_calendar).';
COMMENT ON COLUMN facts.fiscal_period IS 'The VALUE''s own fiscal period: FY, or Q1..Q4 = the fiscal quarter in which period_end falls (a 6-month YTD ending in Q2 is Q2 with duration_class six_months).';
COMMENT ON COLUMN facts.duration_days IS 'period_end - period_start in days (Apple FY2023 = 370); NULL for instants.';
COMMENT ON COLUMN facts.duration_class IS 'instant, quarter (80-100 days), six_months (170-200), nine_months (260-290), annual (350-380) or other.';
COMMENT ON COLUMN facts.fiscal_basis IS 'How fiscal_year was told: observed (a fiscal year end seen in the company''s annual filings), extrapolated (by whole years from observed ends), transition (a short period between two year ends after a change of year end), or assumed_calendar (no annual filings: calendar year assumed). NULL fiscal_year: the period ends in an uncovered gap of the calendar.';
COMMENT ON COLUMN facts.source_document_id IS 'The companyfacts payload this row was loaded from.';
COMMENT ON COLUMN facts.load_id IS 'The load run that inserted this row.';

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
COMMENT ON TABLE fiscal_calendar IS 'Fiscal years per company (grain: cik, fiscal_year), derived from the period ends of annual-duration facts in its 10-K/20-F/40-F filings (52/53-week years and year-end changes follow from the observed ends). Rebuilt for a company whenever its companyfacts load.';
COMMENT ON COLUMN fiscal_calendar.cik IS 'Company (integer CIK).';
COMMENT ON COLUMN fiscal_calendar.fiscal_year IS 'Fiscal year label, the company''s own convention (learned from the fy SEC gives its annual filings: NVIDIA FY2024 ends 2024-01-28).';
COMMENT ON COLUMN fiscal_calendar.fy_start IS 'First day of the fiscal year.';
COMMENT ON COLUMN fiscal_calendar.fy_end IS 'Last day of the fiscal year.';
COMMENT ON COLUMN fiscal_calendar.weeks_53 IS 'True when the year is a 53-week year (more than 367 days).';
COMMENT ON COLUMN fiscal_calendar.basis IS 'observed, extrapolated, transition or assumed_calendar (see facts.fiscal_basis).';
COMMENT ON COLUMN fiscal_calendar.load_id IS 'Load run that last rebuilt this company''s calendar.';

-- Scalar rules shared by loaders and views (one definition, used everywhere).
CREATE MACRO duration_class_of(period_start, duration_days) AS
    CASE
        WHEN period_start IS NULL THEN 'instant'
        WHEN duration_days BETWEEN 80 AND 100 THEN 'quarter'
        WHEN duration_days BETWEEN 170 AND 200 THEN 'six_months'
        WHEN duration_days BETWEEN 260 AND 290 THEN 'nine_months'
        WHEN duration_days BETWEEN 350 AND 380 THEN 'annual'
        ELSE 'other'
    END;
COMMENT ON MACRO duration_class_of IS 'Duration class of a fact from its length in days: instant, quarter (80-100), six_months (170-200), nine_months (260-290), annual (350-380), other.';

CREATE MACRO fiscal_period_of(period_start, period_end, duration_days, fy_start, fy_end) AS
    CASE
        WHEN fy_end IS NULL OR fy_start IS NULL THEN NULL
        WHEN duration_days BETWEEN 350 AND 380 AND abs(period_end - fy_end) <= 10 THEN 'FY'
        WHEN period_start IS NULL AND abs(period_end - fy_end) <= 3 THEN 'FY'
        ELSE 'Q' || CAST(least(greatest(round((period_end - fy_start + 1)
                                              / ((fy_end - fy_start + 1) / 4.0)), 1), 4) AS INTEGER)
    END;
COMMENT ON MACRO fiscal_period_of IS 'The value''s own fiscal period: FY for an annual duration (or an instant) at the fiscal year end, else Q1..Q4, the quarter of the fiscal year in which period_end falls.';

-- Version order of a fact: the moment it became public. Until filings (acceptance time) are
-- known, a value is public from the end of its filed day in New York (05:00 UTC next day is
-- never earlier than midnight EST/EDT). A value SEC re-issued later under the same accession
-- (revision > 0) is public no earlier than when we first fetched the payload that carried it.
-- Later migrations refine known_from with acceptance time.
CREATE VIEW fact_versions AS
SELECT v.* EXCLUDE (base_known_from, payload_fetched_at),
       CASE WHEN v.revision > 0 THEN greatest(v.base_known_from, v.payload_fetched_at)
            ELSE v.base_known_from END AS known_from,
       CASE WHEN v.revision > 0 AND v.payload_fetched_at > v.base_known_from THEN 'correction_fetched_at'
            ELSE 'filed_day_end' END AS known_from_basis
FROM (
    SELECT f.*,
           (row_number() OVER (PARTITION BY f.cik, f.taxonomy, f.concept, f.unit, f.period_start, f.period_end,
                                            f.accession
                               ORDER BY f.payload_vintage, f.source_document_id) - 1)::SMALLINT AS revision,
           CAST(f.filed + INTERVAL 1 DAY + INTERVAL 5 HOUR AS TIMESTAMP) AS base_known_from,
           d.fetched_at AS payload_fetched_at
    FROM facts f
    LEFT JOIN source_documents d ON d.source_document_id = f.source_document_id
) v;
COMMENT ON VIEW fact_versions IS 'facts plus known_from: the UTC time from which each version was public (acceptance time when known, else the end of its filed day), and revision.';

CREATE VIEW facts_ranked AS
SELECT v.*,
       row_number() OVER w AS version_number,
       count(*) OVER (PARTITION BY cik, taxonomy, concept, unit, period_start, period_end) AS versions,
       lag(value) OVER w AS prior_value,
       lag(accession) OVER w AS prior_accession,
       lag(filed) OVER w AS prior_filed,
       first_value(value) OVER w AS first_value,
       first_value(accession) OVER w AS first_accession,
       first_value(filed) OVER w AS first_filed
FROM fact_versions v
WINDOW w AS (PARTITION BY cik, taxonomy, concept, unit, period_start, period_end
             ORDER BY known_from, filed, accession, revision);
COMMENT ON VIEW facts_ranked IS 'Every fact version numbered in publication order within its key, with the prior and first versions alongside.';

CREATE VIEW facts_current AS
SELECT r.cik, r.taxonomy, r.concept, r.unit, r.period_start, r.period_end, r.value,
       r.accession, r.form, r.filed, r.known_from, r.frame, r.filing_fy, r.filing_fp,
       r.fiscal_year, r.fiscal_period, r.duration_days, r.duration_class,
       r.versions,
       (min(r.value) OVER k) <> (max(r.value) OVER k) AS restated,
       r.prior_value, r.prior_accession, r.prior_filed,
       r.first_value, r.first_accession, r.first_filed,
       r.source_document_id, r.load_id
FROM facts_ranked r
WINDOW k AS (PARTITION BY cik, taxonomy, concept, unit, period_start, period_end)
QUALIFY r.version_number = r.versions;
COMMENT ON VIEW facts_current IS 'One row per fact key (cik, taxonomy, concept, unit, period_start, period_end): the latest-published version, with how many versions exist, whether any two differ (restated), the prior version and the first-reported version.';

CREATE VIEW fact_restatements AS
SELECT cik, taxonomy, concept, unit, period_start, period_end, fiscal_year, fiscal_period,
       prior_value AS old_value, value AS new_value, value - prior_value AS change,
       prior_accession AS old_accession, accession AS new_accession,
       prior_filed AS old_filed, filed AS new_filed, form AS new_form,
       CASE WHEN accession = prior_accession THEN 'sec_correction'
            WHEN form LIKE '%/A' THEN 'amendment'
            WHEN prior_value = 0 OR value = 0 THEN 'zeroed_or_filled'
            WHEN abs(value) = abs(prior_value) THEN 'sign_change'
            WHEN abs(value / prior_value) BETWEEN 999 AND 1001 OR abs(prior_value / value) BETWEEN 999 AND 1001
                THEN 'scale_change'
            ELSE 'comparative_revision' END AS change_kind
FROM facts_ranked
WHERE version_number > 1 AND value <> prior_value;
COMMENT ON VIEW fact_restatements IS 'One row per change of value between two consecutive published versions of a fact. change_kind: sec_correction (same accession, re-issued by SEC in a later payload), amendment (the new version came in a /A form), sign_change, scale_change (x1000), zeroed_or_filled, else comparative_revision (a later filing reported the period again with another value).';

-- Column comments of the views above (agents read the dictionary from the database).
COMMENT ON COLUMN fact_versions.cik IS 'Reporting company (integer CIK).';
COMMENT ON COLUMN fact_versions.taxonomy IS 'Taxonomy prefix (us-gaap, ifrs-full, dei, srt, ecd, ffd, invest, ...).';
COMMENT ON COLUMN fact_versions.concept IS 'XBRL concept name.';
COMMENT ON COLUMN fact_versions.unit IS 'Unit as SEC gave it: USD, shares, USD/shares, pure, TWD, EUR, or free-form (Store, segment...).';
COMMENT ON COLUMN fact_versions.period_start IS 'First day of a duration; NULL for an instant.';
COMMENT ON COLUMN fact_versions.period_end IS 'Last day of the duration, or the instant date.';
COMMENT ON COLUMN fact_versions.value IS 'The value exactly as published (integers exact; decimals to the digits SEC gave). Never 0 for missing.';
COMMENT ON COLUMN fact_versions.accession IS 'Accession number of the filing that reported this version (0000000000-00-000000).';
COMMENT ON COLUMN fact_versions.form IS 'Form type of that filing (10-K, 10-Q, 10-K/A, 8-K, 20-F, ...).';
COMMENT ON COLUMN fact_versions.filed IS 'Filing date of that filing.';
COMMENT ON COLUMN fact_versions.frame IS 'SEC calendar frame (CY2023, CY2023Q3I, ...) when SEC assigned one to this version.';
COMMENT ON COLUMN fact_versions.filing_fy IS 'Fiscal year of the FILING as SEC gave it (fy). Not the value''s own year: a comparative keeps the filing''s fy.';
COMMENT ON COLUMN fact_versions.filing_fp IS 'Fiscal period of the FILING as SEC gave it (fp: FY, Q1, Q2, Q3).';
COMMENT ON COLUMN fact_versions.payload_vintage IS 'Newest filed date in the companyfacts payload this row came from: orders two values SEC published for the same key and accession (an SEC-side correction in a later payload); both rows are kept.';
COMMENT ON COLUMN fact_versions.fiscal_year IS 'The VALUE''s own fiscal year, from the company''s fiscal calendar (see fiscal_calendar).';
COMMENT ON COLUMN fact_versions.fiscal_period IS 'The VALUE''s own fiscal period: FY, or Q1..Q4 = the fiscal quarter in which period_end falls (a 6-month YTD ending in Q2 is Q2 with duration_class six_months).';
COMMENT ON COLUMN fact_versions.duration_days IS 'period_end - period_start in days (Apple FY2023 = 370); NULL for instants.';
COMMENT ON COLUMN fact_versions.duration_class IS 'instant, quarter (80-100 days), six_months (170-200), nine_months (260-290), annual (350-380) or other.';
COMMENT ON COLUMN fact_versions.fiscal_basis IS 'How fiscal_year was told: observed (a fiscal year end seen in the company''s annual filings), extrapolated (by whole years from observed ends), transition (a short period between two year ends after a change of year end), or assumed_calendar (no annual filings: calendar year assumed). NULL fiscal_year: the period ends in an uncovered gap of the calendar.';
COMMENT ON COLUMN fact_versions.source_document_id IS 'The companyfacts payload this row was loaded from.';
COMMENT ON COLUMN fact_versions.load_id IS 'The load run that inserted this row.';
COMMENT ON COLUMN fact_versions.revision IS '0, or 1, 2, ... for later values SEC re-issued under the same accession (ordered by payload_vintage).';
COMMENT ON COLUMN fact_versions.known_from IS 'UTC time from which this version was public: the filing''s acceptance time when known, else the end of its filed day in New York (filed + 1 day 05:00 UTC).';
COMMENT ON COLUMN fact_versions.known_from_basis IS 'acceptance_time, filed_day_end, or correction_fetched_at (a value SEC re-issued under the same accession: public from when we first fetched it).';
COMMENT ON COLUMN facts_ranked.cik IS 'Reporting company (integer CIK).';
COMMENT ON COLUMN facts_ranked.taxonomy IS 'Taxonomy prefix (us-gaap, ifrs-full, dei, srt, ecd, ffd, invest, ...).';
COMMENT ON COLUMN facts_ranked.concept IS 'XBRL concept name.';
COMMENT ON COLUMN facts_ranked.unit IS 'Unit as SEC gave it: USD, shares, USD/shares, pure, TWD, EUR, or free-form (Store, segment...).';
COMMENT ON COLUMN facts_ranked.period_start IS 'First day of a duration; NULL for an instant.';
COMMENT ON COLUMN facts_ranked.period_end IS 'Last day of the duration, or the instant date.';
COMMENT ON COLUMN facts_ranked.value IS 'The value exactly as published (integers exact; decimals to the digits SEC gave). Never 0 for missing.';
COMMENT ON COLUMN facts_ranked.accession IS 'Accession number of the filing that reported this version (0000000000-00-000000).';
COMMENT ON COLUMN facts_ranked.form IS 'Form type of that filing (10-K, 10-Q, 10-K/A, 8-K, 20-F, ...).';
COMMENT ON COLUMN facts_ranked.filed IS 'Filing date of that filing.';
COMMENT ON COLUMN facts_ranked.frame IS 'SEC calendar frame (CY2023, CY2023Q3I, ...) when SEC assigned one to this version.';
COMMENT ON COLUMN facts_ranked.filing_fy IS 'Fiscal year of the FILING as SEC gave it (fy). Not the value''s own year: a comparative keeps the filing''s fy.';
COMMENT ON COLUMN facts_ranked.filing_fp IS 'Fiscal period of the FILING as SEC gave it (fp: FY, Q1, Q2, Q3).';
COMMENT ON COLUMN facts_ranked.payload_vintage IS 'Newest filed date in the companyfacts payload this row came from: orders two values SEC published for the same key and accession (an SEC-side correction in a later payload); both rows are kept.';
COMMENT ON COLUMN facts_ranked.fiscal_year IS 'The VALUE''s own fiscal year, from the company''s fiscal calendar (see fiscal_calendar).';
COMMENT ON COLUMN facts_ranked.fiscal_period IS 'The VALUE''s own fiscal period: FY, or Q1..Q4 = the fiscal quarter in which period_end falls (a 6-month YTD ending in Q2 is Q2 with duration_class six_months).';
COMMENT ON COLUMN facts_ranked.duration_days IS 'period_end - period_start in days (Apple FY2023 = 370); NULL for instants.';
COMMENT ON COLUMN facts_ranked.duration_class IS 'instant, quarter (80-100 days), six_months (170-200), nine_months (260-290), annual (350-380) or other.';
COMMENT ON COLUMN facts_ranked.fiscal_basis IS 'How fiscal_year was told: observed (a fiscal year end seen in the company''s annual filings), extrapolated (by whole years from observed ends), transition (a short period between two year ends after a change of year end), or assumed_calendar (no annual filings: calendar year assumed). NULL fiscal_year: the period ends in an uncovered gap of the calendar.';
COMMENT ON COLUMN facts_ranked.source_document_id IS 'The companyfacts payload this row was loaded from.';
COMMENT ON COLUMN facts_ranked.load_id IS 'The load run that inserted this row.';
COMMENT ON COLUMN facts_ranked.revision IS '0, or 1, 2, ... for later values SEC re-issued under the same accession (ordered by payload_vintage).';
COMMENT ON COLUMN facts_ranked.known_from IS 'UTC time from which this version was public: the filing''s acceptance time when known, else the end of its filed day in New York (filed + 1 day 05:00 UTC).';
COMMENT ON COLUMN facts_ranked.known_from_basis IS 'acceptance_time or filed_day_end: which rule gave known_from.';
COMMENT ON COLUMN facts_ranked.version_number IS '1 for the first-published version of the key, then 2, 3, ... in publication order.';
COMMENT ON COLUMN facts_ranked.versions IS 'How many versions the key has (all filings that reported it).';
COMMENT ON COLUMN facts_ranked.prior_value IS 'Value of the previous version (NULL for the first).';
COMMENT ON COLUMN facts_ranked.prior_accession IS 'Accession of the previous version.';
COMMENT ON COLUMN facts_ranked.prior_filed IS 'Filed date of the previous version.';
COMMENT ON COLUMN facts_ranked.first_value IS 'Value as first reported.';
COMMENT ON COLUMN facts_ranked.first_accession IS 'Accession that first reported the key.';
COMMENT ON COLUMN facts_ranked.first_filed IS 'Filed date of the first report.';
COMMENT ON COLUMN facts_current.cik IS 'Reporting company (integer CIK).';
COMMENT ON COLUMN facts_current.taxonomy IS 'Taxonomy prefix (us-gaap, ifrs-full, dei, srt, ecd, ffd, invest, ...).';
COMMENT ON COLUMN facts_current.concept IS 'XBRL concept name.';
COMMENT ON COLUMN facts_current.unit IS 'Unit as SEC gave it: USD, shares, USD/shares, pure, TWD, EUR, or free-form (Store, segment...).';
COMMENT ON COLUMN facts_current.period_start IS 'First day of a duration; NULL for an instant.';
COMMENT ON COLUMN facts_current.period_end IS 'Last day of the duration, or the instant date.';
COMMENT ON COLUMN facts_current.value IS 'The value of the latest-published version, exactly as published.';
COMMENT ON COLUMN facts_current.accession IS 'Accession of the latest-published version.';
COMMENT ON COLUMN facts_current.form IS 'Form type of that filing (10-K, 10-Q, 10-K/A, 8-K, 20-F, ...).';
COMMENT ON COLUMN facts_current.filed IS 'Filing date of that filing.';
COMMENT ON COLUMN facts_current.known_from IS 'UTC time from which this version was public: the filing''s acceptance time when known, else the end of its filed day in New York (filed + 1 day 05:00 UTC).';
COMMENT ON COLUMN facts_current.frame IS 'SEC calendar frame (CY2023, CY2023Q3I, ...) when SEC assigned one to this version.';
COMMENT ON COLUMN facts_current.filing_fy IS 'Fiscal year of the FILING as SEC gave it (fy). Not the value''s own year: a comparative keeps the filing''s fy.';
COMMENT ON COLUMN facts_current.filing_fp IS 'Fiscal period of the FILING as SEC gave it (fp: FY, Q1, Q2, Q3).';
COMMENT ON COLUMN facts_current.fiscal_year IS 'The VALUE''s own fiscal year, from the company''s fiscal calendar (see fiscal_calendar).';
COMMENT ON COLUMN facts_current.fiscal_period IS 'The VALUE''s own fiscal period: FY, or Q1..Q4 = the fiscal quarter in which period_end falls (a 6-month YTD ending in Q2 is Q2 with duration_class six_months).';
COMMENT ON COLUMN facts_current.duration_days IS 'period_end - period_start in days (Apple FY2023 = 370); NULL for instants.';
COMMENT ON COLUMN facts_current.duration_class IS 'instant, quarter (80-100 days), six_months (170-200), nine_months (260-290), annual (350-380) or other.';
COMMENT ON COLUMN facts_current.versions IS 'How many versions the key has (all filings that reported it).';
COMMENT ON COLUMN facts_current.restated IS 'True when any two versions of the key differ in value.';
COMMENT ON COLUMN facts_current.prior_value IS 'Value of the previous version (NULL for the first).';
COMMENT ON COLUMN facts_current.prior_accession IS 'Accession of the previous version.';
COMMENT ON COLUMN facts_current.prior_filed IS 'Filed date of the previous version.';
COMMENT ON COLUMN facts_current.first_value IS 'Value as first reported.';
COMMENT ON COLUMN facts_current.first_accession IS 'Accession that first reported the key.';
COMMENT ON COLUMN facts_current.first_filed IS 'Filed date of the first report.';
COMMENT ON COLUMN facts_current.source_document_id IS 'The companyfacts payload this row was loaded from.';
COMMENT ON COLUMN facts_current.load_id IS 'The load run that inserted this row.';
COMMENT ON COLUMN fact_restatements.cik IS 'Reporting company (integer CIK).';
COMMENT ON COLUMN fact_restatements.taxonomy IS 'Taxonomy prefix (us-gaap, ifrs-full, dei, srt, ecd, ffd, invest, ...).';
COMMENT ON COLUMN fact_restatements.concept IS 'XBRL concept name.';
COMMENT ON COLUMN fact_restatements.unit IS 'Unit as SEC gave it: USD, shares, USD/shares, pure, TWD, EUR, or free-form (Store, segment...).';
COMMENT ON COLUMN fact_restatements.period_start IS 'First day of a duration; NULL for an instant.';
COMMENT ON COLUMN fact_restatements.period_end IS 'Last day of the duration, or the instant date.';
COMMENT ON COLUMN fact_restatements.fiscal_year IS 'The VALUE''s own fiscal year, from the company''s fiscal calendar (see fiscal_calendar).';
COMMENT ON COLUMN fact_restatements.fiscal_period IS 'The VALUE''s own fiscal period: FY, or Q1..Q4 = the fiscal quarter in which period_end falls (a 6-month YTD ending in Q2 is Q2 with duration_class six_months).';
COMMENT ON COLUMN fact_restatements.old_value IS 'Value before the change (previous version).';
COMMENT ON COLUMN fact_restatements.new_value IS 'Value after the change.';
COMMENT ON COLUMN fact_restatements.change IS 'new_value - old_value.';
COMMENT ON COLUMN fact_restatements.old_accession IS 'Accession of the previous version.';
COMMENT ON COLUMN fact_restatements.new_accession IS 'Accession of the version that changed the value.';
COMMENT ON COLUMN fact_restatements.old_filed IS 'Filed date of the previous version.';
COMMENT ON COLUMN fact_restatements.new_filed IS 'Filed date of the changing version.';
COMMENT ON COLUMN fact_restatements.new_form IS 'Form of the changing filing (10-K/A etc.).';
COMMENT ON COLUMN fact_restatements.change_kind IS 'sec_correction, amendment, sign_change, scale_change, zeroed_or_filled or comparative_revision.';

CREATE MACRO facts_as_of(ts) AS TABLE
SELECT v.* EXCLUDE (version_rank)
FROM (
    SELECT fv.*,
           row_number() OVER (PARTITION BY cik, taxonomy, concept, unit, period_start, period_end
                              ORDER BY known_from DESC, filed DESC, accession DESC, revision DESC) AS version_rank
    FROM fact_versions fv
    WHERE fv.known_from <= CAST(ts AS TIMESTAMP)
) v
WHERE v.version_rank = 1;
COMMENT ON MACRO TABLE facts_as_of IS 'facts_as_of(ts): for every fact key, the version a reader could have seen at UTC time ts (the latest version with known_from <= ts). Never shows a value before it was public.';
