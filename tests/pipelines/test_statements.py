"""Statements as presented: the income statement, balance sheet and cash-flow statement of four vendored
10-Ks come out in printed order with printed labels (golden file), and agree with a crude reader of the
table's printed text; values shown in parentheses are negative as shown, their facts keep XBRL's sign."""

from __future__ import annotations

import gzip
import html
import json
import re
from decimal import Decimal
from pathlib import Path

import pytest

from pipelines.inline_xbrl import parse_inline_xbrl
from pipelines.statements import find_statements

FIX = Path(__file__).resolve().parents[1] / "fixtures"
GOLDEN = json.loads((FIX / "statements" / "golden.json").read_text(encoding="utf-8"))
FILES = {p.name[:20]: p for p in (FIX / "filings" / "10-K_10-Q").glob("*.htm.gz")}


def _statements(accession: str):
    body = gzip.decompress(FILES[accession].read_bytes())
    return body, {s.statement: s for s in find_statements(parse_inline_xbrl(body, document=accession))}


def printed_labels(body: bytes, offset: int) -> list[str]:
    """A crude, independent reading of the printed table at ``offset``: each row's first cell with words."""
    text = body.decode("utf-8", "replace")
    table = text[offset:text.index("</table>", offset)]
    labels = []
    for row in re.findall(r"<tr.*?</tr>", table, re.S):
        for cell in re.findall(r"<td[^>]*?(?:/>|>.*?</td>)", row, re.S):
            words = " ".join(html.unescape(re.sub(r"<[^>]+>", "", cell)).replace("\u00a0", " ").split())
            if re.search(r"[A-Za-z]", words):
                labels.append(words)
                break
    return labels


@pytest.mark.parametrize("accession", sorted(GOLDEN))
def test_statements_in_printed_order_with_printed_labels(accession):
    body, found = _statements(accession)
    for kind in ("income", "balance", "cash_flow"):
        golden = GOLDEN[accession][kind]
        got = found[kind]
        assert got.title == golden["title"], (accession, kind)
        assert [[line.label, line.concept, line.depth] for line in got.lines] == golden["lines"], (accession, kind)
        # the printed table's rows, read crudely, end with the statement's lines in the same order
        # (the crude reader also sees the column headings above the first line)
        printed = printed_labels(body, got.byte_offset)
        labels = [line.label for line in got.lines]
        assert printed[len(printed) - len(labels):] == labels, (accession, kind)


def test_every_value_has_its_receipt_and_sign_as_shown():
    body, found = _statements("0000320193-25-000079")
    cash = {line.label: line for line in found["cash_flow"].lines}
    purchases = cash["Purchases of marketable securities"].values[0]
    # printed (24,407): a payment, positive in XBRL, negative as shown
    assert (purchases.value, purchases.fact_value, purchases.shown_negative) == \
        (Decimal("-24407000000"), Decimal("24407000000"), True)
    assert (purchases.period_start, purchases.period_end) == ("2024-09-29", "2025-09-27")
    income = {line.label: line for line in found["income"].lines}
    other = income["Other income/(expense), net"].values  # (321), 269, (565): sign="-" facts, shown negative
    assert [(v.value, v.fact_value) for v in other] == [
        (Decimal("-321000000"), Decimal("-321000000")), (Decimal("269000000"), Decimal("269000000")),
        (Decimal("-565000000"), Decimal("-565000000"))]
    total = income["Total net sales"].values[0]
    assert (total.element_id, total.value) == ("f-78", Decimal("416161000000"))
    assert body[total.byte_offset:].startswith(b"<ix:nonFraction") and b'id="f-78"' in body[total.byte_offset:][:400]
    assert [len(line.values) for line in found["income"].lines if line.concept] == [3] * 19  # FY2025, 2024, 2023


def test_every_inline_10k_10q_prints_its_main_statements():
    for accession, path in sorted(FILES.items()):
        body = gzip.decompress(path.read_bytes())
        if b"inlineXBRL" not in body[:20_000]:
            continue
        kinds = {s.statement for s in find_statements(parse_inline_xbrl(body, document=accession))}
        if accession == "0000080661-24-000007":  # Progressive's 10-K prints only the parent's condensed schedules
            assert kinds >= {"balance", "cash_flow"}
            continue
        assert kinds >= {"income", "balance", "cash_flow", "comprehensive"}, (accession, kinds)
