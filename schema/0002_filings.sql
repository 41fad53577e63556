-- 0002 filings: submissions (filing histories, all pages), the company registry (tickers), company
-- identity history, coverage audits, and fact_versions refined with true UTC acceptance times.
-- Every time is naive UTC.

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
COMMENT ON COLUMN companies.tickers IS 'Ticker symbols SEC lists for the company (submissions tickers), in SEC''s order; empty for individuals and most funds.';
COMMENT ON COLUMN companies.exchanges IS 'Exchanges, parallel to tickers (Nasdaq, NYSE, OTC, CBOE; NULL entries where SEC gives none).';
COMMENT ON COLUMN companies.fiscal_year_end IS 'Fiscal year end as SEC gives it: text MMDD (Apple 0926 = last Saturday of September, reported as a day).';
COMMENT ON COLUMN companies.entity_type IS 'SEC entityType: operating, other, individual, investment, ...';
COMMENT ON COLUMN companies.sic IS 'Standard Industrial Classification code as text (leading zeros kept), NULL when none.';
COMMENT ON COLUMN companies.sic_description IS 'SEC''s description of the SIC code.';
COMMENT ON COLUMN companies.category IS 'Filer category (Large accelerated filer, Non-accelerated filer, ...).';
COMMENT ON COLUMN companies.state_of_incorporation IS 'State or country code of incorporation (CA, DE, 2M = Germany ...).';
COMMENT ON COLUMN companies.state_of_incorporation_description IS 'Readable state/country of incorporation.';
COMMENT ON COLUMN companies.ein IS 'IRS employer identification number as SEC gives it.';
COMMENT ON COLUMN companies.lei IS 'Legal Entity Identifier, when SEC has one.';
COMMENT ON COLUMN companies.owner_org IS 'SEC review office (ownerOrg), e.g. 06 Technology.';
COMMENT ON COLUMN companies.phone IS 'Business phone as SEC gives it.';
COMMENT ON COLUMN companies.website IS 'Website as SEC gives it (often empty).';
COMMENT ON COLUMN companies.flags IS 'SEC flags text (often empty).';
COMMENT ON COLUMN companies.insider_transaction_for_owner_exists IS 'SEC: the CIK has filed Forms 3/4/5 as a reporting owner.';
COMMENT ON COLUMN companies.insider_transaction_for_issuer_exists IS 'SEC: Forms 3/4/5 exist with this CIK as issuer.';
COMMENT ON COLUMN companies.addresses IS 'Mailing and business addresses as SEC gives them (JSON).';
COMMENT ON COLUMN companies.former_names IS 'Former names with the calendar days they were used from/to (SEC formerNames; dates are US Eastern days).';
COMMENT ON COLUMN companies.submissions_observed_at IS 'As-of of the submissions payload these values came from: its newest filing acceptance time (UTC), else when it was fetched. A payload older than this never overwrites the row.';
COMMENT ON COLUMN companies.submissions_source_document_id IS 'Submissions payload the identity columns came from (NULL when only companyfacts was loaded).';

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
COMMENT ON TABLE company_observations IS 'Company identity (name, tickers, exchanges) as each loaded submissions payload stated it (grain: cik, source_document_id). Append-only; company_history derives the changes in observation order, so the order in which payloads arrive does not matter.';
COMMENT ON COLUMN company_observations.cik IS 'Company (integer CIK).';
COMMENT ON COLUMN company_observations.observed_at IS 'As-of of the payload: newest acceptance time among its filings (UTC), else when it was fetched.';
COMMENT ON COLUMN company_observations.name IS 'Entity name in that payload.';
COMMENT ON COLUMN company_observations.tickers IS 'Tickers in that payload.';
COMMENT ON COLUMN company_observations.exchanges IS 'Exchanges in that payload.';
COMMENT ON COLUMN company_observations.source_document_id IS 'The submissions payload.';
COMMENT ON COLUMN company_observations.load_id IS 'Load run that recorded it.';

