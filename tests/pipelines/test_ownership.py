"""Forms 3/4/5 parser: per-document counts for every real sample, exact values, safety, rejections."""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from pathlib import Path

import pytest

from pipelines.errors import RejectedDocument
from pipelines.ownership import (
    NO_ACCESSION,
    OwnershipFiling,
    accession_from_filename,
    ownership_archive_path,
    parse_ownership,
    submission_txt_url,
)

FIX = Path(__file__).resolve().parents[1] / "fixtures"
FORM4 = FIX / "form4"
HAND = FIX / "form4_handmade"
SHARED = Path(__file__).resolve().parents[3] / "shared" / "edgar-samples" / "form4"

# file -> (documentType, schema, codes, ndTx, ndHold, dTx, dHold, owners, footnotes).
# From ../shared/edgar-samples/README.md, re-checked against the files (all agree).
EXPECTED = {
    "0000019446-06-000081.txt": ("4", "X0202", "M", 0, 0, 1, 0, 1, 0),
    "000032012123000040_form4.xml": ("4", "X0407", "P", 3, 4, 0, 0, 1, 4),
    "0000320193-22-000061.txt": ("4", "X0306", "S", 7, 0, 0, 0, 1, 8),
    "0000704051-14-000037.txt": ("4", "X0306", "A", 0, 1, 1, 0, 1, 2),
    "0000704051-14-000037.xml": ("4", "X0306", "A", 0, 1, 1, 0, 1, 2),
    "0000897101-14-000522.txt": ("4", "X0306", "A", 0, 0, 1, 0, 1, 1),
    "0000904454-13-000002.txt": ("4", "X0306", "A", 0, 0, 1, 0, 1, 2),
    "0000921895-25-001190.txt": ("4", "X0508", "P", 4, 0, 0, 0, 3, 2),
    "0000921895-25-001190.xml": ("4", "X0508", "P", 4, 0, 0, 0, 3, 2),
    "000092963823001482_form4.xml": ("4", "X0407", "P", 1, 0, 0, 0, 1, 1),
    "0001004878-15-000149.txt": ("4", "X0306", "AF", 2, 0, 0, 0, 1, 3),
    "0001018724-24-000077.txt": ("4", "X0508", "A", 0, 0, 1, 0, 1, 2),
    "0001019687-14-001546.txt": ("4", "X0306", "S", 3, 0, 0, 0, 1, 0),
    "0001045810-23-000128.txt": ("4", "X0407", "F", 1, 1, 0, 0, 1, 3),
    "000106299323011116_form4.xml": ("4", "X0407", "A", 0, 0, 1, 3, 1, 4),
    "0001094718-14-000001.txt": ("4", "X0306", "P", 1, 0, 0, 0, 1, 2),
    "0001104659-06-067430.txt": ("4", "X0202", "S", 1, 0, 0, 0, 1, 0),
    "0001104659-25-025206.txt": ("4", "X0508", "S", 3, 0, 0, 0, 1, 3),
    "0001126328-15-000103.txt": ("4", "X0306", "A", 1, 1, 1, 0, 1, 3),
    "0001127602-15-028697_form4.xml": ("4", "X0306", "CS", 18, 1, 1, 0, 1, 20),
    "0001127602-25-001055.txt": ("4", "X0508", "S", 1, 0, 0, 0, 1, 1),
    "0001137693-14-000001.txt": ("4", "X0306", "P", 1, 0, 0, 0, 1, 0),
    "0001158463-25-000044.txt": ("4", "X0508", "A", 0, 0, 1, 0, 1, 2),
    "0001179110-14-007110.txt": ("4", "X0306", "A", 0, 0, 1, 0, 1, 2),
    "0001179110-14-007120.txt": ("4", "X0306", "A", 0, 0, 1, 0, 1, 2),
    "0001179110-14-008411.txt": ("4", "X0306", "A", 0, 0, 1, 0, 1, 2),
    "0001179706-14-000057.txt": ("4", "X0306", "M", 1, 1, 1, 0, 1, 4),
    "0001209191-14-029113.txt": ("4", "X0306", "FM", 2, 0, 1, 0, 1, 1),
    "0001209191-15-030372.txt": ("4", "X0306", "S", 2, 0, 0, 0, 1, 4),
    "0001209191-22-024552_doc4.xml": ("4", "X0306", "S", 6, 0, 0, 3, 1, 7),
    "0001246360-14-002157.txt": ("4", "X0306", "MS", 2, 0, 1, 0, 1, 0),
    "0001327811-25-000050.txt": ("4", "X0508", "F", 1, 1, 0, 0, 1, 3),
    "0001387467-25-000038.txt": ("4", "X0508", "AF", 4, 0, 0, 0, 1, 7),
    "0001528985-14-000001.txt": ("4", "X0306", "P", 1, 0, 0, 0, 1, 0),
    "0001537179-14-000007.txt": ("4", "X0306", "S", 1, 0, 0, 0, 1, 1),
    "0001610717-23-000035.txt": ("4", "X0407", "MS", 2, 0, 1, 0, 1, 2),
    "0001610717-23-000035.xml": ("4", "X0407", "MS", 2, 0, 1, 0, 1, 2),
    "0001790565-23-000009.txt": ("4", "X0508", "MS", 2, 0, 1, 0, 1, 2),
    "374WaterForm4.xml": ("4", "X0508", "A", 1, 0, 1, 0, 1, 1),
    "aapl-4-20201013.xml": ("4", "X0306", "S", 1, 0, 0, 0, 1, 2),
    "aapl_form3_newstead.xml": ("3", "X0206", "", 0, 0, 0, 2, 1, 3),
    "aapl_form5_wagner.xml": ("5", "X0508", "W", 1, 1, 0, 0, 1, 1),
    "brka_form4_davita_joint.xml": ("4", "X0609", "S", 1, 0, 0, 0, 2, 2),
    "form3.nosecurities.xml": ("3", "X0206", "", 0, 0, 0, 0, 1, 0),
    "form3.snow.nonderiv.xml": ("3", "X0206", "", 0, 1, 0, 0, 2, 1),
    "form3.snow.xml": ("3", "X0206", "", 0, 0, 0, 6, 1, 9),
    "form4.snow.xml": ("4", "X0306", "MS", 6, 8, 1, 0, 1, 16),
    "tesla-form4.xml": ("4", "X0306", "M", 2, 0, 2, 0, 1, 3),
    "wf-form4_155718184308434.xml": ("4", "X0306", "S", 5, 0, 0, 0, 1, 6),
    "wf-form4_156582182214854.xml": ("4", "X0306", "MS", 2, 1, 1, 0, 1, 1),
    "wf-form4_156694501621463.xml": ("4", "X0306", "FMS", 5, 0, 1, 0, 1, 11),
}
LEGACY = ["legacy_text/0001094891-00-000193.txt", "legacy_text/1990sheader.txt"]


