#!/usr/bin/env python3
"""Validates the JSON answers of `ecbrates` against the JSON Schemas of AnswerSchema.swift.

    answer_schema_check.py BINARY STORE [--count N] [--seed S] [--now ISO] [--api] [--mcp]

Runs seeded random queries of every command (`rate`, `convert`, `latest`, `series`, `stats`,
`currencies`, `corrections`, `status`) against STORE with `--format json`: currencies of the
store, the euro, currencies the euro replaced, unknown and malformed codes; weekends, holidays and
days outside the store; bases, fallbacks, precisions, groups and statistics, `--partial`,
`--as-of`. Every answer (standard output, exit 0) must be valid against its schema, and every
error (standard error, exit status not 0) against `error`. The schemas are read from the raw
string literals of Sources/ECBRates/Output/AnswerSchema*.swift (`static let NAME = #\"\"\"` ...
`\"\"\"#`), the one source, their interpolations of each other (`\\#(legsText)`) resolved as Swift
does; each must be a valid draft 2020-12 schema, and the parts they share must agree
(`rateOrRates` is anyOf `rate` and `rates`, every `warnings` is `warnings`, …).

Besides the schemas it checks what the schemas cannot say: one JSON document on one line, no
duplicate keys, no NaN, no exponent in a number; the `warnings` of an answer are the `warning:`
lines on standard error; `asOf` comes first, exactly when `--as-of` was given; an error's
`exitStatus` is the exit status; a series' rows have a key per currency; `complete` is `missing`
being empty.

With --api it also asks `ecbrates serve` (on a free loopback port) each query as `/api/…`
(bodies against the same schemas, warnings included, error bodies against `serviceError`); with
--mcp it asks `ecbrates mcp` each query that is a tool (`structuredContent` against the tool's
output schema, in the handshake revisions and in 2026-07-28; an error result's against
`serviceError`, its message the text).

--now sets ECBRATES_NOW for every process (the store's freshness: stale-store warnings).
A failure is printed with the case's seed (`--seed S --only I` runs it alone) and its command
line; the exit status is 1 when any case failed.

Needs the `jsonschema` package (scripts/prerequisites installs it in .build/pyenv).
"""

import argparse
import datetime
import json
import os
import random
import re
import select
import shlex
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from decimal import Decimal

try:
    import jsonschema
except ImportError:  # pragma: no cover
    sys.exit("answer_schema_check: needs the jsonschema package (.build/pyenv/bin/pip install jsonschema)")

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_SCHEMA_FILE = os.path.normpath(os.path.join(HERE, "..", "..", "Sources", "ECBRates", "Output",
                                                    "AnswerSchema.swift"))

# The schemas the file must declare, and which of them are arrays (every other is an object).
EXPECTED = ["rate", "rates", "rateOrRates", "conversion", "series", "stats", "currencies", "currenciesObject",
            "corrections", "correctionsObject", "status", "error", "serviceError", "warning", "warnings"]
ARRAYS = {"currencies", "corrections", "warnings"}

# The schema of each command's answer (`rate`: one of two, by the count of codes asked).
SCHEMA_OF = {"rate": "rateOrRates", "convert": "conversion", "latest": "rates", "series": "series",
             "stats": "stats", "currencies": "currencies", "corrections": "corrections", "status": "status"}
# MCP's tools and their output schemas (a list goes under the tool's name before 2026-07-28).
MCP_TOOLS = {"rate": "rateOrRates", "convert": "conversion", "latest": "rates", "series": "series",
             "stats": "stats", "currencies": "currenciesObject", "corrections": "correctionsObject",
             "status": "status"}
MCP_MODERN = "2026-07-28"

# Currencies the euro replaced (fixed conversion rates), and codes no store has.
LEGACY = ["DEM", "FRF", "ITL", "ESP", "NLG", "BEF", "ATS", "PTE", "FIM", "IEP", "LUF", "GRD", "SIT", "CYP", "MTL",
          "SKK", "EEK", "LVL", "LTL", "HRK"]
UNKNOWN = ["XYZ", "ABC", "QQQ", "XAU", "ZZZ"]
MALFORMED = ["US", "USDX", "U$D", "123", "", "EU R"]
FALLBACKS = ["none", "previous", "next", "nearest", "interpolate", "interpolate"]
GROUPS = ["week", "month", "quarter", "year"]
STATISTICS = ["mean", "first", "last", "min", "max"]


# MARK: The schemas, from the Swift file

# A literal of AnswerSchema*.swift: `[public] static let NAME[: TYPE] = ` a raw string, multi-line
# (`#"""` newline, lines, the closing `"""#` on its own line) or not (`#"…"#`), alone or in
# `schema(…)` (or `.raw(…)`); or `schema(NAME)`, the schema of the literal NAME.
LITERAL = re.compile(
    r'^[ \t]*(?:public\s+)?static\s+let\s+(?P<name>\w+)\s*(?::\s*\w+\s*)?=\s*(?P<call>(?:\.raw|schema)\(\s*)?'
    r'(?:#"""\n(?P<lines>.*?)\n(?P<indent>[ \t]*)"""#|#"(?P<line>(?:[^"\n]|"(?!#))*)"#|(?P<of>\w+)\s*(?=\)))',
    re.S | re.M)
# An interpolation in a raw string (`\#(NAME)`); any other `\#` this reader does not resolve.
INTERPOLATION = re.compile(r'\\#\((\w+)\)')


