"""The warehouse's MCP server as a real stdio process (`edgar-warehouse mcp`) with the SDK's client."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from functools import partial
from pathlib import Path

from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.types import Tool

ROOT = Path(__file__).parents[2]


@asynccontextmanager
async def mcp_session(db: Path) -> AsyncIterator[ClientSession]:
    """An initialised client session with a server process serving the warehouse ``db``."""
    params = StdioServerParameters(command=sys.executable, args=["-m", "flows.cli", "--db", str(db), "mcp"],
                                   cwd=str(ROOT))
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        yield session


async def call_ok(session: ClientSession, name: str, **arguments) -> dict:
    """One tool call that must succeed; its structured answer."""
    result = await session.call_tool(name, arguments)
    assert not result.is_error, result.content
    assert result.structured_content is not None
    return result.structured_content


@asynccontextmanager
async def mcp_tools(db: Path) -> AsyncIterator[tuple[dict[str, Tool], Callable[..., Awaitable[dict]]]]:
    """A session with a server serving ``db`` as (the tools it lists, by name; ``call(name, **arguments)``,
    call_ok on that session)."""
    async with mcp_session(db) as session:
        yield {t.name: t for t in (await session.list_tools()).tools}, partial(call_ok, session)
