#!/usr/bin/env python3
"""`ecbrates mcp` through the official MCP Python SDK's stdio client, checked against the
command line and against an independent oracle (the ECB's XML read with expat, the answers
computed with fractions).

  mcp_check.py ECBRATES_BINARY STORE ECB_XML SEED CASES [--protocol auto|legacy|2026-07-28] [--case N]
               [--url http://HOST:PORT/mcp [--token TOKEN]]

With --url, the SDK's Streamable HTTP client (`mcp.client.streamable_http.streamable_http_client`)
talks to a running `ecbrates serve` at that URL instead of starting `ecbrates mcp` (with
`Authorization: Bearer TOKEN` when --token is given); every check is the same, so the tools'
answers over HTTP are held to the command line's, as over stdio.

Starts `ECBRATES_BINARY mcp --store STORE` with ECBRATES_NOW=2026-10-01T12:00:00Z through
`mcp.client.stdio.stdio_client` and `mcp.ClientSession` (PyPI `mcp` 2.3.0), negotiates the
protocol, lists the tools, makes a few error calls, then CASES seeded random tool calls. Prints
`ok N` when all agree; else one line per failure, `seed S case C: …` (`--case C` reruns
that case alone), and exits 1.

Negotiation (--protocol): `auto` (the default) does what the SDK's own `Client(mode="auto")`
does: `server/discover` for the 2026-07-28 revision, and the `initialize` handshake (which
offers 2025-11-25, the newest version the handshake can reach) if the server answers discover
with a JSON-RPC error; `2026-07-28` requires discover; `legacy` only initializes.

For every successful call: `structuredContent` must equal json.loads(content[0].text) (as the
SDK parsed it, with floats: it reads the JSON-RPC line with pydantic, so the structured
numbers are floats) — except that a 2025-era session, whose structuredContent must be a JSON
object, has a JSON-array answer (currencies) under the tool's name, {"currencies": [...]}, as
`ecbrates mcp` sends it; at 2026-07-28 the array itself; content[0].text parsed with Decimal must equal, exactly, what
`ECBRATES_BINARY <the same query> --format json --store STORE` prints (parsed with Decimal);
and its rates must agree with the oracle: exactly (as Fractions) for rates the ECB published,
asked against the euro; within a relative 1e-18 for cross rates (20 significant digits).
The arguments sent must also validate against the tool's declared inputSchema (jsonschema,
a dependency of `mcp`).

Python 3.11 standard library and `mcp` (pip install mcp==2.3.0) only.
"""
import asyncio
import json
import os
import random
import subprocess
import sys
import tempfile
import traceback
import warnings
from datetime import date, timedelta
from decimal import Decimal
from fractions import Fraction

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from server_oracle import ended_between, read_ecb  # noqa: E402  (the oracle's expat reader and currency ends)

import mcp.types as types  # noqa: E402
from mcp import ClientSession  # noqa: E402
from mcp.client.stdio import StdioServerParameters, stdio_client  # noqa: E402
from mcp.client.streamable_http import streamable_http_client  # noqa: E402
from mcp.shared.exceptions import MCPDeprecationWarning, MCPError  # noqa: E402
from mcp.types.version import HANDSHAKE_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS  # noqa: E402

NOW = "2026-10-01T12:00:00Z"
TOOLS = {"rate", "convert", "latest", "series", "stats", "currencies", "corrections", "status"}
REQUIRED = {"convert": {"amount", "from", "to"}, "series": {"currencies"}}
CROSS_TOLERANCE = Fraction(1, 10**18)
# ISO 4217 minor units of the currencies whose rounding convert's oracle checks (others: unchecked).
MINOR_UNITS = {"JPY": 0, "KRW": 0, "ISK": 0, **{c: 2 for c in (
    "EUR", "USD", "GBP", "CHF", "AUD", "CAD", "NZD", "SEK", "NOK", "DKK", "PLN", "CZK", "ZAR", "SGD", "HKD",
    "MXN", "BRL", "CNY", "INR", "ILS", "MYR", "PHP", "THB", "RON", "TRY")}}


