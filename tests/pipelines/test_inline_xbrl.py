"""Inline-XBRL facts: every numeric fact of every real inline filing agrees with an independent reader
(stdlib ElementTree, written here), exact values, places, duplicates, continuations, safety."""

from __future__ import annotations

import gzip
import html
import re
import xml.etree.ElementTree as ET
from decimal import Decimal
from pathlib import Path

import pytest
from ixbrl_reference import IX, disagreements, reference_numeric_facts

from pipelines.errors import RejectedDocument
from pipelines.inline_xbrl import numeric_text, parse_inline_xbrl, text_value

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "filings"
SHARED = Path(__file__).resolve().parents[3] / "shared" / "edgar-samples" / "filings"
VENDORED = sorted(p for p in FIX.glob("*/*.htm.gz")  # the inline-XBRL ones (the folder has every era's filings)
                  if b"inlineXBRL" in gzip.decompress(p.read_bytes())[:20_000])
SHARED_INLINE = sorted(p for p in SHARED.glob("**/*.htm*") if b"inlineXBRL" in p.read_bytes()[:20_000]) \
    if SHARED.exists() else []

def _body(path: Path) -> bytes:
    return gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()


def _check_against_reference(path: Path) -> None:
    body = _body(path)
    doc = parse_inline_xbrl(body, document=str(path))
    reference = reference_numeric_facts(body)
    assert reference or "8-K" in str(path), path.name  # the 8-Ks carry cover-page text facts only
    stored = [(f.concept, f.period_start, f.period_end, f.dimensions, f.unit, f.value, f.occurrences, f.inconsistent)
              for f in doc.facts if f.kind == "numeric"]
    assert disagreements(reference, stored) == [], path.name
    assert sum(f.occurrences for f in doc.facts if f.kind == "text") == \
        sum(1 for _ in ET.fromstring(body).iter(IX + "nonNumeric")), path.name
    assert not [f for f in doc.facts if f.problem], path.name
    # the place: the element's start tag at the byte offset, carrying the id
    for f in doc.facts:
        tag = body[f.byte_offset:f.byte_offset + 200]
        assert re.match(rb"<ix:non(Fraction|Numeric)\b", tag), (path.name, f)
        if f.element_id:
            assert f'id="{f.element_id}"'.encode() in body[f.byte_offset:body.index(b">", f.byte_offset)]


@pytest.mark.parametrize("path", VENDORED, ids=lambda p: p.name)
def test_every_numeric_fact_agrees_with_an_independent_reader(path: Path) -> None:
    _check_against_reference(path)


@pytest.mark.shared
@pytest.mark.parametrize("path", SHARED_INLINE, ids=lambda p: p.name)
def test_every_shared_inline_filing_agrees_with_an_independent_reader(path: Path) -> None:
    _check_against_reference(path)


def test_vendored_set_covers_the_shared_inline_filings_with_accessions() -> None:
    assert len(VENDORED) == 13
    if SHARED_INLINE:
        named = {p.name for p in SHARED_INLINE if re.match(r"\d{10}-\d{2}-\d{6}", p.name)}
        assert named == {p.name[:-3] for p in VENDORED}


def _apple_10k():
    path = FIX / "10-K_10-Q" / "0000320193-25-000079_aapl-20250927.htm.gz"
    return parse_inline_xbrl(_body(path), document=str(path))


