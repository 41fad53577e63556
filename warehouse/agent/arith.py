"""Safe arithmetic for derived claims: + - * / and parentheses over decimal numbers and claim ids.

The formula is parsed with :mod:`ast` and walked over a whitelist; nothing is ever evaluated by
Python (no ``eval``, no names but claim ids, no calls, no attributes, no ``**``). Numbers are exact
:class:`~decimal.Decimal` taken from the formula's own text, computed in :data:`ARITH`: 100 digits
(claim values have at most 40) and exponents bounded at +-999, so a result beyond 1e999 is a
FormulaError, never an exception of :mod:`decimal`.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from decimal import Context, Decimal, DivisionByZero, InvalidOperation, Overflow, localcontext

MAX_FORMULA_CHARS = 500
MAX_DEPTH = 40
MAX_EXPONENT = 999
ARITH = Context(prec=100, Emax=MAX_EXPONENT, Emin=-MAX_EXPONENT, traps=[InvalidOperation, DivisionByZero, Overflow])

_OPS: dict[type[ast.operator], Callable[[Decimal, Decimal], Decimal]] = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b,
}


class FormulaError(ValueError):
    """The formula is not plain arithmetic over numbers and claim ids, or cannot be computed."""


def _parse(formula: str) -> ast.expr:
    if len(formula) > MAX_FORMULA_CHARS:
        raise FormulaError(f"formula longer than {MAX_FORMULA_CHARS} characters")
    try:
        return ast.parse(formula.strip(), mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        raise FormulaError(f"not an arithmetic formula: {exc.__class__.__name__}") from None


def references(formula: str) -> list[str]:
    """Claim ids the formula uses, in order of first use (FormulaError when it is not allowed)."""
    names: list[str] = []
    _walk(_parse(formula), formula, lambda name: names.append(name) or Decimal(1), 0, evaluate=False)
    return list(dict.fromkeys(names))


def evaluate(formula: str, value_of: Callable[[str], Decimal]) -> Decimal:
    """The formula's exact value; ``value_of(claim_id)`` supplies each referenced claim's value."""
    with localcontext(ARITH) as ctx:
        try:
            return ctx.plus(_walk(_parse(formula), formula, value_of, 0, evaluate=True))
        except (DivisionByZero, InvalidOperation, ZeroDivisionError):
            raise FormulaError("division by zero") from None
        except Overflow:
            raise FormulaError(f"a result or number beyond 1e{MAX_EXPONENT}") from None


def _walk(node: ast.AST, source: str, value_of: Callable[[str], Decimal], depth: int, *, evaluate: bool) -> Decimal:
    if depth > MAX_DEPTH:
        raise FormulaError(f"formula nested deeper than {MAX_DEPTH}")
    if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
        left = _walk(node.left, source, value_of, depth + 1, evaluate=evaluate)
        right = _walk(node.right, source, value_of, depth + 1, evaluate=evaluate)
        return _OPS[type(node.op)](left, right) if evaluate else Decimal(0)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        operand = _walk(node.operand, source, value_of, depth + 1, evaluate=evaluate)
        return -operand if isinstance(node.op, ast.USub) else operand
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        if not evaluate:
            return Decimal(0)
        text = ast.get_source_segment(source.strip(), node) or repr(node.value)
        return +Decimal(text.replace("_", ""))  # in the context: a number beyond its exponents overflows
    if isinstance(node, ast.Name):
        return value_of(node.id)
    raise FormulaError(f"{type(node).__name__} is not allowed: only numbers, claim ids, + - * / and parentheses")
