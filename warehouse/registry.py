"""Which loader stores which parsed record type (record class name -> loader function)."""

from __future__ import annotations

from warehouse.load_companyfacts import load_companyfacts
from warehouse.load_ownership import load_ownership

LOADERS = {
    "CompanyFacts": load_companyfacts,
    "OwnershipFiling": load_ownership,
}