def test_exact_values_scale_sign_nil_and_dimensions() -> None:
    doc = _apple_10k()
    assert (doc.accession, doc.cik, doc.form, doc.period_end) == ("0000320193-25-000079", 320193, "10-K", "2025-09-27")
    fy = [f for f in doc.facts if f.period_start == "2024-09-29" and f.period_end == "2025-09-27"]
    revenue = {f.dimensions: f for f in fy if f.concept == "us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax"}
    total = revenue[()]
    assert total.value == Decimal("416161000000") and str(total.value) == "416161000000"
    assert (total.unit, total.decimals, total.scale, total.occurrences) == ("USD", "-6", 6, 4)
    assert revenue[(("srt:ProductOrServiceAxis", "aapl:IPhoneMember"),)].value == Decimal("209586000000")
    segments = [f for d, f in revenue.items() if dict(d).get("us-gaap:StatementBusinessSegmentsAxis")]
    assert sum(f.value for f in segments) == total.value  # Americas + Europe + China + Japan + Rest of Asia
    eps = next(f for f in fy if f.concept == "us-gaap:EarningsPerShareDiluted" and not f.dimensions)
    assert (eps.value, eps.unit) == (Decimal("7.46"), "USD/shares")
    other = next(f for f in fy if f.concept == "us-gaap:NonoperatingIncomeExpense" and not f.dimensions)
    assert (other.displayed, other.sign, other.value) == ("321", "-", Decimal("-321000000"))
    nil = [f for f in doc.facts if f.concept == "us-gaap:CommitmentsAndContingencies"]
    assert nil and all(f.nil and f.value is None for f in nil)
    vendors = next(f for f in doc.facts if f.concept == "aapl:NumberOfSignificantVendors")
    assert (vendors.displayed, vendors.value) == ("two", Decimal(2))


def test_text_facts_formats_applied() -> None:
    doc = _apple_10k()
    text = {f.concept: f.text for f in doc.facts if f.kind == "text" and not f.dimensions}
    assert text["dei:DocumentPeriodEndDate"] == "2025-09-27"
    assert text["dei:CurrentFiscalYearEndDate"] == "--09-27"
    assert text["dei:EntityIncorporationStateCountryCode"] == "CA"
    assert text["dei:DocumentAnnualReport"] == "true"
    assert text["dei:EntityRegistrantName"] == "Apple Inc."


def test_continuations_are_followed() -> None:
    body = _body(FIX / "10-K_10-Q" / "0000320193-25-000079_aapl-20250927.htm.gz")
    doc = parse_inline_xbrl(body, document="aapl")
    m = re.search(rb'<ix:nonNumeric[^>]*continuedAt="([^"]+)"[^>]*>', body)
    start = m.start()
    fact = next(f for f in doc.facts if f.byte_offset == start)
    cont = re.search(rb'<ix:continuation[^>]*id="' + re.escape(m.group(1)) + rb'"[^>]*>', body)
    tail_words = html.unescape(re.sub(rb"<[^>]+>", b" ", body[cont.end():cont.end() + 3000]).decode()).split()
    assert " ".join(tail_words[:6]) in " ".join(fact.text.split())


def test_duplicates_counted_and_inconsistent_ones_flagged() -> None:
    body = _body(FIX / "10-K_10-Q" / "0000320193-25-000079_aapl-20250927.htm.gz")
    # EPS diluted FY2025 appears twice with 7.46; change the second copy's displayed value
    first = body.index(b'name="us-gaap:EarningsPerShareDiluted"')
    tag = body.rindex(b"<ix:nonFraction", 0, first)
    context = re.search(rb'contextRef="([^"]+)"', body[tag:first + 60]).group(1)
    copies = [m.start() for m in re.finditer(rb'<ix:nonFraction[^>]*contextRef="' + context
                                            + rb'"[^>]*name="us-gaap:EarningsPerShareDiluted"[^>]*>7\.46<', body)]
    assert len(copies) == 2
    end = body.index(b">7.46<", copies[1]) + 1
    changed = body[:end] + b"7.47" + body[end + 4:]
    facts = [f for f in parse_inline_xbrl(changed, document="x").facts
             if f.concept == "us-gaap:EarningsPerShareDiluted" and f.context_id == context.decode()]
    assert sorted((f.value, f.occurrences, f.inconsistent) for f in facts) == \
        [(Decimal("7.46"), 1, True), (Decimal("7.47"), 1, True)]
    same = [f for f in parse_inline_xbrl(body, document="x").facts
            if f.concept == "us-gaap:EarningsPerShareDiluted" and f.context_id == context.decode()]
    assert [(f.value, f.occurrences, f.inconsistent) for f in same] == [(Decimal("7.46"), 2, False)]