def _needs_accession(name: str) -> bool:
    return name.endswith(".xml") and accession_from_filename(name) is None


def given_accession(name: str) -> str | None:
    """What `load --accession` would pass for a bare XML whose name carries none (a test-only number,
    distinct per file so that no two fixtures collide); None when the file names its own accession."""
    if not _needs_accession(Path(name).name):
        return None
    return f"0000000000-00-{sorted(EXPECTED).index(Path(name).name) + 1:06d}"


def parse(name: str, folder: Path = FORM4, **kw) -> OwnershipFiling:
    """Parse a fixture; a bare XML whose name carries no accession is given one (as --accession would)."""
    path = folder / name
    if "accession" not in kw and name in EXPECTED:
        kw["accession"] = given_accession(name)
    return parse_ownership(path.read_bytes(), document=str(path), **kw)


def counts(r: OwnershipFiling) -> tuple:
    def n(items, kind):
        return sum(1 for x in items if x.table_kind == kind)

    return (r.document_type, r.schema_version, "".join(sorted({t.transaction_code for t in r.transactions})),
            n(r.transactions, "non_derivative"), n(r.holdings, "non_derivative"),
            n(r.transactions, "derivative"), n(r.holdings, "derivative"), len(r.owners), len(r.footnotes))


def test_every_vendored_file_is_covered():
    files = {str(p.relative_to(FORM4)) for p in FORM4.rglob("*") if p.is_file()}
    assert files == set(EXPECTED) | set(LEGACY)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_counts_per_document(name):
    r = parse(name)
    assert counts(r) == EXPECTED[name]
    # every footnote cited somewhere exists, and line numbers are 1..n in each table
    ids = {f.footnote_id for f in r.footnotes}
    assert {ref.footnote_id for ref in r.footnote_refs} <= ids
    for kind in ("non_derivative", "derivative"):
        for items in (r.transactions, r.holdings):
            nums = [x.line_number for x in items if x.table_kind == kind]
            assert nums == list(range(1, len(nums) + 1))


