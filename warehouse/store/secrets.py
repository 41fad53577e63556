"""Secrets kept out of every printed line: ``redact`` for error lines, ``redact_logs`` for every log record
and every traceback.

A secret is a catalog password (``password=...`` in a libpq connection string, ``user:pass@`` in a
URI), an object store's key (``SECRET '...'``, ``KEY_ID '...'``, ``SESSION_TOKEN '...'``) or a value the
process was given in one of ``SECRET_ENVS``. Each becomes ``***``: DuckDB and libpq echo the connection
string they were given in their own error texts, so the whole line is rewritten, not just our part.
"""

from __future__ import annotations

import logging
import os
import re
import sys
import threading
import traceback
from collections.abc import Callable
from typing import Any

MASK = "***"
#: Environment variables whose values are secrets wherever they appear.
SECRET_ENVS = ("PGPASSWORD", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "EDGAR_WAREHOUSE_S3_SECRET")

_PATTERNS = (
    # libpq key=value: password=x, password = 'x y', password='it''s'
    (re.compile(r"(\bpassword\s*=\s*)('(?:[^'\\]|\\.|'')*'|[^\s'\"]+)", re.IGNORECASE), r"\1" + MASK),
    # a URI's user:password@host
    (re.compile(r"(\b[a-z][a-z0-9+.-]*://[^:/@\s]+:)([^@\s]+)(@)", re.IGNORECASE), r"\1" + MASK + r"\3"),
    # DuckDB secrets and their settings: SECRET 'x', s3_secret_access_key='x', KEY_ID 'x', SESSION_TOKEN 'x'
    (re.compile(r"(\b(?:s3_)?(?:secret(?:_access_key)?|key_id|access_key_id|session_token)\b\s*(?:=\s*|\s+))"
                r"('(?:[^']|'')*')", re.IGNORECASE), r"\1'" + MASK + "'"),
)

_lock = threading.Lock()
_known: set[str] = set()


def remember_secret(value: str | None) -> None:
    """``value`` is a secret: it is masked in every line from now on (values under 4 characters are
    masked by the patterns only: a short value would mask ordinary words)."""
    if value and len(value) >= 4:
        with _lock:
            _known.add(value)


def catalog_password(catalog: str) -> str | None:
    """The password a libpq connection string or URI holds, if any."""
    m = re.search(r"\bpassword\s*=\s*('(?:[^'\\]|\\.|'')*'|[^\s'\"]+)", catalog, re.IGNORECASE)
    if m:
        value = m.group(1)
        return value[1:-1].replace("''", "'").replace("\\'", "'") if value.startswith("'") else value
    m = re.search(r"://[^:/@\s]+:([^@\s]+)@", catalog)
    return m.group(1) if m else None


def redact(text: str) -> str:
    """``text`` with every secret it holds replaced by ``***``."""
    for env in SECRET_ENVS:
        remember_secret(os.environ.get(env))
    with _lock:
        known = sorted(_known, key=len, reverse=True)
    for value in known:
        if value in text:
            text = text.replace(value, MASK)
    for pattern, repl in _PATTERNS:
        text = pattern.sub(repl, text)
    return text


class _RedactingFactory:
    """A log record factory that formats the message once and redacts it (every logger, Prefect's too)."""

    def __init__(self, inner: Callable[..., logging.LogRecord]):
        self.inner = inner

    def __call__(self, *args: Any, **kwargs: Any) -> logging.LogRecord:
        record = self.inner(*args, **kwargs)
        try:
            message = record.getMessage()
        except (TypeError, ValueError, KeyError):  # a bad format string: logging reports it itself later
            return record
        clean = redact(message)
        if clean != message:
            record.msg, record.args = clean, None
        if record.exc_info and record.exc_info[0] is not None:  # the traceback a handler prints: formatted here
            record.exc_text = redact(_FORMATTER.formatException(record.exc_info))
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        return record


_FORMATTER = logging.Formatter()


def _write_redacted(exc_type: type[BaseException], exc: BaseException | None, tb: Any, head: str = "") -> None:
    """An uncaught exception's traceback on stderr, redacted (its text may echo a connection string)."""
    sys.stderr.write(head + redact("".join(traceback.format_exception(exc_type, exc, tb))))


def _redacting_thread_hook(args: Any) -> None:
    """``threading.excepthook``: a thread's uncaught exception, printed redacted."""
    if args.exc_type is not SystemExit:
        name = args.thread.name if args.thread is not None else "?"
        _write_redacted(args.exc_type, args.exc_value, args.exc_traceback, f"Exception in thread {name}:\n")


def redact_logs() -> None:
    """Every log record of the process (its traceback too) is redacted before any handler sees it, and
    so is the traceback of an exception no code caught, in the main thread or another (idempotent)."""
    factory = logging.getLogRecordFactory()
    if not isinstance(factory, _RedactingFactory):
        logging.setLogRecordFactory(_RedactingFactory(factory))
    sys.excepthook = _write_redacted
    threading.excepthook = _redacting_thread_hook
