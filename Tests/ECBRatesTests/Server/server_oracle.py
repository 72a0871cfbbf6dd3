#!/usr/bin/env python3
"""An independent oracle for `ecbrates serve`: reads the ECB's XML with expat, computes the
answers with fractions, and compares them with what the server says over http.client.

  server_oracle.py differential BASE_URL ECB_XML SEED CASES
  server_oracle.py protocol BASE_URL

Prints one line per difference (with the seed that rebuilds it) and a summary; exits 1 on
any difference."""
import http.client
import json
import random
import sys
import xml.parsers.expat
from datetime import date, timedelta
from decimal import Decimal
from fractions import Fraction
from urllib.parse import urlparse


def read_ecb(path):
    days = {}
    current = None

    def start(name, attributes):
        nonlocal current
        if name.endswith("Cube") and "time" in attributes:
            current = attributes["time"]
            days[current] = {}
        elif name.endswith("Cube") and "currency" in attributes:
            days[current][attributes["currency"]] = attributes["rate"]

    parser = xml.parsers.expat.ParserCreate(namespace_separator=" ")
    parser.StartElementHandler = start
    with open(path, "rb") as f:
        parser.ParseFile(f)
    return days


class Client:
    def __init__(self, base):
        url = urlparse(base)
        self.host, self.port = url.hostname, url.port
        self.connection = http.client.HTTPConnection(self.host, self.port, timeout=30)

    def request(self, method, path, headers=None, body=None):
        for attempt in range(2):
            try:
                self.connection.request(method, path, body=body, headers=headers or {})
                response = self.connection.getresponse()
                return response.status, dict((k.lower(), v) for k, v in response.getheaders()), response.read()
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                self.connection.close()
                self.connection = http.client.HTTPConnection(self.host, self.port, timeout=30)
        raise RuntimeError("no answer to " + path)

    def json(self, path):
        status, headers, body = self.request("GET", path)
        return status, json.loads(body, parse_float=Decimal, parse_int=Decimal)


# Where a currency's rates end or pause (the euro's enlargements, redenominations, the ECB's
# suspension of the rouble and its pause of the króna), as public record states them.
ENDS = {
    "GRD": ("2001-01-01", None), "SIT": ("2007-01-01", None), "CYP": ("2008-01-01", None),
    "MTL": ("2008-01-01", None), "SKK": ("2009-01-01", None), "EEK": ("2011-01-01", None),
    "LVL": ("2014-01-01", None), "LTL": ("2015-01-01", None), "HRK": ("2023-01-01", None),
    "BGN": ("2026-01-01", None), "TRL": ("2005-01-01", None), "ROL": ("2005-07-01", None),
    "RUB": ("2022-03-02", None), "ISK": ("2008-12-10", "2018-01-31"),
}


def ended_between(code, published, asked):
    """Whether `code` has no rate on some day after `published` up to `asked` (ISO days)."""
    if code not in ENDS or asked <= published:
        return False
    start, through = ENDS[code]
    return start <= asked and (through is None or through >= published)


def within_20_digits(value, exact):
    """True when `value` (a Decimal) is `exact` (a Fraction) rounded to 20 significant digits."""
    if exact == 0:
        return value == 0
    significant = len(value.normalize().as_tuple().digits)
    if significant > 20:
        return False
    magnitude = abs(exact)
    exponent = 0
    while Fraction(10) ** (exponent + 1) <= magnitude:
        exponent += 1
    while Fraction(10) ** exponent > magnitude:
        exponent -= 1
    ulp = Fraction(10) ** (exponent - 19)
    return abs(Fraction(value) - exact) <= ulp / 2 * (1 + Fraction(1, 10**12))


