"""10-K/10-Q/8-K primary documents of every era parse into their items: the golden file, each era's trap, rejections."""

from __future__ import annotations

import gzip
import hashlib
import json
import re
from pathlib import Path

import pytest

from pipelines.documents import read_local_document
from pipelines.errors import RejectedDocument
from pipelines.filing_documents import MAX_FILING_BYTES, FilingDocument, parse_filing_document

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
FILINGS = FIXTURES / "filings"
GOLDEN = json.loads((FILINGS / "golden.json").read_text())
ROOT = Path(__file__).resolve().parents[2]
SHARED = next((p for p in (ROOT.parent / "shared" / "edgar-samples" / "filings",  # ../shared from /work/main
                           ROOT.parent.parent / "shared" / "edgar-samples" / "filings") if p.is_dir()), None)


def body(rel: str) -> bytes:
    return gzip.decompress((FILINGS / f"{rel}.gz").read_bytes())


def parse(rel: str, **kw) -> FilingDocument:
    return parse_filing_document(body(rel), document=rel, **kw)


def words(text: str, first: bool) -> str:
    w = text.split()
    return " ".join(w[:8] if first else w[-8:])


@pytest.mark.parametrize("rel", sorted(GOLDEN))
def test_every_vendored_filing_matches_the_golden_file(rel: str) -> None:
    want = GOLDEN[rel]
    doc = parse(rel)
    assert doc.sha256 == want["sha256"]
    assert (doc.form, doc.accession, doc.cik, doc.envelope, doc.has_table_of_contents, len(doc.exhibits)) == (
        want["form"], want["accession"], want["cik"], want["envelope"], want["table_of_contents"], want["exhibits"])
    got = [{"item": s.item, "heading": s.heading, "first": words(s.text, True), "last": words(s.text, False),
            **({"flags": list(s.flags)} if s.flags else {}),
            **({"covers": list(s.covers)} if len(s.covers) > 1 else {})} for s in doc.sections]
    assert got == want["items"]


def test_the_golden_file_holds_every_filing_of_the_shared_samples() -> None:
    if SHARED is None:
        pytest.skip("../shared/edgar-samples is absent (a fresh clone): the vendored copies are tested above")
    shared = {str(p.relative_to(SHARED)): hashlib.sha256(p.read_bytes()).hexdigest()
              for p in SHARED.rglob("*") if p.is_file()}
    assert shared == {rel: g["sha256"] for rel, g in GOLDEN.items()}


def test_every_section_points_at_its_heading_in_the_text_and_in_the_raw_bytes() -> None:
    for rel in GOLDEN:
        raw = body(rel)
        doc = parse_filing_document(raw, document=rel)
        for s in doc.sections:
            assert doc.text[s.text_start:].startswith(s.heading.split()[0]), (rel, s.item)
            assert re.match(rb"(?i)\s*(part|items?)\b", raw[s.byte_start:s.byte_start + 40]), (rel, s.item)
            assert s.text_start < s.text_end <= len(doc.text) and s.byte_start < s.byte_end <= len(raw)
            assert doc.text[s.body_start:s.body_start + len(s.text)] == s.text and s.text_start <= s.body_start
            assert 0 < s.confidence <= 1 and s.confidence_reason


def test_1990s_text_submission_reads_the_form_document_and_keeps_exhibits_apart() -> None:
    doc = parse("10-K_10-Q/0000950130-96-000896.txt")
    assert (doc.form, doc.form_family, doc.accession, doc.accession_source) == (
        "10-K405", "10-K", "0000950130-96-000896", "sec_header")
    assert (doc.cik, doc.cik_source, doc.company_name) == (64978, "sec_header", "MERCK & CO INC")
    assert str(doc.filed) == "1996-03-20" and str(doc.period) == "1995-12-31"
    assert [e.type for e in doc.exhibits][:3] == ["EX-3.(A)", "EX-3.(B)", "EX-10.(C)"] or doc.exhibits
    assert all(e.byte_start >= doc.text_byte_end for e in doc.exhibits)  # none of the exhibits is in the text
    assert [s.item for s in doc.sections] == [str(n) for n in range(1, 15)]  # no 1A before 2005
    # the heading printed over two lines ("... AND RELATED STOCKHOLDER" / "MATTERS.") is one heading
    assert doc.section("5").heading.endswith("STOCKHOLDER MATTERS.")
    assert "<PAGE>" not in doc.text and "<TABLE>" not in doc.text