CREATE VIEW company_history AS
WITH vals AS (
    SELECT cik, observed_at, source_document_id, 'name' AS field, name AS value FROM company_observations
    UNION ALL
    SELECT cik, observed_at, source_document_id, 'tickers', nullif(array_to_string(list_sort(tickers), ','), '')
    FROM company_observations
    UNION ALL
    SELECT cik, observed_at, source_document_id, 'exchanges', nullif(array_to_string(list_sort(exchanges), ','), '')
    FROM company_observations
), seq AS (
    SELECT *, lag(value) OVER w AS old_value, row_number() OVER w AS n
    FROM vals
    WINDOW w AS (PARTITION BY cik, field ORDER BY observed_at, source_document_id)
)
SELECT cik, field, old_value, value AS new_value, observed_at, source_document_id,
       CASE WHEN n = 1 THEN 'first_seen' ELSE 'changed' END AS change_kind
FROM seq
WHERE n = 1 OR old_value IS DISTINCT FROM value;
COMMENT ON VIEW company_history IS 'Dated history of company identity (grain: cik, field, observation): the first value seen and every change of name, tickers or exchanges between loaded submissions payloads, in as-of order.';
COMMENT ON COLUMN company_history.cik IS 'Company (integer CIK).';
COMMENT ON COLUMN company_history.field IS 'name, tickers or exchanges.';
COMMENT ON COLUMN company_history.old_value IS 'Value in the previous observation (NULL for first_seen); lists are sorted and comma-joined.';
COMMENT ON COLUMN company_history.new_value IS 'Value from this observation on.';
COMMENT ON COLUMN company_history.observed_at IS 'As-of of the payload that showed the new value (UTC).';
COMMENT ON COLUMN company_history.source_document_id IS 'The submissions payload that showed the new value.';
COMMENT ON COLUMN company_history.change_kind IS 'first_seen (earliest observation) or changed.';

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
COMMENT ON TABLE filings IS 'Every filing in every loaded company''s submissions history, recent list and all pages (grain: cik, accession). Never deleted or overwritten: a filing already stored is not re-inserted; only the derived amendment links (amends_accession, superseded_by, amend_rule) are recomputed for the company at each load, so the order in which payloads arrive does not matter.';
COMMENT ON COLUMN filings.cik IS 'Company whose submissions history lists the filing (integer CIK).';
COMMENT ON COLUMN filings.accession IS 'Accession number, 0000000000-00-000000 form.';
COMMENT ON COLUMN filings.form IS 'Form type as SEC gives it (10-K, 10-K/A, 4, 20-F, SC 13G/A, ...).';
COMMENT ON COLUMN filings.base_form IS 'Form without its /A amendment suffix (10-K/A -> 10-K).';
COMMENT ON COLUMN filings.is_amendment IS 'True when the form ends in /A.';
COMMENT ON COLUMN filings.filing_date IS 'SEC filing date (a filing accepted after 17:30 Eastern is dated the next business day).';
COMMENT ON COLUMN filings.acceptance_time IS 'When EDGAR accepted the filing, true UTC (naive TIMESTAMP). SEC''s acceptanceDateTime always ends in Z but older payloads carry US Eastern wall-clock time under it while recent ones carry true UTC; the clock of each payload is told from its times (see acceptance_time_basis) and Eastern is converted with America/New_York rules (EDT +4 h, EST +5 h). NULL when SEC gave only a date (basis date_only) or nothing.';
COMMENT ON COLUMN filings.acceptance_time_raw IS 'acceptanceDateTime exactly as SEC gave it.';
COMMENT ON COLUMN filings.acceptance_time_basis IS 'How acceptance_time was obtained: sec_utc (payload''s clock is true UTC: it has times of day EDGAR cannot accept in Eastern, 00:00-03:59 or after 22:15), eastern_converted (payload''s clock is Eastern: it has times 06:00-09:59 that are impossible in UTC; converted to UTC), eastern_assumed (no evidence either way: read as Eastern, the later reading, so point-in-time queries never see a filing early), date_only (midnight placeholder: time unknown, acceptance_time NULL).';
COMMENT ON COLUMN filings.report_date IS 'Period of report (reportDate), NULL when SEC gives none.';
COMMENT ON COLUMN filings.act IS 'Securities act (33, 34, 40, ...), NULL when none.';
COMMENT ON COLUMN filings.file_number IS 'SEC file number (001-36743, ...).';
COMMENT ON COLUMN filings.film_number IS 'Film number.';
COMMENT ON COLUMN filings.items IS '8-K item numbers, comma-separated, as SEC gives them.';
COMMENT ON COLUMN filings.core_type IS 'SEC core_type column (newer payloads only), NULL when absent.';
COMMENT ON COLUMN filings.size IS 'Submission size in bytes.';
COMMENT ON COLUMN filings.is_xbrl IS 'SEC isXBRL: the filing carries XBRL.';
COMMENT ON COLUMN filings.is_inline_xbrl IS 'SEC isInlineXBRL: the XBRL is inline.';
COMMENT ON COLUMN filings.is_xbrl_numeric IS 'SEC isXBRLNumeric (newer payloads only): the XBRL has numeric facts; NULL when absent.';
COMMENT ON COLUMN filings.primary_document IS 'Primary document as SEC gives it; for Forms 3/4/5 SEC''s rendering path such as xslF345X05/form4.xml.';
COMMENT ON COLUMN filings.primary_doc_description IS 'SEC description of the primary document.';
COMMENT ON COLUMN filings.index_url IS 'URL of the filing index page on www.sec.gov Archives.';
COMMENT ON COLUMN filings.document_url IS 'URL of the raw primary document (for Forms 3/4/5 the raw XML: the xsl rendering folder is stripped).';
COMMENT ON COLUMN filings.amends_accession IS 'For an amendment: the original it amends, same company and base form, same report_date, filed on or before it, when exactly one such original is loaded (see amend_rule). NULL otherwise.';
COMMENT ON COLUMN filings.superseded_by IS 'The next filing in the original''s amendment chain (original -> first amendment -> second ...); NULL for the latest version. Follow it to the current version.';
COMMENT ON COLUMN filings.amend_rule IS 'For amendments, how the link was told: same_form_report_date (one original matched), ambiguous_N_candidates (N originals match, none chosen), no_original_loaded (none stored yet: its page may be missing), no_report_date (cannot be told). NULL for non-amendments.';
COMMENT ON COLUMN filings.page IS 'Submissions page the row came from (CIK##########-submissions-NNN.json), NULL for the main file''s recent list.';
COMMENT ON COLUMN filings.source_document_id IS 'Submissions payload (main file or page) the row was loaded from.';
COMMENT ON COLUMN filings.load_id IS 'Load run that inserted the row.';

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
COMMENT ON TABLE submission_pages IS 'Pages of older filings each company''s main submissions file declares in filings.files (grain: cik, page_name), and whether each has been loaded. A page counts toward coverage only when loaded.';
COMMENT ON COLUMN submission_pages.cik IS 'Company (integer CIK).';
COMMENT ON COLUMN submission_pages.page_name IS 'Page file name, CIK##########-submissions-NNN.json.';
COMMENT ON COLUMN submission_pages.declared IS 'True when the newest loaded main file declares this page (SEC re-cuts pages over time).';
COMMENT ON COLUMN submission_pages.filing_count IS 'filingCount the main file declares for the page.';
COMMENT ON COLUMN submission_pages.filing_from IS 'First filing date the main file declares for the page.';
COMMENT ON COLUMN submission_pages.filing_to IS 'Last filing date the main file declares for the page.';
COMMENT ON COLUMN submission_pages.declared_by_source_document_id IS 'Main submissions payload that declared the page.';
COMMENT ON COLUMN submission_pages.loaded IS 'True once a payload of this page has been loaded.';
COMMENT ON COLUMN submission_pages.loaded_rows IS 'Filings listed in the loaded page payload (compare with filing_count).';
COMMENT ON COLUMN submission_pages.page_source_document_id IS 'The page payload that was loaded, NULL until loaded.';
COMMENT ON COLUMN submission_pages.load_id IS 'Load run that last changed the row.';

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
COMMENT ON TABLE company_tickers IS 'Rows of SEC''s company_tickers.json and company_tickers_exchange.json, every loaded snapshot kept (grain: source_document_id, cik, ticker). tickers_current shows the newest snapshot of each file.';
COMMENT ON COLUMN company_tickers.cik IS 'Company (integer CIK).';
COMMENT ON COLUMN company_tickers.ticker IS 'Ticker as SEC gives it (BRK-B: class shares use a hyphen).';
COMMENT ON COLUMN company_tickers.title IS 'Company name as the ticker file gives it.';
COMMENT ON COLUMN company_tickers.exchange IS 'Exchange (company_tickers_exchange.json only; NULL in company_tickers.json or when SEC gives none).';
COMMENT ON COLUMN company_tickers.source_kind IS 'company_tickers or company_tickers_exchange: which SEC file the row came from.';
COMMENT ON COLUMN company_tickers.source_document_id IS 'The ticker file payload.';
COMMENT ON COLUMN company_tickers.load_id IS 'Load run that inserted the row.';

