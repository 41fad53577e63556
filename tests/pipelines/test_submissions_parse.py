"""pipelines.submissions: real SEC submissions payloads and pages -> records; bad payloads rejected."""

from __future__ import annotations

import gzip
import json
from datetime import date, datetime
from pathlib import Path

import pytest

from pipelines.errors import RejectedDocument
from pipelines.submissions import (
    detect_acceptance_clock,
    ownership_filings,
    page_cik_and_name,
    parse_submissions,
    parse_submissions_page,
    to_utc,
)

FIX = Path(__file__).parents[1] / "fixtures"
SUB = FIX / "sec" / "data.sec.gov" / "submissions"
VINTAGE = FIX / "vintages" / "submissions"


def body(path: Path) -> bytes:
    return gzip.decompress(path.read_bytes())


def main(name: str, folder: Path = SUB):
    p = folder / f"{name}.json.gz"
    return parse_submissions(body(p), document=str(p))


def page(name: str, folder: Path = SUB):
    p = folder / f"{name}.json.gz"
    cik, page_name = page_cik_and_name(str(p))
    return parse_submissions_page(body(p), document=str(p), cik=cik, page_name=page_name)


def test_apple_main_file_identity_and_rows():
    s = main("CIK0000320193")
    assert (s.cik, s.name, s.tickers, s.exchanges) == (320193, "Apple Inc.", ["AAPL"], ["Nasdaq"])
    assert (s.fiscal_year_end, s.entity_type, s.sic, s.state_of_incorporation) == ("0926", "operating", "3571", "CA")
    assert s.filings.num_rows == 1000
    assert s.page_names == ["CIK0000320193-submissions-001.json"]
    assert s.pages[0].filing_count == 1223
    assert s.former_names[0].name == "APPLE INC" and s.former_names[0].from_date == date(2007, 1, 10)
    assert s.extra_columns == []  # core_type and isXBRLNumeric are known columns now
    assert s.filings.column("core_type").null_count < 1000


def test_true_utc_acceptance_time_recent_payload():
    """Apple's FY2023 10-K: accepted 18:08:27 Eastern on 2023-11-02 = 22:08:27 UTC; dated 2023-11-03."""
    s = main("CIK0000320193")
    rows = s.filings.to_pylist()
    tenk = next(r for r in rows if r["accession"] == "0000320193-23-000106")
    assert s.acceptance_clock == "utc"
    assert tenk["acceptance_time_raw"] == "2023-11-02T22:08:27.000Z"
    assert tenk["acceptance_time"] == datetime(2023, 11, 2, 22, 8, 27)
    assert tenk["acceptance_time_basis"] == "sec_utc"
    assert tenk["filing_date"] == date(2023, 11, 3)  # accepted after 17:30 Eastern -> next business day


def test_older_payload_eastern_clock_converted_dst_aware():
    """The 2023-08 copy gives Eastern wall time under 'Z'; converted it equals the 2026 copy's true UTC."""
    old = main("CIK0000320193", VINTAGE / "2023-08_jadchaar")
    new = main("CIK0000320193")
    assert old.acceptance_clock == "eastern"
    o = {r["accession"]: r for r in old.filings.to_pylist()}
    n = {r["accession"]: r for r in new.filings.to_pylist()}
    summer = o["0000320193-23-000077"]  # 10-Q, EDT (+4 h)
    assert summer["acceptance_time_raw"] == "2023-08-03T18:04:43.000Z"
    assert summer["acceptance_time"] == datetime(2023, 8, 3, 22, 4, 43)
    winter = o["0000320193-23-000006"]  # 10-Q, EST (+5 h)
    assert winter["acceptance_time_raw"] == "2023-02-02T18:01:30.000Z"
    assert winter["acceptance_time"] == datetime(2023, 2, 2, 23, 1, 30)
    common = set(o) & set(n)
    assert len(common) == 765
    assert all(o[a]["acceptance_time"] == n[a]["acceptance_time"] for a in common)


def test_clock_detection_rules():
    assert detect_acceptance_clock(["2024-01-02T07:30:00.000Z"])[0] == "eastern"
    assert detect_acceptance_clock(["2024-01-03T01:30:00.000Z"])[0] == "utc"
    assert detect_acceptance_clock(["2024-01-03T15:30:00.000Z"])[0] == "assumed_eastern"
    # assumed Eastern is the later reading: never earlier than the truth
    assert to_utc("2024-01-03T15:30:00.000Z", "assumed_eastern") == (datetime(2024, 1, 3, 20, 30), "eastern_assumed")
    assert to_utc("1996-08-07T00:00:00.000Z", "eastern") == (None, "date_only")
    assert to_utc("1996-08-07T04:00:00.000Z", "utc") == (None, "date_only")


