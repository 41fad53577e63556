"""Loading companyfacts: exact values, one row per version, versions/restatements, point in time,
idempotency, vintages, bad input, crash safety and provenance. Real SEC data, real DuckDB."""

from __future__ import annotations

import dataclasses
import hashlib
import json
from datetime import date, datetime, timedelta
from decimal import Decimal
from pathlib import Path

import pytest

from helpers import COMPANYFACTS_DIR, COMPANYFACTS_FILES, VINTAGES_DIR, load_files, parse_document, read_body
from pipelines.companyfacts import CompanyFacts
from pipelines.documents import Document, read_local_document
from pipelines.errors import RejectedDocument
from warehouse.load import kinds
from warehouse.load.batch import Rejected, load_batch
from warehouse.store.db import connect, fetch_all, fetch_value, raw_dir_for
from warehouse.store.raw_payloads import read_raw

APPLE = COMPANYFACTS_DIR / "CIK0000320193.json.gz"
APPLE_OLD = VINTAGES_DIR / "CIK0000320193__filed-max-2024-11-01.json.gz"
TSM = COMPANYFACTS_DIR / "CIK0001046179.json.gz"
MRVL = COMPANYFACTS_DIR / "CIK0001835632.json.gz"

KEY_SQL = ("SELECT cik, taxonomy, concept, unit, CAST(period_start AS VARCHAR), CAST(period_end AS VARCHAR),"
           " accession")


def json_facts(path: Path) -> dict[tuple, dict]:
    """(cik, taxonomy, concept, unit, start, end, accession) -> the JSON fact, values as exact Decimals."""
    data = json.loads(read_body(path), parse_float=Decimal, parse_int=Decimal)
    cik = int(data["cik"])
    out: dict[tuple, dict] = {}
    for taxonomy, concepts in data["facts"].items():
        for concept, cd in concepts.items():
            for unit, rows in cd["units"].items():
                for r in rows:
                    key = (cik, taxonomy, concept, unit, r.get("start"), r["end"], r["accn"])
                    assert key not in out, f"duplicate key in {path.name}: {key}"
                    out[key] = r
    return out


@pytest.fixture(scope="module")
def all_json() -> dict[tuple, dict]:
    out: dict[tuple, dict] = {}
    for p in COMPANYFACTS_FILES:
        out.update(json_facts(p))
    return out


@pytest.fixture(scope="module")
def db_rows(loaded_con) -> dict[tuple, tuple]:
    rows = fetch_all(loaded_con, KEY_SQL + ", value, form, CAST(filed AS VARCHAR), frame, filing_fy, filing_fp FROM facts")
    return {r[:7]: r[7:] for r in rows}


def snapshot(con) -> dict[str, tuple]:
    """Row count and an order-independent checksum of every table in main."""
    tables = [t for (t,) in fetch_all(con, "SELECT table_name FROM duckdb_tables() WHERE schema_name = 'main'"
                                           " AND NOT temporary AND database_name = current_database()")]
    return {t: tuple(fetch_all(con, f'SELECT count(*), coalesce(sum(hash(x)), 0) FROM "{t}" x')[0]) for t in tables}


# --------------------------------------------------------------------------- grain and exact values

def test_one_facts_row_per_distinct_json_key(db_rows, all_json, loaded_con):
    assert fetch_value(loaded_con, "SELECT count(*) FROM facts") == len(all_json) == 157_335
    assert db_rows.keys() == all_json.keys()


def test_integer_values_exact(db_rows, all_json):
    ints = {k: r["val"] for k, r in all_json.items() if r["val"].as_tuple().exponent >= 0}
    assert len(ints) > 140_000
    wrong = {k: (db_rows[k][0], v) for k, v in ints.items() if db_rows[k][0] != v}
    assert not wrong


def test_every_value_reads_back_exactly_as_published(db_rows, all_json):
    decimals = {k: r["val"] for k, r in all_json.items() if r["val"].as_tuple().exponent < 0}
    assert len(decimals) > 10_000
    wrong = {k: (str(db_rows[k][0]), str(v)) for k, v in decimals.items() if db_rows[k][0] != v}
    assert not wrong, f"{len(wrong)} values differ, e.g. {list(wrong.items())[:3]}"


def test_filing_attributes_as_sec_gave_them(db_rows, all_json):
    wrong = []
    for k, r in all_json.items():
        _, form, filed, frame, fy, fp = db_rows[k]
        expected = (r.get("form"), r["filed"], r.get("frame"), r.get("fy"), r.get("fp"))
        if (form, filed, frame, fy, fp) != expected:
            wrong.append((k, (form, filed, frame, fy, fp), expected))
    assert not wrong, wrong[:3]


def test_null_fy_fp_kept_null_and_still_get_own_fiscal_year(loaded_con, all_json):
    json_null = sum(1 for k, r in all_json.items() if k[0] == 320193 and r.get("fy") is None)
    rows = fetch_all(loaded_con, "SELECT count(*), count(DISTINCT form), count(fiscal_year), any_value(form)"
                         " FROM facts WHERE cik = 320193 AND filing_fy IS NULL AND filing_fp IS NULL")
    n, forms, with_own_year, form = rows[0]
    assert n == json_null > 500 and forms == 1 and form == "8-K"
    assert with_own_year == n  # the value's own year does not depend on the filing's fy


