"""Property: `ecbrates convert --input` reads invoice files as spreadsheets write them: fields
separated by commas, semicolons or tabs (found in the header, or named with --delimiter), amounts
in any of the number formats (named with --number-format), and answers every row exactly as an
independent oracle computes it (scripts/rate_oracle.py: expat and fractions, Python's decimal
for the amounts). Without a named format, an amount that could be read two ways is refused,
naming its line and column; so is one that does not fit the format named.

    python3 batch_formats_check.py BINARY STORE HISTORY SEED CASES

Prints "ok CASES cases, ROWS rows, REFUSED refused" or the first failing case with the seed and
case number that rebuild it (and its file, kept), and exits 1.
"""
import csv
import io
import os
import random
import re
import subprocess
import sys
import tempfile
from datetime import date, timedelta
from decimal import Decimal
from fractions import Fraction

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "scripts"))
import rate_oracle  # noqa: E402

BINARY, STORE, HISTORY, SEED, CASES = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
DELIMITERS = {"comma": ",", "semicolon": ";", "tab": "\t"}
FORMATS = [None, "1234.56", "1,234.56", "1'234.56", "1.234,56", "1234,56"]
GROUPS = {"1,234.56": [","], "1'234.56": ["'"], "1.234,56": [".", " ", "\u00a0"]}
CURRENCIES = ["USD", "JPY", "GBP", "CHF", "SEK", "EUR", "HUF", "PLN"]
NOTES = ["", "Rechnung 12", 'say "hi"', "a; b", "a, b", "tab\there", "Müller & Söhne"]
AMBIGUOUS_RE = re.compile(r"-?[0-9]{1,3}(\.[0-9]{3})+")

oracle = rate_oracle.Oracle(rate_oracle.read_history(HISTORY))


def written(value, fmt, rng):
    """`value` (a Decimal) as a spreadsheet in format `fmt` writes it, grouped or not."""
    sign = "-" if value < 0 else ""
    integer, _, fraction = format(abs(value), "f").partition(".")
    decimal_mark = "," if fmt in ("1.234,56", "1234,56") else "."
    group = rng.choice([None] + GROUPS.get(fmt, []))
    if group and len(integer) > 3:
        head = len(integer) % 3 or 3
        integer = integer[:head] + "".join(group + integer[i:i + 3] for i in range(head, len(integer), 3))
    return sign + integer + (decimal_mark + fraction if fraction else "")


def refusal(text, fmt, delimiter):
    """Why the reader must refuse `text` as an amount (None when it reads it)."""
    if fmt is None:
        if "," in text:
            return "ambiguous"
        if delimiter == "semicolon" and AMBIGUOUS_RE.fullmatch(text):
            return "ambiguous"
        return None
    return None


def bad_amount(fmt, rng):
    """An amount the format does not read (for a named format) or that is ambiguous (unnamed)."""
    if fmt is None:
        return rng.choice(["1,234", "1.234,56", "12,5", "1,234.56"]), "ambiguous"
    wrong = {"1234.56": ["1,5", "1.234,56"], "1,234.56": ["1,23", "1.234,56", "12,3456"],
             "1'234.56": ["1'23", "1,5"], "1.234,56": ["1.23,4", "1,234.56", "12.5"],
             "1234,56": ["1.5", "1.234,56"]}[fmt]
    return rng.choice(wrong), "not in the format"


def make_case(index):
    rng = random.Random(f"{SEED}:{index}")
    delimiter = rng.choice(list(DELIMITERS))
    fmt = rng.choice(FORMATS)
    columns = ["date", "amount", "from", "to", "note"]
    rng.shuffle(columns)
    header = [rng.choice([c, c.capitalize(), f" {c} "]) if c != "note" else "Notiz" for c in columns]
    rows, expected = [], []
    for _ in range(rng.randint(1, 25)):
        while True:
            day = date(2023, 1, 1) + timedelta(days=rng.randrange(730))
            source, target = rng.sample(CURRENCIES, 2)
            value = Decimal(rng.randrange(-10**9, 10**9)).scaleb(-rng.choice([0, 1, 2, 2, 3, 4]))
            try:
                result, rate, used = oracle.convert(Fraction(value), source, target, day, "previous")
                break
            except LookupError:
                continue
        text = written(value, fmt, rng)
        values = {"date": day.isoformat(), "amount": text, "from": source, "to": target, "note": rng.choice(NOTES)}
        rows.append([values[c] for c in columns])
        expected.append((refusal(text, fmt, delimiter), result, rate, used))
    if rng.random() < 0.25:
        at = rng.randrange(len(rows))
        text, why = bad_amount(fmt, rng)
        rows[at][columns.index("amount")] = text
        expected[at] = (why, None, None, None)
    named_delimiter = rng.random() < 0.3
    return delimiter, fmt, columns, header, rows, expected, named_delimiter