class Mismatch(Exception):
    pass


class Oracle:
    def __init__(self, xml_path):
        self.days = read_ecb(xml_path)
        self.published = sorted(self.days)
        self.first = date.fromisoformat(self.published[0])
        self.last = date.fromisoformat(self.published[-1])
        every_day = [self.first + timedelta(days=n) for n in range((self.last - self.first).days + 1)]
        self.holidays = [d for d in every_day if d.weekday() < 5 and d.isoformat() not in self.days]
        self.weekends = [d for d in every_day if d.weekday() >= 5]

    def publication(self, day):
        """The newest publication on or before `day` (within 14 days), or None."""
        for back in range(0, 15):
            d = (day - timedelta(days=back)).isoformat()
            if d in self.days:
                return d
        return None

    def per_euro(self, code, day):
        return Fraction(1) if code == "EUR" else Fraction(Decimal(self.days[day][code]))

    def quoted(self, used, asked):
        """The currencies the publication `used` answers for `asked`: none past its end."""
        return sorted(c for c in self.days[used] if not ended_between(c, used, asked))

    def choose_day(self, rng):
        pick = rng.random()
        if pick < 0.2 and self.holidays:
            return rng.choice(self.holidays)
        if pick < 0.4:
            return rng.choice(self.weekends)
        return self.first + timedelta(days=rng.randrange((self.last - self.first).days + 1))


def number(value, where):
    if isinstance(value, bool) or not isinstance(value, (int, Decimal)):
        raise Mismatch(f"{where}: {value!r} is not a number")
    return Fraction(value)


def check_rate(where, value, exact, published_against_euro):
    got = number(value, where)
    if published_against_euro:
        if got != exact:
            raise Mismatch(f"{where}: {value}, expected exactly {Decimal(exact.numerator) / Decimal(exact.denominator)}")
    elif abs(got - exact) > abs(exact) * CROSS_TOLERANCE:
        raise Mismatch(f"{where}: {value} is not {float(exact)!r} within a relative 1e-18")


def check_rate_entry(oracle, where, entry, code, base, used):
    """One entry of a rate answer: {"currency", "base", "rate", "day", …}."""
    if entry.get("currency") != code or entry.get("base") != base or entry.get("day") != used:
        raise Mismatch(f"{where}: currency/base/day {entry.get('currency')} {entry.get('base')} {entry.get('day')}, "
                       f"expected {code} {base} {used}")
    exact = oracle.per_euro(code, used) / oracle.per_euro(base, used)
    check_rate(f"{where} {code}", entry.get("rate"), exact, base == "EUR" and code != "EUR")


def cli_arguments(tool, arguments):
    """The command line that asks what `tool` with `arguments` asks."""
    a = arguments
    if tool == "rate":
        line = ["rate"] + ([",".join(a["currencies"])] if a.get("currencies") else [])
        options = [("date", "--date"), ("base", "--base"), ("fallback", "--fallback"), ("as_of", "--as-of")]
    elif tool == "convert":
        line = ["convert", str(a["amount"]), a["from"], a["to"]]
        options = [("date", "--date"), ("fallback", "--fallback"), ("precision", "--precision"), ("as_of", "--as-of")]
    elif tool == "latest":
        line = ["latest"] + (["--currencies", ",".join(a["currencies"])] if a.get("currencies") else [])
        options = [("base", "--base")]
    elif tool == "series":
        line = ["series", ",".join(a["currencies"])]
        options = [("from", "--from"), ("to", "--to"), ("base", "--base"), ("group", "--group"),
                   ("statistic", "--statistic"), ("as_of", "--as-of")]
    else:
        line, options = [tool], []
    for key, flag in options:
        if a.get(key) is not None:
            line += [flag, str(a[key])]
    return line