def test_taxonomies_units_and_durations(loaded_con):
    taxonomies = {t for (t,) in fetch_all(loaded_con, "SELECT DISTINCT taxonomy FROM facts")}
    assert {"us-gaap", "ifrs-full", "dei", "srt", "ecd", "ffd", "invest"} <= taxonomies
    tsm_units = {u for (u,) in fetch_all(loaded_con, "SELECT DISTINCT unit FROM facts WHERE cik = 1046179")}
    assert {"TWD", "TWD/shares", "USD", "EUR"} <= tsm_units
    bad = fetch_value(loaded_con, """
        SELECT count(*) FROM facts
        WHERE (period_start IS NULL) <> (duration_days IS NULL)
           OR duration_days IS DISTINCT FROM CAST(period_end - period_start AS INTEGER)
           OR duration_class IS DISTINCT FROM duration_class_of(period_start, duration_days)
           OR (period_start IS NULL) <> (duration_class = 'instant')""")
    assert bad == 0


# --------------------------------------------------------------------------- versions and restatements

SALES_2009 = ("WHERE cik = 320193 AND taxonomy = 'us-gaap' AND concept = 'SalesRevenueNet' AND unit = 'USD'"
              " AND period_start = DATE '2008-09-28' AND period_end = DATE '2009-09-26'")


def test_apple_2010_10ka_restatement_surfaced(loaded_con):
    rows = fetch_all(loaded_con, "SELECT old_value, new_value, old_accession, new_accession, old_filed, new_filed,"
                         " new_form, change_kind, fiscal_year, fiscal_period FROM fact_restatements " + SALES_2009)
    assert rows == [(Decimal(36_537_000_000), Decimal(42_905_000_000), "0001193125-09-214859",
                     "0001193125-10-012091", date(2009, 10, 27), date(2010, 1, 25), "10-K/A", "amendment",
                     2009, "FY")]


def test_apple_facts_current_after_restatement(loaded_con):
    (row,) = fetch_all(loaded_con, "SELECT value, restated, versions, first_value, first_accession, first_filed,"
                           " prior_value, prior_accession, prior_filed, accession, fiscal_year, fiscal_period"
                           " FROM facts_current " + SALES_2009)
    value, restated, versions, first_value, first_acc, first_filed, prior_value, prior_acc, prior_filed, \
        acc, fy, fp = row
    assert value == Decimal(42_905_000_000) and restated is True and versions >= 2
    assert (first_value, first_acc, first_filed) == (Decimal(36_537_000_000), "0001193125-09-214859",
                                                     date(2009, 10, 27))
    # prior = the last DIFFERENT value (the 10-K's 36,537M), not a later 10-K re-filing 42,905M unchanged
    assert (prior_value, prior_acc, prior_filed) == (Decimal(36_537_000_000), "0001193125-09-214859",
                                                     date(2009, 10, 27))
    assert prior_acc != acc and (fy, fp) == (2009, "FY")


def test_facts_current_is_one_row_per_key_and_the_latest_version(loaded_con):
    n_keys = fetch_value(loaded_con, "SELECT count(*) FROM (SELECT DISTINCT cik, taxonomy, concept, unit, period_start,"
                             " period_end FROM facts)")
    assert fetch_value(loaded_con, "SELECT count(*) FROM facts_current") == n_keys
    # versions add up, and nothing newer exists than the current version
    n_facts = fetch_value(loaded_con, "SELECT count(*) FROM facts")
    assert fetch_value(loaded_con, "SELECT sum(versions) FROM facts_current") == n_facts
    newer = fetch_value(loaded_con, """
        SELECT count(*) FROM facts_current c JOIN fact_versions v USING (cik, taxonomy, concept, unit, period_end)
        WHERE v.period_start IS NOT DISTINCT FROM c.period_start
          AND (v.known_from, v.filed, v.accession) > (c.known_from, c.filed, c.accession)""")
    assert newer == 0
    # restated <=> the key has more than one distinct value <=> it has a row in fact_restatements
    mismatch = fetch_value(loaded_con, """
        WITH d AS (SELECT cik, taxonomy, concept, unit, period_start, period_end, count(DISTINCT value) > 1 AS r
                   FROM facts GROUP BY ALL)
        SELECT count(*) FROM facts_current c JOIN d USING (cik, taxonomy, concept, unit, period_end)
        WHERE d.period_start IS NOT DISTINCT FROM c.period_start AND c.restated <> d.r""")
    assert mismatch == 0


CURRENT_COLUMNS = ("cik, taxonomy, concept, unit, period_start, period_end, value, accession, form, filed, known_from,"
                   " frame, filing_fy, filing_fp, fiscal_year, fiscal_period, duration_days, duration_class, versions,"
                   " confirmations, prior_value IS NOT NULL AS restated, value_first_accession, value_first_filed,"
                   " prior_value, prior_accession, prior_filed, first_value, first_accession, first_filed,"
                   " source_document_id, load_id")