CREATE VIEW tickers_current AS
SELECT cik, ticker,
       upper(replace(replace(ticker, '.', '-'), '/', '-')) AS ticker_key,
       max(title) AS title,
       max(exchange) AS exchange,
       max(source_document_id) AS source_document_id
FROM company_tickers
WHERE source_document_id IN (
    -- newest snapshot per file by SEC's Last-Modified when known, else by when it was fetched
    -- (not by load order: an older file loaded later must not become current)
    SELECT arg_max(t.source_document_id,
                   coalesce(try_strptime(d.last_modified, '%a, %d %b %Y %H:%M:%S GMT'), d.fetched_at))
    FROM (SELECT DISTINCT source_kind, source_document_id FROM company_tickers) t
    JOIN source_documents d ON d.source_document_id = t.source_document_id
    GROUP BY t.source_kind)
GROUP BY cik, ticker;
COMMENT ON VIEW tickers_current IS 'The ticker registry now (grain: cik, ticker): the newest snapshot of each SEC ticker file (by Last-Modified, else fetch time), merged.';
COMMENT ON COLUMN tickers_current.cik IS 'Company (integer CIK).';
COMMENT ON COLUMN tickers_current.ticker IS 'Ticker as SEC gives it.';
COMMENT ON COLUMN tickers_current.ticker_key IS 'Ticker upper-cased with . and / as - (BRK.B and brk/b both match BRK-B).';
COMMENT ON COLUMN tickers_current.title IS 'Company name from the ticker files.';
COMMENT ON COLUMN tickers_current.exchange IS 'Exchange, when the exchange file is loaded and names one.';
COMMENT ON COLUMN tickers_current.source_document_id IS 'Newest ticker payload the row appears in.';

