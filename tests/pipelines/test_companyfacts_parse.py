"""pipelines.companyfacts: real SEC companyfacts payloads -> columnar records, bad payloads rejected."""

from __future__ import annotations

import gzip
from collections import Counter

import orjson
import pyarrow.compute as pc
import pytest

from helpers import COMPANYFACTS_DIR, COMPANYFACTS_FILES, read_body
from pipelines.companyfacts import parse_cik, parse_companyfacts
from pipelines.documents import read_local_document
from pipelines.errors import RejectedDocument

APPLE = COMPANYFACTS_DIR / "CIK0000320193.json.gz"
TSM = COMPANYFACTS_DIR / "CIK0001046179.json.gz"


def _json_facts(body: bytes):
    """Every fact object of a companyfacts JSON, computed independently of the parser."""
    data = orjson.loads(body)
    for taxonomy, concepts in data["facts"].items():
        for concept, cd in concepts.items():
            for unit, rows in cd["units"].items():
                for r in rows:
                    yield taxonomy, concept, unit, r


def test_all_eight_fixtures_present():
    assert len(COMPANYFACTS_FILES) == 8


@pytest.mark.parametrize("path", COMPANYFACTS_FILES, ids=lambda p: p.name.split(".")[0])
def test_fact_and_concept_counts_match_the_json(path):
    body = read_body(path)
    data = orjson.loads(body)
    facts = list(_json_facts(body))
    cf = parse_companyfacts(body, document=str(path))

    assert cf.fact_count == len(facts) > 1000
    assert cf.cik == int(path.name[3:13])
    assert cf.entity_name == data["entityName"]
    assert cf.concepts.num_rows == sum(len(c) for c in data["facts"].values())
    # per (taxonomy, unit) the parser keeps every row, none merged or invented
    parsed = Counter(zip(cf.facts.column("taxonomy").to_pylist(), cf.facts.column("unit").to_pylist(),
                         strict=True))
    assert parsed == Counter((t, u) for t, _, u, _ in facts)
    # integers go to val_int, decimals to val_float: exactly one of them per row
    ints = sum(1 for *_, r in facts if isinstance(r["val"], int))
    assert cf.facts.column("val_int").null_count == len(facts) - ints
    assert cf.facts.column("val_float").null_count == ints


def test_null_fy_fp_are_kept_as_null():
    body = read_body(APPLE)
    facts = list(_json_facts(body))
    no_fy = sum(1 for *_, r in facts if r.get("fy") is None)
    no_fp = sum(1 for *_, r in facts if r.get("fp") is None)
    assert no_fy > 100  # Apple's 8-K facts carry no fy/fp
    cf = parse_companyfacts(body, document="apple")
    assert cf.facts.column("filing_fy").null_count == no_fy
    assert cf.facts.column("filing_fp").null_count == no_fp
    forms = Counter(f for f, fy in zip(cf.facts.column("form").to_pylist(),
                                       cf.facts.column("filing_fy").to_pylist(), strict=True) if fy is None)
    assert set(forms) == {"8-K"}
    # instants have no start; durations do
    assert cf.facts.column("period_start").null_count == sum(1 for *_, r in facts if "start" not in r)


def test_tsm_ifrs_full_and_twd_units():
    cf = parse_companyfacts(read_body(TSM), document="tsm")
    assert cf.cik == 1046179
    taxonomies = set(cf.facts.column("taxonomy").to_pylist())
    assert taxonomies == {"dei", "ifrs-full"}
    units = Counter(cf.facts.column("unit").to_pylist())
    assert units["TWD"] > 4000 and units["TWD/shares"] > 0 and units["USD"] > 0
    rows = [r for r in cf.facts.to_pylist()
            if r["concept"] == "Revenue" and r["unit"] == "TWD" and r["period_end"] == "2023-12-31"
            and r["period_start"] == "2023-01-01"]
    assert {r["val_int"] for r in rows} == {2_161_735_800_000}
    assert {r["form"] for r in rows} == {"20-F"}


@pytest.mark.parametrize("value", [320193, "320193", "0000320193", "CIK0000320193", "cik0000320193", " 320193 "])
def test_cik_normalisation(value):
    assert parse_cik(value, document="d") == 320193


@pytest.mark.parametrize("value", [None, True, "", "abc", "CIK", 0, -5, 10**10, "12e3"])
def test_bad_cik_rejected(value):
    with pytest.raises(RejectedDocument) as exc:
        parse_cik(value, document="doc-x")
    assert exc.value.document == "doc-x"


@pytest.mark.parametrize("cik", ['"0000320193"', '"CIK0000320193"', "320193"])
def test_cik_in_body_normalised(cik):
    body = read_body(APPLE).replace(b'{"cik":320193,', b'{"cik":%s,' % cik.encode(), 1)
    assert body.startswith(b'{"cik":%s,' % cik.encode())
    cf = parse_companyfacts(body, document="apple", expected_cik=320193)
    assert cf.cik == 320193


