-- 0003 insider: Forms 3, 4 and 5 (and their /A amendments) with every table of the ownership
-- document, every reporting owner and every footnote, linked. Depends on 0001 only.
-- Values are exact (DECIMAL(38,10) parsed from the XML text), times are naive UTC.

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
COMMENT ON TABLE insider_filings IS 'One row per Form 3/4/5 ownership filing, amendments included (grain: accession). An amendment never deletes its original: see amends_accession and the view insider_transactions_effective.';
COMMENT ON COLUMN insider_filings.accession IS 'Accession number (0000000000-00-000000). When neither the SEC header nor the file name nor the loader gave one: ''sha256:'' + first 20 hex digits of the XML''s SHA-256, and accession_is_derived is true.';
COMMENT ON COLUMN insider_filings.accession_is_derived IS 'True when accession is a content-derived id (sha256:...) rather than an SEC accession number.';
COMMENT ON COLUMN insider_filings.accession_source IS 'Where accession came from: argument (given by the loader/fetcher), sec_header (ACCESSION NUMBER of a full .txt), file_name (e.g. 0001209191-22-024550_doc4.xml) or content_sha256.';
COMMENT ON COLUMN insider_filings.container IS 'Shape of the payload: xml (bare ownershipDocument), sec_txt (full submission .txt with SEC header) or feed_nc (EDGAR dissemination-feed .nc).';
COMMENT ON COLUMN insider_filings.document_type IS 'documentType of the XML: 3, 4, 5, 3/A, 4/A or 5/A.';
COMMENT ON COLUMN insider_filings.submission_type IS 'CONFORMED SUBMISSION TYPE from the SEC header (NULL for a bare XML).';
COMMENT ON COLUMN insider_filings.schema_version IS 'EDGAR ownership XML schema version as filed (X0202 ... X0609).';
COMMENT ON COLUMN insider_filings.period_of_report IS 'periodOfReport: date of the earliest transaction (Form 4) or of the event requiring the filing.';
COMMENT ON COLUMN insider_filings.date_of_original_submission IS 'dateOfOriginalSubmission of an amendment: the filing date of the filing it amends (NULL for originals).';
COMMENT ON COLUMN insider_filings.no_securities_owned IS 'noSecuritiesOwned (Form 3): the owner reports holding no securities of the issuer.';
COMMENT ON COLUMN insider_filings.not_subject_to_section16 IS 'notSubjectToSection16: the owner is no longer subject to Section 16 (the Form 4/5 box).';
COMMENT ON COLUMN insider_filings.form3_holdings_reported IS 'form3HoldingsReported (Form 5): holdings previously required on Form 3 are reported here.';
COMMENT ON COLUMN insider_filings.form4_transactions_reported IS 'form4TransactionsReported (Form 5): transactions previously required on Form 4 are reported here.';
COMMENT ON COLUMN insider_filings.aff10b5one IS 'aff10b5One (schemas X0407+): a transaction was made under a Rule 10b5-1(c) plan. NULL when the schema has no such box.';
COMMENT ON COLUMN insider_filings.issuer_cik IS 'Issuer (the company whose securities are reported), integer CIK.';
COMMENT ON COLUMN insider_filings.issuer_name IS 'Issuer name as written in the document.';
COMMENT ON COLUMN insider_filings.issuer_ticker IS 'issuerTradingSymbol as written in the document (may be NONE or empty).';
COMMENT ON COLUMN insider_filings.issuer_foreign_ticker IS 'issuerForeignTradingSymbol (schema X0609+).';
COMMENT ON COLUMN insider_filings.remarks IS 'Free-text remarks of the filing.';
COMMENT ON COLUMN insider_filings.signatures IS 'Every ownerSignature in document order: signature_name and signature_date.';
COMMENT ON COLUMN insider_filings.filed IS 'Filing date: FILED AS OF DATE of the SEC header (NULL for a bare XML with no header, until the full .txt of the accession loads).';
COMMENT ON COLUMN insider_filings.acceptance_time IS 'EDGAR acceptance time converted to UTC (naive). SEC gives ACCEPTANCE-DATETIME as YYYYMMDDHHMMSS in Eastern (New York) time; NULL for a bare XML, until the full .txt of the accession loads.';
COMMENT ON COLUMN insider_filings.acceptance_time_eastern IS 'ACCEPTANCE-DATETIME exactly as in the SEC header (YYYYMMDDHHMMSS, Eastern time).';
COMMENT ON COLUMN insider_filings.header_source_document_id IS 'Payload the SEC-header columns (container, submission_type, filed, acceptance_time, acceptance_time_eastern) came from (source_documents): source_document_id for a .txt/.nc, the later full .txt that filled them in for a row first loaded from a bare XML, NULL while no header has been seen.';
COMMENT ON COLUMN insider_filings.xml_sha256 IS 'SHA-256 of the ownership XML itself (the <XML> block of a .txt, or the whole bare XML).';
COMMENT ON COLUMN insider_filings.owner_count IS 'Number of reportingOwner elements (rows in insider_owners).';
COMMENT ON COLUMN insider_filings.transaction_count IS 'Number of transaction lines of both tables (rows in insider_transactions).';
COMMENT ON COLUMN insider_filings.holding_count IS 'Number of holding lines of both tables (rows in insider_holdings).';
COMMENT ON COLUMN insider_filings.footnote_count IS 'Number of footnotes (rows in insider_footnotes).';
COMMENT ON COLUMN insider_filings.amends_accession IS 'For a /A: the accession of the loaded original it amends (NULL while no loaded filing matches). Recomputed on every load of the issuer.';
COMMENT ON COLUMN insider_filings.amendment_rule IS 'How amends_accession was chosen (see view insider_amendment_candidates), or unlinked:... for a /A whose original is not loaded. NULL for originals.';
COMMENT ON COLUMN insider_filings.amendment_candidates IS 'For a /A: how many loaded filings matched under the winning rule (more than 1 means the link was a tie broken by latest acceptance).';
COMMENT ON COLUMN insider_filings.source_document_id IS 'Payload this filing was loaded from (source_documents).';
COMMENT ON COLUMN insider_filings.load_id IS 'Load run that inserted this row (load_runs).';

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
COMMENT ON TABLE insider_owners IS 'One row per reporting owner of a filing (grain: accession, owner_number). Joint filers are separate rows, never one collapsed string.';
COMMENT ON COLUMN insider_owners.accession IS 'Filing (insider_filings.accession).';
COMMENT ON COLUMN insider_owners.owner_number IS '1-based position of the reportingOwner element in the document.';
COMMENT ON COLUMN insider_owners.owner_cik IS 'rptOwnerCik: the reporting owner''s CIK (integer).';
COMMENT ON COLUMN insider_owners.owner_name IS 'rptOwnerName as filed (usually LAST FIRST MIDDLE).';
COMMENT ON COLUMN insider_owners.street1 IS 'rptOwnerStreet1.';
COMMENT ON COLUMN insider_owners.street2 IS 'rptOwnerStreet2.';
COMMENT ON COLUMN insider_owners.city IS 'rptOwnerCity.';
COMMENT ON COLUMN insider_owners.state IS 'rptOwnerState (US state code).';
COMMENT ON COLUMN insider_owners.zip_code IS 'rptOwnerZipCode (text: leading zeros kept).';
COMMENT ON COLUMN insider_owners.state_description IS 'rptOwnerStateDescription (non-US region).';
COMMENT ON COLUMN insider_owners.non_us_address IS 'rptOwnerNonUSAddressFlag (newer schemas); NULL when absent.';
COMMENT ON COLUMN insider_owners.is_director IS 'isDirector: the owner is a director of the issuer.';
COMMENT ON COLUMN insider_owners.is_officer IS 'isOfficer: the owner is an officer (see officer_title).';
COMMENT ON COLUMN insider_owners.officer_title IS 'officerTitle as filed.';
COMMENT ON COLUMN insider_owners.is_ten_percent_owner IS 'isTenPercentOwner: beneficial owner of more than 10% of a class.';
COMMENT ON COLUMN insider_owners.is_other IS 'isOther: another relationship (see other_text).';
COMMENT ON COLUMN insider_owners.other_text IS 'otherText: the other relationship, as filed.';
COMMENT ON COLUMN insider_owners.source_document_id IS 'Payload this row was loaded from (source_documents).';
COMMENT ON COLUMN insider_owners.load_id IS 'Load run that inserted this row (load_runs).';

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
COMMENT ON TABLE insider_transactions IS 'One row per transaction line of both tables (grain: accession, table_kind, line_number). Values exactly as filed; a value given only by a footnote is NULL here with its link in insider_footnote_refs. Amended lines stay: see insider_transactions_effective.';
COMMENT ON COLUMN insider_transactions.accession IS 'Filing (insider_filings.accession).';
COMMENT ON COLUMN insider_transactions.table_kind IS 'non_derivative (Table I: nonDerivativeTransaction) or derivative (Table II: derivativeTransaction).';
COMMENT ON COLUMN insider_transactions.line_number IS '1-based position of the line among the transactions of its table, in document order.';
COMMENT ON COLUMN insider_transactions.security_title IS 'securityTitle (e.g. Common Stock, Stock Option (Right to Buy)).';
COMMENT ON COLUMN insider_transactions.transaction_date IS 'transactionDate.';
COMMENT ON COLUMN insider_transactions.deemed_execution_date IS 'deemedExecutionDate (Rule 16a-3(g)(2)/(3)), usually empty.';
COMMENT ON COLUMN insider_transactions.transaction_form_type IS 'transactionFormType: the form the line belongs to (3, 4 or 5).';
COMMENT ON COLUMN insider_transactions.transaction_code IS 'transactionCode: P open-market purchase, S open-market sale, A grant, M option exercise, F tax withholding, G gift, C conversion, W will/inheritance, ...';
COMMENT ON COLUMN insider_transactions.equity_swap_involved IS 'equitySwapInvolved (0/1 or true/false in the XML).';
COMMENT ON COLUMN insider_transactions.transaction_timeliness IS 'transactionTimeliness: E early, L late, empty/NULL on time.';
COMMENT ON COLUMN insider_transactions.shares IS 'transactionShares: number of shares (or units) in the transaction. NULL when the line gives a total value instead, or only a footnote.';
COMMENT ON COLUMN insider_transactions.total_value IS 'transactionTotalValue: dollar value when the security is not counted in shares (either/or with shares).';
COMMENT ON COLUMN insider_transactions.price_per_share IS 'transactionPricePerShare as filed (may be a weighted average: see price_is_weighted_average). NULL when given only by a footnote.';
COMMENT ON COLUMN insider_transactions.acquired_disposed IS 'transactionAcquiredDisposedCode: A acquired, D disposed.';
COMMENT ON COLUMN insider_transactions.shares_owned_following IS 'sharesOwnedFollowingTransaction: shares owned after the reported transaction(s).';
COMMENT ON COLUMN insider_transactions.value_owned_following IS 'valueOwnedFollowingTransaction: value owned afterwards, when reported as a value (either/or with shares_owned_following).';
COMMENT ON COLUMN insider_transactions.direct_indirect IS 'directOrIndirectOwnership: D direct, I indirect.';
COMMENT ON COLUMN insider_transactions.nature_of_ownership IS 'natureOfOwnership for indirect holdings (By Trust, By spouse, ...).';
COMMENT ON COLUMN insider_transactions.conversion_or_exercise_price IS 'Derivatives: conversionOrExercisePrice.';
COMMENT ON COLUMN insider_transactions.exercise_date IS 'Derivatives: exerciseDate (date exercisable). NULL when given only by a footnote (e.g. vesting schedule).';
COMMENT ON COLUMN insider_transactions.expiration_date IS 'Derivatives: expirationDate.';
COMMENT ON COLUMN insider_transactions.underlying_security_title IS 'Derivatives: underlyingSecurityTitle.';
COMMENT ON COLUMN insider_transactions.underlying_shares IS 'Derivatives: underlyingSecurityShares.';
COMMENT ON COLUMN insider_transactions.underlying_value IS 'Derivatives: underlyingSecurityValue (either/or with underlying_shares).';
COMMENT ON COLUMN insider_transactions.price_is_weighted_average IS 'True when a footnote on the price says it is a weighted average (of trades at several prices). Computed by the parser from the footnote text.';
COMMENT ON COLUMN insider_transactions.price_range_low IS 'Lowest price of the range a weighted-average price footnote gives ("ranging from $159.42 to $160.41"), else NULL. Computed from the footnote text.';
COMMENT ON COLUMN insider_transactions.price_range_high IS 'Highest price of that range, else NULL. Computed from the footnote text.';
COMMENT ON COLUMN insider_transactions.footnote_ids IS 'Every footnote id referenced anywhere in the line, in document order (details per field in insider_footnote_refs).';
COMMENT ON COLUMN insider_transactions.source_document_id IS 'Payload this row was loaded from (source_documents).';
COMMENT ON COLUMN insider_transactions.load_id IS 'Load run that inserted this row (load_runs).';

