#!/usr/bin/env python3
"""An independent oracle for ECB euro-reference-rate files (eurofxref XML).

It says what `ecbrates import` must do with a file: either OK, with every day and rate in it, or
ERROR, with the first error (its rule, message and line when known) and the whole days that ended
before it (the days an import stores before it stops). It is written from the rules below, not
from the Swift reader, and parses with expat (Python's standard library) rather than libxml2, so
that the two can disagree. `scripts/fuzz` imports it; run on its own it prints its verdict:

    python3 scripts/ecb_oracle.py FILE [--days]      # JSON on stdout; exit 0 (OK) or 65 (ERROR)

The rules (the numbers appear in the verdicts):
  R0  A UTF-8 byte-order mark is allowed. UTF-16/UTF-32 bytes (a BOM FE FF, FF FE or 00 00 FE FF,
      or a NUL in the first four bytes) are an error, as is an XML declaration whose encoding= is
      anything but UTF-8 (any case).
  R1  A blank file, a file that does not begin with `<` (after white space), any <!DOCTYPE, or a
      document without a root element is an error.
  R2  The root element must be gesmes:Envelope.
  R3  Inside the Envelope, everything except ECB-namespace Cube children of the Envelope is
      ignored with all of its content, but gesmes:Sender, which may hold only gesmes:name
      elements (anything else in it is an error). A gesmes:Envelope anywhere but the root, and
      an ECB Cube inside ignored content, are misplaced: an error (no day is skipped unsaid).
  R4  An ECB Cube child of the Envelope is a wrapper: no attributes, no non-white-space text.
      There may be more than one.
  R5  Each element in a wrapper is an ECB Cube with exactly one attribute, time (a day).
  R6  Each element in a day is an ECB Cube with exactly the attributes currency and rate (a
      rate); a rate Cube is empty; a day holds no non-white-space text. Comments and processing
      instructions are ignored everywhere. (Namespace declarations are not attributes.)
  R7  time is YYYY-MM-DD (ASCII digits), a Gregorian date in years 1...9999, a day the ECB can
      have published: from 1999-01-04 to today, and a TARGET business day (no weekend, no 1 January
      or 25 December; from 2000 no Good Friday, Easter Monday, 1 May or 26 December; until 2001
      no 31 December); a day may not appear
      twice (the error is at the second); a day that ends without rates is an error at its end.
  R8  currency is three ASCII upper-case letters, at most once per day, and not EUR (the rates
      are prices of one euro).
  R9  rate matches [0-9]*(\\.[0-9]*)? with at least one digit, is > 0, and has at most 38 digits
      once the integer part's leading zeros and the fraction's trailing zeros are dropped.
  R10 Whatever expat reports as not well-formed is an error at expat's position.
  R11 A document without any rate is an error.
The first error stops everything. Its line and column (columns count characters, from 1) are
those of the offending byte:
  - an element that does not belong where it is: the `<` of its start tag;
  - an attribute that does not belong: the first byte of its name (the first such attribute in
    the tag; namespace declarations are not attributes);
  - a missing attribute: the `<` of the tag;
  - a wrong value (a day, a currency, a rate, a declared encoding): its first character;
  - text where none may be: its first character that is not white space;
  - a day without rates: the `<` of the tag that ends it (`</Cube>`, or the day's own `<.../>`).
"""
import json
import re
import sys
import xml.parsers.expat
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, timezone
from decimal import Decimal

ECB_NS = "http://www.ecb.int/vocabulary/2002-08-01/eurofxref"
GESMES_NS = "http://www.gesmes.org/xml/2002-08-01"
# With namespace_separator=" ", expat names an element "<namespace URI> <local name>".
CUBE = ECB_NS + " Cube"
ENVELOPE = GESMES_NS + " Envelope"

MAX_DIGITS = 38
XML_SPACE = " \t\r\n"
DAY_RE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")        # [0-9], never \d: ASCII digits only
CURRENCY_RE = re.compile(r"[A-Z]{3}")
RATE_RE = re.compile(r"([0-9]*)(?:\.([0-9]*))?")
UTF8_BOM = b"\xef\xbb\xbf"
ENCODING_RE = re.compile(rb"""\sencoding\s*=\s*(?:"([^"]*)"|'([^']*)')""")
TAG_NAME_RE = re.compile(rb"<[^\s/>]+")
TAG_ATTRIBUTE_RE = re.compile(rb"""\s*([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')""")


@dataclass
class Day:
    day: str                                           # "YYYY-MM-DD"
    rates: dict = field(default_factory=dict)          # currency -> Decimal
    line: int = 0                                      # line of its start tag