def test_consistent_duplicates_of_different_precision_are_one_fact_the_most_precise() -> None:
    path = FIX / "10-K_10-Q" / "0001045810-24-000029_nvda-20240128.htm.gz"
    body = _body(path)
    goodwill = [f for f in parse_inline_xbrl(body, document=str(path)).facts
                if f.concept == "us-gaap:Goodwill" and f.period_end == "2024-01-28" and not f.dimensions]
    elements = [r for r in reference_numeric_facts(body)
                if r[0] == "us-gaap:Goodwill" and r[2] == "2024-01-28" and not r[3]]
    assert {(r[5], r[6]) for r in elements} == {(Decimal("4430000000"), "-6"), (Decimal("4400000000"), "-8")}
    (fact,) = goodwill  # "$4.4 billion" in the text and 4,430 (millions) in the balance sheet agree
    assert (fact.value, fact.decimals, fact.occurrences, fact.inconsistent) == \
        (Decimal("4430000000"), "-6", len(elements), False)


def test_exclude_is_left_out_of_a_text_fact() -> None:
    body = (b'<html xmlns="http://www.w3.org/1999/xhtml" xmlns:ix="http://www.xbrl.org/2013/inlineXBRL" '
            b'xmlns:xbrli="http://www.xbrl.org/2003/instance"><body><ix:header><ix:resources>'
            b'<xbrli:context id="c"><xbrli:entity><xbrli:identifier scheme="http://www.sec.gov/CIK">0000000001'
            b'</xbrli:identifier></xbrli:entity><xbrli:period><xbrli:instant>2024-12-31</xbrli:instant>'
            b'</xbrli:period></xbrli:context></ix:resources></ix:header>'
            b'<ix:nonNumeric name="x:Note" contextRef="c" continuedAt="k">Kept <ix:exclude>page 12</ix:exclude>'
            b'text</ix:nonNumeric><p>between</p><ix:continuation id="k"> and more</ix:continuation></body></html>')
    (fact,) = parse_inline_xbrl(body, document="hand-made").facts
    assert (fact.text, fact.cik, fact.period_end) == ("Kept text and more", 1, "2024-12-31")


def test_formats() -> None:
    assert numeric_text("1,234.50", "ixt:num-dot-decimal") == "1234.50"
    assert numeric_text("1.234,5", "ixt:num-comma-decimal") == "1234.5"
    assert numeric_text("\u2014", "ixt:fixed-zero") == "0"
    assert numeric_text("twenty-one", "ixt-sec:numwordsen") == "21"
    assert text_value("March\u00a031, 2025", "ixt:date-monthname-day-year-en") == "2025-03-31"
    assert text_value("\u2612", "ixt-sec:boolballotbox") == "true"
    assert text_value("2.5", "ixt-sec:duryear") == "P2Y6M"
    assert text_value("four years", "ixt-sec:durwordsen") == "P4Y"


def test_unreadable_value_is_kept_with_its_problem() -> None:
    body = _body(FIX / "10-K_10-Q" / "0000320193-25-000079_aapl-20250927.htm.gz")
    tag = body.index(b'id="f-120"')
    end = body.index(b">", tag) + 1
    changed = body[:end] + b"7.4x6" + body[body.index(b"<", end):]
    fact = next(f for f in parse_inline_xbrl(changed, document="x").facts if f.element_id == "f-120")
    assert fact.value is None and "does not read" in fact.problem


@pytest.mark.parametrize("attack", [
    b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;">]><x>&b;</x>',
    b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>',
])
def test_entities_are_refused(attack: bytes) -> None:
    with pytest.raises(RejectedDocument, match="refused"):
        parse_inline_xbrl(attack, document="attack.htm")


def test_not_xml_is_rejected_naming_the_document() -> None:
    with pytest.raises(RejectedDocument, match="old.htm.*not well-formed"):
        parse_inline_xbrl(b"<html><body><p>1998<br></body></html>", document="old.htm")
    with pytest.raises(RejectedDocument, match="no inline-XBRL facts"):
        parse_inline_xbrl(b"<html><body/></html>", document="plain.htm")
