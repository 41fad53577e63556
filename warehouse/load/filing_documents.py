"""Store a FilingDocument (a 10-K/10-Q/8-K primary document) in filing_documents and filing_sections.

Runs inside the batch transaction of ``warehouse.load.batch.load_batch``. The company is the document's
(SEC header, inline-XBRL cover), else the ``filings`` row of its accession, else the CIK the load was
given (``load --cik``); a document with none of them, or without an accession, is rejected by name.
One primary document per accession: when a second payload of the same filing arrives, the preferred
one's rows stay (``ENVELOPE_RANK``, then the smaller sha256), so arrival order does not matter.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

import duckdb
import pyarrow as pa

from pipelines.errors import RejectedDocument
from pipelines.filing_search import postings
from pipelines.sec_formats import accession_no_dashes
from warehouse.load.context import LoadContext, insert_arrow
from warehouse.load.inline_xbrl import load_inline_xbrl
from warehouse.schema.sql_files import sql
from warehouse.store.db import fetch_all

if TYPE_CHECKING:
    from pipelines.filing_documents import FilingDocument

TABLES = ("filing_documents", "filing_sections", "filing_terms")
REPLACED = "filing_documents_replaced"
ENVELOPE_RANK = {"full_submission": 0, "inline_xbrl": 1, "sgml_wrapper": 2, "html": 3}
ARCHIVES = "https://www.sec.gov/Archives/edgar/data"

_PROV = [("source_document_id", pa.int64()), ("load_id", pa.string())]
_EXHIBIT = pa.struct([("type", pa.string()), ("sequence", pa.string()), ("file_name", pa.string()),
                      ("description", pa.string()), ("byte_start", pa.int64()), ("byte_end", pa.int64())])
_DOCUMENTS = pa.schema([
    ("accession", pa.string()), ("accession_source", pa.string()), ("cik", pa.int32()),
    ("cik_source", pa.string()), ("form", pa.string()), ("form_family", pa.string()),
    ("company_name", pa.string()), ("filed", pa.date32()), ("period_of_report", pa.date32()),
    ("acceptance_time", pa.timestamp("us")), ("envelope", pa.string()), ("file_name", pa.string()),
    ("document_url", pa.string()), ("sha256", pa.string()), ("bytes", pa.int64()), ("text", pa.large_string()),
    ("text_byte_start", pa.int64()), ("text_byte_end", pa.int64()), ("has_table_of_contents", pa.bool_()),
    ("section_count", pa.int32()), ("exhibits", pa.list_(_EXHIBIT)), *_PROV,
])
_SECTIONS = pa.schema([
    ("accession", pa.string()), ("item", pa.string()), ("ordinal", pa.int32()), ("cik", pa.int32()),
    ("part", pa.string()), ("heading", pa.string()), ("text", pa.large_string()), ("text_start", pa.int64()),
    ("text_end", pa.int64()), ("body_start", pa.int64()), ("byte_start", pa.int64()), ("byte_end", pa.int64()),
    ("flags", pa.list_(pa.string())), ("covers", pa.list_(pa.string())), ("confidence", pa.float64()),
    ("confidence_reason", pa.string()), ("term_count", pa.int32()), *_PROV,
])
_TERMS = pa.schema([("term", pa.string()), ("accession", pa.string()), ("item", pa.string()), ("tf", pa.int32()),
                    ("pos", pa.list_(pa.int32()))])


def document_url(cik: int, accession: str, uri: str, record: FilingDocument) -> str:
    """Where the document is on sec.gov: the URL it was fetched from, else its Archives address: a
    full submission by its accession, a primary document by its <FILENAME> or the name after the
    accession in its file name (``0000320193-24-000123_aapl-20240928.htm``)."""
    if uri.startswith("https://"):
        return uri
    folder = f"{ARCHIVES}/{cik}/{accession_no_dashes(accession)}"
    name = record.file_name
    if record.envelope != "full_submission" and name is None:
        base = re.split(r"[\\/]", uri)[-1].removesuffix(".gz")
        m = re.match(r"^\d{10}-?\d{2}-?\d{6}_(.+)$", base)
        name = m.group(1) if m else None
    return f"{folder}/{name}" if name and record.envelope != "full_submission" else f"{folder}/{accession}.txt"


def _company(con: duckdb.DuckDBPyConnection, ctx: LoadContext, record: FilingDocument) -> tuple[int, str]:
    if record.cik is not None:
        return record.cik, record.cik_source or "document"
    rows = fetch_all(con, "SELECT DISTINCT cik FROM filings WHERE accession = ? ORDER BY cik", [record.accession])
    if len(rows) == 1:
        return int(rows[0][0]), "filings"
    if ctx.doc.expected_cik is not None:
        return ctx.doc.expected_cik, "expected"
    named = f" ({len(rows)} companies file it: {', '.join(str(r[0]) for r in rows)})" if rows else ""
    raise RejectedDocument(ctx.doc.uri, f"accession {record.accession}: the document names no company{named}; "
                                        "load it with --cik N")


def build_tables(con: duckdb.DuckDBPyConnection, ctx: LoadContext, record: FilingDocument) -> dict[str, pa.Table]:
    """The two tables of one document as Arrow tables (validates; inserts nothing)."""
    if record.accession is None:
        raise RejectedDocument(ctx.doc.uri, "no accession: neither an SEC header nor a file name carries one "
                                            "(name the file <accession>_name.htm or load it with --accession)")
    cik, cik_source = _company(con, ctx, record)
    prov = {"source_document_id": ctx.source_document_id, "load_id": ctx.load_id}
    document = {
        "accession": record.accession, "accession_source": record.accession_source, "cik": cik,
        "cik_source": cik_source, "form": record.form, "form_family": record.form_family,
        "company_name": record.company_name, "filed": record.filed, "period_of_report": record.period,
        "acceptance_time": record.accepted, "envelope": record.envelope, "file_name": record.file_name,
        "document_url": document_url(cik, record.accession, ctx.doc.uri, record),
        "sha256": record.sha256, "bytes": record.size, "text": record.text,
        "text_byte_start": record.text_byte_start, "text_byte_end": record.text_byte_end,
        "has_table_of_contents": record.has_table_of_contents, "section_count": len(record.sections),
        "exhibits": [{"type": e.type, "sequence": e.sequence, "file_name": e.file_name, "description": e.description,
                      "byte_start": e.byte_start, "byte_end": e.byte_end} for e in record.exhibits],
        **prov,
    }
    counted = [postings(f"{s.heading}\n{s.text}") for s in record.sections]
    sections = [{"accession": record.accession, "item": s.item, "ordinal": s.ordinal, "cik": cik, "part": s.part,
                 "heading": s.heading, "text": s.text, "text_start": s.text_start, "text_end": s.text_end, "body_start": s.body_start,
                 "byte_start": s.byte_start, "byte_end": s.byte_end, "flags": list(s.flags),
                 "covers": list(s.covers), "confidence": s.confidence, "confidence_reason": s.confidence_reason,
                 "term_count": sum(map(len, c.values())), **prov} for s, c in zip(record.sections, counted, strict=True)]
    rows: dict[str, list] = {"term": [], "accession": [], "item": [], "tf": [], "pos": []}
    for s, c in zip(record.sections, counted, strict=True):
        for term, places in sorted(c.items()):
            rows["term"].append(term)
            rows["accession"].append(record.accession)
            rows["item"].append(s.item)
            rows["tf"].append(len(places))
            rows["pos"].append(places)
    return {"filing_documents": pa.Table.from_pylist([document], schema=_DOCUMENTS),
            "filing_sections": pa.Table.from_pylist(sections, schema=_SECTIONS),
            "filing_terms": pa.Table.from_pydict(rows, schema=_TERMS)}



def load_filing_document(con: duckdb.DuckDBPyConnection, ctx: LoadContext, record: FilingDocument) -> dict[str, int]:
    """Insert one document's rows (table -> rows). An accession already held keeps the preferred of
    the two documents (counted as ``filing_documents_replaced`` when this one takes its place). An
    inline-XBRL document's facts go into filing_facts (``warehouse.load.inline_xbrl``)."""
    counts = {**dict.fromkeys(TABLES, 0), REPLACED: 0}
    tables = build_tables(con, ctx, record)
    if record.inline_xbrl is not None:
        counts.update(load_inline_xbrl(con, ctx, record.inline_xbrl))
    held = fetch_all(con, "SELECT envelope, sha256 FROM filing_documents WHERE accession = ?", [record.accession])
    if held:
        envelope, sha = held[0]
        if (ENVELOPE_RANK[envelope], sha) <= (ENVELOPE_RANK[record.envelope], record.sha256):
            return counts
        for name in TABLES:
            con.execute(f"DELETE FROM {name} WHERE accession = ?", [record.accession])
        counts[REPLACED] = 1
    before = fetch_all(con, "SELECT count(*) FROM filing_terms")[0][0]
    for name in TABLES:
        counts[name] = insert_arrow(con, name, tables[name])
    if cluster_step(before + counts["filing_terms"]) > cluster_step(before):
        con.execute(sql("load/filing_documents/cluster_terms"))
        counts["filing_terms_sorted"] = 1
    return counts


CLUSTER_FROM, CLUSTER_GROWTH = 1_000_000, 1.25


def cluster_step(rows: int) -> int:
    """The keyword index is sorted by term when it first holds ``CLUSTER_FROM`` rows, then whenever
    it has grown by a quarter (``CLUSTER_GROWTH``): the unsorted rows a search scans whole stay under
    a fifth of the index, and sorting costs, over the index's life, about five sorts of its final size."""
    return 0 if rows < CLUSTER_FROM else 1 + int(math.log(rows / CLUSTER_FROM, CLUSTER_GROWTH))


def held_documents(con: duckdb.DuckDBPyConnection, accessions: Sequence[str]) -> set[str]:
    """Those of ``accessions`` whose primary document is loaded (or was rejected: fetched once is enough)."""
    if not accessions:
        return set()
    return {r[0] for r in fetch_all(con, sql("load/filing_documents/held"), {"accessions": sorted(set(accessions))})}