@dataclass
class Verdict:
    ok: bool
    days: list            # OK: every day; ERROR: the whole days that ended before the error
    rule: str = None      # ERROR only: "R0"..."R11"
    kind: str = None      # ERROR only: a short name for the error, e.g. "rate-too-long"
    message: str = None
    line: int = None      # ERROR only, when the error has a position (expat's line, 1-based)
    column: int = None    # 1-based
    error_day: str = None  # ERROR only: the day being read when the error happened, if any

    @property
    def rates(self):
        return sum(len(d.rates) for d in self.days)

    @property
    def first_day(self):
        return min((d.day for d in self.days), default=None)

    @property
    def last_day(self):
        return max((d.day for d in self.days), default=None)

    def to_json(self, with_days=False):
        out = {"ok": self.ok, "days": len(self.days), "rates": self.rates,
               "firstDay": self.first_day, "lastDay": self.last_day}
        if self.ok:
            out["currencies"] = sorted({c for d in self.days for c in d.rates})
        else:
            out["error"] = {"rule": self.rule, "kind": self.kind, "line": self.line, "column": self.column,
                            "message": self.message, "day": self.error_day}
        if with_days:
            out["dayList"] = [{"day": d.day, "line": d.line,
                               "rates": {c: str(v) for c, v in d.rates.items()}}
                              for d in self.days]
        return out


class _Stop(Exception):
    """Raised inside an expat handler to stop at the first error."""

    def __init__(self, rule, kind, message, line=None, column=None):
        super().__init__(message)
        self.rule, self.kind, self.message, self.line, self.column = rule, kind, message, line, column


def significant_digits(integer, fraction):
    """R9's digit count: leading zeros of the integer part and trailing zeros of the fraction
    do not count ("0.0001" -> 4, "1.1790" -> 4, "20000" -> 5)."""
    return len(integer.lstrip("0")) + len(fraction.rstrip("0"))


def check_rate(text):
    """(the rate as a Decimal, None), or (None, (kind, reason)) when R9 refuses it."""
    m = RATE_RE.fullmatch(text)
    if not m or not (m.group(1) or m.group(2)):
        return None, ("rate-syntax", f'rate "{text}" is not a decimal number')
    digits = significant_digits(m.group(1), m.group(2) or "")
    if digits > MAX_DIGITS:
        return None, ("rate-too-long", f'rate "{text}" has {digits} significant digits (at most {MAX_DIGITS})')
    value = Decimal(text)
    if value <= 0:
        return None, ("rate-not-positive", f'rate "{text}" is not positive')
    return value, None


def check_day(text):
    """None when `text` is a valid day (R7), else the reason."""
    if DAY_RE.fullmatch(text):
        year, month, day = int(text[0:4]), int(text[5:7]), int(text[8:10])
        if 1 <= year <= 9999:
            try:
                date(year, month, day)
                return None
            except ValueError:
                pass
    return f'day "{text}" is not a calendar date YYYY-MM-DD'


def easter_sunday(year):
    """Easter Sunday (the anonymous Gregorian algorithm)."""
    a, b, c = year % 19, year // 100, year % 100
    d, e = divmod(b, 4)
    f = (b + 8) // 25
    g = (b - f + 1) // 3
    h = (19 * a + b - d - g + 15) % 30
    i, k = divmod(c, 4)
    l = (32 + 2 * e + 2 * i - h - k) % 7
    m = (a + 11 * h + 22 * l) // 451
    month, day = divmod(h + l - 7 * m + 114, 31)
    return date(year, month, day + 1)


def is_target_closing_day(day):
    """Whether the ECB publishes no rates on `day` (a date): weekends and TARGET holidays."""
    if day.weekday() >= 5 or (day.month, day.day) in ((1, 1), (12, 25)):
        return True
    if day.year <= 2001 and (day.month, day.day) == (12, 31):
        return True
    if day.year >= 2000:
        if (day.month, day.day) in ((5, 1), (12, 26)):
            return True
        easter = easter_sunday(day.year)
        if day in (easter - timedelta(days=2), easter + timedelta(days=1)):
            return True
    return False


def frankfurt_today():
    """The calendar day it is in Frankfurt, as ecbrates counts today."""
    try:
        from zoneinfo import ZoneInfo
        return datetime.now(ZoneInfo("Europe/Berlin")).date()
    except Exception:   # no time zone data: CET
        return (datetime.now(timezone.utc) + timedelta(hours=1)).date()


def check_publication_day(text, today=None):
    """None when the ECB can have published rates on the (valid) day `text`, else the reason."""
    day = date.fromisoformat(text)
    today = today or frankfurt_today()
    if day < date(1999, 1, 4):
        return f"day {text} is before 1999-01-04"
    if day > today:
        return f"day {text} is in the future"
    if is_target_closing_day(day):
        return f"day {text} is a TARGET closing day"
    return None


def short_name(name):
    """An expat name "URI local" as {URI}local, for messages."""
    uri, _, local = name.rpartition(" ")
    return f"{{{uri}}}{local}" if uri else local