def _current_rows_are_the_last_ranked_versions(con) -> None:
    """facts_current_of finds each key's bookkeeping with an aggregate over the run starts; it must
    be facts_ranked's (the running windows over every version) for each key's last version."""
    ranked = f"SELECT {CURRENT_COLUMNS} FROM facts_ranked WHERE version_number = versions"
    assert fetch_value(con, "SELECT count(*) FROM facts_current_of(NULL)") == fetch_value(
        con, f"SELECT count(*) FROM ({ranked})") > 0
    for a, b in ((ranked, "SELECT * FROM facts_current_of(NULL)"), ("SELECT * FROM facts_current_of(NULL)", ranked)):
        assert fetch_value(con, f"SELECT count(*) FROM ({a} EXCEPT ALL {b})") == 0


def test_current_rows_are_the_last_versions_of_facts_ranked(loaded_con):
    assert fetch_value(loaded_con, "SELECT count(*) FROM facts_current WHERE restated") > 0
    _current_rows_are_the_last_ranked_versions(loaded_con)


# --------------------------------------------------------------------------- point in time

@pytest.mark.parametrize(("ts", "expected"), [
    ("2009-10-27 23:59:59", []),                       # the 10-K's filed day is not over yet
    ("2010-01-24 12:00:00", [Decimal(36_537_000_000)]),  # day before the 10-K/A
    ("2010-01-26 12:00:00", [Decimal(42_905_000_000)]),  # after the 10-K/A
    ("2024-01-01 00:00:00", [Decimal(42_905_000_000)]),
])
def test_facts_as_of_apple_fy2009_sales(loaded_con, ts, expected):
    assert [v for (v,) in fetch_all(loaded_con, "SELECT value FROM facts_as_of(CAST(? AS TIMESTAMP)) " + SALES_2009,
                                    [ts])] == expected


@pytest.mark.parametrize("ts", ["2009-08-01", "2012-03-01 10:00", "2016-11-15", "2020-02-29 23:00",
                                "2024-11-02 06:00", "2100-01-01"])
def test_facts_as_of_never_shows_the_future(loaded_con, ts):
    t = datetime.fromisoformat(ts)
    max_known, n = fetch_all(loaded_con, "SELECT max(known_from), count(*) FROM facts_as_of(?)", [t])[0]
    assert n > 0 and max_known <= t
    keys_known = fetch_value(loaded_con, "SELECT count(*) FROM (SELECT DISTINCT cik, taxonomy, concept, unit, period_start,"
                                 " period_end FROM fact_versions WHERE known_from <= ?)", [t])
    assert n == keys_known
    # each row is the latest version known by ts (independent arg_max)
    wrong = fetch_value(loaded_con, """
        WITH want AS (
            SELECT cik, taxonomy, concept, unit, period_start, period_end,
                   arg_max(accession, (known_from, filed, accession)) AS accession
            FROM fact_versions WHERE known_from <= $t GROUP BY ALL)
        SELECT count(*) FROM want w ANTI JOIN facts_as_of($t) a
          ON a.cik = w.cik AND a.taxonomy = w.taxonomy AND a.concept = w.concept AND a.unit = w.unit
         AND a.period_start IS NOT DISTINCT FROM w.period_start AND a.period_end = w.period_end
         AND a.accession = w.accession""", {"t": t})
    assert wrong == 0


def test_known_from_is_never_before_the_end_of_the_filed_day(loaded_con):
    # midnight New York is 04:00 (EDT) or 05:00 (EST) UTC of the next day
    early = fetch_value(loaded_con, "SELECT count(*) FROM fact_versions WHERE known_from_basis = 'filed_day_end'"
                            " AND known_from < CAST(filed AS TIMESTAMP) + INTERVAL 29 HOUR")
    assert early == 0


# --------------------------------------------------------------------------- idempotency and vintages

def test_same_payload_twice_adds_nothing(warehouse, raw_dir):
    first = load_files(warehouse, [TSM], raw_dir)
    assert (first.loaded, first.unchanged, first.status) == (1, 0, "succeeded")
    before = snapshot(warehouse)
    second = load_files(warehouse, [TSM], raw_dir)
    assert (second.loaded, second.unchanged, second.status, sum(second.row_counts.values())) == (0, 1, "succeeded", 0)
    after = snapshot(warehouse)
    assert {k: v for k, v in after.items() if k != "load_runs"} == {k: v for k, v in before.items() if k != "load_runs"}
    assert fetch_all(warehouse, "SELECT status, documents_loaded, documents_unchanged FROM load_runs"
                                " WHERE load_id = ?", [second.load_id]) == [("succeeded", 0, 1)]


@pytest.fixture(scope="module")
def apple_vintage_keys() -> tuple[dict, dict]:
    return json_facts(APPLE_OLD), json_facts(APPLE)


@pytest.fixture(scope="module")
def apple_vintages(tmp_path_factory) -> dict[str, tuple[Path, list]]:
    """Apple's older vintage and the current payload loaded in both orders: order -> (db, reports)."""
    out = {}
    for order, files in {"old_new": [APPLE_OLD, APPLE], "new_old": [APPLE, APPLE_OLD]}.items():
        path = tmp_path_factory.mktemp(order) / "w.duckdb"
        con = connect(path)
        try:
            out[order] = (path, [load_files(con, [f], raw_dir_for(path)) for f in files])
        finally:
            con.close()
    return out


@pytest.fixture(params=["old_new", "new_old"])
def vintage_con(request, apple_vintages):
    """A read-only connection to Apple's two vintages loaded in each order (see apple_vintages)."""
    con = connect(apple_vintages[request.param][0], read_only=True)
    yield con
    con.close()


