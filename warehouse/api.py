"""The notebook API's public import path; the code lives in warehouse/read/api.py.

``from warehouse.api import open_warehouse`` is how notebooks have opened the warehouse since the
first release; this module keeps that path while the code sits in the read wing. It is the one
warehouse module outside the wings that imports a wing (tests/test_layers.py PUBLIC_ENTRIES), and
no warehouse module imports it: it is for users, not for the warehouse's own code.
"""

from __future__ import annotations

from warehouse.errors import WarehouseError
from warehouse.read.api import UnknownNameError, Warehouse, open_warehouse
from warehouse.read.filing_text import FilingTextError
from warehouse.read.queries import QueryError

__all__ = ["FilingTextError", "QueryError", "UnknownNameError", "Warehouse", "WarehouseError", "open_warehouse"]
