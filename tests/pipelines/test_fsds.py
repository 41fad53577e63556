"""SEC's Financial Statement Data Sets (issue 24 item 5): the two vendored quarterly zips as one document
per filing, each filing's values and its statements in the order pre.txt presents them.

The golden order is pre.txt's own, read here independently of pipelines/fsds.py from the raw TSV
(csv module): none of the 2009-2010 filings in the zips is among the printed documents in
../shared/edgar-samples/filings/ (their WFC, AXP and WMT documents are 10-Ks of other quarters)."""

from __future__ import annotations

import csv
import io
import zipfile
from collections import defaultdict
from decimal import Decimal

import pytest

from helpers import FIXTURES
from pipelines.archive import count_members, documents
from pipelines.detect import detect_kind
from pipelines.errors import RejectedDocument
from pipelines.fsds import filing_bundles, parse_fsds_filing

ZIPS = [FIXTURES / "fsds/2009q3.zip", FIXTURES / "fsds/2010q2.zip"]
APPLE_2009_Q3 = "0001193125-09-153165"  # Apple's 10-Q for the quarter ended 2009-06-27, in 2009q3.zip


def _tsv(path, member):
    """Rows of a member as dicts, read with csv (no quoting in FSDS files)."""
    with zipfile.ZipFile(path) as zf, zf.open(member) as raw:
        return list(csv.DictReader(io.TextIOWrapper(raw, encoding="utf-8"), delimiter="\t", quoting=csv.QUOTE_NONE))


@pytest.fixture(scope="module")
def parsed():
    """zip name -> (path, accession -> FsdsFiling), every filing of both zips."""
    out = {}
    for path in ZIPS:
        filings = {}
        for doc in documents([path]):
            assert not isinstance(doc, RejectedDocument), doc
            assert detect_kind(doc.body, document=doc.uri) == "fsds_filing"
            filings[doc.uri.rpartition(":")[2]] = parse_fsds_filing(doc.body, document=doc.uri)
        out[path.name] = (path, filings)
    return out


@pytest.fixture(params=[p.name for p in ZIPS])
def quarter(parsed, request):
    return parsed[request.param]


def test_every_filing_is_one_document_with_all_its_values(quarter):
    path, filings = quarter
    sub, num = _tsv(path, "sub.txt"), _tsv(path, "num.txt")
    assert list(filings) == [r["adsh"] for r in sub] and count_members([path]) == len(sub)  # 435 / 522
    per_filing = defaultdict(int)
    for r in num:
        per_filing[r["adsh"]] += 1
    assert {a: len(f.facts) for a, f in filings.items() if f.facts} == dict(per_filing)
    assert sum(len(f.facts) for f in filings.values()) == len(num)  # 126,650 / 136,044: every row, once
    assert {f.form for f in filings.values()} <= {"10-K", "10-Q", "10-K/A", "10-Q/A", "10-KT", "10-QT", "8-K", "20-F",
                                                  "40-F", "6-K", "10-KT/A", "20-F/A", "40-F/A", "6-K/A", "8-K/A", "S-1",
                                                  "S-4", "S-1/A", "S-4/A", "10-12B", "10-12B/A", "POS AM", "N-CSR"}


def test_each_statement_is_one_report_of_pre_in_its_line_order(quarter):
    path, filings = quarter
    reports = defaultdict(list)  # (adsh, stmt, report) -> [(line, label, tag)] from the raw TSV
    for r in _tsv(path, "pre.txt"):
        if r["inpth"] == "0":
            reports[(r["adsh"], r["stmt"], r["report"])].append((int(r["line"]), r["plabel"], r["tag"]))
    printed = defaultdict(list)
    for (adsh, stmt, _), rows in reports.items():
        printed[(adsh, stmt)].append([(label, tag) for _, label, tag in sorted(rows)])
    kinds = {"income": "IS", "balance": "BS", "cash_flow": "CF", "equity": "EQ", "comprehensive": "CI"}
    checked = 0
    for adsh, f in filings.items():
        for s in f.statements:
            lines = [(line.label, line.concept.partition(":")[2]) for line in s.lines]
            assert lines in printed[(adsh, kinds[s.statement])], (adsh, s.statement)
            checked += 1
    assert checked > 1000  # 1,553 statements in 2009q3, 1,958 in 2010q2


def test_apple_2009_income_statement_as_pre_presents_it(parsed):
    _, filings = parsed["2009q3.zip"]
    apple = filings[APPLE_2009_Q3]
    assert (apple.cik, apple.form, apple.fiscal_year, apple.fiscal_period) == (320193, "10-Q", 2009, "Q3")
    income = {s.statement: s for s in apple.statements}["income"]
    assert [line.label for line in income.lines] == [
        "Net sales", "Cost of sales", "Gross margin", "Research and development",
        "Selling, general, and administrative", "Total operating expenses", "Operating income",
        "Other income and expense", "Income before provision for income taxes", "Provision for income taxes",
        "Net income", "Basic", "Diluted", "Basic", "Diluted"]
    sales = income.lines[0]
    assert sales.concept == "us-gaap:SalesRevenueNet"
    # the quarter and the nine months of 2009 and 2008 (FSDS rounds dates to month ends)
    assert [(v.period_start, v.period_end, v.value) for v in sales.values] == [
        ("2009-04-01", "2009-06-30", Decimal("8337000000")), ("2008-10-01", "2009-06-30", Decimal("26667000000")),
        ("2008-04-01", "2008-06-30", Decimal("7464000000")), ("2007-10-01", "2008-06-30", Decimal("24584000000"))]
    cash = {s.statement: s for s in apple.statements}["cash_flow"]
    # a balance prints twice on the cash-flow statement: at the periods' starts, then at their ends;
    # the statement's columns are the nine months (net income's quarter is the income statement's)
    assert [(v.period_end, v.value) for v in cash.lines[0].values] == [
        ("2008-09-30", Decimal("11875000000")), ("2007-09-30", Decimal("9352000000"))]
    assert [(v.period_end, v.value) for v in cash.lines[-2].values] == [
        ("2009-06-30", Decimal("5605000000")), ("2008-06-30", Decimal("9373000000"))]
    assert [v.period_start for v in cash.lines[1].values] == ["2008-10-01", "2007-10-01"]
    # Apple's own concept keeps its prefix from the instance name (aapl-20090627.xml)
    balance = {s.statement: s for s in apple.statements}["balance"]
    assert "aapl:PropertyPlantAndEquipmentAndCapitalizedSoftwareNet" in {line.concept for line in balance.lines}