def make_case(oracle, rng):
    """A random tool call: (tool, arguments, oracle check or None)."""
    newest = oracle.published[-1]
    pick = rng.random()
    if pick < 0.30:
        asked = oracle.choose_day(rng) if rng.random() < 0.85 else None
        used = oracle.publication(asked) if asked else newest
        if used is None:
            return None
        quoted = oracle.quoted(used, asked.isoformat() if asked else newest)
        base = None if rng.random() < 0.3 else ("EUR" if rng.random() < 0.5 else rng.choice(quoted))
        choices = [c for c in quoted + ["EUR"] if c != (base or "EUR")]
        currencies = None if rng.random() < 0.1 else rng.sample(choices, k=min(len(choices), rng.choice([1, 1, 2, 3])))
        fallback = None if rng.random() < 0.85 else rng.choice(["previous", "none", "next", "nearest"])
        arguments = {"currencies": currencies, "date": asked.isoformat() if asked else None, "base": base,
                     "fallback": fallback}
        arguments = {k: v for k, v in arguments.items() if v is not None}

        def check(answer):
            if fallback not in (None, "previous"):
                return
            b = base or "EUR"
            if currencies and len(currencies) == 1:
                check_rate_entry(oracle, "rate", answer, currencies[0], b, used)
                return
            if answer.get("base") != b:
                raise Mismatch(f"rate: base {answer.get('base')}, expected {b}")
            entries = answer.get("rates") or []
            codes = [e.get("currency") for e in entries]
            expected = currencies or [c for c in quoted + ["EUR"] if c != b]
            if sorted(codes) != sorted(expected):
                raise Mismatch(f"rate: currencies {codes}, expected {sorted(expected)}")
            for entry in entries:
                check_rate_entry(oracle, "rate", entry, entry.get("currency"), b, used)
        return "rate", arguments, check
    if pick < 0.50:
        asked = oracle.choose_day(rng) if rng.random() < 0.85 else None
        used = oracle.publication(asked) if asked else newest
        if used is None:
            return None
        quoted = oracle.quoted(used, asked.isoformat() if asked else newest)
        source, target = rng.sample(quoted + ["EUR"], 2)
        if rng.random() < 0.3:
            source, target = "USD" if "USD" in quoted else source, "JPY" if "JPY" in quoted else target
            if source == target:
                return None
        amount = Decimal("123.45") if rng.random() < 0.2 else \
            Decimal(rng.randrange(-10**6, 10**8)) / Decimal(10 ** rng.randrange(0, 3))
        as_number = rng.random() < 0.3
        precision = rng.randrange(0, 9) if rng.random() < 0.3 else None
        arguments = {"amount": (int(amount) if amount == amount.to_integral_value() else float(amount)) if as_number else str(amount),
                     "from": source, "to": target, "date": asked.isoformat() if asked else None, "precision": precision}
        arguments = {k: v for k, v in arguments.items() if v is not None}

        def check(answer):
            exact_rate = oracle.per_euro(target, used) / oracle.per_euro(source, used)
            if answer.get("from") != source or answer.get("to") != target or answer.get("day") != used:
                raise Mismatch(f"convert: from/to/day {answer.get('from')} {answer.get('to')} {answer.get('day')}, "
                               f"expected {source} {target} {used}")
            if number(answer.get("amount"), "convert amount") != Fraction(amount):
                raise Mismatch(f"convert: amount {answer.get('amount')}, expected {amount}")
            check_rate("convert rate", answer.get("rate"), exact_rate, source == "EUR")
            places = precision if precision is not None else MINOR_UNITS.get(target)
            if places is None:
                return
            exact = Fraction(amount) * exact_rate
            got = number(answer.get("result"), "convert result")
            step = Fraction(1, 10**places)
            if got % step != 0 or abs(got - exact) > step / 2 + abs(exact) * CROSS_TOLERANCE:
                raise Mismatch(f"convert: result {answer.get('result')} is not {float(exact)!r} rounded to {places} places")
        return "convert", arguments, check
    if pick < 0.60:
        quoted = sorted(oracle.days[newest])
        base = None if rng.random() < 0.5 else rng.choice(quoted + ["EUR"])
        choices = [c for c in quoted + ["EUR"] if c != (base or "EUR")]
        currencies = None if rng.random() < 0.5 else rng.sample(choices, k=rng.randrange(1, 4))
        arguments = {k: v for k, v in {"currencies": currencies, "base": base}.items() if v is not None}

        def check(answer):
            b = base or "EUR"
            if answer.get("base") != b:
                raise Mismatch(f"latest: base {answer.get('base')}, expected {b}")
            entries = answer.get("rates") or []
            expected = currencies or [c for c in quoted + ["EUR"] if c != b]
            if sorted(e.get("currency") for e in entries) != sorted(expected):
                raise Mismatch(f"latest: currencies {[e.get('currency') for e in entries]}, expected {sorted(expected)}")
            for entry in entries:
                check_rate_entry(oracle, "latest", entry, entry.get("currency"), b, newest)
        return "latest", arguments, check
    if pick < 0.80:
        start = oracle.choose_day(rng)
        open_ended = (oracle.last - start).days < 42 and rng.random() < 0.5
        end = oracle.last if open_ended else min(oracle.last, start + timedelta(days=rng.randrange(0, 42)))
        in_range = [d for d in oracle.published if start.isoformat() <= d <= end.isoformat()]
        if not in_range:
            return None
        everywhere = sorted(set.intersection(*(set(oracle.days[d]) for d in in_range)))
        if not everywhere:
            return None
        base = None if rng.random() < 0.5 else rng.choice(everywhere + ["EUR"])
        choices = [c for c in everywhere + ["EUR"] if c != (base or "EUR")]
        currencies = rng.sample(choices, k=min(len(choices), rng.randrange(1, 3)))
        grouped = rng.random() < 0.15
        group = rng.choice(["week", "month"]) if grouped else None
        statistic = rng.choice([None, "mean", "first", "last", "min", "max"]) if grouped else None
        arguments = {"currencies": currencies, "from": start.isoformat(), "to": None if open_ended else end.isoformat(),
                     "base": base, "group": group, "statistic": statistic}
        arguments = {k: v for k, v in arguments.items() if v is not None}

        def check(answer):
            if grouped:
                return
            b = base or "EUR"
            if answer.get("base") != b or answer.get("currencies") != currencies:
                raise Mismatch(f"series: base/currencies {answer.get('base')} {answer.get('currencies')}, expected {b} {currencies}")
            rows = answer.get("rows") or []
            if [r.get("date") for r in rows] != in_range:
                raise Mismatch(f"series: days {[r.get('date') for r in rows][:3]}… ({len(rows)}), "
                               f"expected {in_range[:3]}… ({len(in_range)})")
            for row in rows:
                if sorted(k for k in row if k != "date") != sorted(currencies):
                    raise Mismatch(f"series: {row.get('date')} has {sorted(row)}, expected date and {currencies}")
                for code in currencies:
                    exact = oracle.per_euro(code, row["date"]) / oracle.per_euro(b, row["date"])
                    check_rate(f"series {row['date']} {code}", row[code], exact, b == "EUR" and code != "EUR")
        return "series", arguments, check
    if pick < 0.90:
        def check(answer):
            expected = {}
            for d in oracle.published:
                for code in oracle.days[d]:
                    first, last, count = expected.get(code, (d, d, 0))
                    expected[code] = (min(first, d), max(last, d), count + 1)
            got = {e.get("code"): (e.get("firstDay"), e.get("lastDay"), e.get("rates")) for e in answer} \
                if isinstance(answer, list) else answer
            if got != expected:
                wrong = sorted(c for c in set(got) | set(expected) if got.get(c) != expected.get(c)) \
                    if isinstance(got, dict) else got
                raise Mismatch(f"currencies: differs from the XML for {wrong}")
        return "currencies", {}, check

    def check_status(answer):
        expected = {"firstDay": oracle.published[0], "lastDay": oracle.published[-1], "days": len(oracle.published),
                    "rates": sum(len(r) for r in oracle.days.values()),
                    "currencies": len(set().union(*oracle.days.values()))}
        got = {k: answer.get(k) for k in expected}
        if got != expected:
            raise Mismatch(f"status: {got}, expected {expected}")
    return "status", {}, check_status