@pytest.mark.shared
@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/edgar-samples not present")
def test_vendored_copies_match_shared():
    for name in list(EXPECTED) + LEGACY:
        assert (FORM4 / name).read_bytes() == (SHARED / name).read_bytes(), name


def test_weighted_average_price_lines_exact():
    r = parse("0000320193-22-000061.txt")
    assert (r.accession, r.accession_source, r.issuer_cik, r.issuer_ticker) == (
        "0000320193-22-000061", "sec_header", 320193, "AAPL")
    t1 = r.transactions[0]
    assert t1.transaction_code == "S" and t1.acquired_disposed == "D"
    assert t1.shares == Decimal("9136") and t1.price_per_share == Decimal("159.94")
    assert isinstance(t1.price_per_share, Decimal)
    assert t1.shares_owned_following == Decimal("468198")
    assert t1.footnote_ids == ("F1", "F2")
    assert t1.price_is_weighted_average is True
    assert (t1.price_range_low, t1.price_range_high) == (Decimal("159.42"), Decimal("160.41"))
    assert "weighted average sale price" in {f.footnote_id: f.text for f in r.footnotes}["F2"]
    price_refs = [x for x in r.footnote_refs if x.line_number == 1 and x.field == "price_per_share"]
    assert [(x.xml_element, x.footnote_id) for x in price_refs] == [("transactionPricePerShare", "F2")]
    t2 = r.transactions[1]
    assert (t2.shares, t2.price_per_share, t2.shares_owned_following) == (
        Decimal("5316"), Decimal("160.82"), Decimal("462882"))


def test_sec_header_times_are_utc():
    r = parse("0000320193-22-000061.txt")
    assert r.filed == date(2022, 5, 6)
    assert r.container == "sec_txt"
    est = parse("0000904454-13-000002.txt")  # 20130102172412 EST -> +5h
    assert est.acceptance_time_raw == "20130102172412"
    assert est.acceptance_time == datetime(2013, 1, 2, 22, 24, 12)
    edt = parse("0001094718-14-000001.txt")  # 20140505202153 EDT -> +4h, next day in UTC
    assert edt.acceptance_time == datetime(2014, 5, 6, 0, 21, 53)
    assert edt.filed == date(2014, 5, 5)


def test_multi_owner_joint_filing_true_false_booleans():
    r = parse("brka_form4_davita_joint.xml")
    assert [(o.owner_number, o.owner_cik, o.owner_name) for o in r.owners] == [
        (1, 1067983, "BERKSHIRE HATHAWAY INC"), (2, 315090, "BUFFETT WARREN E")]
    assert all(o.is_ten_percent_owner is True and o.is_director is False for o in r.owners)
    assert r.aff10b5one is False and r.schema_version == "X0609"
    t = r.transactions[0]
    assert (t.transaction_code, t.shares, t.price_per_share, t.shares_owned_following) == (
        "S", Decimal("1220376"), Decimal("149.8429"), Decimal("28880209"))
    assert t.footnote_ids == ("F1", "F2")
    three = parse("0000921895-25-001190.txt")
    assert [o.owner_cik for o in three.owners] == [1959730, 2052009, 1580144]
    assert [(t.shares, t.price_per_share) for t in three.transactions] == [
        (Decimal("16000"), Decimal("5.3569")), (Decimal("16847"), Decimal("5.4231")),
        (Decimal("100000"), Decimal("5.4598")), (Decimal("35000"), Decimal("5.4173"))]