def test_negating_lines_are_shown_negated(quarter):
    path, filings = quarter
    kinds = {"income": "IS", "balance": "BS", "cash_flow": "CF", "equity": "EQ", "comprehensive": "CI"}
    flags = defaultdict(set)  # (adsh, stmt, label, tag) -> the negating flags pre gives such a line
    for r in _tsv(path, "pre.txt"):
        if r["inpth"] == "0":
            flags[(r["adsh"], r["stmt"], r["plabel"], r["tag"])].add(r["negating"])
    seen = 0
    for adsh, f in filings.items():
        for s in f.statements:
            for line in s.lines:
                given = flags[(adsh, kinds[s.statement], line.label, line.concept.partition(":")[2])]
                if len(given) != 1:
                    continue  # the same label and tag in two reports of the statement, negated in one
                (flag,) = given
                for v in line.values:
                    assert v.value == (-v.fact_value if flag == "1" and v.fact_value is not None else v.fact_value)
                    seen += flag == "1"
    assert seen > 100


def test_grouping_does_not_change_the_documents():
    path = ZIPS[0]
    with zipfile.ZipFile(path) as zf:
        small = list(filing_bundles(path, zf, group=37))
        whole = list(filing_bundles(path, zf))
    assert small == whole and len(whole) == 435


def _rezip(src, dst, *, drop=(), change=None):
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            if info.filename in drop:
                continue
            data = zin.read(info)
            zout.writestr(info.filename, change(info.filename, data) if change else data)
    return dst


def test_a_truncated_zip_or_a_missing_member_is_rejected_by_name(tmp_path):
    truncated = tmp_path / "2009q3.zip"
    truncated.write_bytes(ZIPS[0].read_bytes()[:2_000_000])
    (only,) = list(documents([truncated]))
    assert isinstance(only, RejectedDocument) and only.document == str(truncated)
    assert "not a readable zip archive" in only.reason
    (tmp_path / "no_pre").mkdir()
    no_pre = _rezip(ZIPS[0], tmp_path / "no_pre" / "2009q3.zip", drop={"pre.txt"})
    (only,) = list(documents([no_pre]))
    assert isinstance(only, RejectedDocument) and only.document == str(no_pre)
    assert "a Financial Statement Data Sets zip without pre.txt" in only.reason


def test_a_corrupt_member_is_rejected_by_its_name(tmp_path):
    data = bytearray(ZIPS[0].read_bytes())
    with zipfile.ZipFile(ZIPS[0]) as zf:
        info = zf.getinfo("num.txt")
    start = info.header_offset + 30 + len(info.filename.encode()) + len(info.extra)
    data[start + info.compress_size // 2] ^= 0xFF  # one byte of num.txt's compressed data
    bad = tmp_path / "2009q3.zip"
    bad.write_bytes(bytes(data))
    out = list(documents([bad]))
    assert len(out) == 1 and isinstance(out[0], RejectedDocument)
    assert out[0].document == f"{bad.name}:num.txt" and "0 filings of 2009q3.zip read before it" in out[0].reason


def test_a_bad_row_rejects_its_filing_only(tmp_path):
    def cut_one_row(name, data):
        if name != "num.txt":
            return data
        lines = data.split(b"\n")
        i = next(n for n, line in enumerate(lines) if line.startswith(APPLE_2009_Q3.encode()))
        lines[i] = lines[i].rsplit(b"\t", 3)[0]  # three fields short
        return b"\n".join(lines)

    path = _rezip(ZIPS[0], tmp_path / "2009q3.zip", change=cut_one_row)
    docs = list(documents([path]))
    assert not any(isinstance(d, RejectedDocument) for d in docs) and len(docs) == 435
    failed = []
    for d in docs:
        try:
            parse_fsds_filing(d.body, document=d.uri)
        except RejectedDocument as exc:
            failed.append(exc)
    assert [e.document for e in failed] == [f"2009q3.zip:{APPLE_2009_Q3}"]
    assert "2009q3.zip:num.txt row at byte" in failed[0].reason and "has 7 fields, the header 10" in failed[0].reason


def test_rows_of_a_filing_sub_does_not_list_are_named_not_dropped(tmp_path):
    def drop_apple(name, data):
        if name != "sub.txt":
            return data
        return b"\n".join(line for line in data.split(b"\n") if not line.startswith(APPLE_2009_Q3.encode()))

    path = _rezip(ZIPS[0], tmp_path / "2009q3.zip", change=drop_apple)
    out = list(documents([path]))
    rejected = {d.document: d.reason for d in out if isinstance(d, RejectedDocument)}
    assert len(out) - len(rejected) == 434
    assert rejected == {"2009q3.zip:pre.txt": f"75 rows of 1 accessions sub.txt does not list (first '{APPLE_2009_Q3}'): not loaded",
                        "2009q3.zip:num.txt": f"176 rows of 1 accessions sub.txt does not list (first '{APPLE_2009_Q3}'): not loaded"}