def read_literals(folder):
    """Every raw string literal that a `static let` of the folder's AnswerSchema*.swift declares,
    as Swift reads it (a multi-line literal without its closing delimiter's indentation), with its
    interpolations `\\#(NAME)` of the other literals resolved: {NAME: (text, how)}, `how` being
    "schema" in `schema(…)`, "raw" in `.raw(…)`, else None (a part the schemas interpolate)."""
    literals = {}
    for file in sorted(os.listdir(folder)):
        if not (file.startswith("AnswerSchema") and file.endswith(".swift")):
            continue
        for match in LITERAL.finditer(open(os.path.join(folder, file), encoding="utf-8").read()):
            name, call = match.group("name"), (match.group("call") or "").split("(")[0]
            if not call and match.group("of") is not None:
                continue  # not a literal
            if name in literals:
                raise SystemExit(f"{file}: {name} is declared twice")
            if match.group("lines") is not None:
                indent, lines = match.group("indent"), match.group("lines").split("\n")
                if any(line.strip() and not line.startswith(indent) for line in lines):
                    raise SystemExit(f"{file}: a line of {name} is indented less than its closing delimiter")
                body = "\n".join(line[len(indent):] for line in lines)
            elif match.group("line") is not None:
                body = match.group("line")
            else:
                body = "\\#(" + match.group("of") + ")"  # schema(NAME): NAME's text
            if "\\#" in INTERPOLATION.sub("", body):
                raise SystemExit(f"{file}: {name} has an escape or an interpolation of an expression (`\\#`)")
            literals[name] = (body, {"": None, "schema": "schema", ".raw": "raw"}[call])

    resolved = {}

    def resolve(name, chain):
        if name in chain:
            raise SystemExit(f"AnswerSchema: {' -> '.join(chain + [name])}: the literals interpolate each other")
        if name not in literals:
            raise SystemExit(f"AnswerSchema: {chain[-1]} interpolates {name}, no literal of AnswerSchema*.swift")
        if name not in resolved:
            resolved[name] = INTERPOLATION.sub(lambda found: resolve(found.group(1), chain + [name]),
                                               literals[name][0])
        return resolved[name]

    return {name: (resolve(name, []), how) for name, (_, how) in literals.items()}


def read_schemas(path):
    """Every `public static let NAME: JSONText = schema(` raw literal `)` of the file and of its
    extensions (`AnswerSchema+*.swift` beside it), its interpolated fragments resolved, kept on one
    line as `schema(_:)` does, and parsed; and the schemas the Swift code composes of them
    (`rateOrRates`, `currenciesObject`, `correctionsObject`), composed alike."""
    schemas = {}
    for name, (text, how) in read_literals(os.path.dirname(path)).items():
        if how is None:
            continue  # a part the schemas interpolate
        if how == "schema":
            text = "".join(line.lstrip(" ") for line in text.split("\n"))
        try:
            schemas[name] = json.loads(text, object_pairs_hook=unique_keys)
        except ValueError as error:
            raise SystemExit(f"{path}: the schema {name} is not JSON: {error}")
    if "rate" in schemas and "rates" in schemas:
        schemas.setdefault("rateOrRates", {"type": "object", "anyOf": [schemas["rate"], schemas["rates"]]})
    for name in ("currencies", "corrections"):
        if name in schemas:
            schemas.setdefault(name + "Object", {"type": "object", "properties": {name: schemas[name]},
                                                 "required": [name], "additionalProperties": False})
    missing = [name for name in EXPECTED if name not in schemas]
    if missing:
        raise SystemExit(f"{path}: no schema named {', '.join(missing)}")
    for name, schema in schemas.items():
        jsonschema.Draft202012Validator.check_schema(schema)
        for key in ("$schema", "$id"):
            if contains_key(schema, key):
                raise SystemExit(f"{path}: the schema {name} has a {key} key (they are embedded)")
        wanted = "array" if name in ARRAYS else "object"
        if schema.get("type") != wanted:
            raise SystemExit(f"{path}: the schema {name} is not of type {wanted}")
    for problem in copies_differ(schemas):
        raise SystemExit(f"{path}: {problem}")
    return schemas


def copies_differ(schemas):
    """Each schema is whole on its own, so some hold others (interpolated in the Swift source, or
    composed): the copies must agree."""
    def without(schema, *keys):
        return {**schema, "properties": {key: value for key, value in schema["properties"].items()
                                         if key not in keys}}

    if schemas["rateOrRates"] != {"type": "object", "anyOf": [schemas["rate"], schemas["rates"]]}:
        yield "rateOrRates is not {\"type\": \"object\", \"anyOf\": [rate, rates]}"
    if schemas["rates"]["properties"]["rates"]["items"] != without(schemas["rate"], "asOf", "warnings"):
        yield "the items of rates' rates are not rate without asOf and warnings"
    for name in ("currencies", "corrections"):
        if schemas[name + "Object"]["properties"][name] != schemas[name]:
            yield f"{name}Object's {name} is not {name}"
    if schemas["conversion"]["properties"]["legs"] != schemas["rate"]["properties"]["legs"]:
        yield "the legs of conversion are not rate's"
    if schemas["warnings"]["items"] != schemas["warning"]:
        yield "the items of warnings are not warning"
    for name in ("rate", "rates", "conversion", "series", "stats"):
        if schemas[name]["properties"].get("warnings") != schemas["warnings"]:
            yield f"the warnings of {name} are not warnings"
        if schemas[name]["properties"].get("asOf") != schemas["rate"]["properties"]["asOf"]:
            yield f"the asOf of {name} is not rate's"


