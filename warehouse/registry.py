"""Which loader stores which parsed record type (record class name -> loader function)."""

from __future__ import annotations

from warehouse.load_companyfacts import load_companyfacts

LOADERS = {
    "CompanyFacts": load_companyfacts,
}
