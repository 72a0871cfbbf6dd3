#!/usr/bin/env python3
"""`ecbrates mcp` on stdio against malformed and hostile lines, seeded, with Python's json as the
oracle of what each line is.

    mcp_fuzz_check.py ECBRATES STORE SEED LINES

Each fuzzed line is followed by a sentinel request (`ping`, id "sentinel-N"), so the answers a
line got are those read before the sentinel's. The rules (JSON-RPC 2.0 and MCP):
  - a blank line: nothing (it carries no message); a line that is not JSON: one error, -32700,
    id null;
  - a JSON-RPC request (an object with "jsonrpc": "2.0", a method and an id): one answer whose
    id is the request's own (a number kept to its last digit: 12345678901234567890123, 1e400);
  - a notification (no id): no answer;
  - anything else JSON: one error, with the id when the object has one, else null.
The process must answer every sentinel and end with status 0 when its input closes. A failing
line is printed with the seed and its number.
"""
import json
import random
import subprocess
import sys

NOW = "2026-10-01T12:00:00Z"
TOOLS = ["rate", "convert", "latest", "series", "stats", "currencies", "corrections", "status"]


def strict_loads(text):
    def refuse(name):
        raise ValueError(f"not JSON: {name}")
    return json.loads(text, parse_constant=refuse)


