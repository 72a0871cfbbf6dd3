#!/usr/bin/env python3
"""The same tools over both transports: `ecbrates mcp` (stdio) and `/mcp` on a running
`ecbrates serve` (Streamable HTTP), through the official MCP Python SDK's two clients, in one
protocol era, asked the same seeded calls side by side.

  mcp_parity_check.py ECBRATES_BINARY STORE ECB_XML SEED CASES URL --protocol legacy|2026-07-28

For each call (mcp_check.py's seeded cases, good and bad arguments alike): `isError`, the text
of `content[0]` and `structuredContent` must be identical over the two transports, byte for
byte (the text) and value for value (the structured content, as the SDK parsed it), and a
JSON-RPC error must be the same code and message. `tools/list` must be identical too.

Prints `ok N calls (R refused alike), protocol P` when all agree; else one line per difference,
`seed S case C: …`, and exits 1.
"""
import asyncio
import json
import os
import random
import sys
import tempfile
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mcp_check import Oracle, make_case, negotiate, transport  # noqa: E402
from mcp import ClientSession, types  # noqa: E402
from mcp.shared.exceptions import MCPDeprecationWarning, MCPError  # noqa: E402


async def outcome(session, tool, arguments):
    """What a client sees of one call: (isError, text, structured) or the JSON-RPC error."""
    try:
        result = await session.call_tool(tool, arguments)
    except MCPError as error:
        return ("error", error.code, error.message)
    text = result.content[0].text if result.content and isinstance(result.content[0], types.TextContent) else None
    return ("result", result.is_error, text, json.dumps(result.structured_content, sort_keys=True))


async def run(binary, store, xml_path, seed, cases, url, protocol):
    oracle = Oracle(xml_path)
    failures, calls, refused = [], 0, 0
    with tempfile.TemporaryFile("w+") as errlog:
        async with transport(binary, store, None, None, errlog) as stdio, \
                transport(binary, store, url, None, errlog) as http:
            info = types.Implementation(name="ecbrates-parity", version="1")
            async with ClientSession(stdio[0], stdio[1], read_timeout_seconds=60, client_info=info) as local, \
                    ClientSession(http[0], http[1], read_timeout_seconds=60, client_info=info) as remote:
                eras = []
                for session in (local, remote):
                    problems = []
                    eras.append(await negotiate(session, protocol, problems))
                    failures += [f"seed {seed} setup: {p}" for p in problems]
                if eras[0][0] != eras[1][0]:
                    failures.append(f"seed {seed} setup: stdio negotiated {eras[0]}, HTTP {eras[1]}")
                lists = [await s.list_tools() for s in (local, remote)]
                dumped = [json.dumps([t.model_dump(mode="json") for t in l.tools], sort_keys=True) for l in lists]
                if dumped[0] != dumped[1]:
                    failures.append(f"seed {seed} tools/list differs: {dumped[0][:200]} vs {dumped[1][:200]}")
                for case in range(cases):
                    made = make_case(oracle, random.Random(seed * 1_000_003 + case))
                    if made is None:
                        continue
                    tool, arguments, _ = made
                    seen = [await outcome(s, tool, arguments) for s in (local, remote)]
                    calls += 1
                    refused += seen[0][0] == "error" or seen[0][1] is True
                    if seen[0] != seen[1]:
                        failures.append(f"seed {seed} case {case}: {tool} {json.dumps(arguments)}: "
                                        f"stdio {str(seen[0])[:300]} vs HTTP {str(seen[1])[:300]}")
                        print(failures[-1], flush=True)
    return calls, refused, eras[0][0], failures


def main():
    warnings.simplefilter("ignore", MCPDeprecationWarning)
    arguments = sys.argv[1:]
    protocol = "legacy"
    if "--protocol" in arguments:
        at = arguments.index("--protocol")
        protocol = arguments[at + 1]
        del arguments[at:at + 2]
    if len(arguments) != 6 or protocol not in ("legacy", "2026-07-28"):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        sys.exit(2)
    binary, store, xml_path = os.path.abspath(arguments[0]), os.path.abspath(arguments[1]), arguments[2]
    seed, cases, url = int(arguments[3]), int(arguments[4]), arguments[5]
    calls, refused, era, failures = asyncio.run(run(binary, store, xml_path, seed, cases, url, protocol))
    if failures:
        for failure in failures:
            print(failure)
        print(f"{len(failures)} differences in {calls} calls (seed {seed})")
        sys.exit(1)
    print(f"ok {calls} calls ({refused} refused alike), protocol {era}")


if __name__ == "__main__":
    main()
