"""Cost of filing text: parse and load per document, storage per 1,000 documents, search latency, the universe.

    .venv/bin/python tests/bench/bench_filing_text.py [--copies 50] [--queries 200] [--work DIR]

1. Parse: every vendored 10-K/10-Q/8-K (tests/fixtures/filings/), CPU seconds per document.
2. Load: the 28 documents with an accession through the ingest path into a fresh warehouse (the
   documents without a CIK get one as `load --cik` would), wall and CPU seconds per document; storage
   = warehouse file growth (after CHECKPOINT) + the raw store, per document and per 1,000.
3. Search: the stored items copied ``--copies`` times under new accessions (SQL, rows identical but
   for the accession) to >= 20,000 items; p50/p95 of phrase and keyword queries with and without
   filters, each timed alone, wall and CPU (one DuckDB thread: CPU is the figure on a shared box),
   first as the rows were appended, then with the keyword index sorted by term (``--sorted``: what
   a compaction would keep; its CPU cost is printed).
4. DuckDB's fts extension (its 1.5.5 wheel, when installed) on the same items: the time to build its
   index, which has no incremental update (a load would rebuild it), against this design's cost per
   document (its keyword rows are written by the load), and its query p95.
5. The universe: ~30,000 10-K/10-Q a year (plus 8-Ks), from the per-document figures.
Figures are printed; on a shared box say so next to them.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import re
import shutil
import statistics
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FILINGS = ROOT / "tests" / "fixtures" / "filings"
NO_CIK = {"0000200406-17-000006": 200406, "0000950134-09-003967": 72971, "0001047469-03-008257": 50863,
          "0001047469-03-013199": 27419, "0001193125-06-156152": 320187, "0001193125-09-041008": 4962,
          "0001193125-10-071652": 104169, "0001564590-18-004771": 1009672, "0001193125-14-242424": 1341439}
PHRASES = ["export controls", "going concern", "material weakness", "climate change", "supply chain",
           "foreign currency", "cybersecurity incident", "interest rate risk", "tariffs", "the company's business"]
KEYWORDS = ["export controls china", "tariffs trade", "cybersecurity risk management", "goodwill impairment",
            "litigation antitrust", "share repurchase program", "climate regulation", "inflation interest rates"]


def cpu() -> float:
    t = os.times()
    return t.user + t.system


def p(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))]


def folder_bytes(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())


def time_search(con, queries: int, label: str) -> None:
    """p50/p95 wall and CPU of each kind of query, each timed alone."""
    from warehouse.read.filing_text import Filters, search_keywords, search_phrase

    timings: dict[str, list[tuple[float, float]]] = {"phrase": [], "phrase+filters": [], "keywords": [],
                                                      "keywords+filters": []}
    for i in range(queries):
        ph, kw = PHRASES[i % len(PHRASES)], KEYWORDS[i % len(KEYWORDS)]
        f = Filters(form="10-K", item="1A")
        for name, fn, arg, filters in (("phrase", search_phrase, ph, Filters()), ("phrase+filters", search_phrase, ph, f),
                                       ("keywords", search_keywords, kw, Filters()),
                                       ("keywords+filters", search_keywords, kw, f)):
            t0, c0 = time.perf_counter(), cpu()
            fn(con, arg, filters)
            timings[name].append((time.perf_counter() - t0, cpu() - c0))
    print(f"  search, keyword index {label}, one DuckDB thread:")
    for name, ts in timings.items():
        wall, used = [w for w, _ in ts], [c for _, c in ts]
        print(f"    {name:17} wall p50 {p(wall, .5) * 1000:7.1f} ms p95 {p(wall, .95) * 1000:7.1f} ms   "
              f"CPU p50 {p(used, .5) * 1000:6.1f} ms p95 {p(used, .95) * 1000:6.1f} ms   ({len(ts)} queries)")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--copies", type=int, default=50)
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--work", type=Path, default=None)
    ap.add_argument("--no-fts", action="store_true", help="skip the fts extension's comparison (minutes)")
    ap.add_argument("--sorted", action="store_true", help="also time the search with filing_terms sorted by term")
    a = ap.parse_args()
    from pipelines.documents import read_local_document
    from pipelines.filing_documents import parse_filing_document
    from warehouse.load.ingest import ingest
    from warehouse.store.db import connect, raw_dir_for

    work = a.work or Path(tempfile.mkdtemp(prefix="bench_text_"))
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    paths = sorted(p for p in FILINGS.rglob("*.gz") if "efts" not in p.parts)
    docs = [read_local_document(p) for p in paths]

    # 1. parse
    per = []
    for d in docs:
        c0 = cpu()
        parse_filing_document(d.body, document=d.uri)
        per.append(cpu() - c0)
    mb = sum(d.size for d in docs) / 1e6
    print(f"parse: {len(docs)} documents, {mb:.1f} MB: {sum(per):.2f} s CPU, {statistics.mean(per):.3f} s/document "
          f"mean, {max(per):.2f} s max ({sum(per) / mb:.3f} s/MB)")

    # 2. load
    db = work / "w.duckdb"
    con = connect(db)
    con.execute("CHECKPOINT")
    empty = db.stat().st_size
    loadable = []
    for d in docs:
        acc = re.search(r"\d{10}-\d{2}-\d{6}", Path(d.uri).name)
        if acc is None:
            continue
        loadable.append(dataclasses.replace(d, expected_cik=NO_CIK.get(acc.group(0))))
    w0, c0 = time.perf_counter(), cpu()
    report = ingest(con, loadable, raw_dir=raw_dir_for(db), command="load")
    wall, used = time.perf_counter() - w0, cpu() - c0
    con.execute("CHECKPOINT")
    n = report.loaded
    db_growth = db.stat().st_size - empty
    raw = folder_bytes(raw_dir_for(db))
    sections = con.execute("SELECT count(*) FROM filing_sections").fetchone()[0]
    terms = con.execute("SELECT count(*) FROM filing_terms").fetchone()[0]
    print(f"load: {n} documents ({len(report.rejected)} rejected), {sections} items, {terms:,} keyword rows: "
          f"{wall:.1f} s wall, {used:.1f} s CPU = {wall / n:.2f} s wall, {used / n:.2f} s CPU per document")
    print(f"storage: warehouse +{db_growth / 1e6:.1f} MB, raw store {raw / 1e6:.1f} MB -> "
          f"{(db_growth + raw) / n / 1e6:.2f} MB per document, {(db_growth + raw) / n * 1000 / 1e9:.2f} GB per "
          f"1,000 documents ({db_growth / n * 1000 / 1e9:.2f} GB tables+index, {raw / n * 1000 / 1e9:.2f} GB raw)")

    # 3. search over >= 20,000 items
    k = a.copies
    for table in ("filing_documents", "filing_sections", "filing_terms"):
        con.execute(f"INSERT INTO {table} BY NAME SELECT * EXCLUDE (c) REPLACE (printf('9%09d-%02d-%06d', c, 0, hash(accession) % "
                    f"1000000) AS accession) FROM {table}, range(1, {k}) r(c)")
    items = con.execute("SELECT count(*) FROM filing_sections").fetchone()[0]
    rows = con.execute("SELECT count(*) FROM filing_terms").fetchone()[0]
    con.execute("CHECKPOINT")
    print(f"search corpus: {items:,} items ({k} copies of the {sections} vendored ones), {rows:,} keyword rows")
    con.execute("SET threads = 1")
    time_search(con, a.queries, "as appended")
    if a.sorted:
        c0 = cpu()
        con.execute("BEGIN")
        con.execute("CREATE TEMP TABLE terms_sorted AS SELECT * FROM filing_terms")
        con.execute("DELETE FROM filing_terms")
        con.execute("INSERT INTO filing_terms SELECT * FROM terms_sorted ORDER BY term, accession, item")
        con.execute("COMMIT")
        con.execute("DROP TABLE terms_sorted")
        con.execute("CHECKPOINT")
        print(f"  sorting filing_terms by term: {cpu() - c0:.1f} s CPU ({rows / 1e6:.1f} M rows)")
        time_search(con, a.queries, "sorted by term")

    # 4. the fts extension on the same items
    try:
        if a.no_fts:
            raise ImportError("--no-fts")
        import duckdb
        import duckdb_extension_fts as fts

        ext = Path(fts.__file__).parent / "extensions" / f"v{duckdb.__version__}" / "fts.duckdb_extension"
        con.execute(f"LOAD '{ext}'")
        con.execute("CREATE TEMP TABLE fts_items AS SELECT accession || '/' || item AS id, text FROM filing_sections")
        t0 = time.perf_counter()
        con.execute("PRAGMA create_fts_index('fts_items', 'id', 'text')")
        build = time.perf_counter() - t0
        ts = []
        for i in range(min(a.queries, 50)):
            q = KEYWORDS[i % len(KEYWORDS)]
            t0 = time.perf_counter()
            con.execute("SELECT id, s FROM (SELECT id, fts_main_fts_items.match_bm25(id, ?) AS s FROM fts_items) "
                        "WHERE s IS NOT NULL ORDER BY s DESC LIMIT 20", [q]).fetchall()
            ts.append(time.perf_counter() - t0)
        print(f"fts extension: index build over {items:,} items {build:.1f} s (redone whole after every load: no "
              f"incremental update); keyword p50 {p(ts, .5) * 1000:.1f} ms p95 {p(ts, .95) * 1000:.1f} ms; "
              f"this design: the keyword rows are written by the load, inside the {used / n:.2f} s CPU per document")
    except ImportError as exc:
        print(f"fts extension: skipped ({exc}; pip install duckdb-extension-fts==1.5.5)")

    # 5. the universe
    docs_year = 30_000
    print(f"universe: {docs_year:,} 10-K/10-Q a year -> {docs_year * (db_growth + raw) / n / 1e9:.0f} GB a year, "
          f"{docs_year * used / n / 3600:.1f} CPU hours to load (one core), "
          f"~{docs_year * 0.5 / 86400:.1f} days of fetching at 2 requests/s (one primary document each)")
    con.close()
    if a.work is None:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
