"""pipelines.documents: local files, gzip with a size cap (bombs refused unexpanded), CIK from the file name."""

from __future__ import annotations

import gzip
import tracemalloc

import pytest

from helpers import COMPANYFACTS_DIR, read_body
from pipelines.documents import (
    DEFAULT_MAX_DOCUMENT_BYTES,
    MAX_DOCUMENT_BYTES_ENV,
    inflate_gzip,
    max_document_bytes,
    read_local_document,
)
from pipelines.errors import ConfigError, RejectedDocument
from pipelines.parse import parse_document

APPLE = COMPANYFACTS_DIR / "CIK0000320193.json.gz"
TSM = COMPANYFACTS_DIR / "CIK0001046179.json.gz"


def _bomb(inflated: int, member: int = 16 << 20) -> bytes:
    """Concatenated gzip members of spaces: ``inflated`` bytes from about inflated/1000 bytes."""
    return gzip.compress(b" " * member, mtime=0) * (inflated // member)


def test_a_3gib_gzip_bomb_is_refused_without_inflating_it(tmp_path):
    """Issue 8 bug 2: a 3 MB gzip inflating to 3 GiB took 9.3 GB of memory, then a traceback."""
    bomb = _bomb(3 << 30)
    assert len(bomb) < 4_000_000
    path = tmp_path / "CIK0000320193.json.gz"
    path.write_bytes(bomb)
    del bomb
    tracemalloc.start()
    try:
        with pytest.raises(RejectedDocument) as exc:
            read_local_document(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert exc.value.document == str(path) and "size cap" in exc.value.reason
    assert f"{DEFAULT_MAX_DOCUMENT_BYTES:,}" in exc.value.reason
    assert peak < 2 * DEFAULT_MAX_DOCUMENT_BYTES  # stopped at the cap: never near 3 GiB


def test_cap_is_configurable(monkeypatch, tmp_path):
    body = read_body(TSM)
    assert len(gzip.decompress(TSM.read_bytes())) == len(body)
    monkeypatch.setenv(MAX_DOCUMENT_BYTES_ENV, str(len(body) - 1))
    assert max_document_bytes() == len(body) - 1
    with pytest.raises(RejectedDocument, match="size cap"):
        read_local_document(TSM)
    plain = tmp_path / "tsm.json"
    plain.write_bytes(body)
    with pytest.raises(RejectedDocument, match="over the size cap"):
        read_local_document(plain)
    monkeypatch.setenv(MAX_DOCUMENT_BYTES_ENV, str(TSM.stat().st_size - 1))  # even the .gz is bigger
    with pytest.raises(RejectedDocument, match="over the size cap"):
        read_local_document(TSM)
    monkeypatch.setenv(MAX_DOCUMENT_BYTES_ENV, str(len(body)))
    assert read_local_document(TSM).body == body
    monkeypatch.setenv(MAX_DOCUMENT_BYTES_ENV, "lots")
    with pytest.raises(ConfigError):
        max_document_bytes()


def test_multi_member_gzip_is_read_whole():
    body = read_body(TSM)
    two = gzip.compress(body[:1000]) + gzip.compress(body[1000:]) + b"\x00" * 16
    assert inflate_gzip(two, document="two.gz") == body


@pytest.mark.parametrize(("damage", "reason"), [
    (lambda z: z[: len(z) // 2], "truncated"),
    (lambda z: z + b"not gzip", "bytes after the end"),
    (lambda z: z[:-8] + bytes(b ^ 0xFF for b in z[-8:-4]) + z[-4:], "corrupt gzip"),
])
def test_damaged_gzip_is_rejected(damage, reason):
    with pytest.raises(RejectedDocument) as exc:
        inflate_gzip(damage(TSM.read_bytes()), document="x.json.gz")
    assert exc.value.document == "x.json.gz" and reason in exc.value.reason


def test_file_name_cik_becomes_expected_cik(tmp_path):
    """Issue 8 bug 3: CIK0000320193.json holding another company loaded under the body's CIK."""
    assert read_local_document(APPLE).expected_cik == 320193
    liar = tmp_path / "CIK0000320193.json"
    liar.write_bytes(read_body(TSM))
    doc = read_local_document(liar)
    assert doc.expected_cik == 320193
    with pytest.raises(RejectedDocument) as exc:
        parse_document(doc)
    assert exc.value.document == str(liar)
    assert "body is about CIK 1046179, but CIK 320193 was requested" in exc.value.reason
    plain = tmp_path / "tsmc-facts.json"  # a name without a CIK expects nothing
    plain.write_bytes(read_body(TSM))
    assert read_local_document(plain).expected_cik is None
    assert parse_document(read_local_document(plain))[1].cik == 1046179
