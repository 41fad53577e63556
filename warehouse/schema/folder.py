"""Where the schema folder is (the checkout's schema/, or the copy a wheel carries) and what its files are called."""

from __future__ import annotations

import os
from pathlib import Path

from warehouse.errors import SchemaError

DICTIONARY = "columns.toml"


def schema_dir() -> Path:
    """The schema folder: EDGAR_WAREHOUSE_SCHEMA_DIR, else the copy an installed wheel carries
    (warehouse/schema/, put there by setup.py), else the checkout's top-level schema/."""
    env = os.environ.get("EDGAR_WAREHOUSE_SCHEMA_DIR")
    if env:
        return Path(env)
    here = Path(__file__).resolve().parent  # warehouse/schema/: the wheel copies schema/ into it
    checkout = here.parents[1] / "schema"
    for candidate in (here, checkout):
        if (candidate / "migrations").is_dir():
            return candidate
    raise SchemaError(f"no schema folder: neither {here} (installed) nor {checkout}"
                      " (checkout); set EDGAR_WAREHOUSE_SCHEMA_DIR")
