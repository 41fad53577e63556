"""What briefs really write: multiples (0.5x), amounts in parentheses with a scale, durations."""

from __future__ import annotations

from decimal import Decimal

from warehouse.agent.numbers import Backing, mentions


def read(text: str) -> list[tuple[str, Decimal]]:
    return [(m.text, m.value) for m in mentions(text)]


def test_a_multiple_is_its_number_not_zero():
    assert read("trades at 0.5x sales and 12.25× earnings") == [("0.5x", Decimal("0.5")), ("12.25×", Decimal("12.25"))]


def test_an_amount_in_parentheses_is_negative_and_keeps_its_scale():
    [m] = mentions("a net loss of ($1.2) million in the quarter")
    assert m.text == "($1.2) million" and m.value == Decimal("-1.2E6")
    assert Backing([Decimal("-1200000")]).backs(m) and Backing([Decimal("1200000")]).backs(m)
    assert not Backing([Decimal("1.2")]).backs(m)
    assert read("(see 12.5%)") == [("12.5%", Decimal("12.5"))]  # parentheses around prose: not negative


def test_a_duration_is_not_an_orphan_number():
    assert read("the two filings came about 11 months apart, 2 quarters after the 3 years of growth") == []
    assert read("11 million") == [("11 million", Decimal("1.1E7"))]


def test_periods_briefs_write():
    from datetime import date

    from warehouse.agent.periods import periods

    got = [(p.kind, p.year, p.quarter, p.day) for p in periods(
        "FY2024, FY24, fiscal year 2021, Q1 of fiscal 2024, 3Q24, the third quarter of 2023, Q4, in 2022, "
        "May 4, 2022, 2024-09-28, 9/28/2024; not 10-K, $2024, 2,024 or 2024-13-45")]
    assert got == [("fiscal_year", 2024, None, None), ("fiscal_year", 2024, None, None),
                   ("fiscal_year", 2021, None, None), ("quarter", 2024, 1, None), ("quarter", 2024, 3, None),
                   ("quarter", 2023, 3, None), ("quarter", None, 4, None), ("year", 2022, None, None),
                   ("date", None, None, date(2022, 5, 4)), ("date", None, None, date(2024, 9, 28)),
                   ("date", None, None, date(2024, 9, 28))]