-- grain: (accession, table_kind, line_number): one holding line (nonDerivativeHolding /
-- derivativeHolding), line_number 1-based in document order among the holdings of its table.
CREATE TABLE insider_holdings (
    accession                    VARCHAR NOT NULL,
    table_kind                   VARCHAR NOT NULL,
    line_number                  INTEGER NOT NULL,
    security_title               VARCHAR,
    transaction_form_type        VARCHAR,
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
    footnote_ids                 VARCHAR[] NOT NULL,
    source_document_id           BIGINT NOT NULL,
    load_id                      VARCHAR NOT NULL,
    PRIMARY KEY (accession, table_kind, line_number)
);
COMMENT ON TABLE insider_holdings IS 'One row per holding line of both tables (grain: accession, table_kind, line_number): a position reported without a transaction (Form 3 holdings, Form 4/5 other holdings).';
COMMENT ON COLUMN insider_holdings.accession IS 'Filing (insider_filings.accession).';
COMMENT ON COLUMN insider_holdings.table_kind IS 'non_derivative (nonDerivativeHolding) or derivative (derivativeHolding).';
COMMENT ON COLUMN insider_holdings.line_number IS '1-based position of the line among the holdings of its table, in document order.';
COMMENT ON COLUMN insider_holdings.security_title IS 'securityTitle.';
COMMENT ON COLUMN insider_holdings.transaction_form_type IS 'transactionCoding/transactionFormType when the holding carries one (Form 5 holdings).';
COMMENT ON COLUMN insider_holdings.shares_owned_following IS 'sharesOwnedFollowingTransaction: shares held.';
COMMENT ON COLUMN insider_holdings.value_owned_following IS 'valueOwnedFollowingTransaction: value held, when reported as a value.';
COMMENT ON COLUMN insider_holdings.direct_indirect IS 'directOrIndirectOwnership: D direct, I indirect.';
COMMENT ON COLUMN insider_holdings.nature_of_ownership IS 'natureOfOwnership for indirect holdings.';
COMMENT ON COLUMN insider_holdings.conversion_or_exercise_price IS 'Derivatives: conversionOrExercisePrice.';
COMMENT ON COLUMN insider_holdings.exercise_date IS 'Derivatives: exerciseDate (NULL when only a footnote gives it).';
COMMENT ON COLUMN insider_holdings.expiration_date IS 'Derivatives: expirationDate.';
COMMENT ON COLUMN insider_holdings.underlying_security_title IS 'Derivatives: underlyingSecurityTitle.';
COMMENT ON COLUMN insider_holdings.underlying_shares IS 'Derivatives: underlyingSecurityShares.';
COMMENT ON COLUMN insider_holdings.underlying_value IS 'Derivatives: underlyingSecurityValue.';
COMMENT ON COLUMN insider_holdings.footnote_ids IS 'Every footnote id referenced in the line, in document order.';
COMMENT ON COLUMN insider_holdings.source_document_id IS 'Payload this row was loaded from (source_documents).';
COMMENT ON COLUMN insider_holdings.load_id IS 'Load run that inserted this row (load_runs).';

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
COMMENT ON TABLE insider_footnotes IS 'One row per footnote of a filing (grain: accession, footnote_id). Which values cite it: insider_footnote_refs.';
COMMENT ON COLUMN insider_footnotes.accession IS 'Filing (insider_filings.accession).';
COMMENT ON COLUMN insider_footnotes.footnote_id IS 'Footnote id as filed (F1, F2, ...).';
COMMENT ON COLUMN insider_footnotes.text IS 'Footnote text, whitespace at the ends trimmed.';
COMMENT ON COLUMN insider_footnotes.footnote_number IS '1-based position of the footnote in the document.';
COMMENT ON COLUMN insider_footnotes.source_document_id IS 'Payload this row was loaded from (source_documents).';
COMMENT ON COLUMN insider_footnotes.load_id IS 'Load run that inserted this row (load_runs).';

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
COMMENT ON TABLE insider_footnote_refs IS 'Links each footnoted value to its footnote (grain: one footnoteId element). Join to insider_transactions or insider_holdings (per table_name) on accession, table_kind, line_number, and to insider_footnotes on accession, footnote_id.';
COMMENT ON COLUMN insider_footnote_refs.accession IS 'Filing (insider_filings.accession).';
COMMENT ON COLUMN insider_footnote_refs.table_name IS 'insider_transactions or insider_holdings (the line), or insider_filings for a footnote cited outside the tables.';
COMMENT ON COLUMN insider_footnote_refs.table_kind IS 'non_derivative or derivative (NULL for filing-level references).';
COMMENT ON COLUMN insider_footnote_refs.line_number IS 'Line within its table and kind (NULL for filing-level references).';
COMMENT ON COLUMN insider_footnote_refs.field IS 'Column of the footnoted value, e.g. price_per_share, exercise_date, shares (the XML element name when no column holds it).';
COMMENT ON COLUMN insider_footnote_refs.xml_element IS 'XML element that carried the footnoteId, e.g. transactionPricePerShare.';
COMMENT ON COLUMN insider_footnote_refs.footnote_id IS 'Footnote id (insider_footnotes.footnote_id).';
COMMENT ON COLUMN insider_footnote_refs.source_document_id IS 'Payload this row was loaded from (source_documents).';
COMMENT ON COLUMN insider_footnote_refs.load_id IS 'Load run that inserted this row (load_runs).';

