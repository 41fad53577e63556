"""pipelines.archive: zip members and folder files streamed one at a time, bad members named."""

from __future__ import annotations

import gzip
import tracemalloc
import zipfile
from pathlib import Path

from helpers import COMPANYFACTS_DIR, FIXTURES, read_body
from pipelines.archive import count_members, documents, members
from pipelines.documents import Document
from pipelines.errors import RejectedDocument

TSM_CF = COMPANYFACTS_DIR / "CIK0001046179.json.gz"
TSLA_PAGE = FIXTURES / "sec/data.sec.gov/submissions/CIK0001318605-submissions-001.json.gz"


def _zip(path: Path, entries: list[tuple[str, bytes]]) -> Path:
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name, body in entries:
            zf.writestr(name, body)
    return path


def test_zip_members_are_named_after_the_zip_and_carry_their_cik(tmp_path):
    z = _zip(tmp_path / "companyfacts.zip", [("CIK0001046179.json", read_body(TSM_CF)),
                                             ("CIK0001318605-submissions-001.json", read_body(TSLA_PAGE))])
    docs = list(documents([z]))
    assert [d.uri for d in docs] == ["companyfacts.zip:CIK0001046179.json",
                                     "companyfacts.zip:CIK0001318605-submissions-001.json"]
    assert [d.expected_cik for d in docs] == [1046179, 1318605]
    assert docs[0].body == read_body(TSM_CF) and docs[0].origin == "file"
    assert count_members([z]) == 2


def test_a_corrupt_or_oversized_member_is_rejected_by_name_and_the_others_are_read(tmp_path):
    good = read_body(TSM_CF)
    z = _zip(tmp_path / "cf.zip", [("CIK0000000001.json", b'{"cik": 1, "facts": {' * 2000),
                                   ("CIK0001046179.json", good), ("CIK0000000003.json", b"x" * (len(good) + 1))])
    raw = bytearray(z.read_bytes())
    with zipfile.ZipFile(z) as zf:  # flip a byte inside the first member's compressed data: bad CRC/stream
        first = zf.infolist()[0]
        at = first.header_offset + 30 + len(first.filename) + 10
    raw[at] ^= 0xFF
    z.write_bytes(bytes(raw))
    out = list(documents([z], limit=len(good)))
    assert isinstance(out[0], RejectedDocument) and out[0].document == "cf.zip:CIK0000000001.json"
    assert "corrupt zip member" in out[0].reason
    assert isinstance(out[1], Document) and out[1].body == good
    assert isinstance(out[2], RejectedDocument) and out[2].document == "cf.zip:CIK0000000003.json"
    assert "size cap" in out[2].reason


def test_a_folder_is_walked_recursively_in_order_with_gzip_and_zips_inside(tmp_path):
    (tmp_path / "b" / "deeper").mkdir(parents=True)
    (tmp_path / "a.json.gz").write_bytes(TSM_CF.read_bytes())
    (tmp_path / "b" / "deeper" / "CIK0001318605-submissions-001.json").write_bytes(read_body(TSLA_PAGE))
    (tmp_path / "b" / ".partial").write_bytes(b"ignored")
    _zip(tmp_path / "b" / "inner.zip", [("CIK0001046179.json", gzip.compress(read_body(TSM_CF)))])
    docs = list(documents([tmp_path]))
    assert [Path(d.uri).name for d in docs] == ["a.json.gz", "CIK0001318605-submissions-001.json",
                                                "inner.zip:CIK0001046179.json"]
    assert all(d.body[:1] == b"{" for d in docs)  # gzip inflated, in files and in members
    assert count_members([tmp_path]) == 3


def test_members_are_read_lazily_one_at_a_time(tmp_path):
    """Bounded memory: the iterator holds one member (and zipfile's read buffers), never the archive:
    the peak while streaming 40 members is a few members' size, not 40."""
    body = read_body(TSM_CF)  # ~0.9 MB
    z = _zip(tmp_path / "big.zip", [(f"CIK{n:010d}.json", body) for n in range(40)])
    it = members(z)
    name, first = next(it)  # a generator: nothing past the first member has been read
    assert name == "big.zip:CIK0000000000.json" and first == body
    del first
    tracemalloc.start()
    try:
        seen = 0
        for _, b in it:
            seen += len(b)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert seen == 39 * len(body)
    assert peak < 5 * len(body), f"peak {peak:,} bytes while streaming {seen:,}"