def _keys(con) -> set[tuple]:
    return set(fetch_all(con, KEY_SQL + " FROM facts"))


def _pairs(facts: dict[tuple, dict]) -> set[tuple]:
    return {(*k, r["val"]) for k, r in facts.items()}


def test_older_then_newer_vintage_adds_only_new_versions(apple_vintages, apple_vintage_keys, loaded_con):
    old, new = apple_vintage_keys
    corrected = {k for k in old.keys() & new.keys() if old[k]["val"] != new[k]["val"]}
    path, (r1, r2) = apple_vintages["old_new"]
    assert r1.row_counts["facts"] == len(old)
    # the newer payload adds its new versions, plus SEC's corrections of values under an old accession
    assert r2.row_counts["facts"] == len(new.keys() - old.keys()) + len(corrected)
    con = connect(path, read_only=True)
    try:
        assert _keys(con) == old.keys() | new.keys()
        rows = fetch_all(con, KEY_SQL + ", value FROM facts")
        assert len(rows) == len(set(rows))  # no version stored twice
        assert set(rows) == _pairs(old) | _pairs(new)
        assert dict(fetch_all(con, "SELECT load_id, count(*) FROM facts GROUP BY 1")) == {
            r1.load_id: len(old), r2.load_id: r2.row_counts["facts"]}
        # fiscal years after an incremental load equal those of a one-shot load of the newest payload
        fiscal = ("SELECT cik, taxonomy, concept, unit, period_start, period_end, accession, fiscal_year,"
                  " fiscal_period, fiscal_basis FROM facts WHERE cik = 320193")
        assert set(fetch_all(con, fiscal)) == set(fetch_all(loaded_con, fiscal))
    finally:
        con.close()


def test_newer_then_older_vintage_adds_nothing_new(apple_vintages, apple_vintage_keys):
    old, new = apple_vintage_keys
    path, (r1, r2) = apple_vintages["new_old"]
    assert r1.row_counts["facts"] == len(new) and r2.loaded == 1
    assert len(old.keys() - new.keys()) == 0  # every old version is still in the newer payload
    con = connect(path, read_only=True)
    try:
        assert _keys(con) == new.keys()
        assert set(fetch_all(con, KEY_SQL + ", value FROM facts")) <= _pairs(old) | _pairs(new)
    finally:
        con.close()


@pytest.mark.parametrize("view", ["facts_current", "fact_restatements"])
def test_vintage_load_order_does_not_matter(apple_vintages, view):
    cols = {"facts_current": "cik, taxonomy, concept, unit, period_start, period_end, value, accession, versions,"
                             " restated, first_value, first_accession, prior_value, fiscal_year, fiscal_period",
            "fact_restatements": "cik, taxonomy, concept, unit, period_start, period_end, old_value, new_value,"
                                 " old_accession, new_accession, change_kind"}[view]
    seen = []
    for order in ("old_new", "new_old"):
        con = connect(apple_vintages[order][0], read_only=True)
        try:
            seen.append(set(fetch_all(con, f"SELECT {cols} FROM {view}")))
        finally:
            con.close()
    assert seen[0] == seen[1] and seen[0]


CURRENT_COLS = "cik, taxonomy, concept, unit, period_start, period_end, accession, value"


def _stored_restatements_are_computed_ones(con) -> None:
    """fact_restatements_rows (kept by loads, read by fact_restatements) = fact_restatements_of(NULL)."""
    assert fetch_value(con, "SELECT count(*) FROM fact_restatements_rows") > 0
    for a, b in (("fact_restatements_rows", "fact_restatements_of(NULL)"),
                 ("fact_restatements_of(NULL)", "fact_restatements_rows")):
        assert fetch_value(con, f"SELECT count(*) FROM (SELECT * FROM {a} EXCEPT ALL SELECT * FROM {b})") == 0


def test_stored_restatements_are_the_computed_ones(loaded_con):
    _stored_restatements_are_computed_ones(loaded_con)


def test_stored_restatements_of_vintages_are_the_computed_ones(vintage_con):
    """Apple loaded in two payloads, both orders: the second load rewrites that company's rows."""
    _stored_restatements_are_computed_ones(vintage_con)


def test_facts_as_of_the_far_future_is_facts_current(vintage_con):
    current = set(fetch_all(vintage_con, f"SELECT {CURRENT_COLS} FROM facts_current"))
    assert current == set(fetch_all(vintage_con, f"SELECT {CURRENT_COLS} FROM facts_as_of(TIMESTAMP '2100-01-01')"))


def test_sec_correction_under_same_accession_is_kept_and_current(vintage_con, apple_vintage_keys):
    # between the two vintages SEC re-issued 56 Apple par values (0 -> 0.00001) under their old accessions
    old, new = apple_vintage_keys
    corrected = {k: new[k]["val"] for k in old.keys() & new.keys() if old[k]["val"] != new[k]["val"]}
    assert len(corrected) == 56
    current = {r[:6]: (r[6], r[7]) for r in fetch_all(
        vintage_con, "SELECT cik, taxonomy, concept, unit, CAST(period_start AS VARCHAR), CAST(period_end AS VARCHAR),"
                     " accession, value FROM facts_current WHERE cik = 320193")}
    # where the corrected filing is the key's latest, readers see SEC's corrected value
    latest = {k: v for k, v in corrected.items() if current[k[:6]][0] == k[6]}
    assert latest and all(current[k[:6]][1] == v for k, v in latest.items())
    # and the original value is not lost: it is a version of its own
    stored = set(fetch_all(vintage_con, KEY_SQL + ", value FROM facts WHERE cik = 320193"))
    assert all((*k, old[k]["val"]) in stored and (*k, v) in stored for k, v in corrected.items())