def test_page_file_and_counts():
    p = page("CIK0001318605-submissions-001")
    assert (p.cik, p.page_name, p.filings.num_rows) == (1318605, "CIK0001318605-submissions-001.json", 720)
    s = main("CIK0001318605")
    assert s.pages[0].filing_count == 720
    assert not set(p.filings.column("accession").to_pylist()) & set(s.filings.column("accession").to_pylist())


def test_insider_foreign_and_punctuation_entities():
    musk = main("CIK0001494730")
    assert (musk.name, musk.tickers, musk.filings.num_rows, musk.pages) == ("Musk Elon", [], 166, [])
    siemens = main("CIK0000940418")
    assert (siemens.name, siemens.state_of_incorporation_description, siemens.filings.num_rows) == \
        ("SIEMENS AG", "Germany", 33)
    odd = main("CIK0000350001")
    assert odd.name == "Company Name Three `!#$(),:;=.-;\\|@/{}&'\\WA\\"
    assert odd.filings.num_rows == 0 and len(odd.former_names) == 19


def test_form4_document_url_is_raw_xml():
    rows = main("CIK0000320193").filings.to_pylist()
    f4 = next(r for r in rows if r["accession"] == "0001140361-26-015421")
    assert f4["primary_document"] == "xslF345X06/form4.xml"
    assert f4["document_url"] == "https://www.sec.gov/Archives/edgar/data/320193/000114036126015421/form4.xml"
    assert f4["index_url"] == ("https://www.sec.gov/Archives/edgar/data/320193/000114036126015421/"
                               "0001140361-26-015421-index.htm")
    owned = ownership_filings(main("CIK0000320193"))
    assert ("0001140361-26-015421" in {a for _, a, _ in owned}) and all(c == 320193 for c, _, _ in owned)


def _apple_json() -> dict:
    return json.loads(body(SUB / "CIK0000320193.json.gz"))


def test_unknown_and_missing_optional_columns_tolerated():
    d = _apple_json()
    rec = d["filings"]["recent"]
    rec["brandNewColumn"] = ["x"] * len(rec["accessionNumber"])
    del rec["core_type"], rec["isXBRLNumeric"], rec["items"]
    s = parse_submissions(json.dumps(d).encode(), document="mutated")
    assert s.filings.num_rows == 1000 and s.extra_columns == ["brandNewColumn"]
    assert s.filings.column("items").null_count == 1000


@pytest.mark.parametrize("mutate, reason", [
    (lambda d: d.update(cik="0000789019"), "CIK 789019, but CIK 320193 was requested"),
    (lambda d: d.update(filings={}), "empty filings"),
    (lambda d: d["filings"].update(recent={}), "empty filings"),
    (lambda d: d["filings"]["recent"].pop("accessionNumber"), "required column"),
    (lambda d: d["filings"]["recent"]["form"].pop(), "different lengths"),
    (lambda d: d["filings"]["recent"]["accessionNumber"].__setitem__(0, "0000320193-23-1"), "malformed accession"),
    (lambda d: d.update(cik="abc"), "not a number"),
])
def test_bad_main_files_rejected(mutate, reason):
    d = _apple_json()
    mutate(d)
    with pytest.raises(RejectedDocument, match=reason) as exc:
        parse_submissions(json.dumps(d).encode(), document="bad.json", expected_cik=320193)
    assert exc.value.document == "bad.json"


@pytest.mark.parametrize("payload, reason", [
    (b"<!DOCTYPE html><html><body>Request Rate Threshold Exceeded</body></html>", "HTML"),
    (b"", "empty body"),
    (b'{"cik": "0000320193", "filings": {"recent": {"accessionNumber": [', "truncated"),
])
def test_html_empty_truncated_rejected(payload, reason):
    with pytest.raises(RejectedDocument, match=reason):
        parse_submissions(payload, document="x.json")


def test_bad_pages_rejected():
    b = body(SUB / "CIK0001318605-submissions-001.json.gz")
    with pytest.raises(RejectedDocument, match="belongs to CIK 1318605"):
        parse_submissions_page(b, document="p", cik=320193, page_name="CIK0001318605-submissions-001.json")
    with pytest.raises(RejectedDocument, match="main submissions file, not a page"):
        parse_submissions_page(body(SUB / "CIK0001318605.json.gz"), document="p", cik=1318605,
                               page_name="CIK0001318605-submissions-001.json")
    empty = json.dumps({k: [] for k in json.loads(b)}).encode()
    with pytest.raises(RejectedDocument, match="lists no filings"):
        parse_submissions_page(empty, document="p", cik=1318605, page_name="CIK0001318605-submissions-001.json")
    with pytest.raises(RejectedDocument, match="not a submissions page name"):
        page_cik_and_name("/tmp/whatever.json")
