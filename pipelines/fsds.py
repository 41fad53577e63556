"""SEC's Financial Statement Data Sets (quarterly zips of sub/num/pre/tag .txt) as one document per filing.

A quarterly zip (``2009q3.zip``) holds every filing of the quarter at once: ``sub.txt`` one row per
filing (adsh = accession), ``num.txt`` its values (not grouped by filing), ``pre.txt`` their
presentation (statement, report, line, label, negating). ``filing_bundles`` splits a zip into one
document per filing, so each filing goes through the ordinary ingest path (detected, parsed, loaded,
known by its sha256: a re-run skips what it loaded): the filing's sub row and its pre and num rows,
each with its byte offset in its member (the receipt). Memory is bounded: sub.txt is read whole (one
row per filing), then pre.txt and num.txt are streamed once per group of ``group`` filings, keeping
only that group's rows; a zip without sub.txt, num.txt or pre.txt, or with a member that cannot be
read, is rejected by name before any filing is yielded.

``parse_fsds_filing`` turns one bundle into an ``FsdsFiling`` (an InlineXbrlDocument's shape: facts
and statements as presented), loaded into filing_facts and filing_statements like an inline filing.
FSDS rounds dates to month ends and gives durations in quarters (``qtrs``): period_end is SEC's
``ddate``, period_start the first day of the month ``qtrs`` quarters earlier. Dimensions are FSDS's own
short names (``EquityComponents`` -> ``CommonStock``, from ``segments``; a co-registrant as
``coreg``). pre gives no indent: every line has depth 0.
"""

from __future__ import annotations

import zipfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal, InvalidOperation
from pathlib import Path

from pipelines.detect import FSDS_MAGIC as MAGIC
from pipelines.errors import RejectedDocument
from pipelines.inline_xbrl import InlineFact, InlineXbrlDocument
from pipelines.statements import Statement, StatementLine, StatementValue

REQUIRED = ("sub.txt", "num.txt", "pre.txt")
KNOWN = (*REQUIRED, "tag.txt")
STATEMENTS = {"IS": "income", "BS": "balance", "CF": "cash_flow", "EQ": "equity", "CI": "comprehensive"}
DEFAULT_GROUP = 500  # filings whose pre and num rows are held at once (~10 MB of rows for 2009-2010 quarters)
_HEADER = -1  # the offset written for a member's header line in a bundle


def is_fsds_zip(names: list[str]) -> bool:
    """A zip with at least two of sub.txt, num.txt, pre.txt and tag.txt is a Financial Statement Data Set."""
    return len(set(names) & set(KNOWN)) >= 2


def _rows(zf: zipfile.ZipFile, member: str) -> Iterator[tuple[int, bytes]]:
    """(byte offset, line without its newline) of every line of a member, streamed."""
    offset = 0
    with zf.open(member) as raw:
        for line in raw:  # ZipExtFile is buffered: one line at a time
            yield offset, line.rstrip(b"\r\n")
            offset += len(line)


def filing_bundles(path: Path, zf: zipfile.ZipFile, *, group: int = DEFAULT_GROUP,
                   ) -> Iterator[tuple[str, bytes | RejectedDocument]]:
    """``(name, bundle)`` for each filing of an FSDS zip, in sub.txt's order, the name
    ``2009q3.zip:0001193125-09-153165``; a zip that cannot be read whole gives one RejectedDocument."""
    names = [i.filename for i in zf.infolist() if not i.is_dir()]
    missing = [m for m in REQUIRED if m not in names]
    if missing:
        yield str(path), RejectedDocument(str(path), f"a Financial Statement Data Sets zip without {', '.join(missing)} "
                                                     f"(it has {', '.join(sorted(names))}): nothing loaded")
        return
    member, given = "sub.txt", 0
    try:
        sub = list(_rows(zf, member))
        filings = [(off, line) for off, line in sub[1:] if line]
        known = {line.split(b"\t", 1)[0] for _, line in filings}
        orphans: dict[str, list[bytes]] = {"pre.txt": [], "num.txt": []}  # rows of no filing of sub.txt
        for start in range(0, len(filings), group):
            chunk = filings[start:start + group]
            wanted = {line.split(b"\t", 1)[0]: [b"sub\t%d\t%s" % (off, line)] for off, line in chunk}
            headers = [b"sub\t%d\t%s" % (_HEADER, sub[0][1])]
            for member in ("pre.txt", "num.txt"):
                tag = member[:3].encode()
                rows = _rows(zf, member)
                headers.append(b"%s\t%d\t%s" % (tag, _HEADER, next(rows, (0, b""))[1]))
                for off, line in rows:
                    adsh = line.split(b"\t", 1)[0]
                    lines = wanted.get(adsh)
                    if lines is not None:
                        lines.append(b"%s\t%d\t%s" % (tag, off, line))
                    elif start == 0 and adsh not in known and line:
                        orphans[member].append(adsh)
            for adsh, lines in wanted.items():
                accession = adsh.decode("ascii", "replace")
                head = MAGIC + path.name.encode() + b"\n"
                yield f"{path.name}:{accession}", head + b"\n".join(headers + lines) + b"\n"
                given += 1
        for member, adshs in orphans.items():
            if adshs:
                name = f"{path.name}:{member}"
                yield name, RejectedDocument(name, f"{len(adshs):,} rows of {len(set(adshs))} accessions sub.txt does not "
                                                   f"list (first {adshs[0].decode('ascii', 'replace')!r}): not loaded")
    except (OSError, EOFError, zipfile.BadZipFile, zlib.error, NotImplementedError) as exc:
        name = f"{path.name}:{member}"
        yield name, RejectedDocument(name, f"corrupt Financial Statement Data Sets member: {exc} "
                                            f"({given} filings of {path.name} read before it, none after)")