-- Amendment candidates: every loaded filing that a /A could amend, ranked. Rules, best first:
-- same owner set before overlapping owners; then original filed on dateOfOriginalSubmission with the
-- same period, original filed on dateOfOriginalSubmission, original with unknown filing date (bare
-- XML) and the same period, and (no dateOfOriginalSubmission given) same period filed no later.
CREATE VIEW insider_amendment_candidates AS
WITH owner_sets AS (
    SELECT accession, list_sort(list(owner_cik)) AS owner_ciks
    FROM insider_owners GROUP BY accession
), f AS (
    SELECT fi.accession, fi.document_type, fi.issuer_cik, fi.period_of_report, fi.filed,
           fi.acceptance_time, fi.date_of_original_submission, os.owner_ciks
    FROM insider_filings fi LEFT JOIN owner_sets os USING (accession)
), c AS (
    SELECT a.accession AS amendment_accession,
           o.accession AS original_accession,
           a.issuer_cik,
           a.document_type AS amendment_document_type,
           o.document_type AS original_document_type,
           o.filed AS original_filed,
           o.acceptance_time AS original_acceptance_time,
           a.owner_ciks = o.owner_ciks AS same_owners,
           CASE
               WHEN o.filed = a.date_of_original_submission AND o.period_of_report IS NOT DISTINCT FROM a.period_of_report THEN 1
               WHEN o.filed = a.date_of_original_submission THEN 2
               WHEN a.date_of_original_submission IS NOT NULL AND o.filed IS NULL
                    AND o.period_of_report = a.period_of_report THEN 3
               WHEN a.date_of_original_submission IS NULL AND o.period_of_report = a.period_of_report
                    AND (o.filed IS NULL OR a.filed IS NULL OR o.filed <= a.filed) THEN 4
           END AS date_rule
    FROM f a
    JOIN f o ON o.issuer_cik = a.issuer_cik
            AND o.accession <> a.accession
            AND o.document_type = replace(a.document_type, '/A', '')
            AND list_has_any(a.owner_ciks, o.owner_ciks)
    WHERE a.document_type LIKE '%/A'
)
SELECT amendment_accession, original_accession, issuer_cik, amendment_document_type,
       original_document_type, original_filed, original_acceptance_time, same_owners,
       (CASE WHEN same_owners THEN 'issuer+same_owners' ELSE 'issuer+overlapping_owners' END)
       || CASE date_rule WHEN 1 THEN '+period+original_filed_date'
                         WHEN 2 THEN '+original_filed_date'
                         WHEN 3 THEN '+period(original_filed_date_unknown)'
                         ELSE '+period(no_date_of_original_submission)' END AS rule,
       (CASE WHEN same_owners THEN 0 ELSE 10 END) + date_rule AS rule_priority,
       count(*) OVER (PARTITION BY amendment_accession, (CASE WHEN same_owners THEN 0 ELSE 10 END) + date_rule)
           AS same_rule_candidates,
       row_number() OVER (PARTITION BY amendment_accession
                          ORDER BY (CASE WHEN same_owners THEN 0 ELSE 10 END) + date_rule,
                                   original_acceptance_time DESC NULLS LAST, original_filed DESC NULLS LAST,
                                   original_accession DESC) AS candidate_rank