def differential(base, xml_path, seed, cases):
    days = read_ecb(xml_path)
    published = sorted(days)
    first, last = date.fromisoformat(published[0]), date.fromisoformat(published[-1])
    rng = random.Random(seed)
    client = Client(base)
    differences = 0
    checked = 0

    def differ(case, what):
        nonlocal differences
        differences += 1
        print(f"seed {seed} case {case}: {what}")

    def publication(day):
        """The newest publication on or before `day` (within 14 days), or None."""
        for back in range(0, 15):
            d = (day - timedelta(days=back)).isoformat()
            if d in days:
                return d
        return None

    for case in range(cases):
        kind = rng.random()
        asked = first + timedelta(days=rng.randrange((last - first).days + 1))
        used = publication(asked)
        if used is None:
            continue
        # The publication's currencies, less any whose end (or pause) falls after the publication
        # and on or before the asked day: no rate is carried across an end.
        quoted = sorted(c for c in days[used] if not ended_between(c, used, asked.isoformat()))
        base_code = "EUR" if rng.random() < 0.5 else rng.choice(quoted)
        amount = Decimal(1) if rng.random() < 0.5 else Decimal(rng.randrange(1, 10**8)) / Decimal(10 ** rng.randrange(0, 4))
        per_euro = lambda code, d=used: Fraction(1) if code == "EUR" else Fraction(Decimal(days[d][code]))
        if kind >= 0.5:
            checked += 1
            check_v2(client, rng, days, published, asked, used, quoted, lambda what: differ(case, what))
            continue
        if kind < 0.35:
            # One day, some or all currencies.
            symbols = None if rng.random() < 0.3 else rng.sample([c for c in quoted + ["EUR"] if c != base_code], k=rng.randrange(1, 4))
            query = f"/{asked.isoformat()}?from={base_code}&amount={amount}"
            if symbols:
                query += "&to=" + ",".join(symbols)
            status, answer = client.json(query)
            checked += 1
            if status != 200:
                differ(case, f"{query}: status {status} {answer}")
                continue
            if answer["date"] != used or answer["base"] != base_code or Decimal(answer["amount"]) != amount:
                differ(case, f"{query}: date/base/amount {answer['date']} {answer['base']} {answer['amount']}, expected {used}")
            expected_codes = symbols or [c for c in quoted + ["EUR"] if c != base_code]
            if sorted(answer["rates"]) != sorted(expected_codes):
                differ(case, f"{query}: currencies {sorted(answer['rates'])}, expected {sorted(expected_codes)}")
            for code, value in answer["rates"].items():
                exact = per_euro(code) / per_euro(base_code) * Fraction(amount)
                if base_code == "EUR" and code != "EUR":
                    if Fraction(value) != exact:
                        differ(case, f"{query}: {code} {value}, expected exactly {Decimal(days[used][code]) * amount}")
                elif not within_20_digits(value, exact):
                    differ(case, f"{query}: {code} {value} is not {float(exact)} to 20 significant digits")
        else:
            # A range of up to six weeks.
            end = min(last, asked + timedelta(days=rng.randrange(0, 42)))
            in_range = [d for d in published if asked.isoformat() <= d <= end.isoformat()]
            if not in_range:
                continue
            codes = sorted(set(days[in_range[0]]) & set(days[in_range[-1]]))
            base_code = "EUR" if rng.random() < 0.6 else rng.choice(codes)
            # Without symbols: every currency of each day, the euro too against another base.
            every = rng.random() < 0.25
            symbols = rng.sample([c for c in codes if c != base_code], k=rng.randrange(1, 3))
            query = f"/{asked.isoformat()}..{end.isoformat()}?base={base_code}"
            if every:
                symbols = sorted({c for d in in_range for c in days[d]} | {"EUR"} - {base_code})
            else:
                query += f"&symbols={','.join(symbols)}"
            status, answer = client.json(query)
            checked += 1
            if status != 200:
                differ(case, f"{query}: status {status} {answer}")
                continue
            expected_days = [d for d in in_range if any(s in days[d] for s in symbols) and (base_code == "EUR" or base_code in days[d])]
            if list(answer["rates"]) != expected_days:
                differ(case, f"{query}: days {list(answer['rates'])[:3]}…, expected {expected_days[:3]}…")
                continue
            if answer["start_date"] != expected_days[0] or answer["end_date"] != expected_days[-1]:
                differ(case, f"{query}: start/end {answer['start_date']} {answer['end_date']}")
            for d, rates in answer["rates"].items():
                if every:
                    expected = sorted((set(days[d]) | {"EUR"}) - {base_code})
                    if sorted(rates) != expected:
                        differ(case, f"{query}: {d} currencies {sorted(rates)}, expected {expected}")
                for code, value in rates.items():
                    exact = per_euro(code, d) / per_euro(base_code, d)
                    if base_code == "EUR":
                        if Fraction(value) != exact:
                            differ(case, f"{query}: {d} {code} {value}, expected {days[d][code]}")
                    elif not within_20_digits(value, exact):
                        differ(case, f"{query}: {d} {code} {value} is not {float(exact)} to 20 digits")
    print(f"{checked} cases (seed {seed}), {differences} differences")
    return differences == 0


def week_start(day):
    return day - timedelta(days=day.weekday())