def contains_key(value, key):
    if isinstance(value, dict):
        return key in value or any(contains_key(item, key) for item in value.values())
    if isinstance(value, list):
        return any(contains_key(item, key) for item in value)
    return False


# MARK: Strict JSON

class Strictness(ValueError):
    pass


def unique_keys(pairs):
    out = {}
    for key, value in pairs:
        if key in out:
            raise Strictness(f"the key {key!r} is twice in one object")
        out[key] = value
    return out


def reject_constant(name):
    raise Strictness(f"{name} is not JSON")


def decimal_number(text):
    if "e" in text or "E" in text:
        raise Strictness(f"the number {text} has an exponent")
    return Decimal(text)


def strict_json(text):
    """One JSON value, strictly: no duplicate keys, NaN or exponents; numbers as decimals."""
    return json.loads(text, object_pairs_hook=unique_keys, parse_constant=reject_constant,
                      parse_float=decimal_number)


# MARK: The store, and random questions about it

class Store:
    """What the queries draw from: the store's currencies, days and import moments."""

    def __init__(self, binary, path, env):
        def ask(*args):
            done = subprocess.run([binary, *args, "--format", "json", "--store", path], capture_output=True,
                                  text=True, env=env, timeout=120)
            if done.returncode not in (0, 1):
                raise SystemExit(f"answer_schema_check: {' '.join(args)} failed on {path}: {done.stderr.strip()}")
            return json.loads(done.stdout) if done.stdout.strip() else None

        listed = ask("currencies")
        self.currencies = [entry["code"] for entry in listed]
        self.spans = {entry["code"]: (day(entry["firstDay"]), day(entry["lastDay"])) for entry in listed}
        status = ask("status")
        self.first = day(status["firstDay"]) if status["firstDay"] else datetime.date(2019, 1, 2)
        self.last = day(status["lastDay"]) if status["lastDay"] else datetime.date(2026, 9, 30)
        self.corrections = ask("corrections")
        moments = []
        if status["lastImport"]:
            moments += [status["lastImport"]["startedAt"], status["lastImport"]["finishedAt"]]
        moments += [entry["correctedAt"] for entry in self.corrections]
        self.moments = sorted({moment(text) for text in moments if text})


def day(text):
    return datetime.date.fromisoformat(text)


def moment(text):
    return datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))


def stamp(when):
    text = when.astimezone(datetime.timezone.utc).isoformat(timespec="milliseconds")
    return text.replace("+00:00", "Z")