FROM c
WHERE date_rule IS NOT NULL;
COMMENT ON VIEW insider_amendment_candidates IS 'Every loaded filing a /A could amend (grain: amendment_accession, original_accession), ranked: candidate_rank = 1 is the link stored in insider_filings.amends_accession. Needs the same issuer, base form type and at least one common reporting owner.';
COMMENT ON COLUMN insider_amendment_candidates.amendment_accession IS 'The /A filing.';
COMMENT ON COLUMN insider_amendment_candidates.original_accession IS 'A loaded filing it may amend.';
COMMENT ON COLUMN insider_amendment_candidates.issuer_cik IS 'Issuer of both filings.';
COMMENT ON COLUMN insider_amendment_candidates.amendment_document_type IS 'documentType of the amendment (3/A, 4/A, 5/A).';
COMMENT ON COLUMN insider_amendment_candidates.original_document_type IS 'documentType of the candidate original (3, 4, 5).';
COMMENT ON COLUMN insider_amendment_candidates.original_filed IS 'Filing date of the candidate original (NULL when loaded from a bare XML).';
COMMENT ON COLUMN insider_amendment_candidates.original_acceptance_time IS 'Acceptance time (UTC) of the candidate original.';
COMMENT ON COLUMN insider_amendment_candidates.same_owners IS 'True when both filings have exactly the same set of reporting-owner CIKs (else they only overlap).';
COMMENT ON COLUMN insider_amendment_candidates.rule IS 'The matching rule, e.g. issuer+same_owners+period+original_filed_date.';
COMMENT ON COLUMN insider_amendment_candidates.rule_priority IS 'Rank of the rule (1 best): same owners 1-4, overlapping owners 11-14.';
COMMENT ON COLUMN insider_amendment_candidates.same_rule_candidates IS 'How many candidates matched this amendment under the same rule.';
COMMENT ON COLUMN insider_amendment_candidates.candidate_rank IS '1 for the chosen original: best rule, then latest acceptance time, filing date, accession.';

