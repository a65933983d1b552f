"""An MCP server written with the official Python MCP SDK, used as workflow steps by the tests.

Its tools: `forecast` returns structured content, `outlook` a dictionary as JSON text (no
structured content), `shout` returns text, `explode` fails,
`crash` ends the server, `stall` never answers, `greet` asks for a name (elicitation).
Each start appends the server's process id to the file named by $WEATHER_SPAWN_LOG, and
`stall` appends "stalling" there when its call begins.
"""

import os
import time
from typing import Literal

from pydantic import BaseModel

try:  # mcp 2.x
    from mcp.server.mcpserver import Context, MCPServer as Server
    from mcp.server.mcpserver.exceptions import ToolError
except ImportError:  # mcp 1.x
    from mcp.server.fastmcp import Context, FastMCP as Server
    from mcp.server.fastmcp.exceptions import ToolError

if os.environ.get("WEATHER_SPAWN_LOG"):
    with open(os.environ["WEATHER_SPAWN_LOG"], "a") as log:
        log.write(f"{os.getpid()}\n")

server = Server("weather")


class Forecast(BaseModel):
    city: str
    temperature: float
    unit: str
    days: int


@server.tool()
def forecast(city: str, days: int = 1, unit: Literal["celsius", "fahrenheit"] = "celsius") -> Forecast:
    """The weather to expect in a city."""
    temperature = 21.5 if unit == "celsius" else 70.7
    return Forecast(city=city, temperature=temperature, unit=unit, days=days)


@server.tool(structured_output=False)
def outlook(city: str) -> dict:
    """The outlook for a city, as a plain dictionary: the SDK writes it as JSON text."""
    return {"city": city, "summary": "sunny spells", "days": [1, 2, 3]}


@server.tool(structured_output=False)
def shout(text: str) -> str:
    """Says a text louder."""
    return text.upper() + "!"


@server.tool()
def explode(reason: str) -> str:
    """Always fails."""
    raise ToolError(f"the forecast office is closed: {reason}")


@server.tool()
def crash() -> str:
    """Ends the server while answering."""
    os._exit(3)


@server.tool()
def stall() -> str:
    """Never answers in time."""
    if os.environ.get("WEATHER_SPAWN_LOG"):
        with open(os.environ["WEATHER_SPAWN_LOG"], "a") as log:
            log.write("stalling\n")
    time.sleep(60)
    return "late"


class Name(BaseModel):
    name: str


@server.tool()
async def greet(ctx: Context) -> str:
    """Asks for a name, then greets."""
    answer = await ctx.elicit("What is your name?", schema=Name)
    if answer.action == "accept" and answer.data is not None:
        return f"Hello, {answer.data.name}!"
    raise ToolError("no name was given")


if __name__ == "__main__":
    server.run()
