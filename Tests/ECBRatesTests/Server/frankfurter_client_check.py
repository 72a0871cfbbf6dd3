#!/usr/bin/env python3
"""A real Frankfurter client from PyPI against `ecbrates serve`, checked against an independent
oracle (the ECB's XML read with expat, the answers computed with fractions).

  frankfurter_client_check.py BASE_URL ECB_XML SEED CASES [--case N] [--ca CA.pem]

BASE_URL is where `ecbrates serve` listens (http://127.0.0.1:PORT), started with
ECBRATES_NOW=2026-10-01T12:00:00Z on a store that holds ECB_XML. Prints `ok N` when every
case agrees; else one line per failure, `seed S case C: …` (`--case C` reruns that case
alone), and exits 1.

The library: `frankfurter` 2.0.0 from PyPI (pip install frankfurter==2.0.0; module
`frankfurter`, class `FrankfurterEngine`; standard library only, urllib + json). Its calls
used here: fetch_latest_data, fetch_data_for_date, fetch_time_series_data, fetch_currencies,
convert_currency. Every call goes through the library's own code: its request building, its
check of each code against /currencies, its urllib request and its json.loads.

How it is pointed at our server. The library has no option for another server: its base URL
is the module constant `frankfurter.utils.BASE_URL = "api.frankfurter.dev/v1"`, imported into
`frankfurter.engine`, copied into the private `FrankfurterEngine.__base_url` by the
constructor, and every request goes to f"https://{base_url}/{path}?{query}" (the scheme is
hard-coded https). With --ca, BASE_URL is `serve --tls-cert` itself (https) and the client talks
to it directly, trusting CA.pem (SSL_CERT_FILE). Otherwise this script, without patching the
library's code:
  1. sets the module constant `frankfurter.engine.BASE_URL = "127.0.0.1:<relay port>/v1"`
     before it constructs each FrankfurterEngine (which reads that global);
  2. runs a TLS relay in this process on 127.0.0.1:<relay port>: it ends TLS with a
     self-signed certificate for IP 127.0.0.1 (made by `openssl req`, as
     Tests/TestSupport/tls_server.py does) and copies the bytes both ways to BASE_URL's host
     and port, unchanged: it does not read or alter HTTP;
  3. sets SSL_CERT_FILE to that certificate, so the default SSL context that urllib builds
     for the library trusts it (OpenSSL reads SSL_CERT_FILE when it loads default paths);
  4. sets socket.setdefaulttimeout(60) so that no request can hang the run (the library's
     urlopen passes no timeout).

How the answers are compared. The library parses JSON with json.loads, so every rate reaches
us as a Python float (an int when the JSON number has no fraction): the server's exact
decimals cannot be seen through it. So a rate the ECB published, asked against the euro, must
be the float nearest to the ECB's decimal (exact equality of doubles, the best any float can
be); a cross rate (our server sends 20 significant digits) must be within a relative 2**-52 of
the exact rate(X)/rate(base) (the float's own rounding, 2**-53, plus the server's 20 digits);
convert_currency multiplies on the client (amount * rate, floats): against the euro the result
must equal float(amount) * float(published rate) bit for bit, across currencies be within a
relative 2**-51 of the exact amount * rate(to)/rate(from). (The 1e-18 tolerance the server's
20 digits would allow cannot be checked through a float.)
"""
import os
import random
import select
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import traceback
from datetime import date, timedelta
from decimal import Decimal
from fractions import Fraction
from urllib.parse import urlparse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from server_oracle import ended_between, read_ecb  # noqa: E402  (the oracle's expat reader and currency ends)

import frankfurter.engine  # noqa: E402
from frankfurter import FrankfurterEngine  # noqa: E402

CROSS_TOLERANCE = Fraction(1, 2**52)
CONVERT_TOLERANCE = Fraction(1, 2**51)


