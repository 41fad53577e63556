-- 0004 metrics: standard concepts (ordered fallback chains as data), the standard_facts view and
-- its point-in-time macro, derived metrics with lineage to the exact fact versions, and stored
-- data-quality check results. Depends on 0001 only (fact_versions / facts_as_of / facts).
-- Margins and growth rates are stored as FRACTIONS (0.1369 = 13.69 %).

-- grain: (standard_concept, chain_rank): one tag of one standard concept's ordered fallback chain.
CREATE TABLE standard_concepts (
    standard_concept VARCHAR NOT NULL,
    chain_rank       INTEGER NOT NULL,
    taxonomy         VARCHAR NOT NULL,
    concept          VARCHAR NOT NULL,
    scope            VARCHAR NOT NULL,
    period_type      VARCHAR NOT NULL,
    additive         BOOLEAN NOT NULL,
    value_kind       VARCHAR NOT NULL,
    note             VARCHAR,
    PRIMARY KEY (standard_concept, chain_rank)
);
COMMENT ON TABLE standard_concepts IS 'Standard concepts as data (grain: standard_concept, chain_rank): each standard concept is an ordered fallback chain of us-gaap then ifrs-full (or dei) tags. For every company and period the FIRST tag in chain order that has a value is used; two tags are never added together.';
COMMENT ON COLUMN standard_concepts.standard_concept IS 'Standard concept name: revenue, cost_of_revenue, gross_profit, operating_expenses, operating_income, net_income, eps_basic, eps_diluted, operating_cash_flow, capital_expenditure, total_assets, total_liabilities, stockholders_equity, total_equity, liabilities_and_equity, cash, rnd_expense, long_term_debt, shares_outstanding.';
COMMENT ON COLUMN standard_concepts.chain_rank IS 'Position in the fallback chain (1 = tried first).';
COMMENT ON COLUMN standard_concepts.taxonomy IS 'Taxonomy of the tag: us-gaap, ifrs-full or dei.';
COMMENT ON COLUMN standard_concepts.concept IS 'XBRL concept (tag) name, as in facts.concept.';
COMMENT ON COLUMN standard_concepts.scope IS 'What the tag covers: general, or a label warning that it is narrower/wider: goods_only, services_only, bank (bank-specific), includes_nci, includes_restricted_cash, includes_current_portion, continuing_ops, common_only, cover_page.';
COMMENT ON COLUMN standard_concepts.period_type IS 'duration (flows: income and cash-flow statement) or instant (balance sheet, share counts).';
COMMENT ON COLUMN standard_concepts.additive IS 'True when discrete quarters may be derived by subtracting year-to-date values (never for per-share values, ratios or instants).';
COMMENT ON COLUMN standard_concepts.value_kind IS 'currency, per_share (e.g. USD/shares) or shares.';
COMMENT ON COLUMN standard_concepts.note IS 'Why the tag sits where it does in the chain, when not obvious.';

