#!/usr/bin/env python3
"""Reads an ecbrates store through its SQL views with Python's sqlite3 module, as docs/store.md
shows, and checks them against an ECB XML file read with expat: every (day, currency) of the
file is one row of `rates`, its rate the very text of the file's attribute, and nothing else.

usage: store_views_check.py STORE ECB_XML [EXPECTED_IMPORTS]
Prints what differs and exits 1; prints "ok N rates" and exits 0 when the views agree.
"""
import re
import sqlite3
import sys
import xml.parsers.expat


def published(path):
    rates, day = {}, None

    def start(name, attributes):
        nonlocal day
        if name.endswith("Cube") and "time" in attributes:
            day = attributes["time"]
        elif name.endswith("Cube") and "currency" in attributes:
            rates[(day, attributes["currency"])] = attributes["rate"]

    parser = xml.parsers.expat.ParserCreate(namespace_separator=" ")
    parser.StartElementHandler = start
    with open(path, "rb") as file:
        parser.ParseFile(file)
    return rates


def main():
    store, xml_path = sys.argv[1], sys.argv[2]
    expected_imports = int(sys.argv[3]) if len(sys.argv) > 3 else None
    problems = []
    # Read-only, through a URI, as a reporting tool beside a running import would.
    db = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    rows = db.execute("SELECT day, currency, rate, typeof(day), typeof(currency), typeof(rate) FROM rates").fetchall()
    stored = {}
    for day, currency, rate, *types in rows:
        if types != ["text", "text", "text"]:
            problems.append(f"row {day} {currency}: column types {types}, expected text text text")
        if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", day or ""):
            problems.append(f"row {day!r} {currency}: day is not YYYY-MM-DD")
        if (day, currency) in stored:
            problems.append(f"row {day} {currency} appears twice")
        stored[(day, currency)] = rate
    expected = published(xml_path)
    for key in sorted(expected.keys() - stored.keys())[:5]:
        problems.append(f"{key[0]} {key[1]}: in the file ({expected[key]}), not in the view")
    for key in sorted(stored.keys() - expected.keys())[:5]:
        problems.append(f"{key[0]} {key[1]}: in the view ({stored[key]}), not in the file")
    wrong = [k for k in expected.keys() & stored.keys() if expected[k] != stored[k]]
    for key in sorted(wrong)[:5]:
        problems.append(f"{key[0]} {key[1]}: the view says {stored[key]!r}, the file {expected[key]!r}")
    if wrong:
        problems.append(f"{len(wrong)} rates differ in all")

    imports = db.execute(
        "SELECT id, source, started_at, finished_at, outcome, days, rates, inserted FROM imports ORDER BY id").fetchall()
    if expected_imports is not None and len(imports) != expected_imports:
        problems.append(f"imports has {len(imports)} rows, expected {expected_imports}")
    iso = r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z"
    for id, source, started, finished, outcome, days, count, inserted in imports:
        if not re.fullmatch(iso, started or "") or not re.fullmatch(iso, finished or ""):
            problems.append(f"import {id}: times {started!r} {finished!r} are not ISO 8601 UTC")
        if source == xml_path and (outcome, days, count) != ("succeeded", len({d for d, _ in expected}), len(expected)):
            problems.append(f"import {id} of the file: {outcome}, {days} days, {count} rates; expected succeeded, "
                            f"{len({d for d, _ in expected})} days, {len(expected)} rates")
    if problems:
        print("\n".join(problems))
        return 1
    print(f"ok {len(stored)} rates")
    return 0


if __name__ == "__main__":
    sys.exit(main())