def test_derivative_exercise_with_footnote_only_exercise_date():
    r = parse("tesla-form4.xml")
    d1 = [t for t in r.transactions if t.table_kind == "derivative"][0]
    assert (d1.line_number, d1.transaction_code, d1.shares, d1.conversion_or_exercise_price) == (
        1, "M", Decimal("5250"), Decimal("2.79"))
    assert d1.exercise_date is None and d1.expiration_date == date(2023, 4, 8)
    assert d1.underlying_shares == Decimal("5250") and d1.shares_owned_following == Decimal("0")
    refs = [(x.field, x.footnote_id) for x in r.footnote_refs if x.table_kind == "derivative" and x.line_number == 1]
    assert refs == [("exercise_date", "F2")]
    assert r.owners[0].officer_title == "CEO" and r.owners[0].is_director is True
    erickson = parse("0001209191-14-029113.txt")
    d = [t for t in erickson.transactions if t.table_kind == "derivative"][0]
    assert d.exercise_date is None and d.conversion_or_exercise_price is None
    assert {(x.field, x.footnote_id) for x in erickson.footnote_refs} == {
        ("exercise_date", "F1"), ("conversion_or_exercise_price", "F1")}


def test_form3_with_no_securities():
    r = parse("form3.nosecurities.xml")
    assert r.document_type == "3" and r.no_securities_owned is True
    assert (r.transactions, r.holdings, r.footnotes) == ((), (), ())
    assert r.remarks == "Exhibit 24.1 - Power of Attorney"
    assert r.signatures == (("/s/ Lauren Walz, as attorney-in-fact for Vinayak Hegde", date(2022, 1, 7)),)


def test_form5_real_inheritance_and_handmade_gift():
    w = parse("aapl_form5_wagner.xml")
    t = w.transactions[0]
    assert (w.document_type, t.transaction_form_type, t.transaction_code, t.shares, t.price_per_share) == (
        "5", "5", "W", Decimal("42"), Decimal("0"))
    assert (t.direct_indirect, t.nature_of_ownership, t.shares_owned_following) == ("I", "By spouse", Decimal("6042"))
    assert w.holdings[0].shares_owned_following == Decimal("60975")
    assert (w.form3_holdings_reported, w.form4_transactions_reported) == (False, False)
    g = parse("form5_gift.xml", HAND, accession="0000000000-00-999999")
    gt = g.transactions[0]
    assert (gt.transaction_code, gt.shares, gt.shares_owned_following) == ("G", Decimal("2500"), Decimal("47500.125"))
    assert [(x.field, x.xml_element, x.footnote_id) for x in g.footnote_refs] == [
        ("transaction_code", "transactionCoding", "F1")]
    assert g.form4_transactions_reported is True


def test_holdings_lines():
    r = parse("form4.snow.xml")
    assert [h.line_number for h in r.holdings] == list(range(1, 9))
    form3 = parse("form3.snow.xml")
    assert all(h.table_kind == "derivative" for h in form3.holdings)


@pytest.mark.parametrize(("name", "expected"), [
    ("0001209191-22-024550_doc4.xml", "0001209191-22-024550"),
    ("000120919123029527_form4.xml", "0001209191-23-029527"),
    ("/some/000120919123029527/doc4.xml", None),
    ("aapl-4-20201013.xml", None),
    ("wf-form4_155718184308434.xml", None),
])
def test_accession_from_filename(name, expected):
    assert accession_from_filename(name) == expected


def test_accession_sources():
    assert parse("0001209191-22-024552_doc4.xml").accession_source == "file_name"
    assert parse("0000320193-22-000061.txt").accession_source == "sec_header"
    given = parse("aapl-4-20201013.xml", accession="000032019320000123")
    assert (given.accession, given.accession_source, given.accession_is_derived) == (
        "0000320193-20-000123", "argument", False)
    with pytest.raises(RejectedDocument, match="SEC header says 0000320193-22-000061"):
        parse("0000320193-22-000061.txt", accession="0000320193-22-000099")


@pytest.mark.parametrize("name", sorted(n for n in EXPECTED if _needs_accession(n)))
def test_bare_xml_without_an_accession_is_refused_never_given_a_made_up_key(name):
    """Issue 8 bug 3: a sha256:... key made the same filing count twice once its .txt was loaded."""
    with pytest.raises(RejectedDocument) as info:
        parse_ownership((FORM4 / name).read_bytes(), document=str(FORM4 / name))
    assert info.value.reason == NO_ACCESSION
    assert info.value.document == str(FORM4 / name)
    assert "sha256" not in str(info.value)


