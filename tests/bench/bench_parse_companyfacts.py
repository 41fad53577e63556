"""Benchmark: parse_companyfacts alone (bytes -> Arrow record) on the sample companyfacts files.

Run: `.venv/bin/python tests/bench/bench_parse_companyfacts.py [--runs 5] [--profile] [--alternatives]
[--workers 2]`. Uses the 8 byte-exact files of ../shared/edgar-samples/companyfacts (the vendored copies
when ../shared is absent), decompressed in memory first, and prints the best total seconds over the
runs, facts/s and, with --profile, the top functions of one run. Single process: this measures parser
CPU. ``--workers N`` also times ``pipelines.parse.parse_many`` (the ingest's parse stage) on the same
documents with N workers, its CPU counting the worker processes (RUSAGE_CHILDREN), and says whether
it used a pool.

``--alternatives`` also times, on the same bytes, the other ways to typed columns that were
considered: msgspec's decode alone (the floor of the current path: no columns, no checks) and
DuckDB's own JSON reader (``read_json`` with the companyfacts shape as nested MAP/STRUCT types,
unnested to one row per fact, to Arrow; no range checks), single- and two-threaded.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(Path(__file__).parent)]
from bench_companyfacts import read, source_files  # noqa: E402  (the sample files, found one way)

_FACT = ('STRUCT("start" VARCHAR, "end" VARCHAR, val VARCHAR, accn VARCHAR, fy INTEGER, fp VARCHAR, form VARCHAR,'
         ' filed VARCHAR, frame VARCHAR)')
_COLUMNS = ("{cik: 'INTEGER', entityName: 'VARCHAR', facts: 'MAP(VARCHAR, MAP(VARCHAR, STRUCT(label VARCHAR,"
            f" description VARCHAR, units MAP(VARCHAR, {_FACT}[]))))'}}")
DUCKDB_FACTS = f"""
WITH d AS (SELECT cik, unnest(map_entries(facts)) AS t
           FROM read_json(?, columns={_COLUMNS}, maximum_object_size=1000000000)),
     c AS (SELECT cik, t.key AS taxonomy, unnest(map_entries(t.value)) AS c FROM d),
     u AS (SELECT cik, taxonomy, c.key AS concept, unnest(map_entries(c.value.units)) AS u FROM c),
     f AS (SELECT cik, taxonomy, concept, u.key AS unit, unnest(u.value) AS f FROM u)
SELECT cik, taxonomy, concept, unit, f.start AS period_start, f."end" AS period_end,
       TRY_CAST(f.val AS BIGINT) AS val_int,
       CASE WHEN TRY_CAST(f.val AS BIGINT) IS NULL THEN CAST(f.val AS DOUBLE) END AS val_float,
       f.accn AS accession, f.form, f.filed, f.frame, f.fy AS filing_fy, f.fp AS filing_fp
FROM f"""


def timed(fn, runs: int) -> tuple[float, float]:
    best, best_cpu = float("inf"), float("inf")
    for _ in range(runs):
        t0, c0 = time.perf_counter(), time.process_time()
        fn()
        best, best_cpu = min(best, time.perf_counter() - t0), min(best_cpu, time.process_time() - c0)
    return best, best_cpu


def alternatives(bodies: list[tuple[str, bytes]], runs: int, facts: int) -> None:
    """Time the other ways considered to get typed fact columns from the same bytes."""
    import tempfile

    import duckdb

    from pipelines.companyfacts import _DECODER, _FACTS_DECODER

    def decode_only() -> None:
        for _, body in bodies:
            for concepts in _DECODER.decode(body).facts.values():
                for concept in concepts.values():
                    for raw in concept.units.values():
                        _FACTS_DECODER.decode(raw)

    wall, cpu = timed(decode_only, runs)
    print(f"  msgspec decode alone (no columns, no checks): {wall:.3f} s wall, {cpu:.3f} s CPU")
    with tempfile.TemporaryDirectory(prefix="bench-parse-") as tmp:
        paths = []
        for n, (_, body) in enumerate(bodies):  # DuckDB reads files: the same bytes, written out
            paths.append(str(Path(tmp) / f"{n}.json"))
            Path(paths[-1]).write_bytes(body)
        con = duckdb.connect()
        for threads in (1, 2):
            con.execute(f"SET threads = {threads}")
            rows = [0]

            def read(rows=rows) -> None:
                rows[0] = con.execute(DUCKDB_FACTS, [paths]).to_arrow_table().num_rows

            wall, cpu = timed(read, runs)
            print(f"  DuckDB read_json -> Arrow, {threads} thread(s): {rows[0]:,} rows (parser: {facts:,}) "
                  f"{wall:.3f} s wall, {cpu:.3f} s CPU (no range checks)")
        con.close()


def cpu_with_children() -> float:
    import resource

    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def parse_many_figures(bodies: list[tuple[str, bytes]], runs: int, workers: int) -> None:
    """parse_many (what ingest calls) on the same bodies: wall and CPU including worker processes."""
    from pipelines import parse as parse_mod
    from pipelines.documents import Document

    docs = [Document(uri=u, origin="file", body=b, kind="companyfacts") for u, b in bodies]
    best, best_cpu, facts = float("inf"), float("inf"), 0
    for _ in range(runs):
        t0, c0 = time.perf_counter(), cpu_with_children()
        results = parse_mod.parse_many(docs, workers=workers)
        best, best_cpu = min(best, time.perf_counter() - t0), min(best_cpu, cpu_with_children() - c0)
        facts = sum(r.record.fact_count for r in results)
    pooled = parse_mod.pool_size(docs, workers)
    print(f"parse_many, workers={workers} ({pooled} process(es) used): {facts:,} facts: best of {runs} "
          f"{best:.3f} s wall, {best_cpu:.3f} s CPU incl. workers ({facts / best_cpu:,.0f} facts per CPU second)")


def main() -> int:
    from pipelines.companyfacts import parse_companyfacts

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--alternatives", action="store_true", help="also time msgspec alone and DuckDB read_json")
    ap.add_argument("--workers", type=int, default=0, help="also time parse_many with this many workers")
    args = ap.parse_args()
    files = source_files()
    bodies = [(str(f), read(f)) for f in files]
    best, best_cpu, facts = float("inf"), float("inf"), 0
    for _ in range(args.runs):
        t0, c0 = time.perf_counter(), time.process_time()
        facts = sum(parse_companyfacts(b, document=u).fact_count for u, b in bodies)
        best, best_cpu = min(best, time.perf_counter() - t0), min(best_cpu, time.process_time() - c0)
    mb = sum(len(b) for _, b in bodies) / 1e6
    print(f"parse_companyfacts: {len(bodies)} files, {mb:.1f} MB, {facts:,} facts: best of {args.runs} "
          f"{best:.3f} s wall, {best_cpu:.3f} s CPU ({facts / best_cpu:,.0f} facts per CPU second)")
    if args.workers:
        parse_many_figures(bodies, args.runs, args.workers)
    if args.alternatives:
        alternatives(bodies, args.runs, facts)
    if args.profile:
        prof = cProfile.Profile()
        prof.enable()
        for u, b in bodies:
            parse_companyfacts(b, document=u)
        prof.disable()
        pstats.Stats(prof).sort_stats("tottime").print_stats(15)
    return 0


if __name__ == "__main__":
    sys.exit(main())
