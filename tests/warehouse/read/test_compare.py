"""compare(): companies lined up for one fiscal year, with warnings when they do not line up."""

from __future__ import annotations

from decimal import Decimal

import pytest

from helpers import COMPANYFACTS_DIR, load_files
from warehouse.read.compare import compare
from warehouse.schema.vocabulary import UnknownMetricError
from warehouse.store.db import connect

AAPL, NVDA = 320193, 1045810


@pytest.fixture(scope="module")
def con(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("compare")
    c = connect(tmp / "w.duckdb")
    load_files(c, [COMPANYFACTS_DIR / "CIK0000320193.json.gz", COMPANYFACTS_DIR / "CIK0001045810.json.gz"],
               tmp / "raw")  # metrics are refreshed inside the load
    yield c
    c.close()


def test_apple_vs_nvidia_revenue_warns_about_misaligned_period_ends(con):
    rows = compare(con, "revenue", [AAPL, NVDA], 2024)
    assert [r["cik"] for r in rows] == [AAPL, NVDA]
    apple, nvidia = rows
    assert apple["period_end"].isoformat() == "2024-09-28" and nvidia["period_end"].isoformat() == "2024-01-28"
    assert apple["value"] == Decimal("391035000000") and nvidia["value"] == Decimal("60922000000")
    assert apple["currency"] == nvidia["currency"] == "USD"
    for r in rows:
        assert any("period ends differ by 244 days" in w for w in r["warnings"]), r["warnings"]
        assert any("matched tags differ" in w for w in r["warnings"]), r["warnings"]
        assert not any("currencies differ" in w for w in r["warnings"])


def test_compare_derived_metric_and_capex_tags(con):
    rows = compare(con, "free_cash_flow", [AAPL, NVDA], 2024)
    apple, nvidia = rows
    assert apple["value"] is not None and nvidia["value"] is not None
    assert "PaymentsToAcquireProductiveAssets" in nvidia["matched_tag"]
    assert "PaymentsToAcquirePropertyPlantAndEquipment" in apple["matched_tag"]
    assert all(any("period ends differ" in w for w in r["warnings"]) for r in rows)


def test_compare_quarter_and_missing_company(con):
    rows = compare(con, "gross_margin", [AAPL, 999999999], 2025, "Q4")
    assert rows[0]["value"] is not None and rows[0]["unit"] == "pure"
    assert rows[1]["value"] is None and rows[1]["warnings"]


def test_compare_rejects_unknown_names(con):
    with pytest.raises(UnknownMetricError):
        compare(con, "ebitda_adjusted_magic", [AAPL], 2024)