class TLSRelay:
    """Ends TLS on a loopback port and copies the bytes to (and from) `target`, unchanged."""

    def __init__(self, target, directory):
        cert, key = os.path.join(directory, "cert.pem"), os.path.join(directory, "key.pem")
        subprocess.run(
            ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
             "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out", cert],
            check=True, capture_output=True)
        self.cert = cert
        self.target = target
        self.context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        self.context.load_cert_chain(cert, key)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                connection, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._relay, args=(connection,), daemon=True).start()

    def _relay(self, connection):
        """One thread per connection, and one thread only touches its TLS socket (an SSLSocket
        read and written from two threads at once corrupts its records)."""
        try:
            client = self.context.wrap_socket(connection, server_side=True)
            upstream = socket.create_connection(self.target, timeout=60)
        except (ssl.SSLError, OSError):
            connection.close()
            return
        client_open = True
        try:
            while True:
                if client_open and client.pending():
                    readable = [client]
                else:
                    readable, _, _ = select.select([client, upstream] if client_open else [upstream], [], [], 60)
                    if not readable:
                        return
                for source in readable:
                    data = source.recv(65536)
                    if source is upstream:
                        if not data:
                            return
                        client.sendall(data)
                    elif data:
                        upstream.sendall(data)
                    else:
                        client_open = False
                        upstream.shutdown(socket.SHUT_WR)
        except (ssl.SSLError, OSError):
            pass
        finally:
            for s in (client, upstream):
                try:
                    s.close()
                except OSError:
                    pass


class Oracle:
    def __init__(self, xml_path):
        self.days = read_ecb(xml_path)
        self.published = sorted(self.days)
        self.first = date.fromisoformat(self.published[0])
        self.last = date.fromisoformat(self.published[-1])
        # Frankfurter's /currencies: the currencies of the newest publication, and the euro.
        self.listed = set(self.days[self.published[-1]]) | {"EUR"}
        weekdays = [self.first + timedelta(days=n) for n in range((self.last - self.first).days + 1)]
        self.holidays = [d for d in weekdays if d.weekday() < 5 and d.isoformat() not in self.days]
        self.weekends = [d for d in weekdays if d.weekday() >= 5]

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


class Mismatch(Exception):
    pass


def check_rate(where, value, exact, published_against_euro):
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        raise Mismatch(f"{where}: {value!r} is not a number")
    if published_against_euro:
        if float(value) != float(exact):
            raise Mismatch(f"{where}: {value!r}, expected {float(exact)!r} (the ECB's {exact.numerator}/{exact.denominator})")
    elif abs(Fraction(value) - exact) > abs(exact) * CROSS_TOLERANCE:
        raise Mismatch(f"{where}: {value!r} is not {float(exact)!r} within a relative 2**-52")


def check_day(oracle, label, answer, base, asked, used, symbols):
    if answer.get("date") != used or answer.get("base") != base or answer.get("amount") != 1:
        raise Mismatch(f"{label}: date/base/amount {answer.get('date')} {answer.get('base')} {answer.get('amount')}, "
                       f"expected {used} {base} 1")
    quoted = oracle.quoted(used, asked)
    expected = symbols or [c for c in quoted + ["EUR"] if c != base]
    rates = answer.get("rates") or {}
    if sorted(rates) != sorted(expected):
        raise Mismatch(f"{label}: currencies {sorted(rates)}, expected {sorted(expected)}")
    for code, value in rates.items():
        exact = oracle.per_euro(code, used) / oracle.per_euro(base, used)
        check_rate(f"{label} {code}", value, exact, base == "EUR")


def choose_day(oracle, rng):
    pick = rng.random()
    if pick < 0.2 and oracle.holidays:
        return rng.choice(oracle.holidays)
    if pick < 0.4:
        return rng.choice(oracle.weekends)
    return oracle.first + timedelta(days=rng.randrange((oracle.last - oracle.first).days + 1))