-- Point in time, refined: a fact version is public from its filing's true UTC acceptance time when
-- the accession is in filings (the latest if payloads disagree), else from the end of its filed day.
CREATE OR REPLACE VIEW fact_versions AS
SELECT v.* EXCLUDE (base_known_from, base_basis, payload_fetched_at),
       CASE WHEN v.revision > 0 THEN greatest(v.base_known_from, v.payload_fetched_at)
            ELSE v.base_known_from END AS known_from,
       CASE WHEN v.revision > 0 AND v.payload_fetched_at > v.base_known_from THEN 'correction_fetched_at'
            ELSE v.base_basis END AS known_from_basis
FROM (
    SELECT f.*,
           (row_number() OVER (PARTITION BY f.cik, f.taxonomy, f.concept, f.unit, f.period_start, f.period_end,
                                            f.accession
                               ORDER BY f.payload_vintage, f.source_document_id) - 1)::SMALLINT AS revision,
           coalesce(a.acceptance_time, CAST(f.filed + INTERVAL 1 DAY + INTERVAL 5 HOUR AS TIMESTAMP)) AS base_known_from,
           CASE WHEN a.acceptance_time IS NOT NULL THEN 'acceptance_time' ELSE 'filed_day_end' END AS base_basis,
           d.fetched_at AS payload_fetched_at
    FROM facts f
    LEFT JOIN (SELECT accession, max(acceptance_time) AS acceptance_time
               FROM filings WHERE acceptance_time IS NOT NULL GROUP BY accession) a
           ON a.accession = f.accession
    LEFT JOIN source_documents d ON d.source_document_id = f.source_document_id
) v;
COMMENT ON VIEW fact_versions IS 'facts plus known_from: the UTC time from which each version was public. acceptance_time of the filing (filings, true UTC) when the accession is loaded, else the end of its filed day in New York (filed + 1 day 05:00 UTC, never earlier than the true time).';
COMMENT ON COLUMN fact_versions.cik IS 'Reporting company (integer CIK).';
COMMENT ON COLUMN fact_versions.taxonomy IS 'Taxonomy prefix.';
COMMENT ON COLUMN fact_versions.concept IS 'XBRL concept name.';
COMMENT ON COLUMN fact_versions.unit IS 'Unit as SEC gave it.';
COMMENT ON COLUMN fact_versions.period_start IS 'First day of a duration; NULL for an instant.';
COMMENT ON COLUMN fact_versions.period_end IS 'Last day of the duration, or the instant date.';
COMMENT ON COLUMN fact_versions.value IS 'The value exactly as published.';
COMMENT ON COLUMN fact_versions.accession IS 'Accession of the filing that reported this version.';
COMMENT ON COLUMN fact_versions.form IS 'Form type of that filing.';
COMMENT ON COLUMN fact_versions.filed IS 'Filing date of that filing.';
COMMENT ON COLUMN fact_versions.frame IS 'SEC calendar frame, when assigned.';
COMMENT ON COLUMN fact_versions.filing_fy IS 'Fiscal year of the FILING as SEC gave it.';
COMMENT ON COLUMN fact_versions.filing_fp IS 'Fiscal period of the FILING as SEC gave it.';
COMMENT ON COLUMN fact_versions.fiscal_year IS 'The VALUE''s own fiscal year.';
COMMENT ON COLUMN fact_versions.fiscal_period IS 'The VALUE''s own fiscal period.';
COMMENT ON COLUMN fact_versions.duration_days IS 'period_end - period_start in days; NULL for instants.';
COMMENT ON COLUMN fact_versions.duration_class IS 'instant, quarter, six_months, nine_months, annual or other.';
COMMENT ON COLUMN fact_versions.fiscal_basis IS 'How fiscal_year was told (observed, extrapolated, assumed_calendar).';
COMMENT ON COLUMN fact_versions.source_document_id IS 'The companyfacts payload.';
COMMENT ON COLUMN fact_versions.load_id IS 'The load run that inserted the fact row.';
COMMENT ON COLUMN fact_versions.payload_vintage IS 'Newest filed date in the companyfacts payload the row came from.';
COMMENT ON COLUMN fact_versions.revision IS '0, or 1, 2, ... for later values SEC re-issued under the same accession (ordered by payload_vintage).';
COMMENT ON COLUMN fact_versions.known_from IS 'UTC time from which the version was public: the filing''s acceptance_time when known, else filed + 1 day 05:00 UTC.';
COMMENT ON COLUMN fact_versions.known_from_basis IS 'acceptance_time, filed_day_end, or correction_fetched_at (a value SEC re-issued under the same accession: public from when we first fetched it).';

