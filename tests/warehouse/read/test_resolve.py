"""warehouse.read.resolve.resolve: tickers exactly, CIKs, names only when one candidate clearly wins."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipelines.documents import read_local_document
from pipelines.parse import parse_document
from warehouse.load.batch import Parsed, load_batch
from warehouse.read.resolve import resolve, score_name
from warehouse.store.db import connect

FIX = Path(__file__).parents[2] / "fixtures" / "sec"
PATHS = [FIX / "www.sec.gov" / "files" / "company_tickers.json.gz",
         FIX / "www.sec.gov" / "files" / "company_tickers_exchange.json.gz",
         FIX / "data.sec.gov" / "submissions" / "CIK0001494730.json.gz",
         FIX / "data.sec.gov" / "submissions" / "CIK0000940418.json.gz",
         FIX / "data.sec.gov" / "submissions" / "CIK0001830056.json.gz"]


@pytest.fixture(scope="module")
def con(tmp_path_factory):
    path = tmp_path_factory.mktemp("resolve") / "w.duckdb"
    c = connect(path)
    docs = [read_local_document(p) for p in PATHS]
    report = load_batch(c, [Parsed(d, parse_document(d)[1]) for d in docs], raw_dir=path.parent / "raw")
    assert report.status == "succeeded", report.summary()
    yield c
    c.close()


@pytest.mark.parametrize("query, cik, by", [
    ("AAPL", 320193, "ticker"), ("aapl", 320193, "ticker"), ("BRK.B", 1067983, "ticker"),
    ("brk-a", 1067983, "ticker"), ("TSM", 1046179, "ticker"),
    ("320193", 320193, "cik"), ("CIK0001494730", 1494730, "cik"),
    ("Apple Inc.", 320193, "name"), ("Tesla", 1318605, "name"), ("microsoft", 789019, "name"),
    ("Musk Elon", 1494730, "name"),
])
def test_resolves(con, query, cik, by):
    r = resolve(con, query)
    assert (r.status, r.cik, r.matched_by) == ("resolved", cik, by), r.message


def test_apple_is_ambiguous_and_ranked(con):
    r = resolve(con, "Apple")
    assert r.status == "ambiguous" and r.cik is None and "will not guess" in r.message
    names = [c.name for c in r.candidates]
    assert names[:2] == ["Apple Inc.", "Apple Hospitality REIT, Inc."]
    assert r.candidates[0].score > r.candidates[1].score


def test_siemens_is_ambiguous(con):
    r = resolve(con, "Siemens")
    assert r.status == "ambiguous"
    assert {c.cik for c in r.candidates} >= {940418, 1830056}


def test_not_found(con):
    assert resolve(con, "zzqx unknown co").status == "not_found"
    r = resolve(con, "9999999")
    assert (r.status, r.cik) == ("not_found", 9999999)
    assert resolve(con, "  ").status == "not_found"


def test_score_name():
    assert score_name("apple inc", "Apple Inc.")[0] == 1.0
    assert score_name("apple", "Apple Inc.")[0] == 0.9
    assert score_name("apple", "Apple Hospitality REIT, Inc.")[0] == 0.7
    assert score_name("apple", "Pineapple Financial Inc.")[0] == 0.0


def test_fuzzy_bounds_never_change_a_score():
    """The length and character bounds only skip names difflib's full ratio would refuse: every name of the
    vendored ticker file scores as the plain comparison scores it (a bound that cut a match fails here)."""
    import gzip
    import json
    from difflib import SequenceMatcher

    from warehouse.read.resolve import FUZZY, FUZZY_RATIO, NameScorer, _core, _words

    names = [v["title"] for v in json.loads(gzip.decompress(PATHS[0].read_bytes())).values()]
    fuzzy: dict[str, int] = {}
    for query in ["Berkshre Hathaway", "Mcrosoft", "Nvidea"]:
        score, qtext = NameScorer(query), " ".join(_core(_words(query)))
        for name in names:
            got = score(name)
            if got[1].startswith("similar spelling") or got[0] == 0.0:
                ratio = SequenceMatcher(None, qtext, " ".join(_core(_words(name)))).ratio()
                want = round(FUZZY * ratio, 3) if ratio >= FUZZY_RATIO else 0.0
                assert got[0] == want, (query, name, got, ratio)
                fuzzy[query] = fuzzy.get(query, 0) + (got[0] > 0)
    assert fuzzy["Berkshre Hathaway"] and fuzzy["Mcrosoft"], fuzzy  # the fuzzy branch was reached
