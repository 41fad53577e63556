"""Stream SEC bulk files member by member: zip members and files under a folder, one at a time.

SEC publishes ``companyfacts.zip`` (~19k members, ~1.4 GB compressed) and ``submissions.zip``;
a bootstrap reads them here without ever holding more than one member: ``members`` yields
``(name, body)`` lazily from a zip, a folder (recursively, sorted) or a plain file, and
``documents`` turns those into Documents (or a RejectedDocument naming the member, when it cannot
be read) for the ingest path. A zip member is named ``<zip file name>:<member name>``, e.g.
``companyfacts.zip:CIK0000320193.json``; that name is the document's uri (what a rejection names).
"""

from __future__ import annotations

import os
import zipfile
import zlib
from collections.abc import Iterable, Iterator
from pathlib import Path, PurePosixPath

from pipelines.documents import (
    GZIP_MAGIC,
    MAX_DOCUMENT_BYTES_ENV,
    Document,
    inflate_gzip,
    max_document_bytes,
    read_local_document,
)
from pipelines.errors import RejectedDocument
from pipelines.fsds import filing_bundles, is_fsds_zip
from pipelines.sec_formats import cik_from_file_name

ZIP_MAGIC = b"PK\x03\x04"
MEMBER_SEPARATOR = ":"


def is_zip(path: Path) -> bool:
    """True when ``path`` is a file starting with a zip local-file header (whatever its name)."""
    try:
        with open(path, "rb") as f:
            return f.read(4) == ZIP_MAGIC
    except OSError:
        return False


def member_name(archive: Path, member: str) -> str:
    """The name a zip member is known by: ``companyfacts.zip:CIK0000320193.json``."""
    return f"{archive.name}{MEMBER_SEPARATOR}{member}"


def files_under(folder: Path) -> Iterator[Path]:
    """Every regular file and symbolic link under ``folder``, recursively, in sorted order, listed one
    folder at a time (links are never entered; ``refused_link`` says which may be read)."""
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError as exc:
        raise RejectedDocument(str(folder), f"cannot list folder: {exc.strerror or exc}") from exc
    for entry in entries:
        if entry.name.startswith("."):
            continue  # .DS_Store, editor and partial-download files
        if entry.is_symlink():
            yield Path(entry.path)
        elif entry.is_dir(follow_symlinks=False):
            yield from files_under(Path(entry.path))
        elif entry.is_file(follow_symlinks=False):
            yield Path(entry.path)


def refused_link(path: Path, root: Path) -> str | None:
    """Why the symbolic link ``path`` found under the folder ``root`` is not read (it points out of
    the loaded tree, to nothing, or to a folder), else None (not a link, or a link to a file inside)."""
    if not path.is_symlink():
        return None
    try:
        target = path.resolve(strict=True)
    except (OSError, RuntimeError):
        return "a symbolic link to nothing: not followed"
    if not target.is_relative_to(root.resolve()):
        return f"a symbolic link out of the loaded folder {root}: not followed, nothing read"
    if not target.is_file():
        return "a symbolic link to a folder: not followed"
    return None


def count_members(paths: Iterable[Path]) -> int:
    """How many documents ``documents(paths)`` will yield (zip central directories and folder
    listings only: no member is read). For a progress bar's total."""
    total = 0
    for path in paths:
        path = Path(path)
        if path.is_dir():
            total += sum(1 if refused_link(p, path) or not is_zip(p) else _zip_count(p) for p in files_under(path))
        elif is_zip(path):
            total += _zip_count(path)
        else:
            total += 1
    return total


def _zip_count(path: Path) -> int:
    try:
        with zipfile.ZipFile(path) as zf:
            names = [info.filename for info in zf.infolist() if not info.is_dir()]
            if is_fsds_zip(names) and "sub.txt" in names:  # a document per filing: sub.txt's rows
                with zf.open("sub.txt") as sub:
                    return max(sum(1 for line in sub if line.strip()) - 1, 0)
            return len(names)
    except (OSError, zipfile.BadZipFile):
        return 1  # it will be one rejection


def zip_members(path: Path, *, limit: int | None = None) -> Iterator[tuple[str, bytes | RejectedDocument]]:
    """``(name, body)`` for each member of the zip at ``path``, one member in memory at a time; a
    member that cannot be read (corrupt, over the size cap) gives ``(name, RejectedDocument)``."""
    limit = max_document_bytes() if limit is None else limit
    try:
        zf = zipfile.ZipFile(path)
    except (OSError, zipfile.BadZipFile) as exc:
        yield str(path), RejectedDocument(str(path), f"not a readable zip archive: {exc}")
        return
    with zf:
        if is_fsds_zip([i.filename for i in zf.infolist()]):  # one document per filing, not per member
            yield from filing_bundles(path, zf)
            return
        for info in zf.infolist():  # the central directory: names and sizes, no member data
            if info.is_dir():
                continue
            name = member_name(path, info.filename)
            if info.file_size > limit:
                yield name, RejectedDocument(name, f"{info.file_size:,} bytes is over the size cap of {limit:,} "
                                                   f"bytes ({MAX_DOCUMENT_BYTES_ENV})")
                continue
            try:
                with zf.open(info) as f:
                    body = f.read(limit + 1)  # never more than the cap, whatever the header claims
            except (OSError, EOFError, zipfile.BadZipFile, zlib.error, NotImplementedError) as exc:
                yield name, RejectedDocument(name, f"corrupt zip member: {exc}")
                continue
            if len(body) > limit:
                yield name, RejectedDocument(name, f"inflates past the size cap of {limit:,} bytes "
                                                   f"({MAX_DOCUMENT_BYTES_ENV})")
                continue
            yield name, body


def members(path: Path, *, limit: int | None = None) -> Iterator[tuple[str, bytes | RejectedDocument]]:
    """``(name, body or RejectedDocument)`` for a zip (its members), a folder (every file under it,
    zips expanded) or a plain file, lazily: one body in memory at a time."""
    path = Path(path)
    if path.is_dir():
        for p in files_under(path):
            refused = refused_link(p, path)
            if refused is not None:
                yield str(p), RejectedDocument(str(p), refused)
            else:
                yield from members(p, limit=limit)
    elif is_zip(path):
        yield from zip_members(path, limit=limit)
    else:
        try:
            doc = read_local_document(path, limit=limit)
        except RejectedDocument as exc:
            yield str(path), exc
            return
        yield doc.uri, doc.body


def to_document(name: str, body: bytes | RejectedDocument, *, limit: int | None = None) -> Document | RejectedDocument:
    """A Document (origin ``file``) for one member: gzip members inflated, ``expected_cik`` from a
    ``CIK##########...`` member name; or the RejectedDocument naming it."""
    if isinstance(body, RejectedDocument):
        return body
    if body[:2] == GZIP_MAGIC:
        try:
            body = inflate_gzip(body, document=name, limit=limit)
        except RejectedDocument as exc:
            return exc
    return Document(uri=name, origin="file", body=body,
                    expected_cik=cik_from_file_name(PurePosixPath(name.rpartition(MEMBER_SEPARATOR)[2]).name))


def documents(paths: Iterable[Path], *, limit: int | None = None) -> Iterator[Document | RejectedDocument]:
    """Documents for every member of every path (zips, folders, files), in order, lazily."""
    for path in paths:
        for name, body in members(Path(path), limit=limit):
            yield to_document(name, body, limit=limit)