def test_archive_urls():
    assert ownership_archive_path(320193, "0000320193-22-000061") == \
        "edgar/data/320193/000032019322000061/0000320193-22-000061.txt"
    assert submission_txt_url("000032019322000061", "0000320193") == \
        "https://www.sec.gov/Archives/edgar/data/320193/000032019322000061/0000320193-22-000061.txt"


@pytest.mark.parametrize(("path", "reason"), [
    (FORM4 / LEGACY[0], "accession 0001094891-00-000193: full submission has no <XML> block"),
    (FORM4 / LEGACY[1], "accession 0001012325-98-000004: full submission has no <XML> block"),
    (HAND / "malformed_2006_0001104659-06-067430.txt", "accession 0001104659-06-067430: malformed ownership XML"),
    (HAND / "not_ownership.xml", "not an ownership document"),
])
def test_rejections_name_the_accession(path, reason):
    with pytest.raises(RejectedDocument) as info:
        parse_ownership(path.read_bytes(), document=str(path))
    assert reason in info.value.reason
    assert info.value.document == str(path)


@pytest.mark.parametrize("name", ["billion_laughs.xml", "xxe_passwd.xml"])
def test_entity_bomb_and_xxe_are_refused_unexpanded(name):
    body = (HAND / name).read_bytes()
    with pytest.raises(RejectedDocument) as info:
        parse_ownership(body, document=name)  # no accession either: the unsafe XML is what it says
    assert "unsafe XML refused" in info.value.reason
    assert "root:" not in str(info.value) and "lollol" not in str(info.value)


def test_bomb_inside_a_txt_submission_is_refused():
    xml = (HAND / "billion_laughs.xml").read_bytes()
    txt = (HAND / "9999999999-24-000001.txt").read_bytes()
    start, end = txt.index(b"<XML>") + 5, txt.index(b"</XML>")
    with pytest.raises(RejectedDocument, match="accession 9999999999-24-000001: unsafe XML"):
        parse_ownership(txt[:start] + b"\n" + xml + txt[end:], document="bomb.txt")


@pytest.mark.parametrize(("patch", "reason"), [
    ((b"<value>1000</value>", b"<value>1,000.5.5</value>"), "is not a number"),
    ((b"<value>2024-03-01</value>", b"<value>03/01/2024</value>"), "is not a YYYY-MM-DD date"),
    ((b"<isOfficer>1</isOfficer>", b"<isOfficer>maybe</isOfficer>"), "is not a boolean"),
    ((b"<documentType>4</documentType>", b"<documentType>10-K</documentType>"), "is not a Form 3, 4 or 5"),
    ((b"<value>10.50</value>", b"<value>10.12345678901</value>"), "more than 10 decimal places"),
    # issue 8: values outside what a column holds are rejected by the parser, naming the value
    ((b"<value>2024-03-01</value>", b"<value>9999-12-31</value>"), "'9999-12-31' is after 2100-12-31"),
    ((b"<value>2024-03-01</value>", b"<value>0001-12-31</value>"), "'0001-12-31' is before 1900-01-01"),
    ((b"<periodOfReport>2024-03-01<", b"<periodOfReport>9999-12-31<"), "periodOfReport: '9999-12-31' is after"),
    ((b"<issuerCik>0009999001<", b"<issuerCik>2147483648<"), "issuerCik '2147483648' is missing or not a CIK"),
    ((b"<rptOwnerCik>0009999101<", b"<rptOwnerCik>9999999999<"), "rptOwnerCik '9999999999' is not a CIK"),
    ((b"FILED AS OF DATE:\t\t20240305", b"FILED AS OF DATE:\t\t99991231"), "FILED AS OF DATE '99991231' is after"),
    ((b"<ACCEPTANCE-DATETIME>20240305163000", b"<ACCEPTANCE-DATETIME>00011231163000"),
     "ACCEPTANCE-DATETIME '00011231163000' is before"),
])
def test_bad_values_are_rejected(patch, reason):
    body = (HAND / "9999999999-24-000001.txt").read_bytes().replace(*patch, 1)
    with pytest.raises(RejectedDocument, match=reason):
        parse_ownership(body, document="x.txt")
