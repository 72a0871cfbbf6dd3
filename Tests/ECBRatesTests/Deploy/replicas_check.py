#!/usr/bin/env python3
"""Three `ecbrates serve` replicas behind nginx, with deploy/nginx/ecbrates.conf itself.

  replicas_check.py BINARY [STORE] [--conf deploy/nginx/ecbrates.conf] [--seconds 10]
                    [--connections 32] [--keep]

STORE (default: Fixtures/eurofxref-hist.xml imported into a scratch store) is copied three
times (SQLite's backup); each copy is served by a replica on a free loopback port. nginx runs
in the foreground as a child (`nginx -p PREFIX -c PREFIX/conf/nginx.conf`, any user), with a
main configuration of four lines that includes deploy's ecbrates.conf, in which only the
cache's path is changed, deploy's ecbrates-site.conf with only its listen port and its access
log's folder changed, and a generated ecbrates-replicas.conf (deploy's, with the replicas' ports). The file's optional
ecbrates-local*.conf holds what only the test sets: a 1-second validity (instead of the
replicas' Cache-Control, so that revalidation happens within the test) and a header naming
each request's URI (so that wrk's script can tell which answer is which).

  (a) wrk, CONNECTIONS connections for SECONDS, half cacheable URLs (v1, v2, /api/), half a
      distinct conversion each (a cache miss); one replica is killed (SIGKILL) halfway through.
      Every answer must be a 200 whose body is what the ECB's file says (read here with expat,
      computed with decimals and fractions): no 5xx, no socket error, no wrong answer. Then the
      replica is started again, and a second wrk run of cacheable URLs only measures the cache.
  (b) revalidation: a URL is cached through nginx, a no-op import (Fixtures/eurofxref-daily.xml,
      whose day every replica holds: "nothing changed") runs on every replica, and after the
      entry's 1 s the URL is asked again, three times: nginx revalidates with If-None-Match, and
      its log must show the replica's 304 each time. (This needs ETags computed from an answer's
      bytes: ETags that name the store's history transaction change with every import, even one
      that changes nothing, and the replica answers 200.)

  (c) an MCP session through nginx's /mcp, then (d) 3 s of MCP tool calls through it with wrk
      (mcp_calls.lua): every answer a 200 carrying the call's id and result.

Prints one summary line ("replicas_check: requests …, req/s …, 5xx …, wrong …, replica kill
cost …, revalidation 304s …, MCP tool calls through nginx … req/s"); exits 1 on any failure,
naming it."""
import argparse
import bisect
import http.client
import json
import os
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import xml.parsers.expat
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

ROOT = Path(__file__).resolve().parents[3]
HERE = Path(__file__).resolve().parent
REVALIDATED_URL = "/v2/rates?date=2024-03-27&quotes=USD"
TEST_ONLY = """\
# Written by replicas_check.py (test only): a 1-second validity instead of the replicas'
# Cache-Control, so that an entry expires within the test; each request's URI in a header.
proxy_ignore_headers Vary Cache-Control Expires;
proxy_cache_valid 200 1s;
add_header X-Ecbrates-Target $request_uri always;
"""

failures = []


def fail(what):
    failures.append(what)
    print(f"replicas_check: FAILED: {what}", file=sys.stderr)


def read_ecb(path):
    """Every publication, {day: {currency: Decimal}}, with expat."""
    days, current = {}, None

    def start(name, attributes):
        nonlocal current
        if "time" in attributes:
            current = attributes["time"]
            days[current] = {}
        elif "currency" in attributes and current is not None:
            days[current][attributes["currency"]] = Decimal(attributes["rate"])

    parser = xml.parsers.expat.ParserCreate()
    parser.StartElementHandler = start
    with open(path, "rb") as f:
        parser.ParseFile(f)
    return days


