"""The metrics refresh of a batch reads its companies' row groups of facts only (issue 13: the cost
of a batch flat with the warehouse's size).

Its first read of facts (refresh/10_candidates, through fact_versions) filters on the batch's cik
list AND that list's range: ``list_contains`` alone cannot use the row groups' cik ranges and is
evaluated on every row of the warehouse; with the range tested first the scan skips the row groups
of other companies (facts arrive company by company). The chain-concept list is pushed into the same
scan, below fact_versions' windows.
"""

from __future__ import annotations

from helpers import table_scans
from warehouse.derive.metrics import chain_concepts
from warehouse.derive.steps import load_step
from warehouse.store.db import fetch_all, fetch_value


def test_the_refresh_reads_only_the_row_groups_of_its_companies(loaded_con):
    total = fetch_value(loaded_con, "SELECT count(*) FROM facts")
    groups = fetch_all(loaded_con, "SELECT DISTINCT row_group_id FROM pragma_storage_info('facts')")
    assert len(groups) > 1, "the facts fit one row group: the test would prove nothing"
    last = fetch_value(loaded_con, "SELECT max(cik) FROM facts")
    concepts = chain_concepts(loaded_con)
    mine = fetch_value(loaded_con, "SELECT count(*) FROM facts WHERE cik = ?", [last])
    chain_facts = fetch_value(loaded_con, "SELECT count(*) FROM facts WHERE cik = ? AND list_contains(?, concept)",
                              [last, concepts])
    text = load_step("derive/refresh/10_candidates").text
    query = text[text.index("AS\nSELECT") + 3:]
    read, emitted = table_scans(loaded_con, query, {"ciks": [last], "chain_concepts": concepts})["facts"]
    assert mine <= read < total, (mine, read, total)
    assert emitted == chain_facts > 0