class Questions:
    """Seeded random queries, each a command and its parameters by their /api/ names."""

    def __init__(self, store, rng, duplicates, as_of_share=0.04):
        self.store, self.rng, self.duplicates, self.as_of_share = store, rng, duplicates, as_of_share
        # Most questions have an answer: currencies the store has on the days asked, well-formed
        # values; the others may ask anything.
        self.friendly = rng.random() < 0.6
        self.span = None  # the days a friendly question's currencies must have rates on

    def pick(self, weighted):
        return self.rng.choices([value for value, _ in weighted], [weight for _, weight in weighted])[0]

    def code(self):
        rng = self.rng
        if self.friendly:
            first, last = self.span or (self.store.last, self.store.last)
            alive = [code for code, (start, end) in self.store.spans.items() if start <= first and end >= last]
            if alive and rng.random() < 0.93:
                return rng.choice(alive)
            return rng.choice(["EUR", rng.choice(LEGACY)])
        kind = self.pick([("store", 70), ("legacy", 8), ("euro", 5), ("unknown", 6), ("lower", 6),
                          ("malformed", 5)])
        if kind == "store" and self.store.currencies:
            return rng.choice(self.store.currencies)
        if kind == "legacy":
            return rng.choice(LEGACY)
        if kind == "unknown":
            return rng.choice(UNKNOWN)
        if kind == "lower" and self.store.currencies:
            return rng.choice(self.store.currencies).lower()
        if kind == "malformed":
            return rng.choice(MALFORMED)
        return "EUR"

    def codes(self, most=4, distinct=None):
        count = self.pick([(1, 45), (2, 25), (3, 15), (most, 10), (8, 5)])
        codes = [self.code() for _ in range(count)]
        if distinct is None:
            distinct = not self.duplicates
        if distinct:
            seen, unique = set(), []
            for code in codes:
                if code.upper() not in seen:
                    seen.add(code.upper())
                    unique.append(code)
            codes = unique
        return ",".join(codes)

    def day(self):
        rng, store = self.rng, self.store
        if self.friendly:
            kind = self.pick([("inside", 65), ("weekend", 15), ("recent", 12), ("holiday", 8)])
        else:
            kind = self.pick([("inside", 50), ("weekend", 10), ("recent", 12), ("holiday", 6), ("before", 6),
                              ("after", 8), ("malformed", 5), ("impossible", 3)])
        if kind == "weekend":
            span = max(1, (store.last - store.first).days - 7)
            inside = store.first + datetime.timedelta(days=7 + rng.randrange(span))
            return inside - datetime.timedelta(days=(inside.weekday() - rng.choice([5, 6])) % 7)
        if kind == "inside":
            return (store.first + datetime.timedelta(days=rng.randrange((store.last - store.first).days + 1)))
        if kind == "recent":
            return store.last - datetime.timedelta(days=rng.randrange(0 if self.friendly else -10, 40))
        if kind == "holiday":
            year = rng.randrange(store.first.year, store.last.year + 1)
            holiday = rng.choice([datetime.date(year, 12, 25), datetime.date(year, 12, 26),
                                  datetime.date(year, 1, 1), datetime.date(year, 5, 1),
                                  easter(year) - datetime.timedelta(days=2), easter(year) + datetime.timedelta(days=1)])
            return min(max(holiday, store.first + datetime.timedelta(days=14)), store.last) if self.friendly \
                else holiday
        if kind == "before":
            return store.first - datetime.timedelta(days=rng.randrange(1, 4000))
        if kind == "after":
            return store.last + datetime.timedelta(days=rng.randrange(1, 400))
        if kind == "malformed":
            return rng.choice(["2024-13-01", "24-03-28", "2024/03/28", "yesterday"])
        return rng.choice(["2024-02-30", "2023-02-29", "2025-04-31"])

    def text_day(self):
        value = self.day()
        return value if isinstance(value, str) else value.isoformat()

    def range(self):
        """from and to: short ranges mostly, a few long ones, some open or reversed."""
        rng = self.rng
        start = self.day()
        if isinstance(start, str):
            return start, None
        kind = self.pick([("short", 55), ("long", 15), ("from", 10), ("to", 10),
                          ("reversed", 0 if self.friendly else 5), ("end", 5)])
        if kind == "short":
            return start.isoformat(), (start + datetime.timedelta(days=rng.randrange(0, 60))).isoformat()
        if kind == "long":
            return start.isoformat(), (start + datetime.timedelta(days=rng.randrange(60, 1500))).isoformat()
        if kind == "from":
            return (self.store.last - datetime.timedelta(days=rng.randrange(0, 200))).isoformat(), None
        if kind == "to":
            return None, start.isoformat()
        if kind == "reversed":
            return start.isoformat(), (start - datetime.timedelta(days=rng.randrange(1, 30))).isoformat()
        # Reaching past the store's newest day (stale stores: --partial matters).
        return (self.store.last - datetime.timedelta(days=rng.randrange(0, 30))).isoformat(), \
            (self.store.last + datetime.timedelta(days=rng.randrange(1, 90))).isoformat()

    def around(self, text):
        """A friendly question about `text`: its currencies have rates on the days around it."""
        try:
            asked = day(text)
        except ValueError:
            return
        self.span = (asked - datetime.timedelta(days=7), min(asked, self.store.last))

    def cover(self, start, end, default_start):
        """A friendly question about a range: its currencies have rates through all of it."""
        try:
            last = min(day(end), self.store.last) if end else self.store.last
            first = day(start) if start else (default_start or last - datetime.timedelta(days=365))
        except ValueError:
            return
        self.span = (max(first, self.store.first), last)

    def as_of(self):
        """Rarely (an as-of store is built in memory: seconds): a moment of the store's history."""
        rng = self.rng
        if rng.random() >= self.as_of_share:
            return None
        now = datetime.datetime.now(datetime.timezone.utc)
        kind = self.pick([("now", 30), ("import", 30), ("day", 15), ("before", 10), ("future", 10),
                          ("malformed", 5)])
        if kind == "import" and self.store.moments:
            base = rng.choice(self.store.moments)
            return stamp(base + datetime.timedelta(seconds=rng.choice([-1, 1, 2, 0.5])))
        if kind == "day":
            return (now.date() - datetime.timedelta(days=rng.randrange(0, 3))).isoformat()
        if kind == "before":
            return self.text_day()
        if kind == "future":
            return stamp(now + datetime.timedelta(days=rng.randrange(1, 30)))
        if kind == "malformed":
            return rng.choice(["2026-10-01T25:00:00Z", "now", "2026-10-01 12:00"])
        return stamp(now - datetime.timedelta(seconds=2))

    def amount(self):
        rng = self.rng
        kind = self.pick([("whole", 30), ("cents", 30), ("fraction", 15), ("negative", 10), ("zero", 3),
                          ("large", 7), ("malformed", 5)])
        if kind == "whole":
            return str(rng.randrange(1, 10 ** rng.randrange(1, 10)))
        if kind == "cents":
            return f"{rng.randrange(0, 100000)}.{rng.randrange(0, 100):02d}"
        if kind == "fraction":
            places = rng.randrange(1, 15)
            return f"{rng.randrange(0, 1000)}.{rng.randrange(0, 10 ** places):0{places}d}"
        if kind == "negative":
            return f"-{rng.randrange(0, 1000)}.{rng.randrange(0, 100):02d}"
        if kind == "zero":
            return rng.choice(["0", "0.00", "-0"])
        if kind == "large":
            digits = rng.randrange(15, 31)
            return str(rng.randrange(10 ** (digits - 1), 10 ** digits))
        return rng.choice(["1e5", "abc", "1,5", "12a", "1.2.3", "0x10"])

    def question(self):
        rng = self.rng
        command = self.pick([("rate", 24), ("convert", 18), ("latest", 10), ("series", 18), ("stats", 12),
                             ("currencies", 4), ("corrections", 6), ("status", 8)])
        p = {}

        def maybe(share):
            return rng.random() < share

        if command == "rate":
            if maybe(0.7):
                p["date"] = self.text_day()
                self.around(p["date"])
            if maybe(0.85):
                p["currencies"] = self.codes()
            if maybe(0.35):
                p["base"] = self.code()
            if maybe(0.4):
                p["fallback"] = rng.choice(FALLBACKS + ["sideways"] if maybe(0.05) else FALLBACKS)
            p["as_of"] = self.as_of()
        elif command == "convert":
            if maybe(0.7):
                p["date"] = self.text_day()
                self.around(p["date"])
            p["amount"], p["from"], p["to"] = self.amount(), self.code(), self.code()
            if maybe(0.35):
                p["precision"] = str(rng.choice(list(range(0, 21)) + [21, -1] if maybe(0.1) else range(0, 21)))
            if maybe(0.4):
                p["fallback"] = rng.choice(FALLBACKS)
            p["as_of"] = self.as_of()
        elif command == "latest":
            if maybe(0.4):
                p["date"] = self.text_day()
                self.around(p["date"])
            if maybe(0.6):
                p["currencies"] = self.codes(most=6)
            if maybe(0.35):
                p["base"] = self.code()
        elif command == "series":
            p["from"], p["to"] = self.range()
            self.cover(p["from"], p["to"], default_start=None)
            p["currencies"] = self.codes(most=3)
            if maybe(0.3):
                p["base"] = self.code()
            if maybe(0.5):
                p["group"] = rng.choice(GROUPS)
                if maybe(0.6):
                    p["statistic"] = rng.choice(STATISTICS)
            elif maybe(0.03):
                p["statistic"] = rng.choice(STATISTICS)  # without --group: refused
            if maybe(0.4):
                p["partial"] = True
            p["as_of"] = self.as_of()
        elif command == "stats":
            p["from"], p["to"] = self.range()
            self.cover(p["from"], p["to"], default_start=self.store.first)
            p["currency"] = self.code()
            if maybe(0.3):
                p["base"] = self.code()
            if maybe(0.4):
                p["partial"] = True
            p["as_of"] = self.as_of()
        elif command == "corrections":
            if maybe(0.4):
                corrected = [entry["currency"] for entry in self.store.corrections]
                p["currency"] = rng.choice(corrected) if corrected and maybe(0.6) else self.code()
            if maybe(0.4):
                corrected = [entry["day"] for entry in self.store.corrections]
                p["since"] = rng.choice(corrected) if corrected and maybe(0.5) else self.text_day()
        elif command == "status":
            if maybe(0.4):
                p["max_age"] = str(rng.choice([0, 1, 3, 30, 10000]))
        return command, {key: value for key, value in p.items() if value is not None}


