"""What agents read: the MCP tool descriptions name every metric and standard concept that exists,
generated from their one source (the get_derived_metric description once named 6 of 14 metrics)."""

from __future__ import annotations

import asyncio

from warehouse.agent.server import build_server
from warehouse.schema.migrate import schema_dir
from warehouse.schema.vocabulary import vocabulary_lists


def test_tool_descriptions_name_every_metric_and_standard_concept(tmp_path):
    tools = {t.name: t.description for t in asyncio.run(build_server(tmp_path / "w.duckdb").list_tools())}
    lists = vocabulary_lists(schema_dir())
    for tool, key in (("get_derived_metric", "metrics"), ("get_facts", "standard_concepts")):
        missing = [n for n in lists[key].names if n not in tools[tool]]
        assert len(lists[key].names) >= 14 and not missing, (tool, missing)
