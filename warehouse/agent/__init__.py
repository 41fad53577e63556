"""Agent-facing door to the warehouse: typed read-only tools with receipts, the MCP server, the claim verifier.

* :mod:`warehouse.agent.tools` — plain typed functions over a read-only, sandboxed connection; each
  returns a pydantic model (:mod:`warehouse.agent.models`) whose numbers carry their receipt, and
  errors come back as data with a suggestion the model can act on.
* :mod:`warehouse.agent.server` — the MCP server (official SDK, stdio) wrapping those functions.
* :mod:`warehouse.agent.verify` — the claim verifier (reported / derived / insider claims, orphan
  numbers), with :mod:`warehouse.agent.arith` (safe arithmetic) and :mod:`warehouse.agent.numbers`
  (number mentions in prose, normalised).
"""