def line_and_column(data, offset):
    """The line and column (characters, from 1) of byte `offset`; a UTF-8 byte-order mark is not
    a character of the first line."""
    line_start = data.rfind(b"\n", 0, offset) + 1
    if line_start == 0 and data.startswith(UTF8_BOM):
        line_start = len(UTF8_BOM)
    return data.count(b"\n", 0, offset) + 1, len(data[line_start:offset].decode("utf-8", "replace")) + 1


def tag_attributes(data, start):
    """The attributes of the start tag whose `<` is at byte `start`, in the order written:
    (the name as written, the offset of its name, the offset of its value's first character).
    Namespace declarations (xmlns, xmlns:p) are left out, as they are not attributes."""
    m = TAG_NAME_RE.match(data, start)
    found, at = [], m.end() if m else start + 1
    while True:
        a = TAG_ATTRIBUTE_RE.match(data, at)
        if not a:
            return found
        name = a.group(1)
        if name != b"xmlns" and not name.startswith(b"xmlns:"):
            found.append((name.decode("utf-8", "replace"), a.start(1),
                          a.start(2) if a.group(2) is not None else a.start(3)))
        at = a.end()


def _precheck(data):
    """R0 and R1 on the raw bytes, before expat sees them. Returns a _Stop or None."""
    if (data[:2] in (b"\xfe\xff", b"\xff\xfe") or data[:4] == b"\x00\x00\xfe\xff"
            or b"\x00" in data[:4]):
        return _Stop("R0", "utf16-or-32", "the bytes are UTF-16 or UTF-32, not UTF-8")
    body = data[3:] if data.startswith(UTF8_BOM) else data
    if body.startswith(b"<?xml") and body[5:6] in (b" ", b"\t", b"\r", b"\n"):
        end = body.find(b"?>")
        if end != -1:
            m = ENCODING_RE.search(body[:end])
            if m:
                encoding = m.group(1) if m.group(1) is not None else m.group(2)
                if encoding.lower() != b"utf-8":
                    value_at = (m.start(1) if m.group(1) is not None else m.start(2)) + (len(data) - len(body))
                    return _Stop("R0", "declared-encoding", f"the XML declaration says encoding={encoding.decode('latin-1')!r}; "
                                       "only UTF-8 is accepted", *line_and_column(data, value_at))
    stripped = body.lstrip(XML_SPACE.encode())
    if not stripped:
        return _Stop("R1", "blank", "the file is empty (or only white space)")
    if not stripped.startswith(b"<"):
        return _Stop("R1", "not-xml", "the file does not begin with '<': not XML",
                     *line_and_column(data, len(data) - len(stripped)))
    return None