-- Coverage audits (they return the bad rows).
CREATE VIEW xbrl_filings_without_facts AS
SELECT f.cik, f.accession, f.form, f.filing_date, f.report_date, f.is_inline_xbrl,
       EXISTS (SELECT 1 FROM facts x WHERE x.cik = f.cik) AS company_has_facts
FROM filings f
WHERE f.is_xbrl AND NOT EXISTS (SELECT 1 FROM facts x WHERE x.accession = f.accession);
COMMENT ON VIEW xbrl_filings_without_facts IS 'Audit (grain: cik, accession): filings submissions marks as XBRL whose accession has no rows in facts yet (companyfacts not loaded, or SEC''s companyfacts omits the filing, e.g. cover-page-only 8-K XBRL).';
COMMENT ON COLUMN xbrl_filings_without_facts.cik IS 'Company whose history lists the filing.';
COMMENT ON COLUMN xbrl_filings_without_facts.accession IS 'Accession with no facts.';
COMMENT ON COLUMN xbrl_filings_without_facts.form IS 'Form type.';
COMMENT ON COLUMN xbrl_filings_without_facts.filing_date IS 'Filing date.';
COMMENT ON COLUMN xbrl_filings_without_facts.report_date IS 'Period of report.';
COMMENT ON COLUMN xbrl_filings_without_facts.is_inline_xbrl IS 'SEC isInlineXBRL.';
COMMENT ON COLUMN xbrl_filings_without_facts.company_has_facts IS 'True when the company has any facts loaded (false: its companyfacts is simply not loaded).';