def test_html_in_the_sgml_wrapper_and_a_quicklinks_index_at_the_end() -> None:
    doc = parse("10-K_10-Q/0001047469-03-008257_a2104280z10-k.htm")  # Intel FY2002: TOC first, QuickLinks last
    assert doc.envelope == "sgml_wrapper" and doc.file_name == "a2104280z10-k.htm"
    assert (doc.accession, doc.accession_source, doc.cik) == ("0001047469-03-008257", "file_name", None)
    assert doc.section("3").text.startswith("A. Litigation") and len(doc.section("3").text) < 20_000
    assert doc.section("4").flags == ("none",)
    assert doc.section("15").text_end < len(doc.text) - 500  # the QuickLinks list after it is no item's


def test_table_of_contents_trap_the_real_headings_win() -> None:
    doc = parse("10-K_10-Q/0000320193-24-000123_aapl-20240928.htm")
    first_mention = doc.text.index("Item 1A.")
    assert doc.has_table_of_contents and doc.section("1A").text_start > first_mention
    assert doc.section("1A").text.startswith("The Company’s business, reputation, results of operations")
    assert [s.item for s in doc.sections] == ["1", "1A", "1B", "1C", "2", "3", "4", "5", "6", "7", "7A", "8", "9",
                                             "9A", "9B", "9C", "10", "11", "12", "13", "14", "15", "16"]
    assert doc.section("6").flags == ("reserved",) and doc.section("1B").flags == ("none",)
    # page furniture out: "Apple Inc. | 2024 Form 10-K | 17" and bare page numbers
    assert not re.search(r"(?m)^Apple Inc\. \| 2024 Form 10-K \| \d+$", doc.text)
    assert not re.search(r"(?m)^\d{1,3}$", doc.text)


def test_inline_xbrl_cover_gives_the_company_and_the_form() -> None:
    doc = parse("10-K_10-Q/unknown-accn_wfc-10-k-2025-02-25.html")
    assert (doc.envelope, doc.form, doc.cik, doc.cik_source, doc.accession) == (
        "inline_xbrl", "10-K", 72971, "inline_xbrl", None)
    assert "contextRef" not in doc.text and "xbrli" not in doc.text  # the hidden ix:header is no text


def test_items_incorporated_by_reference_are_there_and_flagged() -> None:
    target = parse("10-K_10-Q/0001047469-03-013199_a2105670z10-k.htm")  # Target FY2002: items in the annual report
    assert "incorporated_by_reference" in target.section("7").flags
    assert target.section("7").text.startswith("Management's Discussion and Analysis, Pages 17-23")
    wfc = parse("10-K_10-Q/0000950134-09-003967_f51597e10vk.htm")  # "incorporated into this report by reference"
    assert all("incorporated_by_reference" in wfc.section(i).flags for i in ("1A", "3", "6", "7", "7A", "8"))
    assert wfc.section("1B").flags == ("not_applicable",)


def test_both_parts_of_a_10q() -> None:
    doc = parse("10-K_10-Q/0000320193-25-000073_aapl-20250628.htm")
    assert [s.item for s in doc.sections] == ["I-1", "I-2", "I-3", "I-4", "II-1", "II-1A", "II-2", "II-3", "II-4",
                                             "II-5", "II-6"]
    assert doc.section("I-1").heading == "Item 1. Financial Statements"
    assert doc.section("II-1").heading == "Item 1. Legal Proceedings" and doc.section("II-1").part == "II"
    old = parse("10-K_10-Q/0000912057-00-023442.txt")  # Apple 2000: no Item 4 in Part I yet; Part II 1, 4, 6
    assert [s.item for s in old.sections] == ["I-1", "I-2", "I-3", "II-1", "II-4", "II-6"]


