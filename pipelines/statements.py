"""A filing's financial statements as presented: found among the document's HTML tables by the facts
they carry, each line with the company's label, its concept, its depth (indent), every value shown.

Which table is which statement is told by the concepts in it (a balance sheet carries Assets and
LiabilitiesAndStockholdersEquity at instants, a cash-flow statement the three net-cash subtotals, ...)
and by the title printed above it; the highest score wins, the first table of equals. A line's depth
is the rank of its indent among the table's distinct indents (0 = flush left). A value is shown
negative when the printer put it in parentheses; ``value`` is the number as shown (negative in
parentheses), ``fact_value`` the fact's own value (XBRL's sign: a payment is positive).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from decimal import Decimal

from pipelines.html_tables import NBSP_PT, Row, Table
from pipelines.inline_xbrl import InlineFact, InlineXbrlDocument

STATEMENTS = ("income", "balance", "cash_flow", "equity", "comprehensive")

_KEYS = {
    "income": {
        "Revenues", "RevenueFromContractWithCustomerExcludingAssessedTax", "CostOfRevenue",
        "CostOfGoodsAndServicesSold", "GrossProfit", "OperatingExpenses", "OperatingIncomeLoss",
        "IncomeTaxExpenseBenefit", "NetIncomeLoss", "ProfitLoss", "EarningsPerShareBasic", "EarningsPerShareDiluted",
        "WeightedAverageNumberOfSharesOutstandingBasic", "WeightedAverageNumberOfDilutedSharesOutstanding",
        "ResearchAndDevelopmentExpense", "SellingGeneralAndAdministrativeExpense", "NonoperatingIncomeExpense",
        "IncomeLossFromContinuingOperationsBeforeIncomeTaxesExtraordinaryItemsNoncontrollingInterest",
        "IncomeLossFromContinuingOperationsBeforeIncomeTaxesMinorityInterestAndIncomeLossFromEquityMethodInvestments",
        "CostsAndExpenses", "InterestExpense", "NetIncomeLossAvailableToCommonStockholdersBasic",
        "EarningsPerShareBasicAndDiluted",
    },
    "balance": {
        "Assets", "AssetsCurrent", "Liabilities", "LiabilitiesCurrent", "LiabilitiesAndStockholdersEquity",
        "StockholdersEquity", "CashAndCashEquivalentsAtCarryingValue", "AccountsReceivableNetCurrent",
        "PropertyPlantAndEquipmentNet", "Goodwill", "AccountsPayableCurrent", "RetainedEarningsAccumulatedDeficit",
        "CommonStockSharesAuthorized", "CommonStockSharesIssued", "InventoryNet", "LongTermDebtNoncurrent",
        "StockholdersEquityIncludingPortionAttributableToNoncontrollingInterest",
    },
    "cash_flow": {
        "NetCashProvidedByUsedInOperatingActivities", "NetCashProvidedByUsedInInvestingActivities",
        "NetCashProvidedByUsedInFinancingActivities",
        "CashCashEquivalentsRestrictedCashAndRestrictedCashEquivalentsPeriodIncreaseDecreaseIncludingExchangeRateEffect",
        "CashCashEquivalentsRestrictedCashAndRestrictedCashEquivalents", "DepreciationDepletionAndAmortization",
        "ShareBasedCompensation", "PaymentsToAcquirePropertyPlantAndEquipment", "IncomeTaxesPaidNet",
        "IncreaseDecreaseInAccountsReceivable", "IncreaseDecreaseInInventories", "PaymentsForRepurchaseOfCommonStock",
        "PaymentsOfDividends", "NetCashProvidedByUsedInOperatingActivitiesContinuingOperations",
        "CashAndCashEquivalentsPeriodIncreaseDecrease",
    },
    "comprehensive": {
        "ComprehensiveIncomeNetOfTax", "OtherComprehensiveIncomeLossNetOfTax",
        "OtherComprehensiveIncomeLossForeignCurrencyTransactionAndTranslationAdjustmentNetOfTax",
        "OtherComprehensiveIncomeLossCashFlowHedgeGainLossAfterReclassificationAndTax",
        "OtherComprehensiveIncomeUnrealizedHoldingGainLossOnSecuritiesArisingDuringPeriodNetOfTax",
        "OtherComprehensiveIncomeLossAvailableForSaleSecuritiesAdjustmentNetOfTax",
        "ComprehensiveIncomeNetOfTaxIncludingPortionAttributableToNoncontrollingInterest",
        "OtherComprehensiveIncomeLossNetOfTaxPortionAttributableToParent",
    },
    "equity": {
        "StockIssuedDuringPeriodValueShareBasedCompensation", "StockRepurchasedAndRetiredDuringPeriodValue",
        "StockRepurchasedDuringPeriodValue", "DividendsCommonStock", "DividendsCommonStockCash",
        "AdjustmentsToAdditionalPaidInCapitalSharebasedCompensationRequisiteServicePeriodRecognitionValue",
        "StockholdersEquity", "CommonStockDividendsPerShareDeclared", "SharesOutstanding",
        "StockIssuedDuringPeriodValueEmployeeStockPurchasePlan", "Dividends",
        "AdjustmentsRelatedToTaxWithholdingForShareBasedCompensation",
        "StockholdersEquityIncludingPortionAttributableToNoncontrollingInterest",
    },
}
_TITLES = {
    "income": re.compile(r"statements? of (consolidated )?(operations|income|earnings)(?! and comprehensive)"
                         r"|income statements?", re.I),
    "balance": re.compile(r"balance sheets?|statements? of financial (position|condition)", re.I),
    "cash_flow": re.compile(r"statements? of cash flows?", re.I),
    "equity": re.compile(r"(shareholders|stockholders|share ?owners)['’`]? equity|changes in (total )?equity", re.I),
    "comprehensive": re.compile(r"comprehensive (income|loss)", re.I),
}
_TITLE = re.compile(r"((condensed |consolidated )+(balance sheets?|statements? of [^.:;]{0,80}?"
                    r"(operations|income|earnings|position|condition|flows?|equity|\(loss\)|loss)))", re.I)
_NOT = {"income": "comprehensive", "comprehensive": None, "balance": None, "cash_flow": None, "equity": None}


@dataclass(frozen=True)
class StatementValue:
    period_start: str | None
    period_end: str | None
    value: Decimal | None  # as shown: negative when printed in parentheses
    fact_value: Decimal | None  # the fact's value (XBRL sign)
    shown_negative: bool
    dimensions: tuple[tuple[str, str], ...]
    element_id: str | None
    byte_offset: int
    concept: str


@dataclass(frozen=True)
class StatementLine:
    label: str
    concept: str | None  # None for a heading line with no values
    depth: int
    indent: float  # the printed indent in points
    values: tuple[StatementValue, ...]


@dataclass(frozen=True)
class Statement:
    statement: str  # one of STATEMENTS
    title: str | None  # as printed above the table
    byte_offset: int  # the table's start tag
    score: int
    lines: tuple[StatementLine, ...]


def _local(concept: str) -> str:
    return concept.rpartition(":")[2]


def _shown_negative(row: Row, label_cell: int, offset: int) -> bool:
    """True when a "(" stands between the previous value (or the label) and this value."""
    before: list[str] = []
    for cell, kind, payload in row.tokens:
        if kind == "fact":
            if payload == offset:
                return "(" in "".join(before)
            before = []
        elif cell > label_cell:
            before.append(str(payload))
    return False


_COLUMN_HEADING = re.compile(r"\b(19|20)\d\d\b|ended|as of|in millions|in thousands|except|unaudited", re.I)


def _lines(table: Table, facts: dict[int, InlineFact]) -> list[StatementLine]:
    raw: list[tuple[str, str | None, float, tuple[StatementValue, ...]]] = []
    started = False
    for row in table.rows:
        # the label: the first cell with words (a cell may also carry facts inside its text: a par value,
        # shares authorized); the line's values are the facts of the cells after it (the columns)
        label_at = next((i for i, c in enumerate(row.cells) if re.search(r"[A-Za-z]", c.text)), None)
        offsets = [o for i, c in enumerate(row.cells) if label_at is None or i > label_at
                   for o in c.facts if o in facts]
        texts = [c for c in row.cells if c.text]
        if not offsets and not started and (label_at is None or len(texts) != 1
                                             or _COLUMN_HEADING.search(texts[0].text)):
            continue  # the column headings above the first line
        if offsets:
            started = True
        if label_at is None and not offsets:
            continue
        cell = row.cells[label_at] if label_at is not None else None
        label = cell.text if cell is not None else ""
        indent = (cell.indent + cell.leading_spaces * NBSP_PT) if cell is not None else 0.0
        values = []
        for o in offsets:
            f = facts[o]
            negative = _shown_negative(row, label_at if label_at is not None else -1, o)
            shown = None if f.value is None else (-abs(f.value) if negative else abs(f.value))
            values.append(StatementValue(f.period_start, f.period_end, shown, f.value, negative, f.dimensions,
                                         f.element_id, o, f.concept))
        concept = Counter(v.concept for v in values).most_common(1)[0][0] if values else None
        raw.append((label, concept, indent, tuple(values)))
    indents = sorted({round(i * 2) / 2 for _, _, i, _ in raw})
    rank = {i: n for n, i in enumerate(indents)}
    return [StatementLine(label, concept, rank[round(indent * 2) / 2], indent, values)
            for label, concept, indent, values in raw]


def _title(table: Table) -> str | None:
    found = _TITLE.findall(table.preceding_text)
    return " ".join(found[-1][0].split())[:160] if found else None


def _score(kind: str, table: Table, concepts: set[str], title: str | None, instants: float) -> int:
    score = len(concepts & _KEYS[kind])
    if kind == "balance" and instants < 0.7:
        return 0
    if kind in ("income", "cash_flow", "comprehensive") and instants > 0.3:
        return 0
    if kind == "income" and concepts & {"ComprehensiveIncomeNetOfTax", "NetCashProvidedByUsedInOperatingActivities"}:
        return 0
    if kind == "comprehensive" and "ComprehensiveIncomeNetOfTax" not in concepts and \
            "ComprehensiveIncomeNetOfTaxIncludingPortionAttributableToNoncontrollingInterest" not in concepts:
        return 0
    if kind == "equity" and ("StockholdersEquity" not in concepts and
                             "StockholdersEquityIncludingPortionAttributableToNoncontrollingInterest" not in concepts
                             or instants > 0.8 or "NetCashProvidedByUsedInOperatingActivities" in concepts):
        return 0
    if title and _TITLES[kind].search(title):
        score += 5
    return score


def find_statements(doc: InlineXbrlDocument) -> list[Statement]:
    """The filing's statements (at most one of each kind), in the order the document prints them."""
    best: dict[str, tuple[int, int, Table, str | None]] = {}
    for n, table in enumerate(doc.tables):
        facts = [doc.element_facts[o] for r in table.rows for c in r.cells for o in c.facts if o in doc.element_facts]
        if len(facts) < 6:
            continue
        concepts = {_local(f.concept) for f in facts}
        instants = sum(f.period_type == "instant" for f in facts) / len(facts)
        title = _title(table)
        for kind in STATEMENTS:
            score = _score(kind, table, concepts, title, instants)
            if score >= 3 and (kind not in best or score > best[kind][0]):
                best[kind] = (score, n, table, title)
    out = [Statement(kind, title, table.byte_offset, score, tuple(_lines(table, doc.element_facts)))
           for kind, (score, _, table, title) in best.items()]
    return sorted(out, key=lambda s: s.byte_offset)
