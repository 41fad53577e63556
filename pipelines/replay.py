"""Offline SEC responses: a folder laid out by URL that replays recorded bodies, and the recorder.

A replay folder holds one file per URL at ``<root>/<host>/<path>`` (served as is) or
``<root>/<host>/<path>.gz`` (gzip, decompressed before serving). ``ReplayTransport`` serves it to
httpx, so every flow runs without network; ``record_body`` writes a fetched body to
``<root>/<host>/<path>.gz`` so a later replay serves it (``SecClient.recording`` uses it). The same URL -> path
mapping (``url_relpath``) lays out the on-disk HTTP cache of ``pipelines.sec_client``.
"""

from __future__ import annotations

import gzip
import mimetypes
import os
import tempfile
import zlib
from pathlib import Path, PurePosixPath
from urllib.parse import quote

import httpx

from pipelines.errors import TerminalError

# A 404 carrying this header is "no recorded response", not SEC's own 404; its body is the message.
REPLAY_MISSING_HEADER = "x-edgar-replay-missing"


def url_relpath(url: str | httpx.URL) -> PurePosixPath:
    """``<host>/<path>`` for ``url``: a directory URL maps to ``.../index.html``, a query to ``@query``.

    Raises TerminalError for a URL without a host or with ``.``/``..`` segments (it would escape the
    folder).
    """
    u = httpx.URL(str(url))
    if not u.host:
        raise TerminalError(f"{url}: not an absolute URL")
    raw = u.path
    parts = [p for p in raw.split("/") if p]
    if any(p in (".", "..") or "\\" in p or "\x00" in p for p in parts):
        raise TerminalError(f"{url}: path segments '.', '..', backslashes and NUL are not allowed")
    if not parts or raw.endswith("/"):
        parts.append("index.html")
    if u.query:
        parts[-1] += "@" + quote(u.query.decode("ascii", "replace"), safe="=&")
    return PurePosixPath(u.host, *parts)


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` via a temporary file in the same folder and ``os.replace``.

    Readers see the old file or the new one, never a half-written one. Raises OSError.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


class ReplayTransport(httpx.BaseTransport):
    """httpx transport that answers GET from a replay folder and never touches the network.

    A URL with no recorded file gets a 404 carrying ``REPLAY_MISSING_HEADER`` whose body names the
    URL, the folder and both paths looked for (SecClient turns it into ``NotFound``).
    """

    def __init__(self, root: str | os.PathLike[str]):
        self.root = Path(root)

    def candidates(self, url: str | httpx.URL) -> tuple[Path, Path]:
        """The two files that can answer ``url``: the plain one (tried first) and its ``.gz``."""
        plain = self.root / url_relpath(url)
        return plain, plain.with_name(plain.name + ".gz")

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        plain, gz = self.candidates(request.url)
        if request.method not in ("GET", "HEAD"):
            return httpx.Response(405, text=f"replay serves GET only, not {request.method}", request=request)
        if plain.is_file():
            body = plain.read_bytes()
        elif gz.is_file():
            try:
                body = gzip.decompress(gz.read_bytes())
            except (OSError, EOFError, zlib.error) as exc:
                raise TerminalError(f"{request.url}: replay file {gz} is not valid gzip ({exc})") from exc
        else:
            message = (
                f"{request.url}: no recorded response in replay folder {self.root} "
                f"(looked for {plain} and {gz})"
            )
            return httpx.Response(404, headers={REPLAY_MISSING_HEADER: "1"}, text=message, request=request)
        ctype = mimetypes.guess_type(plain.name)[0] or "application/octet-stream"
        return httpx.Response(200, headers={"content-type": ctype}, content=body, request=request)


def record_body(root: str | os.PathLike[str], url: str | httpx.URL, body: bytes) -> Path:
    """Save ``body`` (decoded) as the recorded response of ``url``: ``<root>/<host>/<path>.gz``.

    ``SecClient.recording`` calls it only for complete bodies that passed the same checks as the
    cache, so a replay folder never holds a throttle page or a truncated body. A failed write
    raises TerminalError naming the file.
    """
    target = Path(root) / url_relpath(url)
    target = target.with_name(target.name + ".gz")
    try:
        write_atomic(target, gzip.compress(body, mtime=0))
    except OSError as exc:
        raise TerminalError(f"{url}: cannot record to {target}: {exc.strerror or exc}") from exc
    return target