def run_cli(binary, store, tool, arguments):
    line = [binary] + cli_arguments(tool, arguments) + ["--format", "json", "--store", store]
    done = subprocess.run(line, capture_output=True, text=True, env={**os.environ, "ECBRATES_NOW": NOW}, timeout=120)
    return line, done


def validate_arguments(schema, tool, arguments):
    from jsonschema.validators import validator_for

    errors = sorted(validator_for(schema)(schema).iter_errors(arguments), key=str)
    if errors:
        raise Mismatch(f"{tool} {json.dumps(arguments)}: the tool's inputSchema rejects these arguments: {errors[0].message}")


def describe(error):
    """`error` in one line; an ExceptionGroup (anyio's task groups) by the errors inside it."""
    if isinstance(error, BaseExceptionGroup):
        return "; ".join(describe(inner) for inner in error.exceptions)
    return f"{type(error).__name__}: {' '.join(str(error).split())}"


def text_of(result):
    if not result.content or not isinstance(result.content[0], types.TextContent):
        raise Mismatch(f"content[0] is not a text block: {result.content[:1]!r}")
    return result.content[0].text


async def call_case(session, schemas, binary, store, tool, arguments, check, handshake_era):
    """One call: the tool against its schema, its structured and text answers, the command line, the oracle."""
    validate_arguments(schemas[tool], tool, arguments)
    result = await session.call_tool(tool, arguments)
    line, cli = run_cli(binary, store, tool, arguments)
    label = f"{tool} {json.dumps(arguments)}"
    if cli.returncode != 0:
        if not result.is_error:
            raise Mismatch(f"{label}: the command line failed ({' '.join(line[1:])}: {cli.stdout.strip()} "
                           f"{cli.stderr.strip()}) but the tool answered without isError")
        return
    if result.is_error:
        raise Mismatch(f"{label}: isError: {text_of(result)[:300]}")
    text = text_of(result)
    try:
        as_floats = json.loads(text)
        exact = json.loads(text, parse_float=Decimal)
    except ValueError:
        raise Mismatch(f"{label}: content[0].text is not JSON: {text[:200]!r}")
    # A 2025-era session's structuredContent must be a JSON object, so there an array answer
    # (currencies) is expected under the tool's name; a 2026-07-28 one takes any JSON value.
    expected = {tool: as_floats} if handshake_era and isinstance(as_floats, list) else as_floats
    if result.structured_content != expected:
        raise Mismatch(f"{label}: structuredContent differs from content[0].text"
                       f"{f' under the key {tool!r}' if expected is not as_floats else ''}: "
                       f"{json.dumps(result.structured_content)[:160]} vs {text[:160]}")
    printed = json.loads(cli.stdout, parse_float=Decimal)
    if exact != printed:
        raise Mismatch(f"{label}: the tool's JSON differs from `{' '.join(line[1:])}`: {text[:300]} vs {cli.stdout[:300]}")
    if check:
        try:
            check(exact)
        except Mismatch as mismatch:
            raise Mismatch(f"{label}: {mismatch}")