INSERT INTO standard_concepts VALUES
    ('revenue', 1, 'us-gaap', 'RevenueFromContractWithCustomerExcludingAssessedTax', 'general', 'duration', true, 'currency', 'ASC 606 total revenue (2018+).'),
    ('revenue', 2, 'us-gaap', 'SalesRevenueNet', 'general', 'duration', true, 'currency', 'Pre-2018 total net sales.'),
    ('revenue', 3, 'us-gaap', 'Revenues', 'general', 'duration', true, 'currency', 'Generic total; some filers use it for partial totals, so ranked after the specific tags.'),
    ('revenue', 4, 'us-gaap', 'RevenueFromContractWithCustomerIncludingAssessedTax', 'general', 'duration', true, 'currency', 'Includes assessed taxes.'),
    ('revenue', 5, 'us-gaap', 'SalesRevenueGoodsNet', 'goods_only', 'duration', true, 'currency', 'Goods only: excludes services.'),
    ('revenue', 6, 'us-gaap', 'SalesRevenueServicesNet', 'services_only', 'duration', true, 'currency', 'Services only: excludes goods.'),
    ('revenue', 7, 'us-gaap', 'RevenuesNetOfInterestExpense', 'bank', 'duration', true, 'currency', 'Bank-specific: revenue net of interest expense.'),
    ('revenue', 8, 'us-gaap', 'InterestAndDividendIncomeOperating', 'bank', 'duration', true, 'currency', 'Bank-specific: interest and dividend income.'),
    ('revenue', 9, 'ifrs-full', 'Revenue', 'general', 'duration', true, 'currency', NULL),
    ('revenue', 10, 'ifrs-full', 'RevenueFromContractsWithCustomers', 'general', 'duration', true, 'currency', NULL),
    ('cost_of_revenue', 1, 'us-gaap', 'CostOfRevenue', 'general', 'duration', true, 'currency', 'Broadest total cost of revenue.'),
    ('cost_of_revenue', 2, 'us-gaap', 'CostOfGoodsAndServicesSold', 'general', 'duration', true, 'currency', NULL),
    ('cost_of_revenue', 3, 'us-gaap', 'CostOfGoodsSold', 'goods_only', 'duration', true, 'currency', 'Goods only (pre-2018 tag).'),
    ('cost_of_revenue', 4, 'us-gaap', 'CostOfGoodsAndServiceExcludingDepreciationDepletionAndAmortization', 'general', 'duration', true, 'currency', 'Excludes D&A.'),
    ('cost_of_revenue', 5, 'us-gaap', 'CostOfServices', 'services_only', 'duration', true, 'currency', 'Services only.'),
    ('cost_of_revenue', 6, 'ifrs-full', 'CostOfSales', 'general', 'duration', true, 'currency', NULL),
    ('gross_profit', 1, 'us-gaap', 'GrossProfit', 'general', 'duration', true, 'currency', NULL),
    ('gross_profit', 2, 'ifrs-full', 'GrossProfit', 'general', 'duration', true, 'currency', NULL),
    ('operating_expenses', 1, 'us-gaap', 'OperatingExpenses', 'general', 'duration', true, 'currency', 'Operating expenses excluding cost of revenue.'),
    ('operating_expenses', 2, 'ifrs-full', 'OperatingExpense', 'general', 'duration', true, 'currency', NULL),
    ('operating_income', 1, 'us-gaap', 'OperatingIncomeLoss', 'general', 'duration', true, 'currency', NULL),
    ('operating_income', 2, 'ifrs-full', 'ProfitLossFromOperatingActivities', 'general', 'duration', true, 'currency', NULL),
    ('net_income', 1, 'us-gaap', 'NetIncomeLoss', 'general', 'duration', true, 'currency', 'Attributable to the parent.'),
    ('net_income', 2, 'us-gaap', 'NetIncomeLossAvailableToCommonStockholdersBasic', 'common_only', 'duration', true, 'currency', 'After preferred dividends.'),
    ('net_income', 3, 'us-gaap', 'ProfitLoss', 'includes_nci', 'duration', true, 'currency', 'Includes noncontrolling interests.'),
    ('net_income', 4, 'ifrs-full', 'ProfitLossAttributableToOwnersOfParent', 'general', 'duration', true, 'currency', NULL),
    ('net_income', 5, 'ifrs-full', 'ProfitLoss', 'includes_nci', 'duration', true, 'currency', 'Includes noncontrolling interests.'),
    ('eps_basic', 1, 'us-gaap', 'EarningsPerShareBasic', 'general', 'duration', false, 'per_share', NULL),
    ('eps_basic', 2, 'us-gaap', 'EarningsPerShareBasicAndDiluted', 'general', 'duration', false, 'per_share', NULL),
    ('eps_basic', 3, 'ifrs-full', 'BasicEarningsLossPerShare', 'general', 'duration', false, 'per_share', NULL),
    ('eps_diluted', 1, 'us-gaap', 'EarningsPerShareDiluted', 'general', 'duration', false, 'per_share', NULL),
    ('eps_diluted', 2, 'us-gaap', 'EarningsPerShareBasicAndDiluted', 'general', 'duration', false, 'per_share', NULL),
    ('eps_diluted', 3, 'ifrs-full', 'DilutedEarningsLossPerShare', 'general', 'duration', false, 'per_share', NULL),
    ('operating_cash_flow', 1, 'us-gaap', 'NetCashProvidedByUsedInOperatingActivities', 'general', 'duration', true, 'currency', NULL),
    ('operating_cash_flow', 2, 'us-gaap', 'NetCashProvidedByUsedInOperatingActivitiesContinuingOperations', 'continuing_ops', 'duration', true, 'currency', 'Continuing operations only.'),
    ('operating_cash_flow', 3, 'ifrs-full', 'CashFlowsFromUsedInOperatingActivities', 'general', 'duration', true, 'currency', NULL),
    ('capital_expenditure', 1, 'us-gaap', 'PaymentsToAcquirePropertyPlantAndEquipment', 'general', 'duration', true, 'currency', 'Cash paid for PP&E (positive = outflow).'),
    ('capital_expenditure', 2, 'us-gaap', 'PaymentsToAcquireProductiveAssets', 'general', 'duration', true, 'currency', 'PP&E plus intangibles; used by filers without the PP&E tag (NVIDIA FY2022+).'),
    ('capital_expenditure', 3, 'us-gaap', 'PaymentsForCapitalImprovements', 'general', 'duration', true, 'currency', NULL),
    ('capital_expenditure', 4, 'ifrs-full', 'PurchaseOfPropertyPlantAndEquipmentClassifiedAsInvestingActivities', 'general', 'duration', true, 'currency', NULL),
    ('total_assets', 1, 'us-gaap', 'Assets', 'general', 'instant', false, 'currency', NULL),
    ('total_assets', 2, 'ifrs-full', 'Assets', 'general', 'instant', false, 'currency', NULL),
    ('total_liabilities', 1, 'us-gaap', 'Liabilities', 'general', 'instant', false, 'currency', NULL),
    ('total_liabilities', 2, 'ifrs-full', 'Liabilities', 'general', 'instant', false, 'currency', NULL),
    ('stockholders_equity', 1, 'us-gaap', 'StockholdersEquity', 'general', 'instant', false, 'currency', 'Attributable to the parent.'),
    ('stockholders_equity', 2, 'us-gaap', 'StockholdersEquityIncludingPortionAttributableToNoncontrollingInterest', 'includes_nci', 'instant', false, 'currency', NULL),
    ('stockholders_equity', 3, 'ifrs-full', 'EquityAttributableToOwnersOfParent', 'general', 'instant', false, 'currency', NULL),
    ('stockholders_equity', 4, 'ifrs-full', 'Equity', 'includes_nci', 'instant', false, 'currency', NULL),
    ('total_equity', 1, 'us-gaap', 'StockholdersEquityIncludingPortionAttributableToNoncontrollingInterest', 'includes_nci', 'instant', false, 'currency', 'Total equity including noncontrolling interests (balance-sheet identity).'),
    ('total_equity', 2, 'us-gaap', 'StockholdersEquity', 'general', 'instant', false, 'currency', 'Used when no NCI total is tagged.'),
    ('total_equity', 3, 'ifrs-full', 'Equity', 'includes_nci', 'instant', false, 'currency', NULL),
    ('total_equity', 4, 'ifrs-full', 'EquityAttributableToOwnersOfParent', 'general', 'instant', false, 'currency', NULL),
    ('liabilities_and_equity', 1, 'us-gaap', 'LiabilitiesAndStockholdersEquity', 'general', 'instant', false, 'currency', NULL),
    ('liabilities_and_equity', 2, 'ifrs-full', 'EquityAndLiabilities', 'general', 'instant', false, 'currency', NULL),
    ('cash', 1, 'us-gaap', 'CashAndCashEquivalentsAtCarryingValue', 'general', 'instant', false, 'currency', NULL),
    ('cash', 2, 'us-gaap', 'Cash', 'general', 'instant', false, 'currency', NULL),
    ('cash', 3, 'us-gaap', 'CashAndDueFromBanks', 'bank', 'instant', false, 'currency', 'Bank-specific.'),
    ('cash', 4, 'us-gaap', 'CashCashEquivalentsRestrictedCashAndRestrictedCashEquivalents', 'includes_restricted_cash', 'instant', false, 'currency', 'Includes restricted cash.'),
    ('cash', 5, 'ifrs-full', 'CashAndCashEquivalents', 'general', 'instant', false, 'currency', NULL),
    ('rnd_expense', 1, 'us-gaap', 'ResearchAndDevelopmentExpense', 'general', 'duration', true, 'currency', NULL),
    ('rnd_expense', 2, 'us-gaap', 'ResearchAndDevelopmentExpenseExcludingAcquiredInProcessCost', 'general', 'duration', true, 'currency', NULL),
    ('rnd_expense', 3, 'ifrs-full', 'ResearchAndDevelopmentExpense', 'general', 'duration', true, 'currency', NULL),
    ('long_term_debt', 1, 'us-gaap', 'LongTermDebtNoncurrent', 'general', 'instant', false, 'currency', NULL),
    ('long_term_debt', 2, 'us-gaap', 'LongTermDebt', 'includes_current_portion', 'instant', false, 'currency', 'Includes the current portion.'),
    ('long_term_debt', 3, 'us-gaap', 'LongTermDebtAndCapitalLeaseObligations', 'general', 'instant', false, 'currency', 'Includes finance leases.'),
    ('long_term_debt', 4, 'ifrs-full', 'NoncurrentPortionOfNoncurrentBorrowings', 'general', 'instant', false, 'currency', NULL),
    ('long_term_debt', 5, 'ifrs-full', 'LongtermBorrowings', 'includes_current_portion', 'instant', false, 'currency', NULL),
    ('shares_outstanding', 1, 'us-gaap', 'CommonStockSharesOutstanding', 'general', 'instant', false, 'shares', 'Balance-sheet date count.'),
    ('shares_outstanding', 2, 'dei', 'EntityCommonStockSharesOutstanding', 'cover_page', 'instant', false, 'shares', 'Cover-page count at a date near filing, not the balance-sheet date.');

