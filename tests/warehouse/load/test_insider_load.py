"""Forms 3/4/5 into DuckDB: every real sample loads with exact counts and values, bad ones are recorded."""

from __future__ import annotations

import dataclasses
import importlib.util
import re
import shutil
from decimal import Decimal
from pathlib import Path

import pytest

from pipelines.documents import read_local_document
from pipelines.errors import RejectedDocument
from pipelines.ownership import parse_ownership
from warehouse.load.batch import Parsed, Rejected, load_batch
from warehouse.load.ownership import loaded_accessions, pending_ownership_filings
from warehouse.schema.migrate import apply_migrations
from warehouse.store.db import connect, fetch_all, fetch_value

TESTS = Path(__file__).resolve().parents[2]
FORM4 = TESTS / "fixtures" / "form4"
HAND = TESTS / "fixtures" / "form4_handmade"
SCHEMA = TESTS.parent / "schema" / "migrations"

_spec = importlib.util.spec_from_file_location("_ownership_expected", TESTS / "pipelines" / "test_ownership.py")
_mod = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_mod)
EXPECTED: dict[str, tuple] = _mod.EXPECTED
LEGACY: list[str] = _mod.LEGACY
BAD_HANDMADE = ["malformed_2006_0001104659-06-067430.txt", "not_ownership.xml", "billion_laughs.xml",
                "xxe_passwd.xml"]
TABLES = ["insider_filings", "insider_owners", "insider_transactions", "insider_holdings", "insider_footnotes",
          "insider_footnote_refs"]
VIEWS = ["insider_amendment_candidates", "insider_transactions_effective", "insider_open_market",
         "insider_open_market_filings"]


def item(path: Path) -> Parsed | Rejected:
    doc = read_local_document(path, kind="ownership")
    # a bare XML whose name carries no accession is refused unless one is given (as `load --accession`)
    accession = _mod.given_accession(path.name) if path.parent == FORM4 else None
    try:
        return Parsed(doc, parse_ownership(doc.body, document=doc.uri, accession=accession))
    except RejectedDocument as exc:
        return Rejected(doc, exc)