def base_message(rng, ident):
    tool = rng.choice(TOOLS)
    arguments = rng.choice([
        {"currencies": "USD", "date": "2024-03-28"},
        {"amount": "100", "from": "USD", "to": "JPY", "date": "2024-03-28"},
        {"currencies": ["USD", "GBP"], "from": "2024-01-01", "to": "2024-01-31"},
        {"currency": "USD", "from": "2024-01-01", "to": "2024-12-31"},
        {},
    ])
    kind = rng.random()
    if kind < 0.7:
        message = {"jsonrpc": "2.0", "id": ident, "method": "tools/call",
                   "params": {"name": tool, "arguments": arguments}}
    elif kind < 0.8:
        message = {"jsonrpc": "2.0", "id": ident, "method": "tools/list", "params": {}}
    elif kind < 0.9:
        message = {"jsonrpc": "2.0", "method": "notifications/initialized"}
    else:
        message = {"jsonrpc": "2.0", "id": ident, "method": "initialize",
                   "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                              "clientInfo": {"name": "fuzz", "version": "1"}}}
    return message


HOSTILE_VALUES = ["1e400", "-1e400", "1e-400", "12345678901234567890123", "-0", "0.1", "1E3", "1e3",
                  '"' + "x" * 10_000 + '"', "[" * 300 + "]" * 300, '"\\ud800"', "true", "null",
                  '{"a":' * 200 + "1" + "}" * 200, '"2024-02-30"', '"usd"']
HOSTILE_IDS = ["12345678901234567890123", "1e400", "-7", "0", '"a\\"b"', '""', "1.5", "null", "{}", "[]", "true"]


def mutate(rng, message):
    text = json.dumps(message)
    choice = rng.randrange(9)
    if choice == 0:  # truncated anywhere
        return text[: rng.randrange(len(text))]
    if choice == 1:  # a byte inserted anywhere
        at = rng.randrange(len(text) + 1)
        return text[:at] + rng.choice(['"', "{", "}", "[", ",", ":", "\\", "\x00", "é", "1e999"]) + text[at:]
    if choice == 2 and "params" in message and "arguments" in message["params"]:  # a hostile argument value
        name = rng.choice(["amount", "currencies", "date", "from", "precision", "unknown_field"])
        value = rng.choice(HOSTILE_VALUES)
        arguments = json.dumps(message["params"]["arguments"])[1:-1]
        joined = f'"{name}":{value}' + ("," + arguments if arguments else "")
        return text.replace(json.dumps(message["params"]["arguments"]), "{" + joined + "}", 1)
    if choice == 3 and "id" in message:  # a hostile id
        return text.replace(f'"id": {json.dumps(message["id"])}', f'"id": {rng.choice(HOSTILE_IDS)}', 1)
    if choice == 4:  # no jsonrpc, or the wrong one
        return text.replace('"jsonrpc": "2.0"', rng.choice(['"jsonrpc": "1.0"', '"jsonrpc": 2.0', '"x": 1']), 1)
    if choice == 5:  # a method of the wrong kind
        wrong = rng.choice(["5", "null", "[]", '"' + "x" * 100 + '"'])
        return text.replace(f'"method": "{message["method"]}"', f'"method": {wrong}', 1)
    if choice == 6:  # not an object at all
        return rng.choice(["[]", "[1,2]", "42", '"text"', "null", "true", "{}", "[{}]"])
    if choice == 7:  # params of the wrong kind
        return text.replace('"params": ', '"params": ' + rng.choice(["[1]", "7", '"p"', "null"]) + ', "_": ', 1)
    return text  # as it was


def expected_answers(line):
    """(count of answers expected, the id the answer must carry or None for null), or None when
    the line is a batch (not fuzzed here)."""
    if not line.strip():
        return 0, None  # a blank line carries no message
    try:
        value = strict_loads(line)
    except ValueError:
        return 1, ("null",)
    if isinstance(value, dict):
        is_request = value.get("jsonrpc") == "2.0" and isinstance(value.get("method"), str)
        if is_request and "id" not in value:
            return 0, None
        if not is_request and "method" not in value and ("result" in value or "error" in value) \
                and value.get("jsonrpc") == "2.0":
            return 0, None  # a response to us
        return 1, ("id", value.get("id"))
    if isinstance(value, list):
        return None
    return 1, ("null",)


def main():
    binary, store, seed, count = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    rng = random.Random(seed)
    lines = []
    for number in range(count):
        message = base_message(rng, rng.choice([number, f"req-{number}", number * 1_000_003]))
        lines.append(mutate(rng, message))
    process = subprocess.Popen([binary, "mcp", "--store", store], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, env={"ECBRATES_NOW": NOW, "PATH": "/usr/bin:/bin"})
    failures = []
    checked = 0
    for number, line in enumerate(lines):
        expected = expected_answers(line)
        if expected is None:
            continue
        sentinel = f"sentinel-{number}"
        payload = line.replace("\n", " ").encode("utf-8", "surrogatepass") + b"\n"
        payload += json.dumps({"jsonrpc": "2.0", "id": sentinel, "method": "ping"}).encode() + b"\n"
        try:
            process.stdin.write(payload)
            process.stdin.flush()
        except BrokenPipeError:
            failures.append(f"seed {seed} line {number}: the process ended (stdin closed) after {line[:200]!r}")
            break
        answers = []
        while True:
            raw = process.stdout.readline()
            if not raw:
                failures.append(f"seed {seed} line {number}: the process ended after {line[:200]!r}: "
                                f"{process.stderr.read().decode(errors='replace')[-500:]}")
                break
            answer = json.loads(raw)
            if isinstance(answer, dict) and answer.get("id") == sentinel:
                break
            answers.append(answer)
        if failures and "ended" in failures[-1]:
            break
        checked += 1
        want, identity = expected
        shown = line if len(line) < 160 else line[:160] + "…"
        if len(answers) != want:
            failures.append(f"seed {seed} line {number}: {len(answers)} answers, expected {want}: {shown!r} -> "
                            f"{str(answers)[:300]}")
            continue
        if want == 1:
            got = answers[0].get("id", "(no id member)") if isinstance(answers[0], dict) else "(not an object)"
            wanted = None if identity[0] == "null" else identity[1]
            if isinstance(wanted, (dict, list, bool)) or (isinstance(wanted, float) and wanted != wanted):
                wanted = None  # an id of a kind JSON-RPC does not allow: answered with null
            if got != wanted and not (isinstance(wanted, float) and isinstance(got, float) and got == wanted):
                failures.append(f"seed {seed} line {number}: answered id {got!r}, expected {wanted!r}: {shown!r}")
    try:
        process.stdin.close()
    except BrokenPipeError:
        pass
    status = process.wait(timeout=30)
    if status != 0:
        failures.append(f"seed {seed}: exit {status} when its input closed")
    for failure in failures[:20]:
        print(failure)
    if failures:
        print(f"{len(failures)} failures in {checked} lines (seed {seed})")
        sys.exit(1)
    print(f"ok {checked} lines")


if __name__ == "__main__":
    main()