class Expected:
    """What each URL of the check should answer, from the ECB's file."""

    def __init__(self, days):
        self.days = days
        self.published = sorted(days)

    def publication(self, asked):
        """The publication a day asks for: that day's, else the one before it."""
        index = bisect.bisect_right(self.published, asked) - 1
        return self.published[index] if index >= 0 else None

    def check(self, target, status, body):
        """None when `body` is the right answer to `target`, else what is wrong."""
        if status != 200:
            return f"status {status}"
        try:
            answer = json.loads(body, parse_float=Decimal, parse_int=Decimal)
        except ValueError:
            return f"not JSON: {body[:120]!r}"
        split = urlsplit(target)
        path, query = split.path, {k: v[0] for k, v in parse_qs(split.query).items()}
        amount = Decimal(query.get("amount", "1"))
        symbols = query["symbols"].split(",") if "symbols" in query else None
        if path.startswith("/v2/rates"):
            day = self.publication(query["date"])
            records = {r["quote"]: r["rate"] for r in answer if r["date"] == day and r["base"] == "EUR"}
            if len(records) != len(answer):
                return f"records not all of {day}, base EUR: {body[:200]}"
            wanted = {c: r for c, r in self.days[day].items() if "quotes" not in query or c in query["quotes"].split(",")}
            if records.pop("EUR", 1) != 1 or records != wanted:
                return f"{records} but the ECB's {day}: {wanted}"
            return None
        if path.startswith("/v2/rate/"):
            _, _, _, base, quote = path.split("/")
            day = self.publication(query["date"])
            exact = Fraction(self.days[day][quote]) / Fraction(self.days[day][base])
            got = Fraction(answer["rate"])
            if answer["date"] != day or abs(got - exact) > exact * Fraction(1, 10**19):
                return f"{answer} but {quote}/{base} on {day} is {float(exact)!r}"
            return None
        if path.startswith("/api/rate"):
            day = self.publication(query["date"])
            currency = query["currencies"]
            if answer["rate"] != self.days[day][currency] or answer["day"] != day or answer["base"] != "EUR":
                return f"{currency} {answer.get('rate')} on {answer.get('day')}, the ECB's {self.days[day][currency]} on {day}"
            return None
        if ".." in path:
            start, end = path.strip("/").split("..")
            expected = {d: {c: r * amount for c, r in self.days[d].items() if symbols is None or c in symbols}
                        for d in self.published if start <= d <= end}
            if answer.get("rates") != expected:
                return f"range {start}..{end}: {str(answer.get('rates'))[:200]}"
            return None
        asked = path.strip("/")
        day = self.published[-1] if asked == "latest" else self.publication(asked)
        wanted = {c: r * amount for c, r in self.days[day].items() if symbols is None or c in symbols}
        if answer.get("date") != day or answer.get("base") != "EUR" or answer.get("amount") != amount:
            return f"date {answer.get('date')} base {answer.get('base')} amount {answer.get('amount')}, expected {day} EUR {amount}"
        if answer.get("rates") != wanted:
            return f"rates {answer.get('rates')}, the ECB's {day} × {amount}: {wanted}"
        return None


def free_ports(count):
    sockets = []
    for _ in range(count):
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        sockets.append(s)
    ports = [s.getsockname()[1] for s in sockets]
    for s in sockets:
        s.close()
    return ports


def get(port, target, headers=None, timeout=10):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request("GET", target, headers=headers or {})
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()


def post_mcp(port, message, headers=None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        sent = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream", **(headers or {})}
        connection.request("POST", "/mcp", body=json.dumps(message).encode(), headers=sent)
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()


def mcp_session(port):
    """None when an MCP session works end to end through nginx; else what went wrong."""
    status, headers, body = post_mcp(port, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "replicas", "version": "1"}}})
    if status != 200 or json.loads(body)["result"]["protocolVersion"] != "2025-11-25":
        return f"initialize: {status} {body[:200]!r}"
    if "x-cache-status" in headers:
        return f"/mcp went through nginx's cache ({headers['x-cache-status']})"
    status, _, body = post_mcp(port, {"jsonrpc": "2.0", "method": "notifications/initialized"})
    if status != 202 or body:
        return f"the notification: {status} {body[:200]!r}"
    status, _, body = post_mcp(port, {"jsonrpc": "2.0", "id": "c", "method": "tools/call", "params": {
        "name": "convert", "arguments": {"amount": "100", "from": "USD", "to": "JPY", "date": "2024-03-28"}}},
        {"MCP-Protocol-Version": "2025-11-25", "Origin": f"http://127.0.0.1:{port}"})
    answer = json.loads(body) if status == 200 else {}
    if answer.get("id") != "c" or answer.get("result", {}).get("structuredContent", {}).get("result") != 15119:
        return f"tools/call: {status} {body[:300]!r}"
    status, _, body = post_mcp(port, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
                               {"Origin": "https://evil.example"})
    if status != 403:
        return f"a foreign Origin: {status} {body[:200]!r}"
    return None