-- Effective transactions: per amendment chain (original + its /A filings) and per table kind, the
-- lines of the latest filing that carries lines of that kind. A /A carrying no transaction lines
-- (e.g. holdings only) supersedes nothing; originals are never deleted.
CREATE VIEW insider_transactions_effective AS
WITH chain AS (
    SELECT accession, coalesce(amends_accession, accession) AS chain_accession, acceptance_time, filed
    FROM insider_filings
), carriers AS (
    SELECT DISTINCT c.chain_accession, t.table_kind, c.accession, c.acceptance_time, c.filed
    FROM insider_transactions t JOIN chain c USING (accession)
), winners AS (
    SELECT chain_accession, table_kind, accession AS effective_accession,
           count(*) OVER (PARTITION BY chain_accession, table_kind) AS filings_in_chain
    FROM carriers
    QUALIFY row_number() OVER (PARTITION BY chain_accession, table_kind
                               ORDER BY (accession = chain_accession), acceptance_time DESC NULLS LAST,
                                        filed DESC NULLS LAST, accession DESC) = 1
)
SELECT t.*, w.chain_accession AS original_accession, t.accession <> w.chain_accession AS from_amendment,
       w.filings_in_chain - 1 AS superseded_filings
FROM insider_transactions t
JOIN chain c USING (accession)
JOIN winners w ON w.chain_accession = c.chain_accession AND w.table_kind = t.table_kind
              AND w.effective_accession = t.accession;
