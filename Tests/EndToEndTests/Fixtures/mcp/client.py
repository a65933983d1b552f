"""An MCP client, written with the official Python MCP SDK, that drives `shortcuts mcp`.

Usage: python3 client.py PLAN.json

The plan says what to start and what to do:

    {"command": "/path/to/shortcuts", "args": ["mcp"], "cwd": "/tmp/x", "env": {"SHORTCUTS_HOME": "…"},
     "seconds": 20,
     "elicitation": {"authorName": "Asimov"},      # answers by field name; null: no elicitation support
     "listTools": true,
     "calls": [{"tool": "Library_AddBook", "arguments": {"title": "Emma"}}]}

An answer "decline" or "cancel" under "$action" declines or cancels every question instead.
Prints one JSON object: {"server": {...}, "tools": [...], "calls": [{"result": {...}} or {"error": "…"}],
"elicitations": [{"message", "requestedSchema"}]}, with the SDK's results in their JSON form.
"""

import json
import sys

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
import mcp.types as types


def as_json(model):
    return model.model_dump(mode="json", by_alias=True, exclude_none=True)


async def main(plan):
    report = {"tools": [], "calls": [], "elicitations": []}
    answers = plan.get("elicitation")

    async def elicit(context, params):
        report["elicitations"].append(as_json(params))
        action = answers.get("$action", "accept")
        if action != "accept":
            return types.ElicitResult(action=action)
        fields = list(params.requested_schema["properties"].keys())
        return types.ElicitResult(action="accept", content={name: answers[name] for name in fields if name in answers})

    server = StdioServerParameters(
        command=plan["command"], args=plan.get("args", []), cwd=plan.get("cwd"), env=plan.get("env"))
    with anyio.fail_after(plan.get("seconds", 20)):
        async with stdio_client(server) as (read, write):
            options = {"elicitation_callback": elicit} if answers is not None else {}
            async with ClientSession(read, write, **options) as session:
                initialized = await session.initialize()
                report["server"] = as_json(initialized.server_info)
                if plan.get("listTools"):
                    report["tools"] = [as_json(tool) for tool in (await session.list_tools()).tools]
                for call in plan.get("calls", []):
                    try:
                        result = await session.call_tool(call["tool"], call.get("arguments", {}))
                        report["calls"].append({"result": as_json(result)})
                    except Exception as error:  # a protocol error: the report says which
                        report["calls"].append({"error": str(error)})
    print(json.dumps(report))


if __name__ == "__main__":
    with open(sys.argv[1]) as file:
        anyio.run(main, json.load(file))