def easter(year):
    """Gregorian Easter Sunday (Meeus)."""
    a, b, c = year % 19, year // 100, year % 100
    d, e = b // 4, b % 4
    g = (8 * b + 13) // 25
    h = (19 * a + b - d - g + 15) % 30
    i, k = c // 4, c % 4
    l = (32 + 2 * e + 2 * i - h - k) % 7  # noqa: E741
    m = (a + 11 * h + 22 * l) // 451
    month, date = divmod(h + l - 7 * m + 114, 31)
    return datetime.date(year, month, date + 1)


# MARK: The question as a command line, an /api/ target, an MCP tool call

OPTIONS = {"date": "--date", "base": "--base", "fallback": "--fallback", "as_of": "--as-of",
           "precision": "--precision", "from": "--from", "to": "--to", "group": "--group",
           "statistic": "--statistic", "since": "--since", "max_age": "--max-age-days"}


def command_line(binary, store, command, p):
    argv = [binary, command]
    if command == "rate" and "currencies" in p:
        argv.append(p["currencies"])
    if command == "convert":
        argv += [p["amount"], p["from"], p["to"]]
    if command == "series":
        argv.append(p["currencies"])
    if command == "stats":
        argv.append(p["currency"])
    for key, value in p.items():
        if key in OPTIONS and not (command == "convert" and key in ("from", "to")):
            argv += [OPTIONS[key], value]
    if command == "latest" and "currencies" in p:
        argv += ["--currencies", p["currencies"]]
    if command == "corrections" and "currency" in p:
        argv += ["--currency", p["currency"]]
    if p.get("partial"):
        argv.append("--partial")
    return argv + ["--format", "json", "--store", store]


def api_target(command, p):
    """The /api/ request of a question (None for what /api/ does not ask: latest's date, status' check)."""
    params = {key: ("true" if value is True else value) for key, value in p.items() if key != "max_age"}
    if command == "latest":
        params.pop("date", None)
    return f"/api/{command}" + ("?" + urllib.parse.urlencode(params) if params else "")


def mcp_arguments(command, p):
    arguments = {}
    for key, value in p.items():
        if key == "max_age" or (command == "latest" and key == "date") or command not in MCP_TOOLS:
            continue
        if key == "precision":
            try:
                arguments[key] = int(value)
            except ValueError:
                arguments[key] = value
        elif key == "currencies" and "," in value and len(value) % 2:
            arguments[key] = value.split(",")  # sometimes a list, sometimes "USD,JPY"
        else:
            arguments[key] = value
    return arguments


# MARK: Checking