def check_v2(client, rng, days, published, asked, used, quoted, differ):
    """One case of Frankfurter's v2 API: a day's records, a pair, or a range (daily, or the
    weekly or monthly means), as JSON, NDJSON or CSV, each record checked against the XML."""
    kind = rng.random()
    per_euro = lambda code, d: Fraction(1) if code == "EUR" else Fraction(Decimal(days[d][code]))

    def check_value(where, value, exact, exact_digits):
        if exact_digits:
            if Fraction(value) != exact:
                differ(f"{where}: {value}, expected exactly {float(exact)}")
        elif not within_20_digits(value, exact):
            differ(f"{where}: {value} is not {float(exact)} to 20 significant digits")

    if kind < 0.4:
        base = "EUR" if rng.random() < 0.5 else rng.choice(quoted)
        pool = [c for c in quoted + ["EUR"]]
        quotes = None if rng.random() < 0.3 else rng.sample(pool, k=rng.randrange(1, 4))
        query = f"/v2/rates?date={asked.isoformat()}&base={base}" + (f"&quotes={','.join(quotes)}" if quotes else "")
        status, answer = client.json(query)
        if status != 200:
            return differ(f"{query}: status {status} {answer}")
        expected = sorted(quotes) if quotes else sorted(pool)
        if [r["quote"] for r in answer] != expected:
            return differ(f"{query}: quotes {[r['quote'] for r in answer]}, expected {expected}")
        for record in answer:
            if record["date"] != used or record["base"] != base:
                differ(f"{query}: record {record}, expected date {used} base {base}")
            exact = per_euro(record["quote"], used) / per_euro(base, used)
            check_value(f"{query} {record['quote']}", record["rate"], exact, base == "EUR" or record["quote"] == base)
    elif kind < 0.55:
        base, quote = rng.choice(quoted + ["EUR"]), rng.choice(quoted + ["EUR"])
        query = f"/v2/rate/{base.lower()}/{quote}?date={asked.isoformat()}"
        status, record = client.json(query)
        if status != 200:
            return differ(f"{query}: status {status} {record}")
        if (record["date"], record["base"], record["quote"]) != (used, base, quote):
            differ(f"{query}: {record}, expected {used} {base} {quote}")
        exact = per_euro(quote, used) / per_euro(base, used)
        check_value(query, record["rate"], exact, base == "EUR" or base == quote)
    else:
        group = None if kind < 0.8 else rng.choice(["week", "month"])
        span = rng.randrange(0, 42) if group is None else rng.randrange(0, 200)
        end = min(date.fromisoformat(published[-1]), asked + timedelta(days=span))
        in_range = [d for d in published if asked.isoformat() <= d <= end.isoformat()]
        if not in_range:
            return
        codes = sorted(set(days[in_range[0]]) & set(days[in_range[-1]]))
        base = "EUR" if rng.random() < 0.6 else rng.choice(codes)
        quotes = rng.sample(codes + ["EUR"], k=rng.randrange(1, 3))
        form = rng.choice(["json", "ndjson", "csv"])
        path = "/v2/rates.csv" if form == "csv" else "/v2/rates"
        query = f"{path}?from={asked.isoformat()}&to={end.isoformat()}&base={base}&quotes={','.join(quotes)}"
        if group:
            query += f"&group={group}"
        headers = {"Accept": "application/x-ndjson"} if form == "ndjson" else {}
        status, response_headers, body = client.request("GET", query, headers=headers)
        if status != 200:
            return differ(f"{query}: status {status} {body[:200]!r}")
        if form == "json":
            records = json.loads(body, parse_float=Decimal, parse_int=Decimal)
        elif form == "ndjson":
            if not response_headers.get("content-type", "").startswith("application/x-ndjson"):
                differ(f"{query}: NDJSON asked, content-type {response_headers.get('content-type')}")
            records = [json.loads(line, parse_float=Decimal, parse_int=Decimal) for line in body.decode().splitlines()]
        else:
            lines = body.decode().splitlines()
            if lines[0] != "date,base,quote,rate":
                return differ(f"{query}: CSV header {lines[0]!r}")
            records = [dict(zip(["date", "base", "quote", "rate"], line.split(","))) for line in lines[1:]]
            for record in records:
                record["rate"] = Decimal(record["rate"])
        # The oracle: per period (a day, a Monday-to-Sunday week, a month), each quote's mean.
        periods = {}
        for d in in_range:
            if base != "EUR" and base not in days[d]:
                continue
            day = date.fromisoformat(d)
            key = d if group is None else (week_start(day) if group == "week" else day.replace(day=1)).isoformat()
            for quote in quotes:
                if quote == "EUR" or quote in days[d]:
                    periods.setdefault(key, {}).setdefault(quote, []).append(per_euro(quote, d) / per_euro(base, d))
        expected = []
        for key in sorted(periods):
            for quote in sorted(periods[key]):
                values = periods[key][quote]
                expected.append((key, quote, sum(values) / len(values)))
        got = [(r["date"], r["quote"]) for r in records]
        if got != [(k, q) for k, q, _ in expected]:
            return differ(f"{query}: records {got[:4]}…, expected {[(k, q) for k, q, _ in expected][:4]}…")
        for record, (key, quote, exact) in zip(records, expected):
            if record["base"] != base:
                differ(f"{query}: base {record['base']}")
            exact_digits = quote == base or (base == "EUR" and group is None)
            check_value(f"{query} {key} {quote}", record["rate"], exact, exact_digits)


def main():
    if sys.argv[1] == "differential":
        ok = differential(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]))
        sys.exit(0 if ok else 1)
    sys.exit(2)


if __name__ == "__main__":
    main()