@pytest.fixture(scope="module")
def loaded(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("insider")
    con = connect(tmp / "w.duckdb")
    paths = [FORM4 / n for n in sorted(EXPECTED)] + [FORM4 / n for n in LEGACY] + [HAND / n for n in BAD_HANDMADE]
    report = load_batch(con, [item(p) for p in paths], raw_dir=tmp / "raw")
    yield con, report, tmp
    con.close()


def test_batch_loads_every_parseable_document_and_records_the_bad_ones(loaded):
    con, report, _ = loaded
    assert report.status == "partial"
    assert report.loaded == len(EXPECTED) == 51
    assert len(report.rejected) == len(LEGACY) + len(BAD_HANDMADE)
    # three accessions come both as .txt and .xml: the second adds nothing
    assert fetch_value(con, "SELECT count(*) FROM insider_filings") == 48
    assert report.row_counts["insider_filings"] == 48
    rejected = dict(fetch_all(con, "SELECT uri, reject_reason FROM source_documents WHERE status = 'rejected'"))
    assert "no <XML> block" in rejected[str(FORM4 / LEGACY[0])]
    assert "accession 0001104659-06-067430: malformed ownership XML" in rejected[str(HAND / BAD_HANDMADE[0])]
    assert "not an ownership document" in rejected[str(HAND / "not_ownership.xml")]
    assert "unsafe XML refused" in rejected[str(HAND / "billion_laughs.xml")]
    assert "unsafe XML refused" in rejected[str(HAND / "xxe_passwd.xml")]
    assert fetch_value(con, "SELECT count(*) FROM source_documents WHERE status = 'rejected' AND raw_path IS NULL") == 0


def test_counts_per_document_in_the_warehouse(loaded):
    con, _, _ = loaded
    rows = fetch_all(con, """
        WITH t AS (SELECT accession,
                          string_agg(DISTINCT transaction_code, '' ORDER BY transaction_code) AS codes,
                          count(*) FILTER (WHERE table_kind = 'non_derivative') AS nd,
                          count(*) FILTER (WHERE table_kind = 'derivative') AS d
                   FROM insider_transactions GROUP BY accession),
             h AS (SELECT accession, count(*) FILTER (WHERE table_kind = 'non_derivative') AS nd,
                          count(*) FILTER (WHERE table_kind = 'derivative') AS d
                   FROM insider_holdings GROUP BY accession),
             o AS (SELECT accession, count(*) AS n FROM insider_owners GROUP BY accession),
             n AS (SELECT accession, count(*) AS n FROM insider_footnotes GROUP BY accession)
        SELECT s.uri, f.document_type, f.schema_version, coalesce(t.codes, ''), coalesce(t.nd, 0),
               coalesce(h.nd, 0), coalesce(t.d, 0), coalesce(h.d, 0), coalesce(o.n, 0), coalesce(n.n, 0)
        FROM source_documents s JOIN insider_filings f USING (accession)
        LEFT JOIN t USING (accession) LEFT JOIN h USING (accession) LEFT JOIN o USING (accession)
        LEFT JOIN n USING (accession)
        WHERE s.status = 'loaded'""")
    got = {uri: tuple(rest) for uri, *rest in rows}
    for name, exp in EXPECTED.items():
        assert got[str(FORM4 / name)] == exp, name


def test_exact_values_and_provenance(loaded):
    con, report, _ = loaded
    row = fetch_all(con, """
        SELECT t.shares, t.price_per_share, t.transaction_code, t.shares_owned_following, t.footnote_ids,
               t.price_is_weighted_average, t.load_id, s.sha256, s.uri, typeof(t.price_per_share)
        FROM insider_transactions t JOIN source_documents s USING (source_document_id)
        WHERE t.accession = '0000320193-22-000061' AND t.table_kind = 'non_derivative' AND t.line_number = 1""")
    assert row[0][:6] == (Decimal("9136"), Decimal("159.94"), "S", Decimal("468198"), ["F1", "F2"], True)
    assert row[0][6] == report.load_id and row[0][8].endswith("0000320193-22-000061.txt")
    assert row[0][9] == "DECIMAL(38,10)"
    f = fetch_all(con, """SELECT filed, acceptance_time, acceptance_time_eastern, issuer_cik, issuer_ticker,
                                 accession_source, container FROM insider_filings
                          WHERE accession = '0000320193-22-000061'""")[0]
    assert (str(f[0]), str(f[1]), f[2], f[3], f[4], f[5], f[6]) == (
        "2022-05-06", "2022-05-06 22:30:57", "20220506183057", 320193, "AAPL", "sec_header", "sec_txt")
    refs = fetch_all(con, """SELECT r.field, r.footnote_id, n.text LIKE '%weighted average sale price%'
                             FROM insider_footnote_refs r JOIN insider_footnotes n USING (accession, footnote_id)
                             WHERE r.accession = '0000320193-22-000061' AND r.line_number = 1 ORDER BY r.field""")
    assert refs == [("price_per_share", "F2", True), ("security_title", "F1", False)]
    d = fetch_all(con, """SELECT exercise_date, expiration_date, conversion_or_exercise_price FROM insider_transactions
                          WHERE accession = (SELECT accession FROM source_documents WHERE uri LIKE '%tesla-form4.xml')
                            AND table_kind = 'derivative' ORDER BY line_number""")
    assert [(r[0], str(r[1]), r[2]) for r in d] == [(None, "2023-04-08", Decimal("2.79")),
                                                    (None, "2023-06-10", Decimal("6.67"))]
    sig = fetch_value(con, "SELECT signatures[1].signature_name FROM insider_filings WHERE accession = '0000019446-06-000081'")
    assert sig == "/s/ Darwin C. Dornbush"
    every = " UNION ALL ".join(
        f"SELECT count(*) FILTER (WHERE source_document_id IS NULL OR load_id <> '{report.load_id}') FROM {t}"
        for t in TABLES)
    assert all(n == 0 for (n,) in fetch_all(con, every))


def test_open_market_views(loaded):
    con, _, _ = loaded
    lines = fetch_all(con, """SELECT line_number, side, shares, price_per_share, line_value, owner_names, owner_roles
                              FROM insider_open_market WHERE accession = '0000320193-22-000061' ORDER BY line_number""")
    assert len(lines) == 7 and {r[1] for r in lines} == {"sale"}
    assert lines[0][2:5] == (Decimal("9136"), Decimal("159.94"), Decimal("9136") * Decimal("159.94"))
    assert lines[0][5:] == ("Adams Katherine L.", "Officer: SVP, GC and Secretary")
    total = sum(r[2] for r in lines)
    value = sum(r[4] for r in lines)
    filing = fetch_all(con, """SELECT lines, sale_lines, purchase_lines, sold_shares, sale_value, sale_avg_price,
                                      net_shares, any_weighted_average_price
                               FROM insider_open_market_filings WHERE accession = '0000320193-22-000061'""")
    assert filing[0][:5] == (7, 7, 0, total, value)
    assert filing[0][5] == (value / total).quantize(Decimal("0.000001"))
    assert filing[0][6] == -total and filing[0][7] is True
    joint = fetch_all(con, """SELECT owner_names, owner_roles, owner_count FROM insider_open_market
                              WHERE issuer_ticker = 'DVA'""")
    assert joint == [("BERKSHIRE HATHAWAY INC; BUFFETT WARREN E", "10% Owner; 10% Owner", 2)]
    # one row per filing, and only P/S codes
    assert fetch_value(con, "SELECT count(*) - count(DISTINCT accession) FROM insider_open_market_filings") == 0
    assert fetch_value(con, "SELECT count(*) FROM insider_open_market WHERE transaction_code NOT IN ('P', 'S')") == 0
    purchases = fetch_value(con, "SELECT purchased_shares FROM insider_open_market_filings WHERE accession = '0000921895-25-001190'")
    assert purchases == Decimal("167847")


def test_reloading_adds_nothing(loaded):
    con, _, tmp = loaded
    before = fetch_all(con, "SELECT " + ", ".join(f"(SELECT count(*) FROM {t})" for t in TABLES))
    again = load_batch(con, [item(FORM4 / "0000320193-22-000061.txt"), item(FORM4 / "aapl-4-20201013.xml")],
                       raw_dir=tmp / "raw")
    assert again.unchanged == 2 and again.loaded == 0 and not any(again.row_counts.values())
    # same accession, different bytes (the .xml of a loaded .txt): loaded document, zero rows
    body = (FORM4 / "0000704051-14-000037.xml").read_bytes() + b"\n<!-- re-saved -->\n"
    doc = dataclasses.replace(read_local_document(FORM4 / "0000704051-14-000037.xml"), body=body)
    third = load_batch(con, [Parsed(doc, parse_ownership(body, document=doc.uri))], raw_dir=tmp / "raw")
    assert third.loaded == 1 and not any(third.row_counts.values())
    assert fetch_all(con, "SELECT " + ", ".join(f"(SELECT count(*) FROM {t})" for t in TABLES)) == before


def test_discovery_helpers(loaded):
    con, _, tmp = loaded
    # as the refresh flow fetches it: the Document knows its accession, so the rejection records it
    legacy = item(FORM4 / LEGACY[0])
    fetched = dataclasses.replace(legacy.doc, accession="0001094891-00-000193", body=legacy.doc.body + b"\n")
    load_batch(con, [Rejected(fetched, legacy.error)], raw_dir=tmp / "raw")
    have = loaded_accessions(con, ["0000320193-22-000061", "0001104659-06-067430", "0001094891-00-000193",
                                   "0000000000-00-000000"])
    # loaded, loaded, and rejected as legacy text (Archives never change: not worth fetching again)
    assert have == {"0000320193-22-000061", "0001104659-06-067430", "0001094891-00-000193"}
    assert "0001094891-00-000193" not in loaded_accessions(con, ["0001094891-00-000193"], include_rejected=False)
    if not fetch_value(con, "SELECT count(*) FROM duckdb_tables() WHERE table_name = 'filings'"):
        assert pending_ownership_filings(con) == []


def test_pending_ownership_filings_are_the_listed_forms_3_4_5_not_loaded(tmp_path):
    """Apple's submissions list its Forms 3/4/5; the one loaded (with its SEC header) is not pending;
    ``ciks`` keeps only those companies' filings."""
    from pipelines.ownership import OWNERSHIP_FORMS
    from warehouse.load.ingest import ingest
    from warehouse.store.db import raw_dir_for

    con = connect(tmp_path / "w.duckdb")
    try:
        docs = [read_local_document(TESTS / "fixtures/sec/data.sec.gov/submissions/CIK0000320193.json.gz"),
                read_local_document(FORM4 / "0000320193-22-000061.txt")]
        assert ingest(con, docs, raw_dir=raw_dir_for(tmp_path / "w.duckdb"), command="load").loaded == 2
        listed = {a: (c, f) for a, c, f in fetch_all(con, "SELECT accession, cik, form FROM filings")
                  if f in OWNERSHIP_FORMS}
        expected = sorted((a, c, f) for a, (c, f) in listed.items() if a != "0000320193-22-000061")
        assert "0000320193-22-000061" in listed and len(expected) > 10
        assert pending_ownership_filings(con) == expected
        assert pending_ownership_filings(con, [320193]) == expected
        assert pending_ownership_filings(con, [1]) == []
    finally:
        con.close()


def test_loader_rejection_keeps_the_rest_of_the_batch(tmp_path):
    con = connect(tmp_path / "w.duckdb")
    good = item(FORM4 / "aapl-4-20201013.xml")
    bad_src = item(FORM4 / "tesla-form4.xml")
    t = bad_src.record.transactions
    broken = dataclasses.replace(bad_src.record, transactions=(t[0], dataclasses.replace(t[1], line_number=1)))
    report = load_batch(con, [Parsed(bad_src.doc, broken), good], raw_dir=tmp_path / "raw")
    assert report.loaded == 1 and report.rejected and "share a table kind and line number" in report.rejected[0][1]
    assert fetch_value(con, "SELECT count(*) FROM insider_filings") == 1
    assert fetch_value(con, "SELECT count(*) FROM insider_transactions") == 1
    con.close()


def test_every_insider_table_and_view_column_has_a_comment(loaded):
    con, _, _ = loaded
    names = TABLES + VIEWS
    missing = fetch_all(con, """SELECT table_name, column_name FROM duckdb_columns()
                                WHERE list_contains(?, table_name) AND (comment IS NULL OR comment = '')""", [names])
    assert missing == []
    commented = fetch_all(con, """SELECT table_name FROM duckdb_tables() WHERE comment IS NOT NULL
                                  UNION SELECT view_name FROM duckdb_views() WHERE comment IS NOT NULL""")
    assert set(names) <= {r[0] for r in commented}


def test_migration_declares_grain_and_applies_on_0001_alone(tmp_path):
    sql = (SCHEMA / "0003_insider.sql").read_text()
    for m in re.finditer(r"CREATE TABLE (\w+)", sql):
        before = sql[: m.start()].rstrip().rsplit("\n-- grain:", 1)
        assert len(before) == 2 and "CREATE TABLE" not in before[1], f"{m.group(1)} has no grain comment"
    only = tmp_path / "schema"
    only.mkdir()
    shutil.copy(SCHEMA / "0001_core.sql", only)
    shutil.copy(SCHEMA / "0003_insider.sql", only)
    import duckdb

    con = duckdb.connect(str(tmp_path / "solo.duckdb"))
    applied = apply_migrations(con, only)
    assert [m.version for m in applied] == [1, 3]
    assert fetch_value(con, "SELECT count(*) FROM insider_transactions") == 0
    con.close()