def run_case(oracle, seed, case):
    """Runs case `case` of `seed` through a fresh FrankfurterEngine; raises Mismatch on a difference."""
    rng = random.Random(seed * 1_000_003 + case)
    engine = FrankfurterEngine(quiet_mode=True)
    kind = rng.random()
    if kind < 0.40:
        asked = choose_day(oracle, rng)
        used = oracle.publication(asked)
        if used is None:
            return False
        quoted = [c for c in oracle.quoted(used, asked.isoformat()) if c in oracle.listed]
        base = "EUR" if rng.random() < 0.5 or not quoted else rng.choice(quoted)
        choices = [c for c in quoted + ["EUR"] if c != base]
        symbols = None if rng.random() < 0.3 else rng.sample(choices, k=min(len(choices), rng.randrange(1, 4)))
        label = f"fetch_data_for_date({asked.isoformat()!r}, base={base!r}, symbols={','.join(symbols) if symbols else None!r})"
        answer = engine.fetch_data_for_date(asked.isoformat(), base=base, symbols=",".join(symbols) if symbols else None)
        check_day(oracle, label, answer, base, asked.isoformat(), used, symbols)
    elif kind < 0.55:
        newest = oracle.published[-1]
        quoted = sorted(oracle.days[newest])
        base = "EUR" if rng.random() < 0.5 else rng.choice(quoted)
        choices = [c for c in quoted + ["EUR"] if c != base]
        symbols = None if rng.random() < 0.3 else rng.sample(choices, k=rng.randrange(1, 4))
        label = f"fetch_latest_data(base={base!r}, symbols={','.join(symbols) if symbols else None!r})"
        answer = engine.fetch_latest_data(base=base, symbols=",".join(symbols) if symbols else None)
        check_day(oracle, label, answer, base, newest, newest, symbols)
    elif kind < 0.70:
        newest = oracle.published[-1]
        codes = sorted(oracle.days[newest]) + ["EUR"]
        source, target = rng.sample(codes, 2)
        amount = Decimal(1) if rng.random() < 0.2 else Decimal(rng.randrange(1, 10**8)) / Decimal(10 ** rng.randrange(0, 4))
        label = f"convert_currency({float(amount)!r}, {source!r}, {target!r})"
        result = engine.convert_currency(float(amount), source, target)
        rate = oracle.per_euro(target, newest) / oracle.per_euro(source, newest)
        if not isinstance(result, (int, float)):
            raise Mismatch(f"{label}: {result!r} is not a number")
        if source == "EUR":
            expected = float(amount) * float(rate)
            if result != expected:
                raise Mismatch(f"{label}: {result!r}, expected {expected!r} (float(amount) * the ECB's rate)")
        else:
            exact = Fraction(amount) * rate
            if abs(Fraction(result) - exact) > exact * CONVERT_TOLERANCE:
                raise Mismatch(f"{label}: {result!r} is not {float(exact)!r} within a relative 2**-51")
    elif kind < 0.95:
        start = choose_day(oracle, rng)
        open_ended = (oracle.last - start).days < 42 and rng.random() < 0.5
        end = oracle.last if open_ended else min(oracle.last, start + timedelta(days=rng.randrange(0, 42)))
        in_range = [d for d in oracle.published if start.isoformat() <= d <= end.isoformat()]
        if not in_range:
            return False
        codes = sorted(set(oracle.days[in_range[0]]) & set(oracle.days[in_range[-1]]) & oracle.listed)
        base = "EUR" if rng.random() < 0.6 or not codes else rng.choice(codes)
        choices = [c for c in codes + ["EUR"] if c != base]
        symbols = None if (rng.random() < 0.15 and len(in_range) <= 10) else rng.sample(choices, k=min(len(choices), rng.randrange(1, 3)))
        end_text = None if open_ended else end.isoformat()
        label = (f"fetch_time_series_data(base={base!r}, symbols={','.join(symbols) if symbols else None!r}, "
                 f"start_date={start.isoformat()!r}, end_date={end_text!r})")
        answer = engine.fetch_time_series_data(
            base=base, symbols=",".join(symbols) if symbols else None, start_date=start.isoformat(), end_date=end_text)

        def day_codes(d):
            present = set(oracle.days[d]) | {"EUR"}
            wanted = symbols or sorted(present)
            return sorted(c for c in wanted if c in present and c != base)

        expected_days = [d for d in in_range if (base == "EUR" or base in oracle.days[d]) and day_codes(d)]
        rates = answer.get("rates") or {}
        if list(rates) != expected_days:
            raise Mismatch(f"{label}: days {list(rates)[:3]}… ({len(rates)}), expected {expected_days[:3]}… ({len(expected_days)})")
        if answer.get("base") != base or answer.get("amount") != 1 \
                or answer.get("start_date") != expected_days[0] or answer.get("end_date") != expected_days[-1]:
            raise Mismatch(f"{label}: base/amount/start/end {answer.get('base')} {answer.get('amount')} "
                           f"{answer.get('start_date')} {answer.get('end_date')}, expected {base} 1 {expected_days[0]} {expected_days[-1]}")
        for d, day_rates in rates.items():
            if sorted(day_rates) != day_codes(d):
                raise Mismatch(f"{label}: {d} currencies {sorted(day_rates)}, expected {day_codes(d)}")
            for code, value in day_rates.items():
                exact = oracle.per_euro(code, d) / oracle.per_euro(base, d)
                check_rate(f"{label} {d} {code}", value, exact, base == "EUR")
    else:
        label = "fetch_currencies()"
        answer = engine.fetch_currencies()
        if not isinstance(answer, dict) or set(answer) != oracle.listed:
            raise Mismatch(f"{label}: {sorted(answer) if isinstance(answer, dict) else answer!r}, expected {sorted(oracle.listed)}")
        unnamed = [code for code, name in answer.items() if not isinstance(name, str) or not name.strip()]
        if unnamed:
            raise Mismatch(f"{label}: no name for {unnamed}")
    return True