def test_current_rows_of_vintages_are_the_last_versions_of_facts_ranked(vintage_con):
    """With SEC corrections under an accession already stored (revision > 0) and re-filed values."""
    assert fetch_value(vintage_con, "SELECT count(*) FROM fact_versions WHERE revision > 0") > 0
    assert fetch_value(vintage_con, "SELECT count(*) FROM facts_current WHERE confirmations > 0") > 0
    _current_rows_are_the_last_ranked_versions(vintage_con)


def test_sec_correction_is_not_public_before_it_was_fetched(vintage_con, apple_vintage_keys):
    """A value SEC re-issued under an old accession must not appear in facts_as_of at times before
    we saw it (the original filing's acceptance is not when the correction became public)."""
    old, new = apple_vintage_keys
    corrected = {k: (old[k]["val"], new[k]["val"]) for k in old.keys() & new.keys()
                 if old[k]["val"] != new[k]["val"]}
    fetched = fetch_value(vintage_con, "SELECT max(fetched_at) FROM source_documents")
    sql_at = ("SELECT cik, taxonomy, concept, unit, CAST(period_start AS VARCHAR), CAST(period_end AS VARCHAR),"
              " accession, value FROM facts_as_of(CAST(? AS TIMESTAMP)) WHERE cik = 320193")
    before = {r[:7]: r[7] for r in fetch_all(vintage_con, sql_at, [datetime(2025, 1, 1)])}
    after = {r[:7]: r[7] for r in fetch_all(vintage_con, sql_at, [fetched + timedelta(seconds=1)])}
    shown_before = {k: v for k, v in before.items() if k in corrected}
    assert shown_before and all(v == corrected[k][0] for k, v in shown_before.items())
    shown_after = {k: v for k, v in after.items() if k in corrected}
    assert shown_after and all(v == corrected[k][1] for k, v in shown_after.items())
    basis = fetch_all(vintage_con, "SELECT DISTINCT known_from_basis FROM fact_versions WHERE revision > 0")
    assert basis == [("correction_fetched_at",)]


# --------------------------------------------------------------------------- bad input

def _doc(uri: str, body: bytes, expected_cik: int | None = None) -> Document:
    return Document(uri=uri, origin="file", body=body, kind="companyfacts", expected_cik=expected_cik)


BAD = {
    "truncated.json": (lambda: read_body(MRVL)[:50_000], None, "truncated"),
    "garbage.json": (lambda: b"this is not json", None, "json"),
    "throttle.html": (lambda: b"<!DOCTYPE html><html><body>Request Rate Threshold Exceeded</body></html>", None, "html"),
    "wrong-cik.json": (lambda: read_body(MRVL), 320193, "cik"),
    "empty-facts.json": (lambda: b'{"cik":1835632,"entityName":"MARVELL","facts":{}}', None, "no facts"),
}


def test_bad_documents_rejected_and_the_good_one_loads(warehouse, raw_dir):
    items = [parse_document(read_local_document(TSM, kind="companyfacts"))]
    for uri, (body, cik, _) in BAD.items():
        items.append(parse_document(_doc(uri, body(), cik)))
    assert [type(i).__name__ for i in items] == ["Parsed"] + ["Rejected"] * len(BAD)
    for item in items[1:]:
        assert item.error.document == item.doc.uri and item.doc.uri in str(item.error)

    report = load_batch(warehouse, items, raw_dir=raw_dir)
    assert report.status == "partial" and report.loaded == 1
    assert [u for u, _ in report.rejected] == list(BAD)

    docs = fetch_all(warehouse, "SELECT uri, status, reject_reason, raw_path, sha256, load_id FROM source_documents"
                                " ORDER BY source_document_id")
    assert [(u, s) for u, s, *_ in docs] == [(str(TSM), "loaded")] + [(u, "rejected") for u in BAD]
    for (uri, _, reason, raw_path, sha, load_id), (words) in zip(docs[1:], [w for *_, w in BAD.values()],
                                                                 strict=True):
        assert reason and words in reason.lower(), (uri, reason)
        assert load_id == report.load_id
        assert hashlib.sha256(read_raw(raw_dir, raw_path)).hexdigest() == sha  # quarantined, byte for byte
    assert fetch_all(warehouse, "SELECT status, documents_loaded, documents_rejected FROM load_runs") == [
        ("partial", 1, len(BAD))]
    assert fetch_all(warehouse, "SELECT DISTINCT cik FROM facts") == [(1046179,)]
    assert fetch_value(warehouse, "SELECT count(*) FROM facts") == len(json_facts(TSM))


