"""A filing first loaded from a bare XML gets its SEC header when the full .txt arrives (either order)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipelines.documents import read_local_document
from pipelines.ownership import parse_ownership
from warehouse.load.batch import Parsed, load_batch
from warehouse.load.ownership import loaded_accessions
from warehouse.store.db import connect, fetch_all, fetch_value

FORM4 = Path(__file__).resolve().parents[2] / "fixtures" / "form4"
ACC = "0000704051-14-000037"
LINES = ["insider_owners", "insider_transactions", "insider_holdings", "insider_footnotes", "insider_footnote_refs"]
HEADER = ("SELECT container, submission_type, filed, acceptance_time, acceptance_time_eastern, document_type,"
          " issuer_cik, period_of_report FROM insider_filings WHERE accession = ?")


def _item(name: str) -> Parsed:
    doc = read_local_document(FORM4 / name, kind="ownership")
    return Parsed(doc, parse_ownership(doc.body, document=doc.uri))


def _line_counts(con) -> list:
    return fetch_all(con, "SELECT " + ", ".join(f"(SELECT count(*) FROM {t} WHERE accession = ?)" for t in LINES),
                     [ACC] * len(LINES))


@pytest.mark.parametrize("order", [(".xml", ".txt"), (".txt", ".xml")])
def test_header_filled_whatever_the_order(tmp_path, order):
    con = connect(tmp_path / "w.duckdb")
    first = load_batch(con, [_item(ACC + order[0])], raw_dir=tmp_path / "raw")
    lines = _line_counts(con)
    assert first.row_counts["insider_filings"] == 1 and lines[0][1] == 1
    if order[0] == ".xml":
        assert fetch_all(con, HEADER, [ACC])[0][:5] == ("xml", None, None, None, None)
        # header-less: the refresh flow must still fetch the .txt
        assert loaded_accessions(con, [ACC]) == set()
    second = load_batch(con, [_item(ACC + order[1])], raw_dir=tmp_path / "raw")
    assert second.row_counts["insider_filings"] == 0
    assert second.row_counts["insider_filings_header_filled"] == (1 if order[0] == ".xml" else 0)
    assert _line_counts(con) == lines
    assert fetch_value(con, "SELECT count(*) FROM insider_filings") == 1
    row = fetch_all(con, HEADER, [ACC])[0]
    assert row[:5] == ("sec_txt", "4", *fetch_all(
        con, "SELECT DATE '2014-04-23', TIMESTAMP '2014-04-23 18:05:49', '20140423140549'")[0])
    txt_doc = fetch_value(con, "SELECT source_document_id FROM source_documents WHERE uri LIKE '%.txt'")
    assert fetch_value(con, "SELECT header_source_document_id FROM insider_filings") == txt_doc
    assert loaded_accessions(con, [ACC]) == {ACC}
    # loading the .txt again changes nothing
    third = load_batch(con, [_item(ACC + ".txt")], raw_dir=tmp_path / "raw")
    assert not any(third.row_counts.values())
    con.close()
