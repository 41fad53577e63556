"""The bulk bootstrap: SEC's companyfacts.zip / submissions.zip (or folders of members) into the warehouse.

Members are streamed one at a time (``pipelines.archive``), go through the one ingest path
(``warehouse.load.ingest.ingest``: a member whose bytes are already loaded is found by sha256 and
skipped before parsing; the others are parsed in a process per core) and commit every
``batch_size`` members under one load run. A bad member (an HTML page, truncated JSON, a corrupt
zip entry) is recorded as a rejected document named ``<zip>:<member>`` and the rest loads. A run
that is killed keeps its committed batches; run again, it skips them and converges.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pipelines.documents import Document
from pipelines.errors import RejectedDocument

if TYPE_CHECKING:  # imported where used: every CLI process imports this module (the bootstrap's default
    from warehouse.load.batch import (  # batch size) and these cost ~0.1 s (pyarrow, numpy)
        BatchReport,
        Rejected,
    )

DEFAULT_BATCH_SIZE = 25  # members per commit: bounds memory (bodies + records of one batch); 25 measured best (docs/benchmarks.md)


def items(paths: Iterable[Path], *, accession: str | None = None, cik: int | None = None
          ) -> Iterator[Document | Rejected]:
    """Ingest items for every member of ``paths``, lazily: Documents (with ``accession`` and the
    company ``cik`` when given: a filing document that names no company is that company's), or
    Rejected for a member that could not even be read (named; recorded by the ingest path)."""
    from pipelines.archive import documents
    from warehouse.load.batch import Rejected

    for doc in documents(paths):
        if isinstance(doc, RejectedDocument):
            yield Rejected(Document(uri=doc.document, origin="file", body=b""), doc)
        else:
            if accession:
                doc = replace(doc, accession=accession)
            yield replace(doc, expected_cik=cik) if cik is not None else doc


def bootstrap(con: Any, paths: list[Path], *, raw_dir: Path, command: str = "bootstrap",
              batch_size: int = DEFAULT_BATCH_SIZE, workers: int | None = None, accession: str | None = None,
              cik: int | None = None, on_batch: Callable[[BatchReport, int], None] | None = None) -> BatchReport:
    """Load every member of ``paths`` (zips, folders, files) as ONE run committing every
    ``batch_size`` members; ``on_batch(report, members)`` after each commit. Returns the run's totals."""
    from warehouse.load.ingest import ingest

    require(paths)
    return ingest(con, items(paths, accession=accession, cik=cik), raw_dir=raw_dir, command=command, batch_size=batch_size,
                  workers=workers, on_batch=on_batch)


def require(paths: Iterable[Path]) -> None:
    """FileNotFoundError naming every one of ``paths`` that does not exist."""
    missing = [str(p) for p in paths if not Path(p).exists()]
    if missing:
        raise FileNotFoundError(f"no such file or folder: {', '.join(missing)}")


def total_members(paths: list[Path]) -> int:
    """How many members the bootstrap of ``paths`` will go through (for progress and ETA)."""
    from pipelines.archive import count_members

    return count_members(paths)