def test_loader_rejection_retries_the_batch_without_that_document(warehouse, raw_dir, monkeypatch):
    real = kinds.LOADERS[CompanyFacts]

    def picky(con, ctx, record):
        if record.cik == 1835632:
            raise RejectedDocument("?", "loader found it bad")
        return real.loader(con, ctx, record)

    monkeypatch.setitem(kinds.LOADERS, CompanyFacts, dataclasses.replace(real, loader=picky, many=None))
    report = load_files(warehouse, [MRVL, TSM], raw_dir)
    assert report.status == "partial" and report.loaded == 1
    assert report.rejected == [(str(MRVL), "loader found it bad")]
    assert fetch_all(warehouse, "SELECT uri, status FROM source_documents ORDER BY source_document_id") == [
        (str(MRVL), "rejected"), (str(TSM), "loaded")]
    assert fetch_all(warehouse, "SELECT DISTINCT cik FROM facts") == [(1046179,)]
    assert fetch_all(warehouse, "SELECT count(*), max(status) FROM load_runs") == [(1, "partial")]


def _bad_fact_doc(uri: str, val: str, end: str) -> Document:
    fact = ('{"start":"2023-01-29","end":"%END%","val":%VAL%,"accn":"0001835632-24-000001","filed":"2024-03-01",'
            '"form":"10-K","fy":2024,"fp":"FY"}').replace("%END%", end).replace("%VAL%", val)
    body = ('{"cik":1835632,"entityName":"X","facts":{"us-gaap":{"Revenues":{"units":{"USD":[' + fact
            + ']}}}}}').encode()
    return _doc(uri, body)


@pytest.mark.parametrize(("val", "end"), [("1e30", "2024-02-03"), ("5", "2024-02-31")], ids=["huge", "bad-date"])
def test_unstorable_document_is_rejected_not_fatal(warehouse, raw_dir, val, end):
    items = [parse_document(_bad_fact_doc("odd.json", val, end)),
             parse_document(read_local_document(TSM, kind="companyfacts"))]
    report = load_batch(warehouse, items, raw_dir=raw_dir)
    assert report.status == "partial" and report.loaded == 1 and [u for u, _ in report.rejected] == ["odd.json"]


def _subset(path: Path, taxonomy: str) -> Document:
    """A small real payload: one taxonomy of a vendored companyfacts file."""
    data = json.loads(read_body(path))
    data["facts"] = {taxonomy: data["facts"][taxonomy]}
    return _doc(f"{path.name}#{taxonomy}", json.dumps(data).encode())


def test_failed_load_leaves_the_warehouse_exactly_as_before(warehouse, raw_dir, monkeypatch, loaded_con):
    assert load_batch(warehouse, [parse_document(_subset(APPLE, "dei"))], raw_dir=raw_dir).loaded == 1
    before = snapshot(warehouse)
    assert before["facts"][0] > 0 and before["fiscal_calendar"][0] > 0
    runs_before = fetch_all(warehouse, "SELECT * FROM load_runs")
    real = kinds.LOADERS[CompanyFacts]

    def crash_after_insert(con, ctx, record):
        counts = real.loader(con, ctx, record)
        if record.cik == 1046179:
            assert fetch_value(con, "SELECT count(*) FROM facts WHERE cik = 1046179") > 0  # really mid-load
            raise OSError("boom: no space left on device")  # the machine's fault, not the document's
        return counts

    monkeypatch.setitem(kinds.LOADERS, CompanyFacts, dataclasses.replace(real, loader=crash_after_insert, many=None))
    bad = Rejected(_doc("bad.json", b"{"), RejectedDocument("bad.json", "truncated"))
    items = [parse_document(read_local_document(MRVL, kind="companyfacts")), bad,
             parse_document(read_local_document(TSM, kind="companyfacts"))]
    with pytest.raises(OSError, match="boom"):
        load_batch(warehouse, items, raw_dir=raw_dir, load_id="crash-run")

    after = snapshot(warehouse)
    assert {k: v for k, v in after.items() if k != "load_runs"} == {k: v for k, v in before.items() if k != "load_runs"}
    assert fetch_all(warehouse, "SELECT * FROM load_runs WHERE load_id <> 'crash-run'") == runs_before
    (status, error, loaded, finished) = fetch_all(
        warehouse, "SELECT status, error, documents_loaded, finished_at FROM load_runs WHERE load_id = 'crash-run'")[0]
    assert status == "failed" and "OSError: boom" in error and loaded == 0 and finished is not None

    # re-running converges to what a clean load gives
    monkeypatch.setitem(kinds.LOADERS, CompanyFacts, real)
    again = load_batch(warehouse, items, raw_dir=raw_dir)
    assert again.status == "partial" and again.loaded == 2
    cols = KEY_SQL + ", value, fiscal_year, fiscal_period, fiscal_basis FROM facts WHERE cik IN (1835632, 1046179)"
    assert set(fetch_all(warehouse, cols)) == set(fetch_all(loaded_con, cols))