@dataclass(frozen=True)
class FsdsFiling(InlineXbrlDocument):
    """One filing of a Financial Statement Data Set: its values as facts and its statements as presented."""

    kind: str = "fsds_filing"  # source_documents.kind
    fiscal_year: int | None = None
    fiscal_period: str | None = None
    filed: str | None = None
    source: str | None = None  # the quarterly zip's file name


def _prefix(version: str, adsh: str, instance: str) -> str:
    """us-gaap/2009 -> us-gaap; a company's own tag (version = its accession) -> its instance's prefix."""
    if version == adsh:
        return instance.split("-", 1)[0].lower() if "-" in instance else "custom"
    return version.split("/", 1)[0]


def _iso(yyyymmdd: str) -> date:
    return date(int(yyyymmdd[:4]), int(yyyymmdd[4:6]), int(yyyymmdd[6:8]))


def _period_start(end: date, quarters: int) -> date:
    """The first day of the month ``quarters`` quarters before the month after ``end`` (2009-06-30, 1 -> 2009-04-01)."""
    total = end.year * 12 + (end.month - 1) - 3 * quarters + 1  # months since year 0 of the first month
    return date(total // 12, total % 12 + 1, 1)


def parse_fsds_filing(body: bytes, *, document: str) -> FsdsFiling:
    """One filing's bundle (from ``filing_bundles``) as an FsdsFiling; RejectedDocument naming ``document``
    and the row when a row cannot be read."""
    if not body.startswith(MAGIC):
        raise RejectedDocument(document, "not a Financial Statement Data Sets filing bundle")
    text = body.decode("utf-8", "replace").split("\n")
    source = text[0].split("\t")[2]
    headers: dict[str, list[str]] = {}
    rows: dict[str, list[tuple[int, dict[str, str]]]] = {"sub": [], "pre": [], "num": []}
    for line in text[1:]:
        if not line:
            continue
        member, at, row = line.split("\t", 2)
        cells = row.split("\t")
        if int(at) == _HEADER:
            headers[member] = cells
            continue
        names = headers.get(member)
        if names is None or len(cells) != len(names):
            raise RejectedDocument(document, f"{source}:{member}.txt row at byte {at} has {len(cells)} fields, "
                                             f"the header {len(names or [])}: {row[:200]!r}")
        rows[member].append((int(at), dict(zip(names, cells, strict=True))))
    if len(rows["sub"]) != 1:
        raise RejectedDocument(document, f"{len(rows['sub'])} sub.txt rows for one filing")
    sub = rows["sub"][0][1]
    adsh, instance = sub["adsh"], sub.get("instance", "")
    facts: list[InlineFact] = []
    by_tag: dict[tuple[str, str], list[InlineFact]] = {}
    for offset, r in rows["num"]:
        try:
            value = Decimal(r["value"]) if r["value"] else None
            end, quarters = _iso(r["ddate"]), int(r["qtrs"])
        except (InvalidOperation, ValueError) as exc:
            raise RejectedDocument(document, f"{source}:num.txt row at byte {offset}: {exc}: {r}") from exc
        dims = [(axis, member) for axis, _, member in (p.partition("=") for p in r.get("segments", "").split(";") if "=" in p)]
        if r.get("coreg"):  # a co-registrant's value (parent company, a subsidiary, a guarantor)
            dims.append(("coreg", r["coreg"]))
        concept = f"{_prefix(r['version'], adsh, instance)}:{r['tag']}"
        fact = InlineFact(
            kind="numeric", concept=concept, value=value, text=None, displayed=r["value"], nil=value is None,
            unit=r["uom"], context_id=f"{r['ddate']}/{quarters}/{r.get('segments', '')}/{r.get('coreg', '')}",
            period_type="instant" if quarters == 0 else "duration",
            period_start=None if quarters == 0 else _period_start(end, quarters).isoformat(),
            period_end=end.isoformat(), dimensions=tuple(sorted(dims)), decimals=None, scale=None, sign=None,
            format=None, element_id=None, byte_offset=offset, cik=int(sub["cik"]))
        facts.append(fact)
        if not dims:
            by_tag.setdefault((r["tag"], r["version"]), []).append(fact)
    return FsdsFiling(
        document=document, accession=adsh, cik=int(sub["cik"]), form=sub["form"], period_end=sub.get("period"),
        facts=facts, elements=len(facts), statements=_statements(rows["pre"], by_tag, adsh, instance),
        fiscal_year=int(sub["fy"]) if sub.get("fy") else None, fiscal_period=sub.get("fp") or None,
        filed=sub.get("filed"), source=source)


def _statements(pre: list[tuple[int, dict[str, str]]], by_tag: dict, adsh: str, instance: str) -> list[Statement]:
    """Each statement kind's report (the one with the most lines; the first on a tie), lines in pre's order."""
    reports: dict[tuple[str, int], list[tuple[int, dict[str, str]]]] = {}
    for offset, r in pre:
        if r["stmt"] in STATEMENTS and r.get("inpth", "0") == "0":
            reports.setdefault((r["stmt"], int(r["report"])), []).append((offset, r))
    best: dict[str, tuple[int, int]] = {}
    for (stmt, report), lines in reports.items():
        if stmt not in best or (len(lines), -report) > (len(reports[(stmt, best[stmt][1])]), -best[stmt][1]):
            best[stmt] = (len(lines), report)
    out = []
    for stmt, (_, report) in best.items():
        lines = sorted(reports[(stmt, report)], key=lambda x: int(x[1]["line"]))
        values = {id(r): _values(stmt, by_tag.get((r["tag"], r["version"]), []), r.get("negating") == "1")
                  for _, r in lines}
        # a duration column is the statement's when at least half its lines with durations have it (a 10-Q's
        # cash-flow statement prints nine months; its net income line's tag also has the quarter)
        with_durations = [v for v in values.values() if any(x.period_start for x in v)]
        counts: dict[tuple, int] = {}
        for v in with_durations:
            for key in {(x.period_start, x.period_end) for x in v if x.period_start}:
                counts[key] = counts.get(key, 0) + 1
        columns = {k for k, n in counts.items() if 2 * n >= len(with_durations)}
        # on a cash-flow or equity statement a balance's tag prints twice: first at the columns' starts (the
        # day before), last at their ends
        starts = {(date.fromisoformat(a) - timedelta(days=1)).isoformat() for a, _ in columns}
        ends = {b for _, b in columns}
        tag_lines: dict[tuple[str, str], list[int]] = {}
        for n, (_, r) in enumerate(lines):
            tag_lines.setdefault((r["tag"], r["version"]), []).append(n)
        printed = []
        for n, (_, r) in enumerate(lines):
            same = tag_lines[(r["tag"], r["version"])]
            instants = None if stmt == "BS" or not columns else \
                (starts if n == same[0] else set()) | (ends if n == same[-1] else set()) if len(same) > 1 else starts | ends
            kept = tuple(x for x in values[id(r)] if (x.period_start, x.period_end) in columns
                         or (x.period_start is None and (instants is None or x.period_end in instants)))
            printed.append(StatementLine(label=r["plabel"], concept=f"{_prefix(r['version'], adsh, instance)}:{r['tag']}",
                                         depth=0, indent=0.0, values=kept))
        out.append(Statement(statement=STATEMENTS[stmt], title=None, byte_offset=lines[0][0], score=len(lines),
                             lines=tuple(printed)))
    return out


def _values(stmt: str, facts: list[InlineFact], negate: bool) -> list[StatementValue]:
    """A line's values as shown (negated when pre says so): instants on the balance sheet, durations on the
    income and comprehensive-income statements, both on cash-flow and equity statements (cash and balances
    at the start and end); the latest period first, the shorter duration first (pre does not say the order)."""
    out = []
    for f in facts:
        if (stmt == "BS" and f.period_type != "instant") or (stmt in ("IS", "CI") and f.period_type == "instant"):
            continue
        shown = -f.value if negate and f.value is not None else f.value
        out.append(StatementValue(period_start=f.period_start, period_end=f.period_end, value=shown, fact_value=f.value,
                                  shown_negative=shown is not None and shown < 0, dimensions=(), element_id=None,
                                  byte_offset=f.byte_offset, concept=f.concept))
    return sorted(out, key=lambda v: (v.period_end or "", v.period_start or v.period_end or ""), reverse=True)