def wait_until(what, predicate, seconds=15):
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        try:
            if predicate():
                return True
        except OSError:
            pass
        time.sleep(0.05)
    raise SystemExit(f"replicas_check: FAILED: {what} (not within {seconds} s)")


class Replica:
    def __init__(self, binary, store, port, log):
        self.binary, self.store, self.port, self.log = binary, store, port, log
        self.process = None

    def start(self):
        self.process = subprocess.Popen(
            [self.binary, "serve", "--listen", f"127.0.0.1:{self.port}", "--store", str(self.store)],
            stdout=subprocess.DEVNULL, stderr=open(self.log, "ab"))
        wait_until(f"replica on {self.port} healthy",
                   lambda: self.process.poll() is None and get(self.port, "/healthz", timeout=2)[0] == 200)

    def stop(self):
        """SIGTERM; the exit status (0 is a clean stop)."""
        if self.process is None or self.process.poll() is not None:
            return self.process.returncode if self.process else None
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return "did not stop within 10 s of SIGTERM"


def render_nginx(conf, prefix, port, replica_ports):
    """deploy's ecbrates.conf with its port and paths changed, the replicas' file with our
    ports, the test-only local file, and a main configuration that includes them."""
    (prefix / "conf").mkdir(parents=True)
    site = conf.parent / "ecbrates-site.conf"
    for source, changes in [(conf, [("/var/cache/nginx/ecbrates", str(prefix / "cache"))]),
                            (site, [("listen 127.0.0.1:8080;", f"listen 127.0.0.1:{port};"),
                                    ("/var/log/nginx/", str(prefix / "logs") + "/")])]:
        text = source.read_text()
        for old, new in changes:
            if text.count(old) != 1:
                raise SystemExit(f"replicas_check: FAILED: {source} has {text.count(old)} '{old}', not one: "
                                 "the check changes exactly that (update the check with the file)")
            text = text.replace(old, new)
        (prefix / "conf" / source.name).write_text(text)
    replicas = conf.parent / "ecbrates-replicas.conf"
    lines = [line for line in replicas.read_text().splitlines() if line.startswith("server ")]
    if len(lines) != len(replica_ports):
        raise SystemExit(f"replicas_check: FAILED: {replicas} has {len(lines)} server lines, not {len(replica_ports)}")
    rendered = [re.sub(r"^server \S+", f"server 127.0.0.1:{p}", line) for line, p in zip(lines, replica_ports)]
    (prefix / "conf" / "ecbrates-replicas.conf").write_text("\n".join(rendered) + "\n")
    (prefix / "conf" / "ecbrates-local.conf").write_text(TEST_ONLY)
    for directory in ("logs", "tmp"):
        (prefix / directory).mkdir()
    temp = prefix / "tmp"
    (prefix / "conf" / "nginx.conf").write_text(f"""\
# replicas_check.py's main configuration: Debian's nginx.conf in four lines.
worker_processes 2;
pid {prefix}/nginx.pid;
events {{ worker_connections 4096; }}
http {{
    client_body_temp_path {temp}/body; proxy_temp_path {temp}/proxy; fastcgi_temp_path {temp}/fastcgi;
    uwsgi_temp_path {temp}/uwsgi; scgi_temp_path {temp}/scgi;
    include ecbrates.conf;
}}
""")