COMMENT ON VIEW insider_transactions_effective IS 'The transaction lines in force (grain: accession, table_kind, line_number): for each original and its amendments, per table kind, only the lines of the latest filing that reports lines of that kind. A holdings-only /A leaves the original''s trades in force.';
COMMENT ON COLUMN insider_transactions_effective.accession IS 'Filing the line comes from (the original or an amendment).';
COMMENT ON COLUMN insider_transactions_effective.table_kind IS 'non_derivative or derivative.';
COMMENT ON COLUMN insider_transactions_effective.line_number IS 'Line within its table, document order.';
COMMENT ON COLUMN insider_transactions_effective.security_title IS 'securityTitle.';
COMMENT ON COLUMN insider_transactions_effective.transaction_date IS 'transactionDate.';
COMMENT ON COLUMN insider_transactions_effective.deemed_execution_date IS 'deemedExecutionDate.';
COMMENT ON COLUMN insider_transactions_effective.transaction_form_type IS 'transactionFormType.';
COMMENT ON COLUMN insider_transactions_effective.transaction_code IS 'transactionCode (P, S, A, M, F, G, ...).';
COMMENT ON COLUMN insider_transactions_effective.equity_swap_involved IS 'equitySwapInvolved.';
COMMENT ON COLUMN insider_transactions_effective.transaction_timeliness IS 'transactionTimeliness (E early, L late).';
COMMENT ON COLUMN insider_transactions_effective.shares IS 'transactionShares, exact.';
COMMENT ON COLUMN insider_transactions_effective.total_value IS 'transactionTotalValue, exact.';
COMMENT ON COLUMN insider_transactions_effective.price_per_share IS 'transactionPricePerShare, exact (NULL when only a footnote gives it).';
COMMENT ON COLUMN insider_transactions_effective.acquired_disposed IS 'A acquired, D disposed.';
COMMENT ON COLUMN insider_transactions_effective.shares_owned_following IS 'sharesOwnedFollowingTransaction.';
COMMENT ON COLUMN insider_transactions_effective.value_owned_following IS 'valueOwnedFollowingTransaction.';
COMMENT ON COLUMN insider_transactions_effective.direct_indirect IS 'D direct, I indirect.';
COMMENT ON COLUMN insider_transactions_effective.nature_of_ownership IS 'natureOfOwnership.';
COMMENT ON COLUMN insider_transactions_effective.conversion_or_exercise_price IS 'Derivatives: conversionOrExercisePrice.';
COMMENT ON COLUMN insider_transactions_effective.exercise_date IS 'Derivatives: exerciseDate.';
COMMENT ON COLUMN insider_transactions_effective.expiration_date IS 'Derivatives: expirationDate.';
COMMENT ON COLUMN insider_transactions_effective.underlying_security_title IS 'Derivatives: underlyingSecurityTitle.';
COMMENT ON COLUMN insider_transactions_effective.underlying_shares IS 'Derivatives: underlyingSecurityShares.';
COMMENT ON COLUMN insider_transactions_effective.underlying_value IS 'Derivatives: underlyingSecurityValue.';
COMMENT ON COLUMN insider_transactions_effective.price_is_weighted_average IS 'A footnote says the price is a weighted average.';
COMMENT ON COLUMN insider_transactions_effective.price_range_low IS 'Low end of the weighted-average price range, from the footnote.';
COMMENT ON COLUMN insider_transactions_effective.price_range_high IS 'High end of the weighted-average price range, from the footnote.';
COMMENT ON COLUMN insider_transactions_effective.footnote_ids IS 'Footnote ids cited in the line.';
COMMENT ON COLUMN insider_transactions_effective.source_document_id IS 'Payload the line was loaded from.';
COMMENT ON COLUMN insider_transactions_effective.load_id IS 'Load run that inserted the line.';
COMMENT ON COLUMN insider_transactions_effective.original_accession IS 'The original filing of the amendment chain (the line''s own accession when never amended).';
COMMENT ON COLUMN insider_transactions_effective.from_amendment IS 'True when the line comes from a /A that superseded the original''s lines of this table kind.';
COMMENT ON COLUMN insider_transactions_effective.superseded_filings IS 'How many other filings of the chain reported lines of this table kind and are superseded.';

-- Open-market purchases (P) and sales (S), one row per effective line, with owners and roles.
CREATE VIEW insider_open_market AS
WITH owners AS (
    SELECT accession,
           string_agg(owner_name, '; ' ORDER BY owner_number) AS owner_names,
           list(owner_cik ORDER BY owner_number) AS owner_ciks,
           string_agg(concat_ws(', ',
               CASE WHEN is_director THEN 'Director' END,
               CASE WHEN is_officer THEN coalesce('Officer: ' || officer_title, 'Officer') END,
               CASE WHEN is_ten_percent_owner THEN '10% Owner' END,
               CASE WHEN is_other THEN coalesce('Other: ' || other_text, 'Other') END), '; ' ORDER BY owner_number)
               AS owner_roles,
           bool_or(is_director) AS any_director,
           bool_or(is_officer) AS any_officer,
           bool_or(is_ten_percent_owner) AS any_ten_percent_owner,
           count(*) AS owner_count
    FROM insider_owners GROUP BY accession
)
SELECT f.issuer_cik, f.issuer_name, f.issuer_ticker, t.accession, f.document_type, f.filed,
       f.acceptance_time, f.period_of_report, t.table_kind, t.line_number, t.transaction_date,
       t.transaction_code, CASE t.transaction_code WHEN 'P' THEN 'purchase' ELSE 'sale' END AS side,
       t.security_title, t.shares, t.price_per_share,
       CASE WHEN abs(CAST(t.shares AS DOUBLE) * CAST(t.price_per_share AS DOUBLE)) < 1e17
            THEN CAST(t.shares * t.price_per_share AS DECIMAL(38, 10)) END AS line_value,
       t.price_is_weighted_average, t.price_range_low, t.price_range_high, t.acquired_disposed,
       t.shares_owned_following, t.direct_indirect, t.nature_of_ownership, f.aff10b5one,
       o.owner_names, o.owner_ciks, o.owner_roles, o.any_director, o.any_officer, o.any_ten_percent_owner,
       o.owner_count, t.footnote_ids, t.from_amendment, t.source_document_id
