"""Write docs/data-dictionary.md from the column dictionary, as a freshly migrated warehouse holds it.

    python scripts/data_dictionary.py [OUT]     (default: docs/data-dictionary.md; `make docs`)
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from warehouse.schema.dictionary import markdown
from warehouse.schema.migrate import schema_dir
from warehouse.schema.vocabulary import vocabulary_lists
from warehouse.store.db import connect

DEFAULT = Path(__file__).resolve().parents[1] / "docs" / "data-dictionary.md"


def generate() -> str:
    """The markdown of a fresh warehouse's dictionary (built in a temporary folder)."""
    with tempfile.TemporaryDirectory(prefix="edgar-dd-") as tmp:
        con = connect(Path(tmp) / "w.duckdb")
        try:
            return markdown(con, vocabulary_lists(schema_dir()))
        finally:
            con.close()


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else DEFAULT
    out.write_text(generate(), encoding="utf-8")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