class Report:
    def __init__(self, seed, limit):
        self.seed, self.limit = seed, limit
        self.failures = 0
        self.answers, self.errors, self.codes, self.warnings, self.shapes = {}, {}, {}, {}, {}
        self.cases = 0

    def fail(self, case, where, what, detail, output=""):
        self.failures += 1
        if self.failures > self.limit:
            return
        print(f"FAIL [{where}] seed {self.seed} case {case} (--seed {self.seed} --only {case}): {what}")
        print(f"  {detail}")
        if output:
            shown = output if len(output) < 1500 else output[:1500] + f"… ({len(output)} characters)"
            print("  output: " + shown.replace("\n", "\n          "))

    def count(self, table, key):
        table[key] = table.get(key, 0) + 1


def schema_errors(validator, value):
    errors = sorted(validator.iter_errors(value), key=lambda e: list(e.absolute_path))
    return [f"at /{'/'.join(str(part) for part in error.absolute_path)}: {error.message[:300]}" for error in errors[:3]]


def shapes(answer):
    """The optional parts an answer shows (to see that a run met each of them)."""
    seen = set()

    def walk(value, parent):
        if isinstance(value, list):
            for item in value:
                walk(item, parent)
            return
        if not isinstance(value, dict):
            return
        for key, item in value.items():
            if key in ("asOf", "warnings", "throughEuro", "fixed", "currencyDays"):
                seen.add(key)
            if key in ("asked", "reason", "interpolatedBetween", "group", "error") and item is not None:
                seen.add(key)
            if parent == "rows" and key == "days":
                seen.add("grouped rows")
            if parent == "rows" and item is None:
                seen.add("null figure")
            if key == "published" and len(item) == 2:
                seen.add("interpolated leg")
            if key == "legs":
                seen.add(f"{len(item)} legs")
            if key == "complete" and item is False:
                seen.add("incomplete")
            if key == "holes" and item:
                seen.add("holes")
            if key == "lastDay" and item is None:
                seen.add("empty store")
            walk(item, key)

    walk(answer, None)
    if answer == []:
        seen.add("empty list")
    return seen


def consistency(command, p, answer, as_of_key):
    """What the schema cannot say; a list of complaints."""
    out = []
    if isinstance(answer, dict):
        keys = list(answer)
        if as_of_key and (not keys or keys[0] != "asOf"):
            out.append("--as-of was given but asOf is not the answer's first key")
        if not as_of_key and "asOf" in answer:
            out.append("asOf without --as-of")
    if command == "series" and isinstance(answer, dict) and isinstance(answer.get("rows"), list):
        columns = set(answer.get("currencies", []))
        for index, row in enumerate(answer["rows"]):
            codes = {key for key in row if key not in ("date", "days", "currencyDays")}
            if codes != columns:
                out.append(f"row {index} has the currencies {sorted(codes)}, not {sorted(columns)}")
                break
            if ("days" in row) != (answer.get("group") is not None):
                out.append(f"row {index}: days is there exactly when grouped")
                break
    if command in ("series", "stats") and isinstance(answer, dict) and "complete" in answer:
        if answer["complete"] != (answer.get("missing") == []):
            out.append("complete is not (missing is empty)")
    if command == "rate" and isinstance(answer, dict):
        one = "currencies" in p and len(p["currencies"].split(",")) == 1
        if one != ("currency" in answer):
            out.append(f"{'one code' if one else 'several or no codes'} answered "
                       f"{'a single rate' if 'currency' in answer else 'a rates object'}")
    return out


def check_cli(report, validators, case, binary, store, env, command, p):
    argv = command_line(binary, store, command, p)
    shown = (f"ECBRATES_NOW={env['ECBRATES_NOW']} " if "ECBRATES_NOW" in env else "") + shlex.join(argv)
    try:
        done = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=180)
    except subprocess.TimeoutExpired:
        report.fail(case, "cli", "no answer in 180 s", shown)
        return
    out, err, status = done.stdout, done.stderr, done.returncode
    warning_lines = [line[len("warning: "):] for line in err.splitlines() if line.startswith("warning: ")]
    other_lines = [line for line in err.splitlines() if not line.startswith("warning: ")]

    if status < 0 or status >= 128:
        report.fail(case, "cli", f"ended by a signal (exit {status})", shown, err[:600])
        return
    # An answer on standard output (status --max-age-days also prints it when it exits 1).
    answer = None
    if status == 0 or (command == "status" and out):
        try:
            if not out.endswith("\n") or out.count("\n") != 1:
                raise Strictness("the answer is not one line")
            answer = strict_json(out)
        except ValueError as error:
            report.fail(case, "cli", f"standard output is not one strict JSON document: {error}", shown, out)
            return
        name = SCHEMA_OF[command]
        problems = schema_errors(validators[name], answer)
        if command == "rate" and not problems:
            one = "currencies" in p and len(p["currencies"].split(",")) == 1
            name = "rate" if one else "rates"
            problems = schema_errors(validators[name], answer)
        if problems:
            report.fail(case, "cli", f"the answer is not valid against {name}", shown + "\n  " +
                        "\n  ".join(problems), out)
            return
        complaints = consistency(command, p, answer, "as_of" in p and isinstance(answer, dict))
        given = [w["message"] for w in answer.get("warnings", [])] if isinstance(answer, dict) else []
        if status == 0 and given != warning_lines:
            complaints.append(f"warnings {given} are not the warning lines on standard error {warning_lines}")
        if complaints:
            report.fail(case, "cli", "the answer is inconsistent", shown + "\n  " + "\n  ".join(complaints), out)
            return
        for warning in answer.get("warnings", []) if isinstance(answer, dict) else []:
            report.count(report.warnings, warning["code"])
        for shape in shapes(answer):
            report.count(report.shapes, shape)
        if status == 0:
            if other_lines:
                report.fail(case, "cli", "exit 0 with more than warnings on standard error", shown, err)
                return
            report.count(report.answers, "cli " + command)
            return
    elif out:
        report.fail(case, "cli", f"exit {status} with an answer on standard output", shown, out)
        return
    # An error: each line of standard error that is not a warning is one ErrorAnswer.
    if not other_lines:
        report.fail(case, "cli", f"exit {status} without a JSON error on standard error", shown, err)
        return
    for line in other_lines:
        try:
            error = strict_json(line)
        except ValueError as problem:
            report.fail(case, "cli", f"a line of standard error is not strict JSON: {problem}", shown, err)
            return
        problems = schema_errors(validators["error"], error)
        if problems:
            report.fail(case, "cli", "the error is not valid against error", shown + "\n  " + "\n  ".join(problems),
                        line)
            return
        if error["exitStatus"] != status:
            report.fail(case, "cli", f"exitStatus {error['exitStatus']} but the exit status is {status}", shown,
                        line)
            return
        report.count(report.codes, "cli " + error["code"])
    report.count(report.errors, "cli " + command)


