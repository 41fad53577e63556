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