_TRUNCATED = read_body(APPLE)[:100_000]
BAD_BODIES = {
    "truncated": (_TRUNCATED, "truncated"),
    "not_json": (b"Service Unavailable, try later\n", "invalid"),
    "html": (b"<!DOCTYPE html>\n<html><head><title>SEC.gov | Request Rate Threshold Exceeded</title></head>"
             b"<body>Your request rate...</body></html>", "HTML"),
    "empty_facts": (b'{"cik":320193,"entityName":"Apple Inc.","facts":{}}', "no facts"),
    "facts_without_units": (b'{"cik":320193,"entityName":"Apple Inc.","facts":{"dei":{"X":{"units":{}}}}}',
                            "no facts"),
    "json_array": (b"[]", "not a companyfacts"),
    "empty": (b"", "truncated"),
}


def _rejection(body: bytes, document: str, **kwargs) -> RejectedDocument:
    """What parse_companyfacts raises for ``body``, checked to name ``document``."""
    with pytest.raises(RejectedDocument) as exc:
        parse_companyfacts(body, document=document, **kwargs)
    assert exc.value.document == document
    return exc.value


# how a rejection names the fact it is about (Apple's first us-gaap:AccountsPayableCurrent in USD)
PAYABLE_NAMED = "fact us-gaap:AccountsPayableCurrent [USD] (accession "


@pytest.mark.parametrize("name", sorted(BAD_BODIES))
def test_bad_payload_rejected_naming_the_document(name):
    body, words = BAD_BODIES[name]
    uri = f"https://data.sec.gov/api/xbrl/companyfacts/{name}.json"
    exc = _rejection(body, uri)
    assert str(exc).startswith(uri)
    assert words.lower() in exc.reason.lower()


def test_cik_mismatch_rejected():
    reason = _rejection(read_body(APPLE), "CIK0001045810.json", expected_cik=1045810).reason
    assert "320193" in reason and "1045810" in reason
    # the right expectation passes
    assert parse_companyfacts(read_body(APPLE), document="x", expected_cik=320193).cik == 320193


def test_read_local_document_plain_gzip_and_corrupt(tmp_path):
    body = read_body(TSM)
    plain = tmp_path / "tsm.json"
    plain.write_bytes(body)
    a, b = read_local_document(TSM), read_local_document(plain)
    assert a.body == b.body == body and a.sha256 == b.sha256 and a.origin == "file"
    bad = tmp_path / "bad.json.gz"
    bad.write_bytes(gzip.compress(body)[:5000])
    with pytest.raises(RejectedDocument) as exc:
        read_local_document(bad)
    assert exc.value.document == str(bad)
    with pytest.raises(RejectedDocument):
        read_local_document(tmp_path / "missing.json")


def _mutated(change) -> bytes:
    """Apple's real payload with ``change(first_fact)`` applied to us-gaap:AccountsPayableCurrent [USD] #0."""
    data = orjson.loads(read_body(APPLE))
    change(data, data["facts"]["us-gaap"]["AccountsPayableCurrent"]["units"]["USD"][0])
    return orjson.dumps(data)


def _set(field, value):
    def change(_data, fact):
        fact[field] = value
    return change


def _set_cik(value):
    def change(data, _fact):
        data["cik"] = value
    return change


# issue 8: values outside what a column holds are rejected by the parser, naming the fact and value
OUT_OF_RANGE = {
    "fy_3e9": (_set("fy", 3_000_000_000), "fy 3000000000 is not a year within 1900..2100"),
    "fy_2_64": (_set("fy", 2**64 - 1), "fy 18446744073709551615 is not a year"),
    "fy_0": (_set("fy", 0), "fy 0 is not a year"),
    "end_9999": (_set("end", "9999-12-31"), "period end '9999-12-31' is after 2100-12-31"),
    "start_0001": (_set("start", "0001-12-31"), "period start '0001-12-31' is before 1900-01-01"),
    "filed_feb30": (_set("filed", "2020-02-30"), "filed date '2020-02-30' is not a calendar date"),
    "end_not_iso": (_set("end", "12/31/2020"), "period end '12/31/2020' is not a YYYY-MM-DD date"),
    "backwards": (_set("start", "2030-01-01"), "ends before it starts"),
    "accession": (_set("accn", "0000320193-2-00001"), "accession '0000320193-2-00001' is not an accession"),
    "float_huge": (_set("val", 1e30), "value 1e+30 is too large for DECIMAL(38,10)"),
    "float_decimals": (_set("val", 0.12345678901), "value 0.12345678901 has more than 10 decimal places"),
    "int_over_64_bits": (_set("val", 2**64 - 1), "value 18446744073709551615 does not fit in 64 bits"),
    "val_string": (_set("val", "123"), "Expected `int | float`, got `str`"),
    "val_null": (_set("val", None), "Expected `int | float`, got `null`"),
    "end_number": (_set("end", 20201231), "Expected `str`, got `int`"),
    "cik_2_31": (_set_cik(2**31), "cik 2147483648 is out of range"),
    "cik_zero": (_set_cik(0), "cik 0 is out of range"),
    "cik_negative": (_set_cik(-320193), "cik -320193 is out of range"),
    "cik_float": (_set_cik(320193.5), "Expected `int | str`, got `float`"),
}