def test_sql_error_in_loader_rejects_that_document_with_its_real_cause(warehouse, raw_dir, monkeypatch):
    import warehouse.load.companyfacts as lcf

    def broken_calendar(con, ciks, load_id, **_):
        con.execute("SELECT CAST('not a number' AS INTEGER)")

    monkeypatch.setattr(lcf, "rebuild_calendars", broken_calendar)
    report = load_batch(warehouse, [parse_document(_subset(APPLE, "dei"))], raw_dir=raw_dir, load_id="run-x")
    assert report.status == "partial" and report.loaded == 0
    [(uri, reason)] = report.rejected
    assert uri.endswith("#dei") and "ConversionException" in reason, reason
    assert fetch_all(warehouse, "SELECT status, documents_rejected FROM load_runs WHERE load_id = 'run-x'") == [
        ("partial", 1)]
    assert fetch_value(warehouse, "SELECT reject_reason FROM source_documents") == reason


def test_a_value_error_in_payloads_stored_together_rejects_only_its_document(warehouse, raw_dir, monkeypatch):
    """Payloads of different companies are stored by one call (Kind.many); a value error in
    that call cannot say whose value it was, so the batch is retried one payload at a time and only
    the payload that fails alone is rejected, named, with its real cause; the other one loads."""
    import warehouse.load.companyfacts as lcf

    real = lcf.rebuild_calendars
    calls = []

    def calendar_failing_for_tsm(con, ciks, load_id, **kw):
        calls.append(sorted(ciks))
        if 1046179 in ciks:
            con.execute("SELECT CAST('not a number' AS INTEGER)")
        return real(con, ciks, load_id, **kw)

    monkeypatch.setattr(lcf, "rebuild_calendars", calendar_failing_for_tsm)
    docs = [parse_document(read_local_document(p, kind="companyfacts")) for p in (MRVL, TSM)]
    report = load_batch(warehouse, docs, raw_dir=raw_dir, load_id="run-t")
    assert calls[0] == [1046179, 1835632], calls  # the first attempt stored both together
    assert report.status == "partial" and report.loaded == 1
    [(uri, reason)] = report.rejected
    assert uri == str(TSM) and "ConversionException" in reason, (uri, reason)
    assert fetch_value(warehouse, "SELECT count(DISTINCT cik) FROM facts") == 1
    assert fetch_value(warehouse, "SELECT min(cik) FROM facts") == 1835632


def test_two_batches_in_one_run_keep_the_run_totals(warehouse, raw_dir):
    bad = Rejected(_doc("bad.json", b"{"), RejectedDocument("bad.json", "truncated"))
    first = load_batch(warehouse, [parse_document(read_local_document(TSM, kind="companyfacts")), bad],
                       raw_dir=raw_dir, load_id="run-1")
    second = load_files(warehouse, [MRVL], raw_dir, load_id="run-1")
    (status, loaded, rejected, counts) = fetch_all(
        warehouse, "SELECT status, documents_loaded, documents_rejected, row_counts FROM load_runs")[0]
    assert (loaded, rejected) == (2, 1)
    assert json.loads(counts)["facts"] == first.row_counts["facts"] + second.row_counts["facts"]
    assert status == "partial"


# --------------------------------------------------------------------------- provenance

def test_every_fact_leads_to_a_loaded_document_and_a_run(loaded_con):
    orphans = fetch_value(loaded_con, """
        SELECT count(*) FROM facts f
        WHERE NOT EXISTS (SELECT 1 FROM source_documents d WHERE d.source_document_id = f.source_document_id
                            AND d.status = 'loaded' AND length(d.sha256) = 64 AND d.cik = f.cik)
           OR NOT EXISTS (SELECT 1 FROM load_runs r WHERE r.load_id = f.load_id AND r.status = 'succeeded')""")
    assert orphans == 0
    (status, loaded, counts) = fetch_all(loaded_con, "SELECT status, documents_loaded, row_counts FROM load_runs")[0]
    assert (status, loaded) == ("succeeded", 8)
    assert json.loads(counts)["facts"] == fetch_value(loaded_con, "SELECT count(*) FROM facts")
    assert fetch_value(loaded_con, "SELECT count(*) FROM companies WHERE name IS NOT NULL") == 8


def test_raw_payloads_kept_byte_exact(loaded_con, loaded_warehouse):
    raw = raw_dir_for(loaded_warehouse)
    docs = fetch_all(loaded_con, "SELECT uri, sha256, bytes, raw_path, origin, kind FROM source_documents")
    assert len(docs) == 8
    for uri, sha, size, raw_path, origin, kind in docs:
        body = read_raw(raw, raw_path)
        assert hashlib.sha256(body).hexdigest() == sha and len(body) == size
        assert body == read_body(uri) and (origin, kind) == ("file", "companyfacts")


def test_document_record_is_replaceable_with_expected_cik():
    # sanity for the helper used above: replace() keeps the body and hash
    doc = read_local_document(TSM)
    other = dataclasses.replace(doc, expected_cik=1046179)
    assert other.sha256 == doc.sha256 and other.expected_cik == 1046179


