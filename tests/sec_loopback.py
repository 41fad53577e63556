"""A real HTTP server on 127.0.0.1 that plays SEC, with fault injection, and the transport that reaches it.

``LoopbackSEC`` is a ``ThreadingHTTPServer`` in a background thread. A request for
``https://<host>/<path>`` arrives as ``/<host>/<path>`` (``LoopbackTransport`` rewrites the URL;
the Host header still names SEC's host). Each path answers, in order, the faults scripted for it
(``server.script(path, fault, ...)``), then its recorded response: the file of a replay folder
(``tests/fixtures/sec`` layout), served gzip-encoded as SEC does, else 404. Every request is logged
with its arrival time (``time.time()``), so rate tests measure what the server saw.

``LoopbackTransport`` is the only test-side piece of the client: the real ``SecClient`` and the real
``httpx.HTTPTransport`` talk HTTP to the real server; only the scheme/host/port are rewritten.
"""

from __future__ import annotations

import gzip
import os
import socket
import struct
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx

Fault = Callable[[BaseHTTPRequestHandler], None]

# SEC's throttle page as public copies show it (title, header bar, the "undeclared automated tool"
# heading it shares with the User-Agent refusal, the fair-access paragraph); reconstructed, not a
# byte-exact capture. Served with status 200 below, as SEC sometimes does.
THROTTLE_PAGE = b"""<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" \
"http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
<html xmlns="http://www.w3.org/1999/xhtml">
<head>
<meta http-equiv="Content-Type" content="text/html; charset=UTF-8" />
<title>SEC.gov | Request Rate Threshold Exceeded</title>
<style>
html {height: 100%}
body {height: 100%; margin:0; padding:0;}
#header {background-color:#003968; color:#fff; padding:15px 20px 10px 20px;font-family:Arial, Helvetica, sans-serif; \
font-size:20px; border-bottom:solid 5px #000;}
</style>
</head>
<body>
<div id="header">U.S. Securities and Exchange Commission</div>
<div id="content">
<h1>Your Request Originates from an Undeclared Automated Tool</h1>
<p>To allow for equitable access to all users, SEC reserves the right to limit requests originating from undeclared
automated tools. Your request has been identified as part of a network of automated tools outside of the acceptable
policy and will be managed until action is taken to declare your traffic.</p>
<p>Please declare your traffic by updating your user agent to include company specific information.</p>
<p>For best practices on efficiently downloading information from SEC.gov, including the latest EDGAR filings, visit
<a href="https://www.sec.gov/developer">sec.gov/developer</a>.</p>
<p>Reference ID: 0.5e3c1602.1700000000.1a2b3c4d</p>
</div>
</body>
</html>
"""

ERROR_PAGE = (b"<!DOCTYPE html><html><head><title>SEC.gov | Page Not Available</title></head>"
              b"<body><h1>We're sorry, the page is temporarily unavailable.</h1></body></html>")


@dataclass
class Hit:
    """One request as the server saw it."""

    at: float  # time.time() on arrival
    path: str
    user_agent: str
    headers: dict[str, str] = field(default_factory=dict)


# ----------------------------------------------------------------------------- faults


def respond(status: int = 200, body: bytes = b"", headers: dict[str, str] | None = None) -> Fault:
    """A plain response with an exact Content-Length."""

    def fault(h: BaseHTTPRequestHandler) -> None:
        h.send_response(status)
        for k, v in (headers or {}).items():
            h.send_header(k, v)
        h.send_header("Content-Length", str(len(body)))
        h.end_headers()
        h.wfile.write(body)

    return fault


def gzip_ok(body: bytes, headers: dict[str, str] | None = None) -> Fault:
    """200 with ``body`` gzip-encoded, as SEC serves it."""
    return respond(200, gzip.compress(body), {"Content-Encoding": "gzip", **(headers or {})})