def render(delimiter, header, rows):
    out = io.StringIO()
    writer = csv.writer(out, delimiter=DELIMITERS[delimiter], lineterminator="\n", quoting=csv.QUOTE_MINIMAL)
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()


def number(text, fmt):
    return Decimal(text.replace(",", ".") if fmt in ("1.234,56", "1234,56") else text)


def check(index, work):
    delimiter, fmt, columns, header, rows, expected, named_delimiter = make_case(index)
    path = os.path.join(work, f"case-{index}.csv")
    with open(path, "w", encoding="utf-8", newline="") as file:
        file.write(render(delimiter, header, rows))
    argv = [BINARY, "convert", "--input", path, "--store", STORE]
    if fmt is not None:
        argv += ["--number-format", fmt]
    if named_delimiter:
        argv += ["--delimiter", delimiter]
    run = subprocess.run(argv, capture_output=True, text=True, env=dict(os.environ, ECBRATES_NOW="2026-10-01T12:00:00Z"))
    first_bad = next((i for i, e in enumerate(expected) if e[0]), None)
    where = f"seed {SEED} case {index} ({delimiter}, format {fmt}, {'named' if named_delimiter else 'found'}): {path}"
    note = f"note: {path} is read as {delimiter}-separated"
    if delimiter != "comma" and not named_delimiter and not run.stderr.startswith(note):
        return f"{where}: the separator found is not said: {run.stderr!r}"
    if first_bad is not None:
        line, column = first_bad + 2, columns.index("amount") + 1
        text = rows[first_bad][columns.index("amount")]
        want = f'Error: {path}:{line}: amount "{text.strip()}" (column {column}) is '
        want += "ambiguous: " if expected[first_bad][0] == "ambiguous" else f"not a number in the format {fmt}"
        if run.returncode != 65 or want not in run.stderr:
            return f"{where}: expected exit 65 and {want!r}, got {run.returncode}: {run.stderr!r}"
        return ("refused", len(rows))
    if run.returncode != 0:
        return f"{where}: exit {run.returncode}: {run.stderr!r}"
    got = list(csv.reader(io.StringIO(run.stdout), delimiter=DELIMITERS[delimiter]))
    if got[0] != header + ["rate", "rate_day", "result"]:
        return f"{where}: header {got[0]!r}"
    if len(got) != len(rows) + 1:
        return f"{where}: {len(got) - 1} rows out, {len(rows)} in"
    for row, out, (_, result, rate, used) in zip(rows, got[1:], expected):
        if out[:len(row)] != row:
            return f"{where}: row changed: {row!r} -> {out!r}"
        got_rate, got_day, got_result = out[len(row):]
        if number(got_result, fmt) != result:
            return f"{where}: {row!r}: result {got_result}, expected {result}"
        if abs(Fraction(number(got_rate, fmt)) - rate) > rate * Fraction(1, 10**19):
            return f"{where}: {row!r}: rate {got_rate}, expected {float(rate)}"
        if got_day != used.isoformat():
            return f"{where}: {row!r}: rate_day {got_day}, expected {used}"
    return ("converted", len(rows))


def main():
    work = tempfile.mkdtemp(prefix="ecbrates-formats-")
    counts = {"converted": 0, "refused": 0, "rows": 0}
    for index in range(CASES):
        outcome = check(index, work)
        if isinstance(outcome, str):
            print(f"FAIL {outcome}\nrebuild: ECBRATES_SEED={SEED}; the file is kept")
            return 1
        counts[outcome[0]] += 1
        counts["rows"] += outcome[1]
    print(f"ok {CASES} cases, {counts['rows']} rows, {counts['refused']} refused")
    return 0


if __name__ == "__main__":
    sys.exit(main())
