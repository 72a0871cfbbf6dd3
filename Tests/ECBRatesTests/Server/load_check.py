#!/usr/bin/env python3
"""`ecbrates serve` under load and abuse, from real sockets (Python's http.client and socket).

  load_check.py load ECBRATES STORE BASE_URL HISTORY_XML IMPORT_XML CLIENTS SECONDS
      CLIENTS keep-alive clients ask for /latest, random days (v1, v2, /api/) for SECONDS,
      while another process imports IMPORT_XML into STORE. Every answer must be a 200 that
      is one whole published day (every currency of that day, the XML's digits); once the
      import has exited, /latest must show its newest day within a second.
  load_check.py idle BASE_URL CONNECTIONS
      CONNECTIONS connections are opened and left idle (or trickle a header a byte at a
      time, slowloris); meanwhile real requests must be answered, each within 2 s.

Prints a summary line; a failure prints what and exits 1."""
import http.client
import json
import random
import resource
import socket
import subprocess
import sys
import threading
import time
from decimal import Decimal
from urllib.parse import urlparse

sys.dont_write_bytecode = True  # no __pycache__ beside the test target's sources
import server_oracle  # noqa: E402


def read_ecb(path):
    """Every publication, {day: {currency: Decimal}}, read with expat (server_oracle's reader)."""
    return {day: {code: Decimal(rate) for code, rate in rates.items()}
            for day, rates in server_oracle.read_ecb(path).items()}


def load(binary, store, base, history_xml, import_xml, clients, seconds):
    url = urlparse(base)
    days = read_ecb(history_xml)
    days.update(read_ecb(import_xml))
    newest = max(read_ecb(import_xml))
    # Days asked for by date: those stored before the import (a later day is honestly a 503,
    # "the store is out of date", until the import stores it).
    probe = http.client.HTTPConnection(url.hostname, url.port, timeout=5)
    probe.request("GET", "/latest")
    stored_through = json.loads(probe.getresponse().read())["date"]
    probe.close()
    published = [d for d in sorted(days) if d <= stored_through]
    lock = threading.Lock()
    failures = []
    counts = {"requests": 0, "5xx": 0}
    seen_days = set()
    stop = threading.Event()

    def fail(what):
        with lock:
            if len(failures) < 20:
                failures.append(what)

    def whole_day(path, answer):
        """A v1 answer: its date is a publication and its rates are all of that day's, exactly."""
        day = answer.get("date")
        if day not in days:
            return fail(f"{path}: date {day} is not a publication")
        rates = answer["rates"]
        if set(rates) != set(days[day]):
            return fail(f"{path}: {day} has {len(rates)} currencies, the publication {len(days[day])}")
        for code, value in rates.items():
            if Decimal(str(value)) != days[day][code]:
                return fail(f"{path}: {day} {code} {value}, published {days[day][code]}")
        with lock:
            seen_days.add(day)

    def client(seed):
        rng = random.Random(seed)
        connection = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
        while not stop.is_set():
            kind = rng.random()
            if kind < 0.5:
                path = "/latest"
            elif kind < 0.8:
                path = "/" + rng.choice(published[-300:])
            elif kind < 0.9:
                path = f"/v2/rates?date={rng.choice(published[-300:])}&quotes=USD,JPY"
            else:
                path = f"/api/rate?currencies=USD&date={rng.choice(published[-300:])}"
            try:
                connection.request("GET", path)
                response = connection.getresponse()
                body = response.read()
            except (http.client.HTTPException, OSError) as error:
                connection.close()
                connection = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
                fail(f"{path}: {type(error).__name__} {error}")
                continue
            with lock:
                counts["requests"] += 1
                if response.status >= 500:
                    counts["5xx"] += 1
            if response.status != 200:
                fail(f"{path}: status {response.status} {body[:200]!r}")
                continue
            if kind < 0.8:
                whole_day(path, json.loads(body, parse_float=Decimal))
        connection.close()

    # More descriptors than the default 1,024 (the clients and the idle tests).
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    threads = [threading.Thread(target=client, args=(i,), daemon=True) for i in range(clients)]
    for thread in threads:
        thread.start()
    time.sleep(1)
    imported = subprocess.run([binary, "import", import_xml, "--store", store, "--chunk-days", "5"],
                              capture_output=True, text=True)
    done = time.monotonic()
    if imported.returncode != 0:
        fail(f"the import exited {imported.returncode}: {imported.stderr}")
    # The new day, within a second of the import's end, to a new client.
    visible_after = None
    while time.monotonic() - done < 5:
        probe = http.client.HTTPConnection(url.hostname, url.port, timeout=5)
        probe.request("GET", "/latest")
        answer = json.loads(probe.getresponse().read())
        probe.close()
        if answer.get("date") == newest:
            visible_after = time.monotonic() - done
            break
        time.sleep(0.02)
    if visible_after is None or visible_after > 1:
        fail(f"/latest showed {newest} {visible_after} s after the import ended (at most 1 s)")
    remaining = seconds - 1 - (time.monotonic() - done)
    if remaining > 0:
        time.sleep(remaining)
    stop.set()
    for thread in threads:
        thread.join(timeout=60)
    print(f"{counts['requests']} requests from {clients} clients, {counts['5xx']} 5xx, "
          f"{len(seen_days)} distinct days answered, new day visible after {visible_after} s, "
          f"{len(failures)} failures")
    for failure in failures:
        print("failure:", failure)
    return not failures and counts["5xx"] == 0


def idle(base, count):
    url = urlparse(base)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    held = []
    refused = 0
    if hard != resource.RLIM_INFINITY and hard < count + 100:
        print(f"failure: this machine lets a process open {hard} files, too few for {count} connections")
        return False
    for index in range(count):
        s = socket.socket()
        try:
            s.connect((url.hostname, url.port))
            if index % 10 == 0:
                # Slowloris: a request line and the start of a header, never finished.
                s.sendall(b"GET /latest HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            held.append(s)
        except OSError:
            refused += 1
            s.close()
    failures = []
    slowest = 0
    for attempt in range(20):
        started = time.monotonic()
        try:
            connection = http.client.HTTPConnection(url.hostname, url.port, timeout=2)
            connection.request("GET", "/2024-03-28?symbols=USD")
            response = connection.getresponse()
            body = response.read()
            connection.close()
            if response.status != 200 or b'"USD":1.0811' not in body:
                failures.append(f"attempt {attempt}: {response.status} {body[:100]!r}")
        except OSError as error:
            failures.append(f"attempt {attempt}: {type(error).__name__} {error}")
        slowest = max(slowest, time.monotonic() - started)
    # Trickle one more byte on the slow ones: the server is still reading them, not stuck.
    for s in held[::10]:
        try:
            s.send(b"x")
        except OSError:
            pass
    open_now = 0
    for s in held:
        s.setblocking(False)
        try:
            open_now += s.recv(1) != b""
        except BlockingIOError:
            open_now += 1
        except OSError:
            pass
        s.close()
    print(f"{len(held)} connections held ({refused} refused at connect, {open_now} still open), "
          f"20 requests answered meanwhile, slowest {slowest:.3f} s, {len(failures)} failures")
    for failure in failures:
        print("failure:", failure)
    return not failures


def main():
    if sys.argv[1] == "load":
        ok = load(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5], sys.argv[6], int(sys.argv[7]), float(sys.argv[8]))
    elif sys.argv[1] == "idle":
        ok = idle(sys.argv[2], int(sys.argv[3]))
    else:
        sys.exit(2)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