FROM insider_transactions_effective t
JOIN insider_filings f USING (accession)
LEFT JOIN owners o USING (accession)
WHERE t.transaction_code IN ('P', 'S');
COMMENT ON VIEW insider_open_market IS 'Open-market purchases (code P) and sales (code S) per issuer, one row per effective transaction line, with the filing''s owner names and roles (amendments applied, see insider_transactions_effective).';
COMMENT ON COLUMN insider_open_market.issuer_cik IS 'Issuer CIK.';
COMMENT ON COLUMN insider_open_market.issuer_name IS 'Issuer name as in the filing.';
COMMENT ON COLUMN insider_open_market.issuer_ticker IS 'Issuer trading symbol as in the filing.';
COMMENT ON COLUMN insider_open_market.accession IS 'Filing the line comes from.';
COMMENT ON COLUMN insider_open_market.document_type IS 'Form of that filing (4, 4/A, 5, ...).';
COMMENT ON COLUMN insider_open_market.filed IS 'Filing date (NULL when loaded from a bare XML).';
COMMENT ON COLUMN insider_open_market.acceptance_time IS 'Acceptance time, UTC: when the trade became public.';
COMMENT ON COLUMN insider_open_market.period_of_report IS 'periodOfReport of the filing.';
COMMENT ON COLUMN insider_open_market.table_kind IS 'non_derivative or derivative.';
COMMENT ON COLUMN insider_open_market.line_number IS 'Line within its table.';
COMMENT ON COLUMN insider_open_market.transaction_date IS 'Trade date.';
COMMENT ON COLUMN insider_open_market.transaction_code IS 'P (open-market or private purchase) or S (open-market or private sale).';
COMMENT ON COLUMN insider_open_market.side IS 'purchase (P) or sale (S).';
COMMENT ON COLUMN insider_open_market.security_title IS 'Security traded.';
COMMENT ON COLUMN insider_open_market.shares IS 'Shares traded, exact.';
COMMENT ON COLUMN insider_open_market.price_per_share IS 'Price per share as filed (possibly a weighted average).';
COMMENT ON COLUMN insider_open_market.line_value IS 'Computed: shares x price_per_share (NULL when either is missing or implausibly large).';
COMMENT ON COLUMN insider_open_market.price_is_weighted_average IS 'A footnote says the price is a weighted average of several trades.';
COMMENT ON COLUMN insider_open_market.price_range_low IS 'Low end of the price range given by that footnote.';
COMMENT ON COLUMN insider_open_market.price_range_high IS 'High end of the price range given by that footnote.';
COMMENT ON COLUMN insider_open_market.acquired_disposed IS 'A acquired, D disposed.';
COMMENT ON COLUMN insider_open_market.shares_owned_following IS 'Shares owned after the trade.';
COMMENT ON COLUMN insider_open_market.direct_indirect IS 'D direct, I indirect.';
COMMENT ON COLUMN insider_open_market.nature_of_ownership IS 'Nature of indirect ownership.';
COMMENT ON COLUMN insider_open_market.aff10b5one IS 'The filing ticks the Rule 10b5-1 plan box.';
COMMENT ON COLUMN insider_open_market.owner_names IS 'Reporting owner names, document order, joined with "; ".';
COMMENT ON COLUMN insider_open_market.owner_ciks IS 'Reporting owner CIKs, document order.';
COMMENT ON COLUMN insider_open_market.owner_roles IS 'Each owner''s roles (Director, Officer: title, 10% Owner, Other: text), owners joined with "; ".';
COMMENT ON COLUMN insider_open_market.any_director IS 'At least one reporting owner is a director.';
COMMENT ON COLUMN insider_open_market.any_officer IS 'At least one reporting owner is an officer.';
COMMENT ON COLUMN insider_open_market.any_ten_percent_owner IS 'At least one reporting owner is a 10% owner.';
COMMENT ON COLUMN insider_open_market.owner_count IS 'Number of reporting owners of the filing.';
COMMENT ON COLUMN insider_open_market.footnote_ids IS 'Footnote ids cited in the line.';
COMMENT ON COLUMN insider_open_market.from_amendment IS 'The line comes from a /A that superseded the original''s lines.';
COMMENT ON COLUMN insider_open_market.source_document_id IS 'Payload the line was loaded from.';