class Server:
    """`ecbrates serve` on a free loopback port."""

    def __init__(self, binary, store, env):
        # It says where it listens on standard error, then logs each request there: a file.
        self.log = tempfile.TemporaryFile(mode="w+")
        self.process = subprocess.Popen([binary, "serve", "--listen", "127.0.0.1:0", "--store", store],
                                        stdout=subprocess.DEVNULL, stderr=self.log, text=True, env=env)
        found, deadline = None, time.monotonic() + 30
        while not found and time.monotonic() < deadline and self.process.poll() is None:
            time.sleep(0.05)
            self.log.seek(0)
            found = re.search(r"http://(127\.0\.0\.1:\d+)/", self.log.read())
        if not found:
            self.stop()
            self.log.seek(0)
            raise SystemExit(f"answer_schema_check: serve did not say where it listens: {self.log.read()!r}")
        self.base = "http://" + found.group(1)

    def get(self, target):
        try:
            with urllib.request.urlopen(self.base + target, timeout=180) as response:
                return response.status, response.headers.get("Content-Type", ""), response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.headers.get("Content-Type", ""), error.read().decode()

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()


def check_api(report, validators, case, server, command, p):
    target = api_target(command, p)
    shown = "GET " + target
    status, media, body = server.get(target)
    if not media.startswith("application/json"):
        report.fail(case, "api", f"{status} with Content-Type {media!r}", shown, body)
        return
    try:
        if not body.endswith("\n") or body.count("\n") != 1:
            raise Strictness("the body is not one line")
        value = strict_json(body)
    except ValueError as error:
        report.fail(case, "api", f"the body is not one strict JSON document: {error}", shown, body)
        return
    if status == 200:
        name = SCHEMA_OF[command]
        problems = schema_errors(validators[name], value)
        problems += consistency(command, p, value, "as_of" in p and isinstance(value, dict)) if not problems else []
        if problems:
            report.fail(case, "api", f"the answer is not valid against {name}", shown + "\n  " + "\n  ".join(problems),
                        body)
            return
        report.count(report.answers, "api " + command)
        return
    problems = schema_errors(validators["serviceError"], value)
    if not problems and value["status"] != status:
        problems = [f"status {value['status']} in a {status} response"]
    if problems:
        report.fail(case, "api", "the error is not valid against serviceError", shown + "\n  " +
                    "\n  ".join(problems), body)
        return
    report.count(report.errors, "api " + command)
    report.count(report.codes, "api " + value["code"])


class MCPClient:
    """`ecbrates mcp`, one JSON-RPC message a line."""

    def __init__(self, binary, store, env):
        self.process = subprocess.Popen([binary, "mcp", "--store", store], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
        self.next = 0
        hello = self.request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                            "clientInfo": {"name": "answer_schema_check", "version": "1"}})
        if "result" not in hello:
            raise SystemExit(f"answer_schema_check: mcp did not initialize: {hello}")
        self.process.stdin.write(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}) + "\n")

    def request(self, method, params):
        self.next += 1
        self.process.stdin.write(json.dumps({"jsonrpc": "2.0", "id": self.next, "method": method,
                                             "params": params}) + "\n")
        self.process.stdin.flush()
        ready, _, _ = select.select([self.process.stdout], [], [], 180)
        line = self.process.stdout.readline() if ready else ""
        if not line:
            raise RuntimeError("no answer from mcp")
        return json.loads(line, parse_float=Decimal)

    def stop(self):
        self.process.stdin.close()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()