def test_a_key_listed_twice_under_one_accession_is_current_as_facts_ranked_says(tmp_path):
    """A payload that lists one fact twice under one accession with one value (Marvell's file with one
    Assets entry repeated): facts keeps both rows, fact_versions numbers the second revision 1 (public from
    our fetch), and that key's current row must still be facts_ranked's last version. The key is
    listed in fact_repeated_keys, so facts_current_of ranks it instead of taking its newest filing."""
    data = json.loads(read_body(MRVL))
    rows = data["facts"]["us-gaap"]["Assets"]["units"]["USD"]
    entry = next(r for r in rows if r.get("form") == "10-Q")
    rows.append(dict(entry))
    body = json.dumps(data).encode()
    doc = Document(uri="file://mrvl-repeated.json", origin="file", body=body, kind="companyfacts")
    path = tmp_path / "w.duckdb"
    con = connect(path)
    try:
        report = load_batch(con, [parse_document(doc)], raw_dir=raw_dir_for(path))
        assert report.row_counts["fact_repeated_keys"] == 1
        key = ("SELECT count(*) FROM {} WHERE concept = 'Assets' AND unit = 'USD' AND period_end = ?"
               " AND period_start IS NOT DISTINCT FROM ?")
        args = [date.fromisoformat(entry["end"]), date.fromisoformat(entry["start"]) if "start" in entry else None]
        assert fetch_value(con, key.format("fact_repeated_keys"), args) == 1
        assert fetch_value(con, key.format("fact_versions") + f" AND accession = '{entry['accn']}'"
                           " AND revision = 1", args) == 1
        _current_rows_are_the_last_ranked_versions(con)
        assert fetch_value(con, "SELECT count(*) FROM (SELECT * FROM facts_current_rows EXCEPT ALL"
                                " SELECT * FROM facts_current_of(NULL))") == 0
    finally:
        con.close()


def test_payloads_stored_together_give_what_one_by_one_gives(tmp_path, monkeypatch):
    """A batch's companyfacts are stored by one call per run of different companies
    (Kind.many); a company's second payload waits for the call storing its first. Every
    table, and every payload's counts, equal those of storing the payloads one by one."""
    from warehouse.store.integrity import table_checksums

    # Apple twice: an older vintage, then today's; read once (one fetched_at each, as SEC served them)
    docs = [read_local_document(p, kind="companyfacts") for p in (APPLE_OLD, TSM, APPLE, MRVL)]

    def run(name: str) -> tuple[dict, dict]:
        con = connect(tmp_path / f"{name}.duckdb")
        try:
            report = load_batch(con, [parse_document(d) for d in docs], raw_dir=raw_dir_for(tmp_path / f"{name}.duckdb"))
            assert report.status == "succeeded" and report.loaded == len(docs)
            return table_checksums(con), dict(report.row_counts)
        finally:
            con.close()

    together = run("together")
    monkeypatch.setitem(kinds.LOADERS, CompanyFacts, dataclasses.replace(kinds.LOADERS[CompanyFacts], many=None))
    one_by_one = run("one_by_one")
    assert [t for t in together[0] if together[0][t] != one_by_one[0][t]] == []
    assert together[1] == one_by_one[1]


def test_repeated_rows_are_what_a_group_by_of_the_key_and_accession_counts_twice():
    """warehouse.load.companyfacts._repeated_rows (each row's key and accession mixed into one int64)
    finds exactly the rows an Arrow group_by of the six strings counts more than once: none in any
    vendored payload, and, in Marvell's with an instant (null period_start) and a duration entry each
    repeated, those four rows."""
    import pyarrow.compute as pc

    from pipelines.companyfacts import parse_companyfacts
    from warehouse.load.companyfacts import _KEY_ACCESSION, _repeated_rows

    def grouped(facts):
        counts = facts.select(_KEY_ACCESSION).group_by(_KEY_ACCESSION, use_threads=False).aggregate(
            [([], "count_all")])
        repeated = counts.filter(pc.greater(counts.column("count_all"), 1))
        return sorted(tuple(r[c] for c in _KEY_ACCESSION) for r in repeated.to_pylist())

    for path in COMPANYFACTS_FILES:
        facts = parse_companyfacts(read_body(path), document=path.name).facts
        assert _repeated_rows(facts).num_rows == 0 and grouped(facts) == [], path.name
    data = json.loads(read_body(MRVL))
    assets = data["facts"]["us-gaap"]["Assets"]["units"]["USD"]
    revenue = next(v for k, v in data["facts"]["us-gaap"].items() if k.startswith("Revenue"))["units"]["USD"]
    assets.append(dict(assets[3]))
    revenue.insert(0, dict(revenue[-1]))
    facts = parse_companyfacts(json.dumps(data).encode(), document="mrvl-repeated.json").facts
    found = _repeated_rows(facts)
    assert found.num_rows == 4 and found.column("period_start").null_count == 2
    assert sorted(set(tuple(r[c] for c in _KEY_ACCESSION) for r in found.to_pylist())) == grouped(facts)
    # six columns of 2,047 distinct values (dictionary size 2,048 = 2**11 with the null code): mixed
    # without renumbering, the first column would be shifted 55 bits and lose its top bits past 64, and
    # a row differing from another only by 512 in the first column's index would look like a repeat
    import pyarrow as pa

    rows = [[f"{c}{i}" for c in _KEY_ACCESSION] for i in range(2047)]
    rows.append([rows[3 + 512][0], *rows[3][1:]])  # no repeat: its first column differs from row 3's
    rows.append(list(rows[9]))  # a repeat
    wide = pa.table({c: [r[k] for r in rows] for k, c in enumerate(_KEY_ACCESSION)})
    assert sorted(tuple(r[c] for c in _KEY_ACCESSION) for r in _repeated_rows(wide).to_pylist()) \
        == sorted(2 * grouped(wide)) == sorted(2 * [tuple(rows[9])])
