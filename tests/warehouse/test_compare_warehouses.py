"""tests/compare_warehouses.py (the before/after check of schema refactors) finds every row that differs."""

from __future__ import annotations

from compare_warehouses import compare, main

from helpers import COMPANYFACTS_DIR, load_files
from warehouse.store.db import connect, raw_dir_for

SMALL = COMPANYFACTS_DIR / "CIK0001046179.json.gz"  # TSM, the smallest vendored companyfacts


def _build(path):
    con = connect(path)
    try:
        assert load_files(con, [SMALL], raw_dir_for(path)).status == "succeeded"
    finally:
        con.close()


def test_same_input_twice_is_identical_and_one_changed_value_is_found(tmp_path, capsys):
    a, b = tmp_path / "a.duckdb", tmp_path / "b.duckdb"
    _build(a)
    _build(b)  # other load_id and fetch times: ignored as run-specific
    diffs = compare(a, b)
    assert {"facts", "fact_versions", "facts_current", "standard_facts", "derived_metrics"} <= {d.relation for d in diffs}
    assert all(d.same for d in diffs), [d.line() for d in diffs if not d.same]
    assert main([str(a), str(b)]) == 0

    con = connect(b)
    try:
        con.execute("UPDATE facts SET value = value + 1 WHERE rowid = (SELECT min(rowid) FROM facts)")
    finally:
        con.close()
    changed = {d.relation: d for d in compare(a, b) if not d.same}
    assert changed["facts"].only_a == 1 and changed["facts"].only_b == 1
    assert "fact_versions" in changed  # views are compared too
    assert main([str(a), str(b)]) == 1
    assert "DIFFERS  facts " in capsys.readouterr().out