-- One row per filing with open-market trades: totals and weighted average prices per side.
CREATE VIEW insider_open_market_filings AS
SELECT issuer_cik, any_value(issuer_name) AS issuer_name, any_value(issuer_ticker) AS issuer_ticker,
       accession, any_value(document_type) AS document_type, any_value(filed) AS filed,
       any_value(acceptance_time) AS acceptance_time, any_value(period_of_report) AS period_of_report,
       any_value(owner_names) AS owner_names, any_value(owner_roles) AS owner_roles,
       min(transaction_date) AS first_transaction_date, max(transaction_date) AS last_transaction_date,
       count(*) AS lines,
       count(*) FILTER (WHERE side = 'purchase') AS purchase_lines,
       sum(shares) FILTER (WHERE side = 'purchase') AS purchased_shares,
       sum(line_value) FILTER (WHERE side = 'purchase') AS purchase_value,
       CAST(round(sum(line_value) FILTER (WHERE side = 'purchase')
                  / sum(shares) FILTER (WHERE side = 'purchase' AND line_value IS NOT NULL), 6) AS DECIMAL(38, 6))
           AS purchase_avg_price,
       count(*) FILTER (WHERE side = 'sale') AS sale_lines,
       sum(shares) FILTER (WHERE side = 'sale') AS sold_shares,
       sum(line_value) FILTER (WHERE side = 'sale') AS sale_value,
       CAST(round(sum(line_value) FILTER (WHERE side = 'sale')
                  / sum(shares) FILTER (WHERE side = 'sale' AND line_value IS NOT NULL), 6) AS DECIMAL(38, 6))
           AS sale_avg_price,
       coalesce(sum(shares) FILTER (WHERE side = 'purchase'), 0)
           - coalesce(sum(shares) FILTER (WHERE side = 'sale'), 0) AS net_shares,
       bool_or(price_is_weighted_average) AS any_weighted_average_price,
       min(shares_owned_following) FILTER (WHERE table_kind = 'non_derivative') AS min_shares_owned_following
FROM insider_open_market
GROUP BY issuer_cik, accession;
COMMENT ON VIEW insider_open_market_filings IS 'One row per filing with open-market purchases or sales (grain: accession): lines, shares, value and share-weighted average price per side (computed), owners and roles.';
COMMENT ON COLUMN insider_open_market_filings.issuer_cik IS 'Issuer CIK.';
COMMENT ON COLUMN insider_open_market_filings.issuer_name IS 'Issuer name as in the filing.';
COMMENT ON COLUMN insider_open_market_filings.issuer_ticker IS 'Issuer trading symbol as in the filing.';
COMMENT ON COLUMN insider_open_market_filings.accession IS 'The filing.';
COMMENT ON COLUMN insider_open_market_filings.document_type IS 'Form (4, 4/A, 5, ...).';
COMMENT ON COLUMN insider_open_market_filings.filed IS 'Filing date.';
COMMENT ON COLUMN insider_open_market_filings.acceptance_time IS 'Acceptance time, UTC.';
COMMENT ON COLUMN insider_open_market_filings.period_of_report IS 'periodOfReport.';
COMMENT ON COLUMN insider_open_market_filings.owner_names IS 'Reporting owner names joined with "; ".';
COMMENT ON COLUMN insider_open_market_filings.owner_roles IS 'Reporting owner roles joined with "; ".';
COMMENT ON COLUMN insider_open_market_filings.first_transaction_date IS 'Earliest trade date among the lines.';
COMMENT ON COLUMN insider_open_market_filings.last_transaction_date IS 'Latest trade date among the lines.';
COMMENT ON COLUMN insider_open_market_filings.lines IS 'Number of P and S lines.';
COMMENT ON COLUMN insider_open_market_filings.purchase_lines IS 'Number of P lines.';
COMMENT ON COLUMN insider_open_market_filings.purchased_shares IS 'Total shares bought (exact sum).';
COMMENT ON COLUMN insider_open_market_filings.purchase_value IS 'Computed: total of shares x price over the P lines.';
COMMENT ON COLUMN insider_open_market_filings.purchase_avg_price IS 'Computed: share-weighted average purchase price, rounded to 6 decimals.';
COMMENT ON COLUMN insider_open_market_filings.sale_lines IS 'Number of S lines.';
COMMENT ON COLUMN insider_open_market_filings.sold_shares IS 'Total shares sold (exact sum).';
COMMENT ON COLUMN insider_open_market_filings.sale_value IS 'Computed: total of shares x price over the S lines.';
COMMENT ON COLUMN insider_open_market_filings.sale_avg_price IS 'Computed: share-weighted average sale price, rounded to 6 decimals.';
COMMENT ON COLUMN insider_open_market_filings.net_shares IS 'purchased_shares - sold_shares.';
COMMENT ON COLUMN insider_open_market_filings.any_weighted_average_price IS 'At least one line''s price is itself a weighted average (footnote).';
COMMENT ON COLUMN insider_open_market_filings.min_shares_owned_following IS 'Smallest shares_owned_following among the Table I lines (the holding after the last sale, for a sell-down).';