def run_wrk(port, seconds, connections, out, mix, during=None):
    """wrk through nginx; `during(elapsed)` is called every 50 ms meanwhile. Returns
    (its stdout, {status: count}, requests/s)."""
    environment = dict(os.environ, REPLICAS_WRK_OUT=str(out), REPLICAS_WRK_MIX=mix)
    process = subprocess.Popen(
        ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--timeout", "10s", "--latency",
         "-s", str(HERE / "replicas.lua"), f"http://127.0.0.1:{port}"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=environment)
    started = time.monotonic()
    while process.poll() is None and during:
        during(time.monotonic() - started)
        time.sleep(0.05)
    output, _ = process.communicate(timeout=seconds + 60)
    if process.returncode != 0:
        raise SystemExit(f"replicas_check: FAILED: wrk exited {process.returncode}: {output}")
    statuses = {int(s): int(n) for s, n in re.findall(r"^status (\d+) (\d+)$", output, re.M)}
    caches = {c: int(n) for c, n in re.findall(r"^cache (\S+) (\d+)$", output, re.M)}
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))
    return output, statuses, caches, rate


def stop_all(nginx_process, replicas):
    """nginx gracefully (SIGQUIT: its access log is flushed), then each replica with SIGTERM;
    the replicas' exit statuses."""
    if nginx_process and nginx_process.poll() is None:
        nginx_process.send_signal(signal.SIGQUIT)
        try:
            nginx_process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            nginx_process.kill()
            nginx_process.wait()
    return [replica.stop() for replica in replicas]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("binary")
    parser.add_argument("store", nargs="?")
    parser.add_argument("--conf", default=str(ROOT / "deploy/nginx/ecbrates.conf"))
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--keep", action="store_true", help="keep the scratch directory (logs, configuration)")
    arguments = parser.parse_args()
    binary = str(Path(arguments.binary).resolve())
    for tool in ("nginx", "wrk"):
        if not shutil.which(tool) and not Path(f"/usr/sbin/{tool}").exists():
            raise SystemExit(f"replicas_check: FAILED: needs {tool} (Debian: apt-get install nginx wrk)")
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    history, daily = ROOT / "Fixtures/eurofxref-hist.xml", ROOT / "Fixtures/eurofxref-daily.xml"
    expected = Expected(read_ecb(history))

    scratch = Path(tempfile.mkdtemp(prefix="replicas_check."))
    os.chmod(scratch, 0o755)  # nginx's workers (nobody, when this is root) read the prefix
    replicas, nginx_process = [], None
    try:
        store = arguments.store
        if store is None:
            store = scratch / "source.sqlite"
            subprocess.run([binary, "import", str(history), "--store", str(store), "--quiet"], check=True)
        ports = free_ports(4)
        nginx_port, replica_ports = ports[0], ports[1:]
        source = sqlite3.connect(f"file:{Path(store).resolve()}?mode=ro", uri=True)
        for index, port in enumerate(replica_ports):
            directory = scratch / f"replica-{index + 1}"
            directory.mkdir()
            copy = sqlite3.connect(directory / "rates.sqlite")
            source.backup(copy)
            copy.close()
            replicas.append(Replica(binary, directory / "rates.sqlite", port, scratch / f"replica-{index + 1}.log"))
        source.close()
        started = time.monotonic()
        for replica in replicas:
            replica.start()
        replicas_up = time.monotonic() - started

        prefix = scratch / "nginx"
        render_nginx(Path(arguments.conf), prefix, nginx_port, replica_ports)
        command = [nginx, "-p", str(prefix), "-c", str(prefix / "conf/nginx.conf"), "-e", str(prefix / "logs/error.log")]
        tested = subprocess.run(command + ["-t", "-q"], capture_output=True, text=True)
        if tested.returncode != 0:
            raise SystemExit(f"replicas_check: FAILED: nginx -t refuses the configuration: {tested.stderr.strip()}")
        nginx_process = subprocess.Popen(command + ["-g", "daemon off;"])
        wait_until("nginx answering", lambda: get(nginx_port, "/2024-03-28?symbols=USD", timeout=2)[0] == 200)

        # (a) load, with a replica killed halfway.
        killed = {}

        def kill_halfway(elapsed):
            if not killed and elapsed >= arguments.seconds / 2:
                replicas[0].process.send_signal(signal.SIGKILL)
                killed["at"] = elapsed

        out = scratch / "wrk-bodies.tsv"
        output, statuses, caches, rate = run_wrk(nginx_port, arguments.seconds, arguments.connections, out, "mixed", kill_halfway)
        replicas[0].process.wait(timeout=10)
        requests = sum(statuses.values())
        errors = sum(n for s, n in statuses.items() if s >= 500)
        not_ok = sum(n for s, n in statuses.items() if not 200 <= s < 400)
        socket_errors = re.search(r"Socket errors: (.*)", output)
        latency = {k: float(v) for k, v in re.findall(r"^latency-(max|p99)-ms ([\d.]+)$", output, re.M)}
        wrong, distinct, examples = 0, 0, []
        for line in out.read_text().splitlines():
            count, status, target, body = line.split("\t", 3)
            distinct += 1
            problem = expected.check(target, int(status), body.replace("\\n", "\n"))
            if problem:
                wrong += int(count)
                if len(examples) < 5:
                    examples.append(f"{target}: {problem}")
        if requests < 1000:
            fail(f"wrk made only {requests} requests: {output}")
        if errors or not_ok:
            fail(f"{not_ok} answers not 2xx/3xx ({errors} 5xx) while a replica was killed: {statuses}")
        if socket_errors:
            fail(f"wrk's socket errors: {socket_errors.group(1)}")
        if wrong:
            fail(f"{wrong} wrong answers, e.g. " + "; ".join(examples))
        if "at" not in killed:
            fail("the replica was not killed during the load")

        # The killed replica comes back on its port and store; then the cache alone.
        replicas[0].start()
        hits_output, hits_statuses, _, hits_rate = run_wrk(nginx_port, 3, arguments.connections, scratch / "wrk-hits.tsv", "fixed")
        if set(hits_statuses) != {200}:
            fail(f"cache-hit run: {hits_statuses}")

        # (b) revalidation after a no-op import on every replica.
        status, headers, _ = get(nginx_port, REVALIDATED_URL)
        if status != 200:
            fail(f"{REVALIDATED_URL} through nginx: {status}")
        etags_before = [get(r.port, REVALIDATED_URL)[1].get("etag") for r in replicas]
        for replica in replicas:
            done = subprocess.run([binary, "import", str(daily), "--store", str(replica.store)],
                                  capture_output=True, text=True)
            if done.returncode != 0 or "nothing changed" not in done.stdout + done.stderr:
                fail(f"the no-op import on {replica.store} said: {(done.stdout + done.stderr).strip()} (exit {done.returncode})")
        etags_after = [get(r.port, REVALIDATED_URL)[1].get("etag") for r in replicas]
        rounds, cache_statuses = 3, []
        for _ in range(rounds):
            time.sleep(2.2)  # nginx counts validity in whole seconds
            status, headers, body = get(nginx_port, REVALIDATED_URL)
            cache_statuses.append(headers.get("x-cache-status"))
            problem = expected.check(REVALIDATED_URL, status, body.decode())
            if problem:
                fail(f"{REVALIDATED_URL} after revalidation: {problem}")
            time.sleep(0.4)  # the background revalidation's answer

        # (c) an MCP session through nginx's /mcp: initialize, the notification, a call, and a
        # foreign Origin refused by the replica behind it (nginx passes Host and Origin as sent).
        mcp_problem = mcp_session(nginx_port)
        if mcp_problem:
            fail(f"MCP through nginx: {mcp_problem}")
        # (d) MCP under load through nginx: 16 connections of tool calls for 3 s, every answer the
        # call's own result.
        mcp_run = subprocess.run(
            ["wrk", "-t2", "-c16", "-d3s", "--timeout", "10s", "-s", str(HERE / "mcp_calls.lua"),
             f"http://127.0.0.1:{nginx_port}/mcp"], capture_output=True, text=True, timeout=60)
        mcp_rate = float((re.search(r"Requests/sec:\s+([\d.]+)", mcp_run.stdout) or [0, "nan"])[1])
        mcp_statuses = {int(s): int(n) for s, n in re.findall(r"^mcp status (\d+) (\d+)$", mcp_run.stdout, re.M)}
        mcp_bad = int((re.search(r"^mcp bad (\d+)$", mcp_run.stdout, re.M) or [0, "-1"])[1])
        if mcp_run.returncode != 0 or mcp_bad != 0 or set(mcp_statuses) != {200}:
            fail(f"MCP calls through nginx under load: {mcp_bad} bad answers, statuses {mcp_statuses}: "
                 f"{mcp_run.stdout[-600:]} {mcp_run.stderr[-300:]}")
    except BaseException:
        stop_all(nginx_process, replicas)
        if arguments.keep:
            print(f"replicas_check: kept {scratch}", file=sys.stderr)
        else:
            shutil.rmtree(scratch, ignore_errors=True)
        raise
    finally:
        stops = stop_all(nginx_process, replicas)

    for replica, stopped in zip(replicas, stops):
        if stopped != 0:
            fail(f"replica on {replica.port} after SIGTERM: {stopped}")

    # nginx's log: what the kill cost (requests retried on another replica, which no client saw)
    # and the revalidations' upstream statuses.
    log = (prefix / "logs/ecbrates.access.log").read_text().splitlines()
    fields = [dict(re.findall(r"(\w+)=(\S+)", line)) | {"line": line} for line in log]
    retried = sum(1 for f in fields if "," in f.get("upstream_status", "") or "," in f.get("upstream", ""))
    by_replica = {}
    for f in fields:
        for address in f.get("upstream", "-").rstrip(",").split(","):
            if address not in ("-", ""):
                by_replica[address] = by_replica.get(address, 0) + 1
    revalidations = [f for f in fields if f'"GET {REVALIDATED_URL} ' in f["line"] and f.get("upstream_status", "-") != "-"][1:]
    revalidated_304 = sum(1 for f in revalidations if f["upstream_status"].split(",")[-1].strip() == "304")
    etag_note = (f"ETags of the replicas before the no-op import {sorted(set(etags_before))}, after {sorted(set(etags_after))}")
    if not revalidations:
        fail(f"no revalidation of {REVALIDATED_URL} reached a replica (cache statuses {cache_statuses})")
    elif revalidated_304 != len(revalidations):
        statuses_seen = [f["upstream_status"] for f in revalidations]
        fail(f"revalidation after a no-op import: {revalidated_304} of {len(revalidations)} upstream answers were 304 "
             f"(upstream statuses {statuses_seen}); {etag_note}. ETags must come from the answer's bytes "
             "(the same on every replica, and across imports that change nothing)")

    print(f"replicas_check: {etag_note}")
    if arguments.keep:
        print(f"replicas_check: kept {scratch}")
    else:
        shutil.rmtree(scratch, ignore_errors=True)
    kill_cost = (f"{not_ok} failed answers, {wrong} wrong, {retried} requests retried on another replica, "
                 f"latency p99 {latency.get('p99', float('nan')):.1f} ms max {latency.get('max', float('nan')):.1f} ms")
    print(f"replicas_check: requests {requests} in {arguments.seconds} s through nginx, {rate:.0f} req/s "
          f"({arguments.connections} connections, half cache misses; {hits_rate:.0f} req/s from the cache alone); "
          f"5xx {errors}; wrong answers {wrong} (of {distinct} distinct answers checked); "
          f"replica kill cost (SIGKILL at {killed.get('at', float('nan')):.1f} s): {kill_cost}; "
          f"revalidation 304s {revalidated_304} of {len(revalidations)} after a no-op import; "
          f"replicas up in {replicas_up:.2f} s; answers by replica {dict(sorted(by_replica.items()))}; "
          f"X-Cache-Status under load {dict(sorted(caches.items()))}; "
          f"MCP tool calls through nginx {mcp_rate:.0f} req/s (16 connections, statuses {mcp_statuses})")
    if failures:
        print(f"replicas_check: {len(failures)} failure(s)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
