#!/usr/bin/env python3
"""An independent calculator for ecbrates's answers: conversions and cross rates on any day.

It reads the ECB's history with expat and computes exactly, in fractions (Python's `fractions`,
from the decimal text of each rate), from the rules below, written from the documentation (README, issue 13), not from the Swift code. It
judges a file of answers that `ecbrates` gave (one tab-separated line per case) and prints each
disagreement; exit 0 when there is none, 1 otherwise:

    python3 scripts/rate_oracle.py HISTORY.xml ANSWERS.tsv [--rate-digits N]

With --rate-digits N, a rate given to N significant digits is accepted (default: 30 digits must
agree, for rates given unrounded).

An answers line: amount, from, to, day asked, fallback, then what ecbrates said: `ok`, the
result, the rate (units of `to` per `from`), the day of the rate; or `error` and its kind (`any`
when only the failure is known, as for a row a batch conversion left out).

The rules:
  1  A rate is units per euro; EUR is 1. A cross rate (or conversion) takes each currency's rate
     (its leg) on its own, then divides: amount x to / from, exactly; the result is rounded once,
     half away from zero, to the target's minor units (0 for JPY, KRW, ISK, TRL; else 2).
  2  A day before the first day of the history is `beforeFirstDay`, unless the fallback is next
     or nearest and the first day is at most 14 days after it (then rule 5 answers).
  3  A currency on a day inside one of its ends or gaps (the table below) has no rate:
     `notQuoted`, whatever the fallback.
  4  On a day the ECB published, a currency has its published rate, or none (`notQuoted`).
  5  On a day it did not publish: fallback `none` is `noRateOnDay`. Otherwise take P, the last
     publication in the 14 days before, and N, the first in the 14 days after; a side counts only
     if the currency is in it and no end or gap of the currency lies between it and the day.
     previous: P; next: N; nearest: the nearer (P on a tie); interpolate: the straight line
     between P and N by days. A missing side is `notQuoted`, except that for next and
     interpolate a day after the newest publication, with no publication after it, is
     `notYetPublished`: nothing later is out yet.
  6  The day of the answer is the day of the leg that is not the euro's (`to`'s when neither
     is): the day published, or the day asked for when interpolated (or fixed, rule 7).
  7  A currency the euro replaced has, from the day its country joined, the irrevocable
     conversion rate (Council Regulation (EC) 2866/98 and its successors; the table below),
     whatever the fallback and whatever the store holds; rules 2 to 5 do not apply to that leg.
     Between two such currencies (Regulation (EC) 1103/97, article 4), the amount goes through
     the euro: amount / from, rounded half up to three decimals, then x to, rounded as rule 1.
"""
import sys
import xml.parsers.expat
from datetime import date, timedelta
from decimal import Decimal
from fractions import Fraction

CUBE = "http://www.ecb.int/vocabulary/2002-08-01/eurofxref Cube"
WINDOW = 14
ZERO_DECIMALS = {"JPY", "KRW", "ISK", "TRL"}

# Ends and gaps, as the ECB announced them: (currency, first day without a rate, last such day).
ENDS = [
    ("GRD", "2001-01-01", None), ("SIT", "2007-01-01", None), ("CYP", "2008-01-01", None),
    ("MTL", "2008-01-01", None), ("SKK", "2009-01-01", None), ("EEK", "2011-01-01", None),
    ("LVL", "2014-01-01", None), ("LTL", "2015-01-01", None), ("HRK", "2023-01-01", None),
    ("BGN", "2026-01-01", None), ("TRL", "2005-01-01", None), ("ROL", "2005-07-01", None),
    ("RUB", "2022-03-02", None), ("ISK", "2008-12-10", "2018-01-31"),
]
ENDS = [(c, date.fromisoformat(a), date.fromisoformat(b) if b else date.max) for c, a, b in ENDS]

# The euro's conversion rates of the currencies it replaced: units per euro, from the day.
FIXED = {c: (Fraction(Decimal(r)), date.fromisoformat(d)) for c, r, d in [
    ("BEF", "40.3399", "1999-01-01"), ("DEM", "1.95583", "1999-01-01"), ("ESP", "166.386", "1999-01-01"),
    ("FRF", "6.55957", "1999-01-01"), ("IEP", "0.787564", "1999-01-01"), ("ITL", "1936.27", "1999-01-01"),
    ("LUF", "40.3399", "1999-01-01"), ("NLG", "2.20371", "1999-01-01"), ("ATS", "13.7603", "1999-01-01"),
    ("PTE", "200.482", "1999-01-01"), ("FIM", "5.94573", "1999-01-01"), ("GRD", "340.750", "2001-01-01"),
    ("SIT", "239.640", "2007-01-01"), ("CYP", "0.585274", "2008-01-01"), ("MTL", "0.429300", "2008-01-01"),
    ("SKK", "30.1260", "2009-01-01"), ("EEK", "15.6466", "2011-01-01"), ("LVL", "0.702804", "2014-01-01"),
    ("LTL", "3.45280", "2015-01-01"), ("HRK", "7.53450", "2023-01-01"), ("BGN", "1.95583", "2026-01-01")]}


def fixed(code, day):
    """The conversion rate of `code` on `day` (rule 7), or None."""
    entry = FIXED.get(code)
    return entry[0] if entry and day >= entry[1] else None