def check_mcp(report, validators, case, client, command, p, modern):
    arguments = mcp_arguments(command, p)
    params = {"name": command, "arguments": arguments}
    if modern:
        params["_meta"] = {"io.modelcontextprotocol/protocolVersion": MCP_MODERN}
    shown = "tools/call " + json.dumps(params)
    where = "mcp " + (MCP_MODERN if modern else "handshake")
    try:
        message = client.request("tools/call", params)
    except (RuntimeError, ValueError) as error:
        report.fail(case, where, f"no JSON-RPC answer: {error}", shown)
        return
    result = message.get("result")
    if not isinstance(result, dict):
        report.fail(case, where, "no result", shown, json.dumps(message, default=str))
        return
    if result.get("isError"):
        # The failure as /api/ answers it (`{"message","status","code"}`), its message the text.
        error = result.get("structuredContent")
        problems = schema_errors(validators["serviceError"], error)
        content = result.get("content")
        if not problems and not (isinstance(content, list) and content and isinstance(content[0], dict)
                                 and content[0].get("text") == error["message"]):
            problems = ["the text content is not structuredContent's message"]
        if problems:
            report.fail(case, where, "the error result is not valid against serviceError", shown + "\n  " +
                        "\n  ".join(problems), json.dumps(result, default=str))
            return
        report.count(report.errors, where + " " + command)
        report.count(report.codes, where.split()[0] + " " + error["code"])
        return
    structured = result.get("structuredContent")
    content = result.get("content")
    if not (isinstance(content, list) and content and isinstance(content[0], dict) and "text" in content[0]):
        report.fail(case, where, "a result without its text content", shown, json.dumps(result, default=str))
        return
    text = content[0]["text"]
    name = MCP_TOOLS[command]
    listed = name.endswith("Object")  # a list answer, under the tool's name before 2026-07-28
    if modern and listed:
        name = command  # 2026-07-28: structuredContent may be any JSON value
    try:
        strict = strict_json(text)
    except ValueError as error:
        report.fail(case, where, f"the text is not strict JSON: {error}", shown, text)
        return
    problems = schema_errors(validators[name], structured)
    expected = {command: strict} if listed and not modern else strict
    if not problems and structured != expected:
        problems = ["structuredContent is not the text's JSON"]
    if problems:
        report.fail(case, where, f"structuredContent is not valid against {name}", shown + "\n  " +
                    "\n  ".join(problems), text)
        return
    report.count(report.answers, where + " " + command)


# MARK: Main

def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("binary", help="the ecbrates executable")
    parser.add_argument("store", help="the store the queries ask")
    parser.add_argument("--count", type=int, default=400, help="queries (default 400)")
    parser.add_argument("--seed", type=int, default=None, help="the seed (default: a new one, printed)")
    parser.add_argument("--only", type=int, default=None, help="run only this case of the seed")
    parser.add_argument("--now", default=None, help="ECBRATES_NOW for every process (ISO 8601)")
    parser.add_argument("--schemas", default=DEFAULT_SCHEMA_FILE, help="AnswerSchema.swift")
    parser.add_argument("--api", action="store_true", help="also ask `ecbrates serve` each query as /api/…")
    parser.add_argument("--mcp", action="store_true", help="also ask `ecbrates mcp` each query that is a tool")
    parser.add_argument("--duplicates", action="store_true",
                        help="let a list of codes name a currency twice (series USD,USD crashes the command line)")
    parser.add_argument("--as-of-share", type=float, default=0.04,
                        help="the share of questions asked --as-of (default 0.04: each takes seconds)")
    parser.add_argument("--show", type=int, default=20, help="failures printed in full (default 20)")
    args = parser.parse_args()

    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1, 10 ** 9)
    schemas = read_schemas(args.schemas)
    validators = {name: jsonschema.Draft202012Validator(schema) for name, schema in schemas.items()}
    binary, store = os.path.abspath(args.binary), os.path.abspath(args.store)
    env = dict(os.environ)
    if args.now:
        env["ECBRATES_NOW"] = args.now
    facts = Store(binary, store, env)
    report = Report(seed, args.show)
    server = Server(binary, store, env) if args.api else None
    client = MCPClient(binary, store, env) if args.mcp else None
    started = time.monotonic()
    try:
        for case in range(args.count):
            if args.only is not None and case != args.only:
                continue
            rng = random.Random(f"{seed}:{case}")
            command, p = Questions(facts, rng, args.duplicates, args.as_of_share).question()
            report.cases += 1
            check_cli(report, validators, case, binary, store, env, command, p)
            if server:
                check_api(report, validators, case, server, command, p)
            if client and command in MCP_TOOLS:
                check_mcp(report, validators, case, client, command, p, modern=bool(case % 2))
    finally:
        if server:
            server.stop()
        if client:
            client.stop()

    def listed(table):
        return ", ".join(f"{key} {value}" for key, value in sorted(table.items())) or "none"

    def total(table, front):
        return sum(value for key, value in table.items() if key.startswith(front + " "))

    print(f"answers: {listed(report.answers)}")
    print(f"errors: {listed(report.errors)}")
    print(f"error codes: {listed(report.codes)}")
    print(f"warnings: {listed(report.warnings)}")
    print(f"shapes met (command line): {listed(report.shapes)}")
    fronts = ["cli"] + (["api"] if server else []) + (["mcp"] if client else [])
    checked = "; ".join(f"{front} {total(report.answers, front)} answers, {total(report.errors, front)} errors"
                        for front in fronts)
    print(f"answer_schema_check: {report.cases} queries (seed {seed}, store {store}"
          + (f", ECBRATES_NOW={args.now}" if args.now else "") + f"): {checked} valid; "
          f"{report.failures} failures, {time.monotonic() - started:.0f} s")
    return 1 if report.failures else 0


if __name__ == "__main__":
    sys.exit(main())