def test_8k_items_old_and_new_numbering() -> None:
    old = parse("8-K/0000912057-00-002128.txt")
    assert [(s.item, s.heading) for s in old.sections] == [
        ("5", "Item 5.     OTHER EVENTS."),
        ("7", "Item 7.     FINANCIAL STATEMENTS, PRO FORMA FINANCIAL INFORMATION AND EXHIBITS.")]
    assert [s.item for s in parse("8-K/0000891020-98-001352.txt").sections] == ["2", "7"]
    new = parse("8-K/0001193125-14-242424_d740679d8k.htm")
    assert [s.item for s in new.sections] == ["2.02", "8.01", "9.01"]
    assert not new.section("2.02").text.endswith("Other Events")  # the "Section 8" line between is no item's
    apple = parse("8-K/0000320193-24-000005_aapl-20240201.htm")  # "shall not be deemed incorporated by reference"
    assert "incorporated_by_reference" not in apple.section("2.02").flags


def test_items_printed_as_one_say_so() -> None:
    doc = parse("10-K_10-Q/0001193125-09-041008_d10k.htm")
    s = doc.section("12")
    assert s is doc.section("10") and s.covers == ("10", "11", "12", "13")
    assert s.heading.startswith("ITEMS 10, 11, 12 and 13.")


def test_an_item_the_document_lacks_is_absent() -> None:
    doc = parse("10-K_10-Q/0000950130-96-000896.txt")
    assert doc.section("1A") is None and doc.section("15") is None


def test_expected_company_fills_in_or_refuses() -> None:
    doc = parse("10-K_10-Q/0001193125-10-071652_d10k.htm", expected_cik=104169)
    assert (doc.cik, doc.cik_source) == (104169, "expected")
    with pytest.raises(RejectedDocument, match="CIK 320193's, not CIK 104169's"):
        parse("8-K/0000320193-24-000005_aapl-20240201.htm", expected_cik=104169)


@pytest.mark.parametrize("make, reason", [
    (lambda: body("8-K/0000320193-24-000005_aapl-20240201.htm")[:20_000], "truncated"),
    (lambda: body("10-K_10-Q/0001193125-10-071652_d10k.htm")[:100_000], "truncated"),
    (lambda: body("10-K_10-Q/0000950130-96-000896.txt")[:150_000], "truncated"),
    (lambda: b"<DOCUMENT>\n<TYPE>10-K\n<TEXT>\n" + b"x" * (MAX_FILING_BYTES + 1), "cap of a filing document"),
    (lambda: re.search(rb"<DOCUMENT>\n<TYPE>EX-99.*?</DOCUMENT>", body("8-K/0000912057-00-002128.txt"), re.S)
     .group(0), "an exhibit (EX-99"),
    (lambda: (FIXTURES / "form4" / "0000704051-14-000037.txt").read_bytes(), "full submission of form 4"),
    (lambda: (FIXTURES / "malformed" / "cf_throttle_page.json").read_bytes(), "throttle page"),
    (lambda: b"<html><body><p>Quarterly dividend declared</p></body></html>", "names no form"),
])
def test_bad_input_is_rejected_by_name(make, reason: str) -> None:
    with pytest.raises(RejectedDocument, match=re.escape(reason)) as exc:
        parse_filing_document(make(), document="bad-one.htm")
    assert exc.value.document == "bad-one.htm"


def test_a_local_gz_file_reads_through_the_document_reader() -> None:
    d = read_local_document(FILINGS / "8-K" / "0000912057-00-002128.txt.gz")
    doc = parse_filing_document(d.body, document=d.uri)
    assert doc.accession == "0000912057-00-002128" and doc.sha256 == d.sha256
