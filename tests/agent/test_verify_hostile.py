"""Hostile briefs against the claim verifier: each gives a verdict or a one-line error, never an
exception, and the work grows linearly with the brief (issue 27, item 3). Every brief is generated here."""

from __future__ import annotations

import copy
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from test_agent_verify import TRUE_BRIEF

from warehouse.agent import verify
from warehouse.agent.verify import MAX_CLAIMS, MAX_DEPTH, MAX_WAREHOUSE_CLAIMS, verify_brief


def _brief(*claims: dict, summary: str = "", base: bool = True) -> str:
    """A brief for Apple: the true brief's claims (when ``base``) and then ``claims``; numbers written as JSON numbers."""
    return json.dumps({"ticker": "AAPL", "summary": summary,
                       "claims": [*(copy.deepcopy(TRUE_BRIEF["claims"]) if base else []), *claims]})


def _derived(claim_id: str, formula: str, value, text: str = "") -> dict:
    return {"id": claim_id, "kind": "derived", "formula": formula, "value": value, "text": text}


def _with_number(brief: str, claim_id: str, number: str) -> str:
    """``brief`` with the value of ``claim_id`` written as the JSON number ``number`` (kept as written)."""
    data = json.loads(brief)
    next(c for c in data["claims"] if c["id"] == claim_id)["value"] = "@@"
    return json.dumps(data).replace('"@@"', number)


def _claim(report, claim_id: str):
    return next(c for c in report.claims if c.id == claim_id)


def test_a_result_beyond_1e22_is_checked(con):
    """rev24 * rev24 = 1.5e23: the 28-digit default context raised InvalidOperation rounding it."""
    report = verify_brief(con, _brief(_derived("sq", "rev24 * rev24", 152908371225000000000000)))
    sq = _claim(report, "sq")
    assert sq.status == "PASS", sq.reason
    assert sq.reason == "rev24 * rev24 = 152,908,371,225,000,000,000,000, which rounds to 152908371225000000000000"
    wrong = _claim(verify_brief(con, _brief(_derived("sq", "rev24 * rev24", 152908371225000000000001))), "sq")
    assert wrong.status == "FAIL" and "which rounds to 152908371225000000000000 at the claim's precision" in wrong.reason


def test_a_value_with_many_decimals_is_checked(con):
    third = _with_number(_brief(_derived("third", "1 / 3", 0), base=False), "third", "0." + "3" * 35)
    assert _claim(verify_brief(con, third), "third").status == "PASS"
    off = _with_number(_brief(_derived("third", "1 / 3", 0), base=False), "third", "0." + "3" * 34 + "4")
    assert _claim(verify_brief(con, off), "third").status == "FAIL"


def test_a_summary_number_with_many_decimals_is_an_orphan_not_an_error(con):
    many = "0." + "1" * 40
    report = verify_brief(con, _brief(summary=f"a ratio of {many} and revenue of $391.0B"))
    assert [o.text for o in report.orphan_numbers] == [many] and not report.passed
    assert report.orphan_numbers[0].value == __import__("decimal").Decimal(many)  # exact, not rounded to 28 digits


def test_a_formula_beyond_the_exponent_bound_fails_with_its_reason(con):
    report = verify_brief(con, _brief(_derived("huge", "1e999999 * 1e999999", 1), base=False))
    assert _claim(report, "huge").reason == ("formula '1e999999 * 1e999999' cannot be computed: "
                                             "a result or number beyond 1e999")
    chained = verify_brief(con, _brief(_derived("a", "10000000000000000000000000000000000000 * 1e900", 1),
                                       _derived("b", "a * a", 1), base=False))
    assert _claim(chained, "a").status == "FAIL" and _claim(chained, "b").reason == "formula uses claim a, which failed"


@pytest.mark.parametrize("number, reason", [
    ("1e999999", "claims.0.derived.value: Value error, 1E+999999 is out of range"),
    ("1" * 5000, "claims.0.derived.value: Value error, " + "1" * 60 + " is out of range"),
    ("1e-60", "claims.0.derived.value: Value error, 1E-60 is out of range"),
])
def test_a_value_out_of_range_is_refused_naming_the_field(con, number, reason):
    report = verify_brief(con, _with_number(_brief(_derived("x", "1", 0), base=False), "x", number))
    assert report.error is not None and report.error.message.startswith("not a brief: " + reason)
    assert not report.passed and report.claims == []