def truncated_gzip(body: bytes) -> Fault:
    """200, gzip, but only the first half of the compressed stream (Content-Length says so too)."""
    data = gzip.compress(body)
    return respond(200, data[: len(data) // 2], {"Content-Encoding": "gzip"})


def short_body(body: bytes) -> Fault:
    """200 declaring len(body) bytes, sending half of them, then closing the connection."""

    def fault(h: BaseHTTPRequestHandler) -> None:
        h.send_response(200)
        h.send_header("Content-Length", str(len(body)))
        h.end_headers()
        h.wfile.write(body[: len(body) // 2])
        h.wfile.flush()
        h.close_connection = True

    return fault


def reset() -> Fault:
    """Read the request, then reset the connection (RST, no response at all)."""

    def fault(h: BaseHTTPRequestHandler) -> None:
        h.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        h.close_connection = True
        h.connection.close()

    return fault


def drip(body: bytes, every: float) -> Fault:
    """200 with a correct Content-Length, the body sent one byte every ``every`` seconds."""

    def fault(h: BaseHTTPRequestHandler) -> None:
        h.send_response(200)
        h.send_header("Content-Length", str(len(body)))
        h.end_headers()
        h.wfile.flush()
        for i in range(len(body)):
            time.sleep(every)
            try:
                h.wfile.write(body[i:i + 1])
                h.wfile.flush()
            except OSError:  # the client gave up
                h.close_connection = True
                return

    return fault


# ----------------------------------------------------------------------------- server


class _QuietServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: object, client_address: object) -> None:
        pass  # faults break connections on purpose


class LoopbackSEC:
    """SEC on 127.0.0.1: recorded responses from ``replay_root`` plus scripted faults per path."""

    def __init__(self, replay_root: Path | None = None):
        self.replay_root = replay_root
        self.hits: list[Hit] = []
        self._scripts: dict[str, list[Fault]] = {}
        self._lock = threading.Lock()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self) -> None:  # noqa: N802 (http.server's name)
                outer._handle(self)

            def log_message(self, format: str, *args: object) -> None:  # noqa: A002 (quiet)
                pass

        self.httpd = _QuietServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self._thread = threading.Thread(target=self.httpd.serve_forever, name="loopback-sec", daemon=True)

    def __enter__(self) -> LoopbackSEC:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def transport(self) -> LoopbackTransport:
        return LoopbackTransport(self.port)

    def script(self, url_or_path: str, *faults: Fault) -> None:
        """Answer the next requests for ``url_or_path`` with ``faults``, in order."""
        path = loopback_path(url_or_path)
        with self._lock:
            self._scripts.setdefault(path, []).extend(faults)

    def hits_for(self, url_or_path: str) -> list[Hit]:
        path = loopback_path(url_or_path)
        with self._lock:
            return [h for h in self.hits if h.path == path]

    def _handle(self, h: BaseHTTPRequestHandler) -> None:
        path = h.path.split("?", 1)[0]
        with self._lock:
            self.hits.append(Hit(time.time(), path, h.headers.get("User-Agent", ""), dict(h.headers.items())))
            queue = self._scripts.get(path)
            fault = queue.pop(0) if queue else None
        (fault or self._recorded(path))(h)

    def _recorded(self, path: str) -> Fault:
        if self.replay_root is not None:
            plain = self.replay_root / path.lstrip("/")
            if plain.is_file():
                return gzip_ok(plain.read_bytes())
            packed = plain.with_name(plain.name + ".gz")
            if packed.is_file():
                return respond(200, packed.read_bytes(), {"Content-Encoding": "gzip"})
        return respond(404, b"<html><body>Not Found</body></html>", {"Content-Type": "text/html"})


def loopback_path(url_or_path: str) -> str:
    """``https://data.sec.gov/x`` -> ``/data.sec.gov/x`` (a path is returned as is)."""
    if "://" not in url_or_path:
        return url_or_path
    u = httpx.URL(url_or_path)
    return f"/{u.host}{u.path}"


class LoopbackTransport(httpx.BaseTransport):
    """A real ``httpx.HTTPTransport`` whose requests for https://<host>/<path> go to the loopback server."""

    def __init__(self, port: int):
        self.port = port
        self.inner = httpx.HTTPTransport(verify=False)  # plain http to 127.0.0.1: no CA bundle to load

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        u = request.url
        target = httpx.URL(f"http://127.0.0.1:{self.port}/{u.host}{u.raw_path.decode('ascii')}")
        headers = {**request.headers, "X-Loopback-Pid": str(os.getpid())}  # which process sent it (tests)
        forwarded = httpx.Request(request.method, target, headers=headers, extensions=request.extensions)
        return self.inner.handle_request(forwarded)

    def close(self) -> None:
        self.inner.close()


def loopback_client(port: int, **kwargs):
    """A live SecClient whose requests go to the loopback server on ``port`` (User-Agent from
    SEC_USER_AGENT, rate-limit folder from EDGAR_WAREHOUSE_STATE_DIR): a picklable factory for
    ``functools.partial``, as Dask workers build their own client."""
    from pipelines.sec_client import SecClient

    return SecClient(transport=LoopbackTransport(port), **kwargs)


def max_in_any_window(times: list[float], window: float = 1.0) -> int:
    """The most requests whose arrival times fall in any half-open window [t, t + window)."""
    ts = sorted(times)
    best = j = 0
    for i in range(len(ts)):
        while j < len(ts) and ts[j] < ts[i] + window:
            j += 1
        best = max(best, j - i)
    return best


# ----------------------------------------------------------------------------- worker process


def worker(argv: list[str]) -> None:
    """``python tests/sec_loopback.py PORT START_AT THREADS URL...``: one client process.

    Waits until ``START_AT`` (epoch seconds), then GETs each URL with a live SecClient (User-Agent
    from ``SEC_USER_AGENT``, shared rate-limit folder from ``EDGAR_WAREHOUSE_STATE_DIR``) from
    ``THREADS`` threads, and prints one JSON line: counts of results by outcome.
    """
    import json
    from concurrent.futures import ThreadPoolExecutor

    from pipelines.errors import EdgarError
    from pipelines.sec_client import SecClient

    port, start_at, threads, urls = int(argv[0]), float(argv[1]), int(argv[2]), argv[3:]
    client = SecClient(transport=LoopbackTransport(port), max_retries=0)
    time.sleep(max(0.0, start_at - time.time()))

    def one(url: str) -> str:
        try:
            client.get(url)
            return "ok"
        except EdgarError as exc:  # reported by type: the parent asserts on them
            return type(exc).__name__

    with ThreadPoolExecutor(threads) as pool:
        outcomes = list(pool.map(one, urls))
    client.close()
    print(json.dumps({o: outcomes.count(o) for o in set(outcomes)}))


if __name__ == "__main__":
    import sys

    worker(sys.argv[1:])
