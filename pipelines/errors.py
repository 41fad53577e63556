"""Typed errors shared by every stage: transient (retry later) versus terminal (reject the document).

Every error here survives pickling (a parser runs in a worker process and its error must come back
to the parent intact): ``EdgarError`` remembers the arguments it was built with and rebuilds from
them, so a subclass may take any constructor signature.
"""

from __future__ import annotations

from typing import Any


def _rebuild(cls: type[EdgarError], args: tuple, kwargs: dict[str, Any]) -> EdgarError:
    return cls(*args, **kwargs)


class EdgarError(Exception):
    """Base class of every error this project raises on purpose."""

    def __new__(cls, *args: Any, **kwargs: Any):
        self = super().__new__(cls, *args)
        self._init_args = (args, kwargs)
        return self

    def __reduce__(self):
        args, kwargs = getattr(self, "_init_args", (self.args, {}))
        return _rebuild, (type(self), args, kwargs), self.__dict__


class TransientError(EdgarError):
    """Worth retrying later: network trouble, 429/5xx, a throttle window."""


class TerminalError(EdgarError):
    """Retrying will not help: the input or the configuration is wrong."""


class ConfigError(TerminalError):
    """The process is not configured to run (e.g. no SEC_USER_AGENT contact)."""


class SecThrottled(TransientError):
    """SEC answered 403 with its 'Request Rate Threshold Exceeded' page (a ~10 minute block)."""


class SecForbidden(TerminalError):
    """SEC answered 403 'Undeclared Automated Tool' or another refusal that waiting will not fix."""


class AccessDenied(SecForbidden):
    """A plain HTTP 403 without SEC's refusal pages (S3-backed Archives paths that do not exist
    answer so, e.g. a daily index of a day EDGAR was closed)."""


class SecUnreachable(TerminalError):
    """No connection to SEC at all (DNS lookup failed, connection refused, network unreachable):
    retrying in seconds does not help and every other request would fail alike, so the run stops."""


class RetryBudgetSpent(TransientError):
    """The run's retry budget (seconds spent on failed attempts and waits) is used up: SEC keeps
    failing, so the run stops instead of retrying every remaining request."""


class NotFound(TerminalError):
    """The URL does not exist (404) or, in replay mode, has no recorded response."""


class RejectedDocument(TerminalError):
    """A payload that cannot be loaded. Names the document and says why.

    ``document`` is the URL or file path; ``reason`` is one human sentence. Loaders record the
    rejection in ``source_documents`` and carry on with the other documents of the run.
    """

    def __init__(self, document: str, reason: str):
        self.document = document
        self.reason = reason
        super().__init__(f"{document}: {reason}")


# SEC refusing or unreachable for every request, or the run not configured: the flows stop the run
# at the first of these (never hammer, never retry each remaining request), any other fetch error
# is reported for its document alone.
STOPS_THE_RUN: tuple[type[EdgarError], ...] = (SecThrottled, SecForbidden, ConfigError, SecUnreachable,
                                                RetryBudgetSpent)