def test_a_fiscal_year_out_of_range_is_refused(con):
    brief = json.loads(_brief())
    brief["claims"][0]["fiscalYear"] = 10**30
    report = verify_brief(con, json.dumps(brief))
    assert report.error.message == "not a brief: claims.0.reported.fiscalYear: Input should be less than or equal to 9999"


def test_a_ticker_of_unicode_digits_is_not_resolved(con):
    report = verify_brief(con, json.dumps({"ticker": "²³", "claims": TRUE_BRIEF["claims"][:1]}))
    assert report.error.kind == "unknown_company" and report.claims[0].status == "FAIL"


def test_100000_deep_json_is_refused_before_parsing(con):
    report = verify_brief(con, "[" * 100_000 + "]" * 100_000)
    assert report.error.message == f"brief nested 100,000 deep; at most {MAX_DEPTH}"
    deep_value = _with_number(_brief(_derived("x", "1", 1), base=False), "x", "[" * 5000 + "]" * 5000)
    assert verify_brief(con, deep_value).error.message == f"brief nested 5,003 deep; at most {MAX_DEPTH}"
    brackets_in_strings = _brief(_derived("x", "1", 1, text="[" * 1500), base=False)
    assert verify_brief(con, brackets_in_strings).claims[0].status == "PASS"


def test_sizes_are_refused_before_any_work(con):
    too_long = json.dumps({"ticker": "AAPL", "summary": "x" * 1_000_001, "claims": []})
    assert verify_brief(con, too_long).error.message == f"brief of {len(too_long):,} characters; at most 1,000,000"
    many = _brief(*(_derived(f"c{i}", "1", 1) for i in range(MAX_CLAIMS + 1)), base=False)
    assert "claims: List should have at most 1000 items" in verify_brief(con, many).error.message
    asking = _brief(*({**TRUE_BRIEF["claims"][0], "id": f"r{i}"} for i in range(MAX_WAREHOUSE_CLAIMS + 1)), base=False)
    assert verify_brief(con, asking).error.message == (
        f"not a brief: Value error, {MAX_WAREHOUSE_CLAIMS + 1} reported and insider claims; at most {MAX_WAREHOUSE_CLAIMS}")


def _chain(n: int) -> list[dict]:
    """c{n-1} = c{n-2} + 1 = ... = c0 + n - 1, the last claim first: checking it needs the whole chain first."""
    chain = [_derived("c0", "1", 1, text="start: 1")] + [
        _derived(f"c{i}", f"c{i - 1} + 1", i + 1, text=f"step {i + 1}") for i in range(1, n)]
    return chain[::-1]


@pytest.mark.timeout(120)  # a bound, not a measurement: today's main recursed (RecursionError) or ran for minutes
def test_the_longest_chain_and_a_summary_of_20000_numbers_are_linear(con, monkeypatch):
    calls = {"mentions": 0, "re.sub": 0}
    texts = verify.mentions

    def counted(*args, **kwargs):
        calls["mentions"] += 1
        return texts(*args, **kwargs)

    sub = re.sub

    def counted_sub(*args, **kwargs):
        calls["re.sub"] += 1
        return sub(*args, **kwargs)

    monkeypatch.setattr(verify, "mentions", counted)
    monkeypatch.setattr(re, "sub", counted_sub)
    summary = " ".join(str(i) for i in range(20_000))
    report = verify_brief(con, _brief(*_chain(MAX_CLAIMS), summary=summary, base=False))
    assert report.error is None and all(c.status == "PASS" for c in report.claims), report.claims[0]
    assert len(report.claims) == MAX_CLAIMS
    assert len(report.orphan_numbers) == 20_000 - MAX_CLAIMS - 201  # 1..1,000 are backed, 1900..2100 are years
    assert calls == {"mentions": MAX_CLAIMS + 1, "re.sub": 0}  # each text read once; no pass per claim id


def test_cli_verify_gives_one_line_for_a_hostile_brief(agent_db, tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("{" * 50_000)
    done = subprocess.run([sys.executable, "-m", "flows.cli", "--db", str(agent_db), "verify", str(path)],
                          capture_output=True, text=True, cwd=Path(__file__).parents[2], timeout=120)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines()[-1] == f"error: {path}: brief nested 50,000 deep; at most {MAX_DEPTH}"
