"""Pure parts of the verifier: the safe arithmetic parser and the number-mention rule."""

from __future__ import annotations

from decimal import Decimal

import pytest

from warehouse.agent.arith import FormulaError, evaluate, references
from warehouse.agent.numbers import backed_by, mentions

VALUES = {"a": Decimal("391035000000"), "b": Decimal("383285000000")}


def test_formula_is_exact_decimal_arithmetic():
    assert evaluate("a - b", VALUES.__getitem__) == Decimal("7750000000")
    assert evaluate("(a - b) / b * 100", VALUES.__getitem__).quantize(Decimal("0.0001")) == Decimal("2.0220")
    assert evaluate("-a + 0.1 * 10", VALUES.__getitem__) == Decimal("-391034999999.0")
    assert references("(a - b) / b * 100") == ["a", "b"]


@pytest.mark.parametrize("formula", [
    "__import__('os').system('echo pwned')", "a ** 2", "a.real", "[a][0]", "a if b else a", "lambda: 1",
    "a; b", "a == b", "f'{a}'", "a // b", "a % b", "True + a", "1j * a", "open('/etc/passwd')",
    "(" * 300 + "a" + ")" * 300, "a" + " + a" * 400,
])
def test_anything_but_plain_arithmetic_is_refused(formula):
    with pytest.raises(FormulaError):
        evaluate(formula, VALUES.__getitem__)


def test_division_by_zero_is_a_formula_error():
    with pytest.raises(FormulaError, match="division by zero"):
        evaluate("a / (b - b)", VALUES.__getitem__)


@pytest.mark.parametrize("text, value, quantum, percent", [
    ("$331.8B", "331800000000", "1E+8", False),
    ("331.8 billion", "331800000000", "1E+8", False),
    ("17.8%", "17.8", "0.1", True),
    ("17.8 percent", "17.8", "0.1", True),
    ("$5,000 million", "5000000000", "1E+6", False),
    ("$5.0 billion", "5000000000", "1E+8", False),
    ("25,785,000,000", "25785000000", "1", False),
    ("US$2.5bn", "2500000000", "1E+8", False),
    ("25K", "25000", "1E+3", False),
])
def test_notations_normalise(text, value, quantum, percent):
    [m] = mentions(f"it was {text} then")
    assert (m.value, m.quantum, m.percent) == (Decimal(value), Decimal(quantum), percent)


def test_years_dates_forms_accessions_and_ids_are_not_numbers():
    text = ("In FY2024 (fiscal 2024, Q3 2023, the 3rd quarter) Apple (CIK 320193) filed its 10-K "
            "0000320193-24-000123 on 2024-11-01, i.e. Nov 1, 2024 or 1 November 2024 or 11/01/2024; "
            "see Form 4 and Forms 3/4/5, and claim c12 and rev24.")
    assert mentions(text, ["rev24"]) == []


def test_backing_rounds_half_up_to_the_written_precision_and_ignores_sign():
    [m] = mentions("$391.0B")
    assert backed_by(m, Decimal("391035000000")) and not backed_by(m, Decimal("391053000000"))
    [p] = mentions("a 2.8% decline")
    assert backed_by(p, Decimal("-2.75")) and not backed_by(p, Decimal("2.74"))
    [exact] = mentions("25,785,000,000")
    assert backed_by(exact, Decimal("25785000000")) and not backed_by(exact, Decimal("25785000001"))
