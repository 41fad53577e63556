"""Typed errors of the storage layer (every one prints as one line naming the warehouse file)."""

from __future__ import annotations

from pipelines.errors import TerminalError


class WarehouseError(TerminalError):
    """The warehouse file cannot be used as asked (missing, locked, changed migrations...)."""


class WriterBusy(WarehouseError):
    """Another process held the writer lock for longer than this writer was willing to wait."""


class DamagedWarehouse(WarehouseError):
    """The warehouse file (or its WAL) cannot be read; the message names the documented recovery."""


class SchemaError(WarehouseError):
    """The schema folder (migrations, definitions, column dictionary) is inconsistent or was changed
    in a way a warehouse cannot follow (an applied migration edited, a definition cycle...)."""


class DiskFull(WarehouseError):
    """No space left on the warehouse's device: the run's build copy was removed, nothing published."""


class OutOfMemory(WarehouseError):
    """DuckDB needed more than the writer's memory limit for work no single document is to blame for."""


class DuckDBStopped(WarehouseError):
    """DuckDB invalidated the writer's database (a FatalException): the run's build copy was removed."""