async def expect_tool_error(session, tool, arguments, naming=None):
    result = await session.call_tool(tool, arguments)
    if not result.is_error:
        raise Mismatch(f"{tool} {json.dumps(arguments)}: answered without isError: {text_of(result)[:200]}")
    if naming and naming not in text_of(result):
        raise Mismatch(f"{tool} {json.dumps(arguments)}: the error does not name {naming}: {text_of(result)[:200]}")


async def negotiate(session, protocol, problems):
    """Returns (protocol version, how)."""
    if protocol == "legacy":
        await session.initialize()
        return session.protocol_version, "initialize"
    try:
        await session.discover()
        return session.protocol_version, "server/discover"
    except MCPError as error:
        if protocol != "auto":
            raise
        if error.code == types.REQUEST_TIMEOUT:
            problems.append("server/discover had no answer in time (a server must answer an unknown method "
                            "with a JSON-RPC error, -32601)")
        await session.initialize()
        return session.protocol_version, f"initialize (server/discover answered {error.code} {error.message})"


def transport(binary, store, url, token, errlog):
    """The client's streams: stdio to `ecbrates mcp`, or Streamable HTTP to URL."""
    if url is None:
        parameters = StdioServerParameters(command=binary, args=["mcp", "--store", store], env={"ECBRATES_NOW": NOW})
        return stdio_client(parameters, errlog=errlog)
    import httpx2
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return streamable_http_client(url, http_client=httpx2.AsyncClient(headers=headers, timeout=60))