-- grain: (standard_concept, chain_rank), like standard_concepts, plus the chain prefix.
CREATE VIEW standard_concept_chains AS
SELECT s.*,
       list(s.taxonomy || ':' || s.concept) OVER (PARTITION BY s.standard_concept ORDER BY s.chain_rank
                                                 ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS tags_tried
FROM standard_concepts s;
COMMENT ON VIEW standard_concept_chains IS 'standard_concepts with tags_tried: the chain tags tried, in order, up to and including this one (grain: standard_concept, chain_rank).';
COMMENT ON COLUMN standard_concept_chains.standard_concept IS 'Standard concept name (see standard_concepts).';
COMMENT ON COLUMN standard_concept_chains.chain_rank IS 'Position in the fallback chain (1 = tried first).';
COMMENT ON COLUMN standard_concept_chains.taxonomy IS 'Taxonomy of the tag.';
COMMENT ON COLUMN standard_concept_chains.concept IS 'XBRL concept (tag) name.';
COMMENT ON COLUMN standard_concept_chains.scope IS 'general, or the narrower/wider scope label (goods_only, bank, ...).';
COMMENT ON COLUMN standard_concept_chains.period_type IS 'duration or instant.';
COMMENT ON COLUMN standard_concept_chains.additive IS 'True when quarters may be derived by subtraction.';
COMMENT ON COLUMN standard_concept_chains.value_kind IS 'currency, per_share or shares.';
COMMENT ON COLUMN standard_concept_chains.note IS 'Why the tag sits where it does in the chain.';
COMMENT ON COLUMN standard_concept_chains.tags_tried IS 'taxonomy:concept of every chain tag up to and including this one, in chain order.';

-- Point-in-time standard facts: the fallback chain is applied PER PERIOD (cik, standard_concept,
-- unit, period_start, period_end) over facts_as_of(ts); discrete quarters Q2/Q3/Q4 are derived from
-- year-to-date values of the SAME tag (same cik, unit, fiscal year and period_start) when no tagged
-- discrete quarter ends on that date. Never derived for per-share values, ratios or instants.
-- grain: (cik, standard_concept, unit, period_start, period_end).
-- The rules for deriving a discrete quarter by subtraction, shared by standard_facts_as_of and
-- the metrics refresh (warehouse/sql/standard/derived_timeline.sql): one definition each.
CREATE MACRO ytd_steps_one_quarter(long_class, short_class, long_end, short_end) AS
    ((long_class = 'six_months' AND short_class = 'quarter')
     OR (long_class = 'nine_months' AND short_class = 'six_months')
     OR (long_class = 'annual' AND short_class = 'nine_months'))
    AND long_end - short_end - 1 BETWEEN 80 AND 100;
COMMENT ON MACRO ytd_steps_one_quarter IS 'True when a year-to-date value minus a shorter year-to-date value of the same fiscal year leaves exactly one quarter (H1-Q1=Q2, 9M-H1=Q3, FY-9M=Q4, 80-100 days).';
CREATE MACRO subtractable_unit(unit) AS unit NOT LIKE '%/%' AND unit <> 'pure';
COMMENT ON MACRO subtractable_unit IS 'Units whose values may be subtracted to derive a quarter: not per-share or other ratios (USD/shares) and not pure.';

CREATE MACRO standard_facts_as_of(ts) AS TABLE
WITH cand AS (
    SELECT f.cik, c.standard_concept, c.chain_rank, c.scope, c.additive, c.tags_tried,
           f.taxonomy, f.concept, f.unit, f.period_start, f.period_end, f.value, f.accession, f.form,
           f.filed, f.known_from, f.fiscal_year, f.fiscal_period, f.duration_class, f.duration_days
    FROM facts_as_of(ts) f
    JOIN standard_concept_chains c ON c.taxonomy = f.taxonomy AND c.concept = f.concept
    WHERE CASE WHEN c.period_type = 'instant' THEN f.duration_class = 'instant'
               ELSE f.duration_class IN ('quarter', 'six_months', 'nine_months', 'annual') END
),
reported AS (
    SELECT * FROM cand
    QUALIFY row_number() OVER (PARTITION BY cik, standard_concept, unit, period_start, period_end
                               ORDER BY chain_rank) = 1
),
derived AS (
    SELECT l.cik, l.standard_concept, l.chain_rank, l.scope, l.additive, l.tags_tried,
           l.taxonomy, l.concept, l.unit,
           CAST(s.period_end + INTERVAL 1 DAY AS DATE) AS period_start, l.period_end,
           l.value - s.value AS value, l.accession, l.form, l.filed,
           greatest(l.known_from, s.known_from) AS known_from, l.fiscal_year,
           CASE l.duration_class WHEN 'six_months' THEN 'Q2' WHEN 'nine_months' THEN 'Q3' ELSE 'Q4' END AS fiscal_period,
           'quarter' AS duration_class,
           CAST(l.period_end - s.period_end - 1 AS INTEGER) AS duration_days,
           [{'step': 'ytd', 'taxonomy': l.taxonomy, 'concept': l.concept, 'unit': l.unit,
             'period_start': l.period_start, 'period_end': l.period_end, 'accession': l.accession,
             'value': l.value, 'known_from': l.known_from},
            {'step': 'less_ytd', 'taxonomy': s.taxonomy, 'concept': s.concept, 'unit': s.unit,
             'period_start': s.period_start, 'period_end': s.period_end, 'accession': s.accession,
             'value': s.value, 'known_from': s.known_from}] AS inputs
    FROM reported l
    JOIN reported s
      ON s.cik = l.cik AND s.standard_concept = l.standard_concept AND s.unit = l.unit
     AND s.taxonomy = l.taxonomy AND s.concept = l.concept
     AND s.period_start = l.period_start AND s.fiscal_year = l.fiscal_year
     AND ytd_steps_one_quarter(l.duration_class, s.duration_class, l.period_end, s.period_end)
    WHERE l.additive AND subtractable_unit(l.unit)
      AND NOT EXISTS (SELECT 1 FROM reported r
                      WHERE r.cik = l.cik AND r.standard_concept = l.standard_concept AND r.unit = l.unit
                        AND r.period_end = l.period_end AND r.duration_class = 'quarter')
)
SELECT cik, standard_concept, fiscal_year, fiscal_period, duration_class, duration_days,
       period_start, period_end, value, unit, taxonomy, concept AS matched_tag, chain_rank, scope,
       tags_tried, accession, form, filed, known_from, 'reported' AS derivation,
       [{'step': 'reported', 'taxonomy': taxonomy, 'concept': concept, 'unit': unit,
         'period_start': period_start, 'period_end': period_end, 'accession': accession,
         'value': value, 'known_from': known_from}] AS inputs
FROM reported
UNION ALL BY NAME
SELECT cik, standard_concept, fiscal_year, fiscal_period, duration_class, duration_days,
       period_start, period_end, value, unit, taxonomy, concept AS matched_tag, chain_rank, scope,
       tags_tried, accession, form, filed, known_from, 'derived_' || lower(fiscal_period) AS derivation,
       inputs
FROM derived;
COMMENT ON MACRO TABLE standard_facts_as_of IS 'standard_facts as they were public at ts (UTC): the fallback chains applied per period over facts_as_of(ts), with discrete quarters derived from year-to-date values known by then.';

CREATE VIEW standard_facts AS
SELECT * FROM standard_facts_as_of(TIMESTAMP '9999-12-31 00:00:00');
COMMENT ON VIEW standard_facts IS 'Current standard facts (grain: cik, standard_concept, unit, period_start, period_end): for each company and period the first tag in the standard concept''s chain that has a value (latest version), plus discrete quarters derived from year-to-date values (derivation derived_q2/q3/q4) where no tagged quarter exists. Same rules as standard_facts_as_of(ts).';
COMMENT ON COLUMN standard_facts.cik IS 'Company (integer CIK).';
COMMENT ON COLUMN standard_facts.standard_concept IS 'Standard concept name (see standard_concepts).';
COMMENT ON COLUMN standard_facts.fiscal_year IS 'The value''s own fiscal year (facts.fiscal_year of the matched fact; of the year-to-date fact for a derived quarter).';
COMMENT ON COLUMN standard_facts.fiscal_period IS 'FY, or Q1..Q4: the fiscal quarter in which period_end falls (a six_months YTD ending in Q2 is Q2; see duration_class).';
COMMENT ON COLUMN standard_facts.duration_class IS 'instant, quarter, six_months, nine_months or annual (derived quarters are quarter).';
COMMENT ON COLUMN standard_facts.duration_days IS 'period_end - period_start in days; NULL for instants.';
COMMENT ON COLUMN standard_facts.period_start IS 'First day of the duration (for a derived quarter: the day after the shorter YTD period ends); NULL for instants.';
COMMENT ON COLUMN standard_facts.period_end IS 'Last day of the duration, or the instant date.';
COMMENT ON COLUMN standard_facts.value IS 'Exact value (DECIMAL) of the matched fact, or YTD minus shorter YTD for a derived quarter.';
COMMENT ON COLUMN standard_facts.unit IS 'Unit of the matched fact (USD, TWD, USD/shares, shares...); currencies are never mixed.';
COMMENT ON COLUMN standard_facts.taxonomy IS 'Taxonomy of the matched tag (us-gaap, ifrs-full, dei).';
COMMENT ON COLUMN standard_facts.matched_tag IS 'The concept the fallback chain matched for this period.';
COMMENT ON COLUMN standard_facts.chain_rank IS 'Chain position of matched_tag (1 = the preferred tag).';
COMMENT ON COLUMN standard_facts.scope IS 'Scope label of matched_tag: general, goods_only, services_only, bank, includes_nci, ...';
COMMENT ON COLUMN standard_facts.tags_tried IS 'taxonomy:concept of the chain tags tried for this period, in order, ending with the matched one.';
COMMENT ON COLUMN standard_facts.accession IS 'Accession of the matched fact version (for a derived quarter: of the longer YTD fact; both are in inputs).';
COMMENT ON COLUMN standard_facts.form IS 'Form of that filing.';
COMMENT ON COLUMN standard_facts.filed IS 'Filing date of that filing.';
COMMENT ON COLUMN standard_facts.known_from IS 'UTC time from which this value was public (fact_versions.known_from; the later of the two inputs for a derived quarter).';
COMMENT ON COLUMN standard_facts.derivation IS 'reported (a tagged value), or derived_q2 (H1 - Q1), derived_q3 (9M - H1), derived_q4 (FY - 9M).';
COMMENT ON COLUMN standard_facts.inputs IS 'The exact fact versions used: list of {step (reported, ytd, less_ytd), taxonomy, concept, unit, period_start, period_end, accession, value, known_from}.';

-- grain: one computed value of one metric for one company and period from ONE combination of input
-- fact versions (metric_id). Append-only: a restated input produces a new row; old rows stay.
CREATE TABLE derived_metrics (
    metric_id               VARCHAR PRIMARY KEY,
    metric                  VARCHAR NOT NULL,
    cik                     INTEGER NOT NULL,
    fiscal_year             INTEGER,
    fiscal_period           VARCHAR,
    duration_class          VARCHAR,
    period_start            DATE,
    period_end              DATE NOT NULL,
    value                   DECIMAL(38, 10),
    unit                    VARCHAR,
    input_unit              VARCHAR,
    taxonomy                VARCHAR,
    derivation              VARCHAR NOT NULL,
    formula                 VARCHAR NOT NULL,
    rule_version            VARCHAR NOT NULL,
    known_from              TIMESTAMP NOT NULL,
    null_reason             VARCHAR,
    flags                   VARCHAR[],
    version                 INTEGER,
    superseded_by_metric_id VARCHAR,
    superseded_at           TIMESTAMP,
    computed_at             TIMESTAMP NOT NULL,
    load_id                 VARCHAR
);
COMMENT ON TABLE derived_metrics IS 'Every version of every derived metric (grain: metric_id = one metric, company, period, input unit and combination of exact input fact versions). A restated input yields a new row (new metric_id) with its own lineage; the old row stays. Margins and growth are fractions (0.1369 = 13.69 %). See derived_metrics_current and derived_metrics_as_of(ts).';
COMMENT ON COLUMN derived_metrics.metric_id IS 'Deterministic id: md5 of metric, cik, period, input unit, rule_version and the sorted input fact version keys (re-computing the same thing yields the same id).';
COMMENT ON COLUMN derived_metrics.metric IS 'free_cash_flow, gross_margin, operating_margin, net_margin, revenue_growth_yoy, ttm_revenue, or a standard concept name (revenue, operating_cash_flow, ...) for a derived discrete quarter.';
COMMENT ON COLUMN derived_metrics.cik IS 'Company (integer CIK).';
COMMENT ON COLUMN derived_metrics.fiscal_year IS 'Fiscal year of the period (of its last quarter for ttm_revenue).';
COMMENT ON COLUMN derived_metrics.fiscal_period IS 'FY or Q1..Q4 (quarter in which period_end falls).';
COMMENT ON COLUMN derived_metrics.duration_class IS 'quarter or annual (ttm_revenue: annual, the twelve months ending period_end).';
COMMENT ON COLUMN derived_metrics.period_start IS 'First day of the period the metric covers.';
COMMENT ON COLUMN derived_metrics.period_end IS 'Last day of the period the metric covers.';
COMMENT ON COLUMN derived_metrics.value IS 'The metric value; NULL when the inputs do not line up (then null_reason says why). Ratios are fractions.';
COMMENT ON COLUMN derived_metrics.unit IS 'Unit of value: a currency (USD...) for amounts, pure for margins and growth.';
COMMENT ON COLUMN derived_metrics.input_unit IS 'Unit (currency) shared by the inputs; part of the metric''s identity (a company may report in two currencies).';
COMMENT ON COLUMN derived_metrics.taxonomy IS 'Taxonomy family of the inputs (us-gaap or ifrs-full).';
COMMENT ON COLUMN derived_metrics.derivation IS 'formula for metrics; derived_q2/derived_q3/derived_q4 for a discrete quarter derived from year-to-date values.';
COMMENT ON COLUMN derived_metrics.formula IS 'Human-readable formula over standard concepts, e.g. operating_cash_flow - capital_expenditure.';
COMMENT ON COLUMN derived_metrics.rule_version IS 'Version of the metric rule (SQL file) that computed the row, e.g. free_cash_flow.v1.';
COMMENT ON COLUMN derived_metrics.known_from IS 'UTC time from which this combination of input versions was public: the latest known_from of its inputs.';
COMMENT ON COLUMN derived_metrics.null_reason IS 'Why value is NULL: unit mismatch, taxonomy mismatch, zero or negative denominator, ... NULL when value is set.';
COMMENT ON COLUMN derived_metrics.flags IS 'Warnings that do not void the value, e.g. 53_week_year, duration_days_differ.';
COMMENT ON COLUMN derived_metrics.version IS 'Version number within (metric, cik, period_start, period_end, input_unit), ordered by known_from (1 = first).';
COMMENT ON COLUMN derived_metrics.superseded_by_metric_id IS 'The next version of the same metric and period, once one exists; NULL for the current version.';
COMMENT ON COLUMN derived_metrics.superseded_at IS 'known_from of the next version (this row was current until then).';
COMMENT ON COLUMN derived_metrics.computed_at IS 'When refresh_metrics first inserted the row (UTC).';
COMMENT ON COLUMN derived_metrics.load_id IS 'Load run during which the row was computed (load_runs.load_id).';

-- grain: (metric_id, role, step): one input edge = one exact fact version used by a metric version.
CREATE TABLE metric_lineage (
    metric_id        VARCHAR NOT NULL,
    role             VARCHAR NOT NULL,
    step             VARCHAR NOT NULL,
    standard_concept VARCHAR,
    derivation       VARCHAR,
    taxonomy         VARCHAR NOT NULL,
    concept          VARCHAR NOT NULL,
    unit             VARCHAR NOT NULL,
    period_start     DATE,
    period_end       DATE NOT NULL,
    accession        VARCHAR NOT NULL,
    revision         SMALLINT NOT NULL DEFAULT 0,
    value            DECIMAL(38, 10),
    known_from       TIMESTAMP,
    input_metric_id  VARCHAR,
    load_id          VARCHAR,
    PRIMARY KEY (metric_id, role, step)
);
COMMENT ON TABLE metric_lineage IS 'Inputs of each derived metric version (grain: metric_id, role, step): the exact fact version (facts key + accession) used, the standard concept and tag it came through, and, when the input was itself a derived quarter, that metric''s id.';
COMMENT ON COLUMN metric_lineage.metric_id IS 'The derived_metrics row this input belongs to.';
COMMENT ON COLUMN metric_lineage.role IS 'Role of the input in the formula: e.g. operating_cash_flow, capital_expenditure, numerator, denominator, current, prior, q1..q4, fiscal_year, ytd, less_ytd.';
COMMENT ON COLUMN metric_lineage.step IS 'reported (the fact is the input itself), or ytd / less_ytd when the input is a discrete quarter derived as ytd minus less_ytd.';
COMMENT ON COLUMN metric_lineage.standard_concept IS 'Standard concept the input was read as.';
COMMENT ON COLUMN metric_lineage.derivation IS 'Derivation of that standard value: reported or derived_q2/q3/q4.';
COMMENT ON COLUMN metric_lineage.taxonomy IS 'Fact key: taxonomy.';
COMMENT ON COLUMN metric_lineage.concept IS 'Fact key: concept (the tag the fallback chain matched).';
COMMENT ON COLUMN metric_lineage.unit IS 'Fact key: unit.';
COMMENT ON COLUMN metric_lineage.period_start IS 'Fact key: period_start (NULL for instants).';
COMMENT ON COLUMN metric_lineage.period_end IS 'Fact key: period_end.';
COMMENT ON COLUMN metric_lineage.accession IS 'Fact key: accession of the exact version used.';
COMMENT ON COLUMN metric_lineage.revision IS 'Fact key: revision (0 unless SEC re-issued another value under the same accession; see facts.revision).';
COMMENT ON COLUMN metric_lineage.value IS 'Value of that fact version (copied for convenience; facts holds the original).';
COMMENT ON COLUMN metric_lineage.known_from IS 'known_from of that fact version.';
COMMENT ON COLUMN metric_lineage.input_metric_id IS 'When the input was a derived discrete quarter: its own derived_metrics.metric_id; else NULL.';
COMMENT ON COLUMN metric_lineage.load_id IS 'Load run during which the edge was recorded.';

CREATE VIEW derived_metrics_current AS
SELECT * FROM derived_metrics
QUALIFY row_number() OVER (PARTITION BY metric, cik, period_start, period_end, input_unit
                           ORDER BY known_from DESC, computed_at DESC, metric_id DESC) = 1;
COMMENT ON VIEW derived_metrics_current IS 'The latest version of each derived metric (grain: metric, cik, period_start, period_end, input_unit).';
COMMENT ON COLUMN derived_metrics_current.metric_id IS 'Id of the current version (see derived_metrics.metric_id).';
COMMENT ON COLUMN derived_metrics_current.metric IS 'Metric name.';
COMMENT ON COLUMN derived_metrics_current.cik IS 'Company (integer CIK).';
COMMENT ON COLUMN derived_metrics_current.fiscal_year IS 'Fiscal year of the period.';
COMMENT ON COLUMN derived_metrics_current.fiscal_period IS 'FY or Q1..Q4.';
COMMENT ON COLUMN derived_metrics_current.duration_class IS 'quarter or annual.';
COMMENT ON COLUMN derived_metrics_current.period_start IS 'First day of the period.';
COMMENT ON COLUMN derived_metrics_current.period_end IS 'Last day of the period.';
COMMENT ON COLUMN derived_metrics_current.value IS 'Metric value (fractions for margins and growth); NULL with null_reason when inputs do not line up.';
COMMENT ON COLUMN derived_metrics_current.unit IS 'Unit of value (currency or pure).';
COMMENT ON COLUMN derived_metrics_current.input_unit IS 'Unit shared by the inputs.';
COMMENT ON COLUMN derived_metrics_current.taxonomy IS 'Taxonomy family of the inputs.';
COMMENT ON COLUMN derived_metrics_current.derivation IS 'formula, or derived_q2/q3/q4.';
COMMENT ON COLUMN derived_metrics_current.formula IS 'Formula over standard concepts.';
COMMENT ON COLUMN derived_metrics_current.rule_version IS 'Rule version that computed it.';
COMMENT ON COLUMN derived_metrics_current.known_from IS 'UTC time from which this version was public.';
COMMENT ON COLUMN derived_metrics_current.null_reason IS 'Why value is NULL, else NULL.';
COMMENT ON COLUMN derived_metrics_current.flags IS 'Warnings that do not void the value.';
COMMENT ON COLUMN derived_metrics_current.version IS 'Version number (count of versions so far).';
COMMENT ON COLUMN derived_metrics_current.superseded_by_metric_id IS 'Always NULL here (current versions are not superseded).';
COMMENT ON COLUMN derived_metrics_current.superseded_at IS 'Always NULL here.';
COMMENT ON COLUMN derived_metrics_current.computed_at IS 'When the row was computed.';
COMMENT ON COLUMN derived_metrics_current.load_id IS 'Load run during which it was computed.';

CREATE MACRO derived_metrics_as_of(ts) AS TABLE
SELECT d.* FROM derived_metrics d
WHERE d.known_from <= CAST(ts AS TIMESTAMP)
QUALIFY row_number() OVER (PARTITION BY d.metric, d.cik, d.period_start, d.period_end, d.input_unit
                           ORDER BY d.known_from DESC, d.computed_at DESC, d.metric_id DESC) = 1;
COMMENT ON MACRO TABLE derived_metrics_as_of IS 'Derived metrics as public at ts (UTC): per (metric, cik, period, input unit) the latest version whose known_from <= ts. Mirrors facts_as_of.';

-- grain: (load_id, check_name): one run of one data-quality check.
CREATE TABLE check_results (
    load_id        VARCHAR NOT NULL,
    check_name     VARCHAR NOT NULL,
    offending_rows BIGINT NOT NULL,
    sample         JSON,
    checked_at     TIMESTAMP NOT NULL,
    PRIMARY KEY (load_id, check_name)
);
COMMENT ON TABLE check_results IS 'Results of the data-quality checks in warehouse/sql/checks/ (grain: load_id, check_name): how many rows each check flagged, over the companies whose facts that load changed, with a sample.';
COMMENT ON COLUMN check_results.load_id IS 'Load run after which the checks ran.';
COMMENT ON COLUMN check_results.check_name IS 'Check file name: balance_sheet_identity, gross_profit_identity, quarters_sum_to_year, ...';
COMMENT ON COLUMN check_results.offending_rows IS 'Number of rows the check returned (0 = passed).';
COMMENT ON COLUMN check_results.sample IS 'JSON array of up to 5 offending rows, largest discrepancy first.';
COMMENT ON COLUMN check_results.checked_at IS 'When the check ran (UTC).';