def check(data):
    """The verdict (a Verdict) for the bytes of one file."""
    stop = _precheck(data)
    if stop:
        return Verdict(False, [], stop.rule, stop.kind, stop.message, stop.line, stop.column)

    parser = xml.parsers.expat.ParserCreate(namespace_separator=" ")
    days = []            # whole days, in file order
    seen = {}            # day -> line of its first appearance
    stack = []           # one entry per open element: "envelope", "ignored", "wrapper", "day", "rate"
    current = None       # the Day being read
    day_tag = None       # the byte offset of its start tag

    def here():
        return parser.CurrentLineNumber, parser.CurrentColumnNumber + 1

    def fail(rule, kind, message, position=None):
        line, column = position or here()
        raise _Stop(rule, kind, message, line, column)

    def start(name, attrs):
        nonlocal current, day_tag
        top = stack[-1] if stack else None
        tag_start = parser.CurrentByteIndex
        written = tag_attributes(data, tag_start)

        def tag():
            return line_and_column(data, tag_start)

        def unexpected(allowed):
            """The first attribute written that is not one of `allowed`; the tag when none is."""
            for raw, name_at, _ in written:
                if raw not in allowed:
                    return line_and_column(data, name_at)
            return tag()

        def value(raw_name):
            for raw, _, value_at in written:
                if raw == raw_name:
                    return line_and_column(data, value_at)
            return tag()

        if top is None:
            if name != ENVELOPE:
                fail("R2", "root", f"the root element is {short_name(name)}, not gesmes:Envelope", tag())
            stack.append("envelope")
        elif name == ENVELOPE:
            fail("R3", "misplaced", "a second gesmes:Envelope inside the root", tag())
        elif top == "ignored":
            if name == CUBE:
                fail("R3", "misplaced", "an ECB Cube inside content that is ignored", tag())
            stack.append("ignored")
        elif top == "sender":
            if name != GESMES_NS + " name":
                fail("R3", "sender-content", f"element {short_name(name)} in gesmes:Sender; expected only gesmes:name",
                     tag())
            stack.append("ignored")
        elif top == "envelope":
            if name == GESMES_NS + " Sender":
                stack.append("sender")                       # R3
            elif name != CUBE:
                stack.append("ignored")                      # R3
            elif attrs:
                fail("R4", "wrapper-attribute", f"the wrapper Cube has attributes {sorted(attrs)}", unexpected(()))
            else:
                stack.append("wrapper")
        elif top == "wrapper":
            if name != CUBE:
                fail("R5", "not-a-day", f"element {short_name(name)} inside the wrapper Cube; expected a day Cube", tag())
            if set(attrs) != {"time"}:
                fail("R5", "day-attributes", f"a day Cube must have exactly the attribute time, not {sorted(attrs)}",
                     unexpected(("time",)))
            reason = check_day(attrs["time"])
            if reason:
                fail("R7", "bad-day", reason, value("time"))
            reason = check_publication_day(attrs["time"])
            if reason:
                fail("R7", "not-a-publication-day", reason, value("time"))
            day = attrs["time"]
            if day in seen:
                fail("R7", "day-twice", f"day {day} appears twice (first at line {seen[day]})", value("time"))
            seen[day] = parser.CurrentLineNumber
            current = Day(day, {}, parser.CurrentLineNumber)
            day_tag = tag_start
            stack.append("day")
        elif top == "day":
            where = f"on {current.day}"
            if name != CUBE:
                fail("R6", "not-a-rate", f"element {short_name(name)} inside the day Cube {where}; expected a rate Cube",
                     tag())
            if set(attrs) != {"currency", "rate"}:
                fail("R6", "rate-attributes", f"a rate Cube {where} must have exactly currency and rate, not {sorted(attrs)}",
                     unexpected(("currency", "rate")))
            currency = attrs["currency"]
            if not CURRENCY_RE.fullmatch(currency):
                fail("R8", "bad-currency", f'currency "{currency}" {where} is not three upper-case letters',
                     value("currency"))
            if currency in current.rates:
                fail("R8", "currency-twice", f"{currency} appears twice {where}", value("currency"))
            if currency == "EUR":
                fail("R8", "euro-rate", f"a rate for EUR {where}", value("currency"))
            rate, reason = check_rate(attrs["rate"])
            if reason:
                fail("R9", reason[0], f"{reason[1]} ({currency} {where})", value("rate"))
            current.rates[currency] = rate
            stack.append("rate")
        else:  # top == "rate"
            fail("R6", "rate-content", f"element {short_name(name)} inside a rate Cube on {current.day}; rate Cubes are empty",
                 tag())

    def end(name):
        nonlocal current
        if stack.pop() == "day":
            if not current.rates:
                # The tag that ends the day: `</Cube>` where expat stands, or the day's own `<Cube .../>`.
                at = parser.CurrentByteIndex
                fail("R7", "day-without-rates", f"day {current.day} has no rates",
                     line_and_column(data, at if data.startswith(b"</", at) else day_tag))
            days.append(current)
            current = None

    def text(data):
        if stack and stack[-1] in ("wrapper", "day", "rate"):
            stripped = data.lstrip(XML_SPACE)
            if stripped:
                line, column = here()
                skipped = data[:len(data) - len(stripped)]
                if "\n" in skipped:
                    line += skipped.count("\n")
                    column = len(skipped) - skipped.rfind("\n")
                else:
                    column += len(skipped)
                fail("R4" if stack[-1] == "wrapper" else "R6", f"text-in-{stack[-1]}",
                     f"text {stripped[:20]!r} inside a {stack[-1]} Cube", (line, column))

    def doctype(name, *_):
        fail("R1", "doctype", f"the document declares a DTD (<!DOCTYPE {name}>)")

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = text
    parser.StartDoctypeDeclHandler = doctype
    try:
        parser.Parse(data, True)
    except _Stop as stop:
        return Verdict(False, days, stop.rule, stop.kind, stop.message, stop.line, stop.column,
                       current.day if current else None)
    except xml.parsers.expat.ExpatError as error:
        return Verdict(False, days, "R10", "not-well-formed", f"not well-formed: {xml.parsers.expat.ErrorString(error.code)}",
                       error.lineno, error.offset + 1, current.day if current else None)
    if not days:
        return Verdict(False, [], "R11", "no-rates", "no exchange rates in the document")
    return Verdict(True, days)


def main(argv):
    import argparse
    parser = argparse.ArgumentParser(description="Judge an ECB eurofxref XML file by the oracle's rules.")
    parser.add_argument("file")
    parser.add_argument("--days", action="store_true", help="also list every (stored) day and its rates")
    args = parser.parse_args(argv)
    with open(args.file, "rb") as f:
        verdict = check(f.read())
    print(json.dumps(verdict.to_json(args.days), indent=2))
    return 0 if verdict.ok else 65


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