async def run(binary, store, xml_path, seed, cases, protocol, only, url=None, token=None):
    oracle = Oracle(xml_path)
    failures = []
    checked = 0

    def fail(where, what):
        failures.append(f"seed {seed} {where}: {what}")
        print(failures[-1], flush=True)

    with tempfile.TemporaryFile("w+") as errlog:
        try:
            async with transport(binary, store, url, token, errlog) as streams:
                read, write = streams[0], streams[1]
                async with ClientSession(read, write, read_timeout_seconds=60,
                                         client_info=types.Implementation(name="ecbrates-mcp-check", version="1")) as session:
                    problems = []
                    version, how = await negotiate(session, protocol, problems)
                    for problem in problems:
                        fail("setup", problem)
                    print(f"protocol {version} by {how}; server {session.server_info}", flush=True)
                    if version not in HANDSHAKE_PROTOCOL_VERSIONS + MODERN_PROTOCOL_VERSIONS:
                        fail("setup", f"negotiated an unknown protocol version {version!r}")
                    capabilities = session.server_capabilities
                    if capabilities is None or capabilities.tools is None:
                        fail("setup", f"the server does not declare the tools capability: {capabilities}")
                    if version in HANDSHAKE_PROTOCOL_VERSIONS:
                        await session.send_ping()
                    listed = await session.list_tools()
                    checked += 1
                    names = [tool.name for tool in listed.tools]
                    if sorted(names) != sorted(TOOLS) or listed.next_cursor is not None:
                        fail("tools/list", f"tools {names} (next cursor {listed.next_cursor!r}), expected {sorted(TOOLS)}")
                    schemas = {}
                    from jsonschema.exceptions import SchemaError
                    from jsonschema.validators import validator_for

                    for tool in listed.tools:
                        schema = dict(tool.input_schema)
                        schemas[tool.name] = schema
                        try:
                            validator_for(schema).check_schema(schema)
                        except SchemaError as error:
                            fail("tools/list", f"{tool.name}: inputSchema is not a valid JSON Schema: {error.message}")
                        if schema.get("type") != "object":
                            fail("tools/list", f"{tool.name}: inputSchema type {schema.get('type')!r}, expected 'object'")
                        needed = REQUIRED.get(tool.name, set()) - set(schema.get("required") or [])
                        if needed:
                            fail("tools/list", f"{tool.name}: inputSchema does not require {sorted(needed)}")
                    missing = TOOLS - set(schemas)
                    if missing:
                        raise RuntimeError(f"cannot go on without the tools {sorted(missing)}")

                    if only is None:
                        errors = [
                            ("rate", {"currencies": ["XYZ"]}, "XYZ"),
                            ("rate", {"currencies": ["USD", "XYZ"], "date": "2024-03-28"}, "XYZ"),
                            ("convert", {"amount": "10", "from": "XYZ", "to": "USD"}, "XYZ"),
                            ("rate", {"currencies": ["USD"], "date": "2024-02-30"}, None),
                            ("convert", {"amount": "10", "from": "USD", "to": "JPY", "date": "yesterday"}, None),
                            ("series", {"currencies": ["USD"], "from": "2024-05-01", "to": "2024-04-01"}, None),
                        ]
                        for tool, arguments, naming in errors:
                            checked += 1
                            try:
                                await expect_tool_error(session, tool, arguments, naming)
                            except Mismatch as mismatch:
                                fail("error check", str(mismatch))
                        checked += 1
                        try:
                            result = await session.call_tool("no_such_tool", {})
                            fail("error check", f"tools/call of an unknown tool answered a result, not a JSON-RPC "
                                                f"error: isError={result.is_error} {text_of(result)[:200]}")
                        except MCPError as error:
                            if error.code not in (types.INVALID_PARAMS, types.METHOD_NOT_FOUND):
                                fail("error check", f"unknown tool: JSON-RPC error {error.code} {error.message} "
                                                    f"(expected -32602 invalid params)")
                        except Mismatch as mismatch:
                            fail("error check", str(mismatch))

                    for case in ([only] if only is not None else range(cases)):
                        made = make_case(oracle, random.Random(seed * 1_000_003 + case))
                        if made is None:
                            continue
                        checked += 1
                        tool, arguments, check = made
                        try:
                            await call_case(session, schemas, binary, store, tool, arguments, check,
                                            version in HANDSHAKE_PROTOCOL_VERSIONS)
                        except Mismatch as mismatch:
                            fail(f"case {case}", str(mismatch))
                        except MCPError as error:
                            fail(f"case {case}", f"{tool} {json.dumps(arguments)}: JSON-RPC error {error.code} {error.message}")
                            if error.code == types.CONNECTION_CLOSED:
                                break
                        except Exception as error:  # the SDK's validation (pydantic, output schema) and the like
                            fail(f"case {case}", f"{tool} {json.dumps(arguments)}: {describe(error)[:600]}")
        except Exception as error:
            fail("setup", describe(error)[:800])
            if os.environ.get("MCP_CHECK_TRACEBACK"):
                traceback.print_exc()
        if failures:
            errlog.seek(0)
            tail = errlog.read()[-2000:]
            if tail.strip():
                print("the server's standard error ends with:\n" + tail)
    return checked, failures


def main():
    warnings.simplefilter("ignore", MCPDeprecationWarning)
    arguments = sys.argv[1:]
    options = {"--protocol": "auto", "--case": None, "--url": None, "--token": None}
    for name in list(options):
        if name in arguments:
            at = arguments.index(name)
            options[name] = arguments[at + 1]
            del arguments[at:at + 2]
    if len(arguments) != 5 or options["--protocol"] not in ("auto", "legacy", *MODERN_PROTOCOL_VERSIONS):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        sys.exit(2)
    binary, store, xml_path = os.path.abspath(arguments[0]), os.path.abspath(arguments[1]), arguments[2]
    seed, cases = int(arguments[3]), int(arguments[4])
    only = int(options["--case"]) if options["--case"] is not None else None
    checked, failures = asyncio.run(run(binary, store, xml_path, seed, cases, options["--protocol"], only,
                                        options["--url"], options["--token"]))
    if failures:
        print(f"{len(failures)} failures in {checked} checks (seed {seed}); rebuild one case with: "
              f"{os.path.basename(sys.argv[0])} ECBRATES_BINARY STORE XML {seed} {cases} --case C")
        sys.exit(1)
    print(f"ok {checked}")


if __name__ == "__main__":
    main()
