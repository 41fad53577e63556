"""Which current numbers a change of the standard-value or metric rules moved, and why (issue 21).

    # a tree of the commit before the change (git archive), and this checkout
    git archive <commit> | tar -x -C /tmp/before
    PYTHONPATH=/tmp/before .venv/bin/python scripts/basis_diff.py build /tmp/bd/before.duckdb
    .venv/bin/python scripts/basis_diff.py build /tmp/bd/after.duckdb
    .venv/bin/python scripts/basis_diff.py compare /tmp/bd/before.duckdb /tmp/bd/after.duckdb [--rows FILE]

``build`` loads every vendored company in one batch with the project's own ingest: the companyfacts
of tests/fixtures (the replay folder's and the reserialized ones) and of ../shared/edgar-samples
(companyfacts/*.json and companyfacts/reserialized/*.json), one file per company (a company found
twice: the first of those folders). ``compare`` prints, per company, a checksum of its rows of
``standard_facts`` and ``derived_metrics_current`` in each warehouse (over the columns both have,
without clock times, load ids and the version bookkeeping), then every row that is in one and not the
other with its reason, and the counts by reason. Figures, not a test: the tests keep the rules.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = next((p / "shared" / "edgar-samples" for p in ROOT.parents if (p / "shared" / "edgar-samples").exists()),
               None)
FIXTURE_DIRS = [ROOT / "tests/fixtures/sec/data.sec.gov/api/xbrl/companyfacts", ROOT / "tests/fixtures/reserialized"]

# the rows' keys, and the columns left out: clock times, run ids, version bookkeeping
TABLES = {
    "standard_facts": (("cik", "standard_concept", "unit", "period_start", "period_end"), ()),
    "derived_metrics_current": (("metric", "cik", "period_start", "period_end", "input_unit"),
                                ("computed_at", "load_id", "version", "superseded_by_metric_id", "superseded_at")),
}


def company_files() -> list[Path]:
    seen: dict[str, Path] = {}
    dirs = [*FIXTURE_DIRS] + ([SAMPLES / "companyfacts", SAMPLES / "companyfacts" / "reserialized"] if SAMPLES else [])
    for d in dirs:
        for p in sorted(d.glob("CIK*.json*")):
            seen.setdefault(p.name[:13], p)
    return sorted(seen.values(), key=lambda p: p.name)


def build(out: Path) -> None:
    from pipelines.documents import read_local_document
    from pipelines.parse import parse_document
    from warehouse.load.batch import Parsed, load_batch
    from warehouse.store.db import connect, raw_dir_for

    files = company_files()
    out.parent.mkdir(parents=True, exist_ok=True)
    con = connect(out)
    try:
        started = time.process_time()
        items = [Parsed(doc, parse_document(doc)[1]) for doc in map(read_local_document, files)]
        report = load_batch(con, items, raw_dir=raw_dir_for(out))
        print(f"{out}: {len(files)} companies, {report.status}, {time.process_time() - started:.1f} s CPU")
    finally:
        con.close()


def _columns(con, table: str, skip: tuple[str, ...]) -> list[str]:
    both = None
    for db in ("a", "b"):
        cols = [r[0] for r in con.execute(f"SELECT * FROM {db}.{table} LIMIT 0").description]
        both = cols if both is None else [c for c in both if c in cols]
    return [c for c in both if c not in skip]


def _reason(table: str, old: dict | None, new: dict | None) -> str:
    if old is None:
        return "new row" if table == "standard_facts" else "new metric (an input now from one filing)"
    if new is None:
        return "row gone"
    if table == "standard_facts":
        if old["value"] != new["value"]:
            if old["matched_tag"] != new["matched_tag"]:
                return "value: a later filing's figure under another tag (tag migration)"
            return "value: a later filing's figure, same tag"
        if old["matched_tag"] != new["matched_tag"] or old["accession"] != new["accession"]:
            return "same value, from the latest filing's tag"
        if old["candidates"] != new["candidates"]:
            return "candidates: the latest filing's tags only"
        return "other: " + ",".join(k for k in old if old[k] != new[k])
    if old["value"] != new["value"] or old["null_reason"] != new["null_reason"]:
        if new["null_reason"] and not old["null_reason"]:
            return "value -> NULL: no filing reports every input"
        return "value: inputs from one filing / a standard value changed"
    if old["flags"] != new["flags"]:
        added = sorted(set(new["flags"] or []) - set(old["flags"] or []))
        if any(f.startswith("as filed in ") for f in added):
            return "same value, flag added: recast after its basis (as filed in X; ... recast by Y)"
        if "derived_quarters_from_different_filings" in added:
            return "same value, flag added: derived_quarters_from_different_filings"
        if added and all(" recast to " in f for f in added):
            return "same value, flag added: a part recast (TTM, derived quarter: '<concept> <period> recast to ... by Y')"
        return "same value, flags: " + (",".join(added) or "-" + ",".join(sorted(set(old["flags"] or []))))
    return "same value, other input versions (metric_id): " + ",".join(k for k in old if old[k] != new[k])


def compare(before: Path, after: Path, rows_out: Path | None) -> None:
    import duckdb

    con = duckdb.connect()
    con.execute(f"ATTACH '{before}' AS a (READ_ONLY)")
    con.execute(f"ATTACH '{after}' AS b (READ_ONLY)")
    lines: list[str] = []
    for table, (key, skip) in TABLES.items():
        cols = _columns(con, table, skip)
        sel = ", ".join(f'"{c}"' for c in cols)
        sums = con.execute(f"""
            WITH x AS (SELECT cik, count(*) AS n, bit_xor(hash(ROW({sel}))) AS h FROM a.{table} GROUP BY cik),
                 y AS (SELECT cik, count(*) AS n, bit_xor(hash(ROW({sel}))) AS h FROM b.{table} GROUP BY cik)
            SELECT coalesce(x.cik, y.cik), x.n, y.n, x.h, y.h FROM x FULL JOIN y USING (cik) ORDER BY 1""").fetchall()
        same = sum(1 for r in sums if r[3] == r[4])
        print(f"\n{table}: {same} of {len(sums)} companies with the same rows (checksum)")
        for cik, na, nb, ha, hb in sums:
            print(f"  {cik:>8} rows {na or 0:>6} -> {nb or 0:>6}  {'same' if ha == hb else f'{ha:016x} -> {hb:016x}'}")
        keys = " AND ".join(f'o."{k}" IS NOT DISTINCT FROM n."{k}"' for k in key)
        changed = con.execute(f"""
            WITH o AS (SELECT {sel} FROM a.{table} EXCEPT ALL SELECT {sel} FROM b.{table}),
                 n AS (SELECT {sel} FROM b.{table} EXCEPT ALL SELECT {sel} FROM a.{table})
            SELECT o, n FROM o FULL JOIN n ON {keys}""").fetchall()
        counts: dict[str, int] = {}
        for old, new in changed:
            old = old if old and any(v is not None for v in old.values()) else None
            new = new if new and any(v is not None for v in new.values()) else None
            why = _reason(table, old, new)
            counts[why] = counts.get(why, 0) + 1
            ref = new or old
            lines.append(f"{table}\t{why}\t" + "\t".join(str(ref[k]) for k in key) + "\t"
                         + f"{None if old is None else old.get('value')}\t{None if new is None else new.get('value')}")
        print(f"{table}: {len(changed)} rows changed")
        for why, n in sorted(counts.items(), key=lambda kv: -kv[1]):
            print(f"  {n:>6}  {why}")
    if rows_out:
        rows_out.write_text("table\treason\t" + "key...\told_value\tnew_value\n" + "\n".join(lines) + "\n")
        print(f"\nevery changed row: {rows_out}")


def main(argv: list[str]) -> int:
    if len(argv) >= 2 and argv[0] == "build":
        build(Path(argv[1]))
        return 0
    if len(argv) >= 3 and argv[0] == "compare":
        rows = Path(argv[argv.index("--rows") + 1]) if "--rows" in argv else None
        compare(Path(argv[1]), Path(argv[2]), rows)
        return 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