@pytest.mark.parametrize("name", sorted(OUT_OF_RANGE))
def test_values_a_column_cannot_hold_reject_the_document(name):
    change, words = OUT_OF_RANGE[name]
    reason = _rejection(_mutated(change), f"{name}.json").reason
    assert words in reason
    if not name.startswith("cik") and "Expected" not in words:  # a fact: named with its accession
        assert PAYABLE_NAMED in reason


def _with_val_literal(literal: bytes) -> bytes:
    """Apple's real payload with us-gaap:AccountsPayableCurrent [USD] #0's value written as ``literal``."""
    sentinel = b"918273645546372819"
    body = _mutated(_set("val", int(sentinel)))
    assert body.count(sentinel) == 1
    return body.replace(sentinel, literal)


def _first_payable(cf) -> dict:
    rows = cf.facts.filter(pc.and_(pc.equal(cf.facts["concept"], "AccountsPayableCurrent"),
                                   pc.equal(cf.facts["unit"], "USD")))
    return rows.slice(0, 1).to_pylist()[0]


# issue 13: decimals were checked as the double msgspec rounded them to, so a literal a double does not
# hold was stored as another number (…456.7 as …456.8), and one with 20 decimals passed as 0.1
DECIMAL_LITERALS = {
    "more_digits_than_a_double": (b"1234567890123456.7", "value 1234567890123456.7 has more digits than a "
                                                           "64-bit float keeps (it would be stored as 1234567890123456.8)"),
    "decimals_hidden_by_rounding": (b"0.10000000000000000001", "value 0.10000000000000000001 has more than 10 "
                                                               "decimal places"),
    "eleven_decimals": (b"0.00000000001", "value 1e-11 has more than 10 decimal places"),
}


@pytest.mark.parametrize("name", sorted(DECIMAL_LITERALS))
def test_decimals_are_checked_as_written(name):
    literal, words = DECIMAL_LITERALS[name]
    reason = _rejection(_with_val_literal(literal), f"{name}.json").reason
    assert PAYABLE_NAMED in reason
    assert words in reason


@pytest.mark.parametrize(("literal", "value"), [(b"0.50000000000", 0.5), (b"123.4500", 123.45), (b"1E+3", 1000.0),
                                                (b"-0.0000000001", -1e-10), (b"1234567890123456.8", 1234567890123456.8)])
def test_decimals_with_trailing_zeros_or_exponents_are_kept(literal, value):
    """The same number written longer than its shortest form is the same number: kept, as a decimal."""
    row = _first_payable(parse_companyfacts(_with_val_literal(literal), document="x"))
    assert row["val_float"] == value and row["val_int"] is None


@pytest.mark.parametrize("literal", [b"1e400", b"-1e400", b"NaN", b"Infinity"])
def test_non_finite_numbers_rejected(literal):
    body = read_body(APPLE).replace(b'"val":', b'"val":' + literal + b',"x":', 1)
    reason = _rejection(body, "nan.json").reason
    assert "out of range" in reason or "malformed" in reason


def test_deep_nesting_rejected_without_crashing():
    body = b'{"cik":320193,"entityName":"x","facts":{"dei":{"X":{"label":' + b"[" * 100_000 + b"]" * 100_000 + b"}}}}"
    with pytest.raises(RejectedDocument):
        parse_companyfacts(body, document="deep.json")


def test_large_payload_is_built_in_bounded_chunks(monkeypatch):
    """The facts table is built CHUNK_ROWS at a time (bounded memory) and equals the one-chunk parse."""
    import pipelines.companyfacts as cf

    whole = parse_companyfacts(read_body(APPLE), document="a")
    monkeypatch.setattr(cf, "CHUNK_ROWS", 1000)
    chunked = parse_companyfacts(read_body(APPLE), document="a")
    assert chunked.facts.column(0).num_chunks > 10
    assert chunked.facts.combine_chunks().equals(whole.facts.combine_chunks())


@pytest.mark.parametrize("value", [2**53 + 1, 2**63 - 1, -(2**63) + 1])
def test_integers_a_double_cannot_hold_stay_exact(value):
    """Integers beyond 2**53 skip the float64 fast path and reach val_int digit for digit."""
    cf = parse_companyfacts(_mutated(_set("val", value)), document="big.json")
    ints = cf.facts.column("val_int").to_pylist()
    assert ints.count(value) == 1
    assert cf.facts.column("val_float").null_count == sum(v is not None for v in ints)
