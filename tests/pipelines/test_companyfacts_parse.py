"""pipelines.companyfacts: real SEC companyfacts payloads -> columnar records, bad payloads rejected."""

from __future__ import annotations

import gzip
from collections import Counter

import orjson
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


@pytest.mark.parametrize("name", sorted(BAD_BODIES))
def test_bad_payload_rejected_naming_the_document(name):
    body, words = BAD_BODIES[name]
    uri = f"https://data.sec.gov/api/xbrl/companyfacts/{name}.json"
    with pytest.raises(RejectedDocument) as exc:
        parse_companyfacts(body, document=uri)
    assert exc.value.document == uri
    assert str(exc.value).startswith(uri)
    assert words.lower() in exc.value.reason.lower()


def test_cik_mismatch_rejected():
    with pytest.raises(RejectedDocument) as exc:
        parse_companyfacts(read_body(APPLE), document="CIK0001045810.json", expected_cik=1045810)
    assert exc.value.document == "CIK0001045810.json"
    assert "320193" in exc.value.reason and "1045810" in exc.value.reason
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
