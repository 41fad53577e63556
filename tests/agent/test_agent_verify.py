"""The claim verifier against real vendored data: a true brief passes; each planted error fails with its reason."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

from warehouse.agent.verify import verify_brief

FY24_10K, FY23_10K, FY25_10K = "0000320193-24-000123", "0000320193-23-000106", "0000320193-25-000079"
FORM4 = "0000320193-22-000061"  # Katherine Adams, seven sales (code S) on 2022-05-04, 25,000 shares in all

TRUE_BRIEF = {
    "ticker": "AAPL",
    "summary": ("Apple's FY2024 revenue was $391.0 billion (FY2023: $383.3B), up 2.0%; free cash flow was "
                "$108.8B on $118,254 million of operating cash flow. Q1 of fiscal 2024 brought $119.6B. "
                "On May 4, 2022 an officer sold 25,000 shares (Form 4), 9,136 of them in the first trade."),
    "claims": [
        {"id": "rev24", "kind": "reported", "text": "Revenue FY2024: $391,035 million", "field": "revenue",
         "fiscalYear": 2024, "fiscalPeriod": "FY", "value": 391035000000, "accession": FY24_10K},
        {"id": "rev23", "kind": "reported", "text": "Revenue FY2023 (a comparative in the FY2024 10-K): $383.3B",
         "field": "revenue", "fiscalYear": 2023, "fiscalPeriod": "FY", "value": 383285000000, "accession": FY24_10K},
        {"id": "growth", "kind": "derived", "text": "Revenue grew 2.0% in FY2024",
         "formula": "(rev24 - rev23) / rev23 * 100", "value": 2.0},
        {"id": "ocf", "kind": "reported", "text": "Operating cash flow FY2024", "field": "operating_cash_flow",
         "fiscalYear": 2024, "fiscalPeriod": "FY", "value": 118254000000, "accession": FY24_10K},
        {"id": "capex", "kind": "reported", "text": "Capital expenditure FY2024",
         "field": "us-gaap:PaymentsToAcquirePropertyPlantAndEquipment", "fiscalYear": 2024, "fiscalPeriod": "FY",
         "value": 9447000000, "accession": FY24_10K},
        {"id": "fcf", "kind": "derived", "text": "Free cash flow FY2024 was $108.8B", "formula": "ocf - capex",
         "value": 108807000000},
        {"id": "q1", "kind": "reported", "text": "Revenue Q1 FY2024", "field": "revenue", "fiscalYear": 2024,
         "fiscalPeriod": "Q1", "value": 119575000000, "accession": "0000320193-24-000006"},
        {"id": "sold", "kind": "insider", "text": "Sold 25,000 shares on 2022-05-04", "accession": FORM4,
         "transactionDate": "2022-05-04", "transactionCode": "S", "shares": 25000},
        {"id": "trade1", "kind": "insider", "text": "First trade: 9,136 shares", "accession": FORM4,
         "transactionDate": "2022-05-04", "transactionCode": "S", "shares": 9136},
    ],
}


def _claim(brief: dict, claim_id: str) -> dict:
    return next(c for c in brief["claims"] if c["id"] == claim_id)


def _result(report, claim_id: str):
    return next(c for c in report.claims if c.id == claim_id)


def _planted(**changes) -> dict:
    brief = copy.deepcopy(TRUE_BRIEF)
    for claim_id, fields in changes.items():
        _claim(brief, claim_id).update(fields)
    return brief


def test_true_brief_passes(con):
    report = verify_brief(con, json.dumps(TRUE_BRIEF))
    assert [(c.id, c.status) for c in report.claims if c.status != "PASS"] == [], report.model_dump_json(indent=1)
    assert report.passed and report.orphan_numbers == [] and report.cik == 320193
    assert "0000320193-24-000123 (10-K filed 2024-11-01) reported 391,035,000,000 USD" in _result(report, "rev24").reason
    assert "7 lines coded S on 2022-05-04 total 25,000" in _result(report, "sold").reason
    assert "non_derivative line 1" in _result(report, "trade1").reason


def test_transposed_digits_fail(con):
    report = verify_brief(con, json.dumps(_planted(rev24={"value": 391053000000})))
    r = _result(report, "rev24")
    assert r.status == "FAIL" and "391,053,000,000 does not match" in r.reason and "391,035,000,000" in r.reason
    # the growth claim used the wrong number, so it fails too; the others still pass
    assert _result(report, "growth").status == "FAIL" and "rev24, which failed" in _result(report, "growth").reason
    assert _result(report, "rev23").status == "PASS" and not report.passed


def test_comparative_cited_to_the_wrong_10k_fails_naming_the_filings_that_reported_it(con):
    # FY2021 revenue is a comparative in the FY2021, FY2022 and FY2023 10-Ks, not in the FY2024 one
    brief = copy.deepcopy(TRUE_BRIEF)
    brief["claims"].append({"id": "rev21", "kind": "reported", "text": "Revenue FY2021", "field": "revenue",
                            "fiscalYear": 2021, "fiscalPeriod": "FY", "value": 365817000000, "accession": FY24_10K})
    r = _result(verify_brief(con, json.dumps(brief)), "rev21")
    assert r.status == "FAIL" and r.reason.startswith("wrong filing")
    for accession in ("0000320193-21-000105", "0000320193-22-000108", FY23_10K):
        assert accession in r.reason
    assert f"{FY24_10K} did not report revenue for FY2021" in r.reason


def test_derived_values_cited_as_reported_fail(con):
    brief = copy.deepcopy(TRUE_BRIEF)
    brief["claims"] += [
        # Apple never reports a fourth quarter: the warehouse derives it as FY minus nine months
        {"id": "q4", "kind": "reported", "text": "Revenue Q4 FY2024", "field": "revenue", "fiscalYear": 2024,
         "fiscalPeriod": "Q4", "value": 94930000000, "accession": FY24_10K},
        {"id": "fcf_rep", "kind": "reported", "text": "Free cash flow", "field": "free_cash_flow", "fiscalYear": 2024,
         "fiscalPeriod": "FY", "value": 108807000000, "accession": FY24_10K},
    ]
    report = verify_brief(con, json.dumps(brief))
    q4, fcf = _result(report, "q4"), _result(report, "fcf_rep")
    assert q4.status == "FAIL" and "computed by the warehouse (derived_q4" in q4.reason
    assert "derived value cited as reported" in q4.reason
    assert fcf.status == "FAIL" and "free_cash_flow is a derived metric" in fcf.reason


def test_uncited_number_in_summary_is_an_orphan(con):
    brief = copy.deepcopy(TRUE_BRIEF)
    brief["summary"] += " Apple employs 164,000 people and returned $94.9B to shareholders."
    report = verify_brief(con, json.dumps(brief))
    assert [o.text for o in report.orphan_numbers] == ["164,000", "$94.9B"]
    assert all(c.status == "PASS" for c in report.claims) and not report.passed


def test_true_numbers_in_other_notations_pass(con):
    brief = copy.deepcopy(TRUE_BRIEF)
    brief["summary"] = ("Revenue: $391,035,000,000 = 391.035 billion = $391B = $0.39 trillion = 391,035 million; "
                        "growth 2.0 percent; 25,000 shares = 25K shares; capex $9.4bn.")
    report = verify_brief(con, json.dumps(brief))
    assert report.orphan_numbers == [] and report.passed, report.model_dump_json(indent=1)


def test_derived_rounding_and_percent_and_bad_formulas(con):
    report = verify_brief(con, json.dumps(_planted(growth={"value": 2.1})))
    growth = _result(report, "growth")
    assert growth.status == "FAIL" and "rounds to 2.0 at the claim's precision, not 2.1" in growth.reason
    # the formula may give the fraction when the text says percent
    ok = _result(verify_brief(con, json.dumps(_planted(growth={"formula": "rev24 / rev23 - 1", "value": 2.02}))),
                 "growth")
    assert ok.status == "PASS", ok.reason
    for formula, why in (("__import__('os').system('true')", "Call is not allowed"),
                         ("rev24 ** 2", "not allowed"), ("rev24 / (rev23 - rev23)", "division by zero"),
                         ("rev24 - nosuch", "nosuch, which are not claim ids")):
        r = _result(verify_brief(con, json.dumps(_planted(growth={"formula": formula}))), "growth")
        assert r.status == "FAIL" and why in r.reason, (formula, r.reason)


def test_insider_claim_that_matches_no_line_nor_total_fails(con):
    report = verify_brief(con, json.dumps(_planted(sold={"shares": 24999, "text": "Sold shares"})))
    r = _result(report, "sold")
    assert r.status == "FAIL" and "nor their total 25,000" in r.reason
    wrong_code = _result(verify_brief(con, json.dumps(_planted(sold={"transactionCode": "P"}))), "sold")
    assert wrong_code.status == "FAIL" and "no line dated 2022-05-04 with code P" in wrong_code.reason


def test_claim_text_with_an_unbacked_number_fails(con):
    r = _result(verify_brief(con, json.dumps(_planted(capex={"text": "Capex FY2024 was $9.9B"}))), "capex")
    assert r.status == "FAIL" and "says $9.9B, which its cited evidence does not contain" in r.reason
    assert "(it has: 9,447,000,000; FY2024" in r.reason


def test_a_claim_asserting_a_number_only_another_claim_backs_fails(con):
    # 9,136 is the first trade's (trade1): true, but not what capex cites
    r = _result(verify_brief(con, json.dumps(_planted(capex={"text": "Capex FY2024 was $9.4B, 9,136 shares"}))),
                "capex")
    assert r.status == "FAIL" and "says 9,136, which its cited evidence does not contain" in r.reason
    # a derived claim may name the numbers of the claims its formula uses
    ok = _result(verify_brief(con, json.dumps(_planted(
        fcf={"text": "Free cash flow FY2024 was $108.8B: $118.3B of operating cash flow less $9.4B of capex"}))), "fcf")
    assert ok.status == "PASS", ok.reason


@pytest.mark.parametrize(("claim_id", "text", "said"), [
    ("rev24", "Revenue FY2023: $391,035 million", "FY2023"),          # the fiscal year the fact is not
    ("rev24", "Revenue in fiscal 2022 was $391.0B", "fiscal 2022"),
    ("q1", "Revenue Q2 FY2024", "Q2 FY2024"),                         # the quarter the fact is not
    ("q1", "Revenue in the first quarter of fiscal 2023", "first quarter of fiscal 2023"),
    ("rev24", "Revenue was $391.0B in Q4", "Q4"),                     # an annual fact is no quarter
    ("rev24", "Revenue in 2021 was $391.0B", "2021"),                 # a calendar year neither period nor filing
    ("sold", "Sold 25,000 shares on 2022-05-05", "2022-05-05"),       # a day the trades were not
    ("sold", "Sold 25,000 shares on May 3, 2022", "May 3, 2022"),
    ("growth", "Revenue grew 2.0% in FY2025", "FY2025"),              # the years of its inputs only
])
def test_a_claim_asserting_a_period_its_evidence_does_not_contain_fails(con, claim_id, text, said):
    r = _result(verify_brief(con, json.dumps(_planted(**{claim_id: {"text": text}}))), claim_id)
    assert r.status == "FAIL" and f"says {said}, which its cited evidence does not contain" in r.reason, r.reason


@pytest.mark.parametrize(("claim_id", "text"), [
    ("rev24", "Revenue in 2024 (fiscal year 2024, to September 28, 2024) was $391.0B"),
    ("rev23", "Revenue FY2023 (a comparative in the FY2024 10-K, filed 2024-11-01): $383.3B"),
    ("q1", "Revenue Q1 FY2024 (1Q24)"),
    ("growth", "Revenue grew 2.0% from FY2023 to FY2024"),
    ("sold", "Sold 25,000 shares on May 4, 2022, about 11 months apart from nothing"),
])
def test_periods_its_evidence_contains_pass(con, claim_id, text):
    r = _result(verify_brief(con, json.dumps(_planted(**{claim_id: {"text": text}}))), claim_id)
    assert r.status == "PASS", r.reason


def test_duplicate_claim_ids_fail(con):
    brief = copy.deepcopy(TRUE_BRIEF)
    brief["claims"].append({**_claim(brief, "rev23"), "value": 391035000000, "fiscalYear": 2024})
    report = verify_brief(con, json.dumps(brief))
    rev23 = [c for c in report.claims if c.id == "rev23"]
    assert len(rev23) == 2 and all(c.status == "FAIL" and "more than one claim" in c.reason for c in rev23)
    assert _result(report, "growth").status == "FAIL" and not report.passed


def test_brief_that_is_not_a_brief_is_rejected_with_a_reason(con):
    report = verify_brief(con, '{"ticker": "AAPL", "claims": [{"id": "x", "kind": "guess"}]}')
    assert not report.passed and report.error is not None and report.error.kind == "bad_argument"


@pytest.mark.parametrize("brief, code", [(TRUE_BRIEF, 0), (_planted(rev24={"value": 391053000000}), 7)])
def test_cli_verify_prints_the_report_and_exits_non_zero_on_failure(agent_db, tmp_path, brief, code):
    path = tmp_path / "brief.json"
    path.write_text(json.dumps(brief))
    done = subprocess.run([sys.executable, "-m", "flows.cli", "--db", str(agent_db), "verify", str(path)],
                          capture_output=True, text=True, cwd=Path(__file__).parents[2], timeout=120)
    assert done.returncode == code, done.stderr
    report = json.loads(done.stdout)
    assert report["passed"] is (code == 0)
    assert {c["id"]: c["status"] for c in report["claims"]}["rev24"] == ("PASS" if code == 0 else "FAIL")
