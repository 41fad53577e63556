"""Conventions shared by the SEC payload parsers: JSON bodies, text cells and EDGAR's Eastern clock."""

from __future__ import annotations

from zoneinfo import ZoneInfo

import msgspec

from pipelines.errors import RejectedDocument

EASTERN = ZoneInfo("America/New_York")  # EDGAR's clock (acceptance times, filing days)


def decode_json_body(body: bytes, *, document: str, what: str) -> object:
    """Decode a JSON payload or raise RejectedDocument naming ``document``.

    An empty body, an HTML/XML page (SEC answers throttling and errors with HTML) and invalid or
    truncated JSON are each rejected with their own reason; ``what`` names the expected payload
    ("submissions", "a ticker file", ...).
    """
    head = body.lstrip()[:64]
    if not head:
        raise RejectedDocument(document, f"empty body where {what} JSON was expected")
    if head.startswith(b"<"):
        raise RejectedDocument(document, f"an HTML/XML page where {what} JSON was expected "
                                         "(SEC throttle or error page?)")
    try:
        return msgspec.json.decode(body)
    except msgspec.DecodeError as exc:
        raise RejectedDocument(document, f"invalid or truncated JSON: {exc}") from exc


def text_or_none(v: object) -> str | None:
    """A JSON cell as stripped text; None for null or blank."""
    if v is None:
        return None
    s = str(v).strip()
    return s or None
