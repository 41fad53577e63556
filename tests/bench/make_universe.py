"""Build a synthetic companyfacts universe (a zip shaped like SEC's companyfacts.zip) from real samples.

SEC publishes ``companyfacts.zip`` nightly: about 18.8k members ``CIK##########.json``, 100M+ facts.
This generator makes one of that shape from the byte-exact samples in
``../shared/edgar-samples/companyfacts/`` (or the vendored copies), so bootstrap and scale
benchmarks run offline:

* ``--copies K``: K remapped full copies of each sample (1x = 8 members, 157k facts; 10x, 100x ...);
* ``--members N --facts-per-member F``: N members, each a remapped sample trimmed to whole concepts
  until about F facts remain (the universe: ``--members 19000 --facts-per-member 5300`` ~ 100M facts).

Each member gets its own CIK (1,000,000,000 + i: ten digits, below 2^31), its own entity name and
accession numbers whose filer prefix is the new CIK, so members never share a fact key or an
accession. Values, units, periods and forms are the real ones. Output is deterministic for the same
arguments. Run ``python tests/bench/make_universe.py --help``.
"""

from __future__ import annotations

import argparse
import gzip
import re
import sys
import time
import zipfile
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "edgar-samples" / "companyfacts"
VENDORED = ROOT / "tests" / "fixtures" / "sec" / "data.sec.gov" / "api" / "xbrl" / "companyfacts"
FIRST_CIK = 1_000_000_000
VARIANTS = 16
_ACCN = re.compile(rb'"accn":"\d{10}-')


def sample_files() -> list[Path]:
    """The 8 byte-exact samples (shared copy first, else the vendored gzip copies)."""
    return sorted(SHARED.glob("CIK*.json")) or sorted(VENDORED.glob("CIK*.json.gz"))


def _read(path: Path) -> bytes:
    raw = path.read_bytes()
    return gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw


def remap(body: bytes, cik: int, name: str) -> bytes:
    """The same payload for another company: top-level cik and entityName, accession prefixes."""
    head, sep, rest = body.partition(b'"facts":')
    head = re.sub(rb'"cik":\s*\d+', b'"cik":%d' % cik, head, count=1)
    head = re.sub(rb'"entityName":\s*"(?:[^"\\]|\\.)*"', b'"entityName":' + orjson.dumps(name), head, count=1)
    return head + sep + _ACCN.sub(b'"accn":"%010d-' % cik, rest)


def trimmed(doc: dict, facts_wanted: int, salt: int) -> bytes:
    """``doc`` keeping whole concepts (a rotating subset picked by ``salt``) until ~facts_wanted."""
    concepts = [(tax, name, sum(len(v) for v in c.get("units", {}).values()))
                for tax, names in doc["facts"].items() for name, c in names.items()]
    start = (salt * 7919) % max(len(concepts), 1)
    kept: dict[str, dict] = {}
    total = 0
    for k in range(len(concepts)):
        tax, name, n = concepts[(start + k) % len(concepts)]
        if total >= facts_wanted:
            break
        kept.setdefault(tax, {})[name] = doc["facts"][tax][name]
        total += n
    return orjson.dumps({"cik": doc["cik"], "entityName": doc["entityName"], "facts": kept})


def members(copies: int, n_members: int | None, facts_per_member: int | None):
    """Yield (member name, body) in a fixed order."""
    samples = [_read(p) for p in sample_files()]
    if not samples:
        sys.exit("no companyfacts samples found (../shared/edgar-samples or tests/fixtures)")
    if n_members is None:
        for i in range(copies * len(samples)):
            cik = FIRST_CIK + i
            yield f"CIK{cik:010d}.json", remap(samples[i % len(samples)], cik, f"SYNTHETIC {i:06d} CORP")
        return
    parsed = [orjson.loads(s) for s in samples]
    variants: dict[tuple[int, int], bytes] = {}  # 16 trimmings per sample, reused (then remapped)
    for i in range(n_members):
        cik = FIRST_CIK + i
        key = (i % len(parsed), (i // len(parsed)) % VARIANTS)
        if key not in variants:
            variants[key] = trimmed(parsed[key[0]], facts_per_member or 10**9, key[1])
        body = variants[key]
        yield f"CIK{cik:010d}.json", remap(body, cik, f"SYNTHETIC {i:06d} CORP")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path, help="output .zip (or a folder when --folder)")
    ap.add_argument("--copies", type=int, default=1, help="full remapped copies of each sample (default 1)")
    ap.add_argument("--members", type=int, help="number of members (trimmed samples) instead of --copies")
    ap.add_argument("--facts-per-member", type=int, default=5300, help="with --members: facts per member")
    ap.add_argument("--folder", action="store_true", help="write CIK*.json files into a folder, not a zip")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    count = size = 0
    gen = members(args.copies, args.members, args.facts_per_member if args.members else None)
    if args.folder:
        args.out.mkdir(parents=True, exist_ok=True)
        for name, body in gen:
            (args.out / name).write_bytes(body)
            count, size = count + 1, size + len(body)
    else:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        tmp = args.out.with_suffix(".zip.part")
        with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=1) as zf:
            for name, body in gen:
                info = zipfile.ZipInfo(name, date_time=(2026, 11, 27, 3, 0, 0))
                info.compress_type = zipfile.ZIP_DEFLATED
                zf.writestr(info, body, compresslevel=1)
                count, size = count + 1, size + len(body)
        tmp.replace(args.out)
    print(f"{args.out}: {count} members, {size / 1e6:,.0f} MB uncompressed, {time.perf_counter() - t0:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
