"""Which loader stores which parsed record type (record class name -> loader function)."""

from __future__ import annotations

from warehouse.load_companyfacts import load_companyfacts
from warehouse.load_ownership import load_ownership
from warehouse.load_submissions import load_company_tickers, load_submissions, load_submissions_page

LOADERS = {
    "CompanyFacts": load_companyfacts,
    "OwnershipFiling": load_ownership,
    "Submissions": load_submissions,
    "SubmissionsPage": load_submissions_page,
    "CompanyTickers": load_company_tickers,
}