def half_away(value, places):
    """`value` (a Fraction) rounded half away from zero to `places`, as a Decimal."""
    scaled = abs(value) * 10 ** places
    units = (scaled.numerator * 2 + scaled.denominator) // (2 * scaled.denominator)
    return Decimal(units if value >= 0 else -units).scaleb(-places)


def read_history(path):
    """{day: {currency: Decimal}} from an eurofxref file."""
    days, current = {}, [None]
    parser = xml.parsers.expat.ParserCreate(namespace_separator=" ")

    def start(name, attributes):
        if name != CUBE:
            return
        if "time" in attributes:
            current[0] = days.setdefault(date.fromisoformat(attributes["time"]), {})
        elif "currency" in attributes:
            current[0][attributes["currency"]] = Fraction(Decimal(attributes["rate"]))

    parser.StartElementHandler = start
    with open(path, "rb") as file:
        parser.ParseFile(file)
    return days


class Oracle:
    def __init__(self, days):
        self.days = days
        self.first, self.last = min(days), max(days)

    def ended(self, code, low, high):
        return any(c == code and start <= high and low <= end for c, start, end in ENDS)

    def side(self, code, day, step):
        for offset in range(1, WINDOW + 1):
            other = day + timedelta(days=step * offset)
            if other in self.days:
                rate = self.days[other].get(code)
                if rate is None or self.ended(code, min(other, day), max(other, day)):
                    return None, True
                return (other, rate), True
        return None, False

    def leg(self, code, day, fallback):
        """(rate per euro, day) or raises the error kind."""
        if code == "EUR":
            return Fraction(1), day
        if fixed(code, day) is not None:
            return fixed(code, day), day
        if self.ended(code, day, day):
            raise LookupError("notQuoted")
        if day in self.days:
            if code in self.days[day]:
                return self.days[day][code], day
            raise LookupError("notQuoted")
        if fallback == "none":
            raise LookupError("noRateOnDay")
        before, _ = self.side(code, day, -1)
        after, after_exists = self.side(code, day, +1)
        if fallback in ("next", "interpolate") and not after_exists and day > self.last:
            raise LookupError("notYetPublished")
        if fallback == "previous" and before:
            return before[1], before[0]
        if fallback == "next" and after:
            return after[1], after[0]
        if fallback == "nearest" and (before or after):
            if before and (not after or (day - before[0]) <= (after[0] - day)):
                return before[1], before[0]
            return after[1], after[0]
        if fallback == "interpolate":
            if before and after:
                span, offset = (after[0] - before[0]).days, (day - before[0]).days
                return before[1] + (after[1] - before[1]) * offset / span, day
        raise LookupError("notQuoted")

    def convert(self, amount, source, target, day, fallback):
        stored = [c for c in (target, source) if c != "EUR" and fixed(c, day) is None]
        if stored and day < self.first and not (fallback in ("next", "nearest") and (self.first - day).days <= WINDOW):
            raise LookupError("beforeFirstDay")
        to_rate, to_day = self.leg(target, day, fallback)
        from_rate, from_day = self.leg(source, day, fallback)
        rate = to_rate / from_rate
        places = 0 if target in ZERO_DECIMALS else 2
        if fixed(source, day) is not None and fixed(target, day) is not None:
            # Rule 7: through the euro, rounded to three decimals on the way.
            euro = Fraction(half_away(amount / from_rate, 3))
            result = half_away(euro * to_rate, places)
        else:
            # One rounding of the exact value, half away from zero.
            result = half_away(amount * rate, places)
        lead_day = from_day if target == "EUR" and source != "EUR" else to_day
        return result, rate, lead_day


def main(argv):
    tolerance = Decimal("1e-30")
    if len(argv) == 5 and argv[3] == "--rate-digits":
        tolerance = Decimal(1).scaleb(1 - int(argv[4])) / 2
        argv = argv[:3]
    if len(argv) != 3:
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 64
    oracle = Oracle(read_history(argv[1]))
    cases = failures = 0
    for number, line in enumerate(open(argv[2], encoding="utf-8"), 1):
        fields = line.rstrip("\n").split("\t")
        amount, source, target, asked, fallback, status = fields[:6]
        cases += 1
        try:
            expected = ("ok",) + oracle.convert(Fraction(Decimal(amount)), source, target, date.fromisoformat(asked), fallback)
        except LookupError as error:
            expected = ("error", str(error.args[0]))
        problem = None
        if status != expected[0]:
            problem = f"expected {expected}"
        elif status == "error" and fields[6] not in (expected[1], "any"):
            problem = f"expected error {expected[1]}"
        elif status == "ok":
            result, rate, day = Decimal(fields[6]), Decimal(fields[7]), date.fromisoformat(fields[8])
            if result != expected[1]:
                problem = f"expected result {expected[1]} (off by {result - expected[1]})"
            elif abs(Fraction(rate) - expected[2]) > abs(expected[2]) * Fraction(tolerance):
                problem = f"expected rate {Decimal(expected[2].numerator) / Decimal(expected[2].denominator)}"
            elif day != expected[3]:
                problem = f"expected day {expected[3]}"
        if problem:
            failures += 1
            if failures <= 20:
                print(f"case {number}: convert {amount} {source} {target} --date {asked} --fallback {fallback}: "
                      f"ecbrates said {' '.join(fields[5:])}; {problem}")
    print(f"rate_oracle: {cases} cases, {failures} disagreements")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