def main():
    arguments = sys.argv[1:]
    only = None
    ca = None
    if "--ca" in arguments:
        # BASE_URL is https (`serve --tls-cert`): no relay; the client trusts the test's CA.
        at = arguments.index("--ca")
        ca = arguments[at + 1]
        del arguments[at:at + 2]
    if "--case" in arguments:
        at = arguments.index("--case")
        only = int(arguments[at + 1])
        del arguments[at:at + 2]
    if len(arguments) != 4:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        sys.exit(2)
    base_url, xml_path, seed, cases = arguments[0], arguments[1], int(arguments[2]), int(arguments[3])
    url = urlparse(base_url)
    oracle = Oracle(xml_path)
    socket.setdefaulttimeout(60)
    with tempfile.TemporaryDirectory() as directory:
        if ca is not None:
            os.environ["SSL_CERT_FILE"] = ca
            frankfurter.engine.BASE_URL = f"{url.hostname}:{url.port}/v1"
        else:
            relay = TLSRelay((url.hostname, url.port), directory)
            os.environ["SSL_CERT_FILE"] = relay.cert
            frankfurter.engine.BASE_URL = f"127.0.0.1:{relay.port}/v1"
        checked = 0
        failures = 0
        for case in ([only] if only is not None else range(cases)):
            try:
                if run_case(oracle, seed, case):
                    checked += 1
            except Mismatch as mismatch:
                checked += 1
                failures += 1
                print(f"seed {seed} case {case}: {mismatch}")
            except Exception as error:  # the library turns HTTP errors into plain Exceptions
                checked += 1
                failures += 1
                reason = " ".join(str(error).split()) or type(error).__name__
                print(f"seed {seed} case {case}: the library raised {type(error).__name__}: {reason}")
                if os.environ.get("FRANKFURTER_CHECK_TRACEBACK"):
                    traceback.print_exc()
    if failures:
        print(f"{failures} of {checked} cases failed (seed {seed}); rebuild one with: "
              f"{os.path.basename(sys.argv[0])} BASE_URL XML {seed} {cases} --case C")
        sys.exit(1)
    print(f"ok {checked}")


if __name__ == "__main__":
    main()