CREATE VIEW facts_unknown_to_filings AS
SELECT x.cik, x.accession, any_value(x.form) AS form, min(x.filed) AS filed, count(*) AS fact_rows,
       EXISTS (SELECT 1 FROM companies c WHERE c.cik = x.cik AND c.submissions_observed_at IS NOT NULL)
           AS company_submissions_loaded
FROM facts x
WHERE NOT EXISTS (SELECT 1 FROM filings f WHERE f.accession = x.accession)
GROUP BY x.cik, x.accession;
COMMENT ON VIEW facts_unknown_to_filings IS 'Audit (grain: cik, accession): accessions cited by facts that no loaded submissions history lists (submissions or one of its pages not loaded yet). Their facts use the filed-day-end rule for known_from.';
COMMENT ON COLUMN facts_unknown_to_filings.cik IS 'Company of the facts.';
COMMENT ON COLUMN facts_unknown_to_filings.accession IS 'Accession unknown to filings.';
COMMENT ON COLUMN facts_unknown_to_filings.form IS 'Form type the facts give.';
COMMENT ON COLUMN facts_unknown_to_filings.filed IS 'Filing date the facts give.';
COMMENT ON COLUMN facts_unknown_to_filings.fact_rows IS 'Fact versions citing the accession.';
COMMENT ON COLUMN facts_unknown_to_filings.company_submissions_loaded IS 'True when the company''s main submissions file is loaded (then a missing page is the likely cause).';

CREATE VIEW company_coverage AS
SELECT c.cik, c.name,
       c.submissions_observed_at IS NOT NULL AS submissions_loaded,
       (SELECT count(*) FROM filings f WHERE f.cik = c.cik) AS filings_loaded,
       (SELECT count(*) FROM submission_pages p WHERE p.cik = c.cik AND p.declared) AS pages_declared,
       (SELECT count(*) FROM submission_pages p WHERE p.cik = c.cik AND p.declared AND p.loaded) AS pages_loaded,
       (SELECT count(*) FROM submission_pages p WHERE p.cik = c.cik AND p.declared AND NOT p.loaded) AS pages_missing,
       (SELECT count(*) FROM filings f WHERE f.cik = c.cik AND f.is_xbrl) AS xbrl_filings,
       (SELECT count(*) FROM filings f WHERE f.cik = c.cik AND f.is_xbrl
            AND EXISTS (SELECT 1 FROM facts x WHERE x.accession = f.accession)) AS xbrl_filings_with_facts,
       (SELECT count(*) FROM facts_unknown_to_filings u WHERE u.cik = c.cik) AS facts_accessions_unknown_to_filings,
       c.submissions_observed_at IS NOT NULL
           AND NOT EXISTS (SELECT 1 FROM submission_pages p WHERE p.cik = c.cik AND p.declared AND NOT p.loaded)
           AS complete
FROM companies c;
COMMENT ON VIEW company_coverage IS 'Per company (grain: CIK): how complete its filing history and facts are. A company is complete when its main submissions file and every page it declares are loaded.';
COMMENT ON COLUMN company_coverage.cik IS 'Company (integer CIK).';
COMMENT ON COLUMN company_coverage.name IS 'Latest known name.';
COMMENT ON COLUMN company_coverage.submissions_loaded IS 'True when a main submissions file is loaded.';
COMMENT ON COLUMN company_coverage.filings_loaded IS 'Rows in filings for the company (recent list plus loaded pages).';
COMMENT ON COLUMN company_coverage.pages_declared IS 'Pages the newest main file declares.';
COMMENT ON COLUMN company_coverage.pages_loaded IS 'Declared pages that are loaded.';
COMMENT ON COLUMN company_coverage.pages_missing IS 'Declared pages not loaded yet: the history is incomplete while this is above 0.';
COMMENT ON COLUMN company_coverage.xbrl_filings IS 'Filings marked XBRL by SEC.';
COMMENT ON COLUMN company_coverage.xbrl_filings_with_facts IS 'XBRL filings whose accession has facts loaded.';
COMMENT ON COLUMN company_coverage.facts_accessions_unknown_to_filings IS 'Accessions cited by the company''s facts that filings does not list.';
COMMENT ON COLUMN company_coverage.complete IS 'Main file loaded and no declared page missing.';
