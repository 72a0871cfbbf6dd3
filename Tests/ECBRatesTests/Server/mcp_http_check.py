#!/usr/bin/env python3
"""`/mcp` of `ecbrates serve` (MCP over Streamable HTTP) against what may be done to it, with
Python's http.client: the transport's rules and its safety, then load and a stop.

    mcp_http_check.py rules ECBRATES STORE TOKEN_FILE
    mcp_http_check.py load  ECBRATES STORE

rules: a server without a token: a request answered as application/json with its own id, a
notification 202 with no body, GET and DELETE 405 with Allow, a foreign Origin 403 (its own
origin and one --mcp-origin allows answered), an unknown MCP-Protocol-Version 400, a body past
1 MiB 413; then a server with --mcp-token-file: no token 401 with WWW-Authenticate, a wrong one
401 with error="invalid_token", the right one 200; /metrics counts tool calls by tool and outcome.

load: 64 MCP clients calling tools (a range each third call) beside wrk on heavy HTTP ranges for
5 s: /healthz answers within 1 s throughout, every call is answered with its own id, and none
fails but a range past the heavy limit (as HTTP's), whose answer is a tool result with isError and
code "busy" (so that a model reads it and retries), not a bare 503; then SIGTERM while MCP calls are in flight ends the server within 10 s, exit 0,
and no client waits past that.

Prints one line starting "ok" with the figures, or fails with an assertion.
"""
import http.client
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from serve_process import start  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def request(port, method, path, body=None, headers=None, timeout=30):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    sent = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream", **(headers or {})}
    data = body if isinstance(body, (bytes, type(None))) else json.dumps(body).encode()
    connection.request(method, path, body=data, headers=sent)
    answer = connection.getresponse()
    content = answer.read()
    result = (answer.status, {k.lower(): v for k, v in answer.getheaders()}, content)
    connection.close()
    return result


def call(port, tool, arguments, ident=1, headers=None, timeout=30):
    message = {"jsonrpc": "2.0", "id": ident, "method": "tools/call",
               "params": {"name": tool, "arguments": arguments,
                          "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}}
    return request(port, "POST", "/mcp", message, headers, timeout)


def stop(process, within):
    began = time.monotonic()
    process.send_signal(signal.SIGTERM)
    try:
        status = process.wait(timeout=within)
    except subprocess.TimeoutExpired:
        process.kill()
        raise AssertionError(f"SIGTERM did not end the server within {within} s")
    return status, time.monotonic() - began


def rules(binary, store, token_file):
    process, port = start(binary, store, ["--access-log", "off", "--mcp-origin", "https://chat.example.com"])
    try:
        status, headers, body = call(port, "rate", {"currencies": "USD", "date": "2024-03-28"}, ident="a-1")
        assert status == 200 and headers["content-type"] == "application/json", (status, headers)
        answer = json.loads(body)
        assert answer["id"] == "a-1" and answer["result"]["structuredContent"]["rate"] == 1.0811, answer
        status, headers, body = request(port, "POST", "/mcp", {"jsonrpc": "2.0", "method": "notifications/initialized"})
        assert status == 202 and body == b"", (status, body)
        for method in ("GET", "DELETE"):
            status, headers, _ = request(port, method, "/mcp")
            assert status == 405 and headers.get("allow") == "POST, OPTIONS", (method, status, headers)
        status, _, body = call(port, "rate", {"currencies": "USD"}, headers={"Origin": "https://evil.example"})
        assert status == 403 and b"forbidden-origin" in body, (status, body)
        for origin in (f"http://127.0.0.1:{port}", "https://chat.example.com"):
            status, _, _ = call(port, "rate", {"currencies": "USD"}, headers={"Origin": origin})
            assert status == 200, (origin, status)
        status, _, body = call(port, "rate", {"currencies": "USD"}, headers={"MCP-Protocol-Version": "1999-01-01"})
        assert status == 400, (status, body)
        status, _, body = request(port, "POST", "/mcp", b'{"jsonrpc":"2.0","id":1,"method":"ping","x":"' +
                                  b"y" * (1 << 20) + b'"}')
        assert status == 413, (status, body[:200])
        call(port, "convert", {"amount": "1", "from": "XYZ", "to": "USD"})
        _, _, metrics = request(port, "GET", "/metrics")
        text = metrics.decode()
        assert re.search(r'ecbrates_mcp_tool_calls_total\{tool="rate",outcome="ok"\} [3-9]', text), text[-800:]
        assert 'ecbrates_mcp_tool_calls_total{tool="convert",outcome="error"} 1' in text, text[-800:]
    finally:
        stop(process, 10)

    token = open(token_file).read().split()[0]
    process, port = start(binary, store, ["--access-log", "off", "--mcp-token-file", token_file])
    try:
        status, headers, _ = call(port, "rate", {"currencies": "USD"})
        assert status == 401 and headers.get("www-authenticate") == 'Bearer realm="ecbrates"', (status, headers)
        status, headers, _ = call(port, "rate", {"currencies": "USD"}, headers={"Authorization": "Bearer wrong"})
        assert status == 401 and 'error="invalid_token"' in headers.get("www-authenticate", ""), (status, headers)
        status, _, _ = call(port, "rate", {"currencies": "USD"}, headers={"Authorization": f"Bearer {token}"})
        assert status == 200, status
        # The rest of the server does not ask for the token.
        assert request(port, "GET", "/api/rate?currencies=USD")[0] == 200
    finally:
        stop(process, 10)
    print("ok: 200 with its id, 202, 405, 403, 400, 413, 401 (none, wrong), tool calls counted")


def load(binary, store):
    process, port = start(binary, store, ["--access-log", "off"])
    stop_event = threading.Event()
    counts = {"ok": 0, "busy": 0, "failed": []}
    lock = threading.Lock()

    def client(number):
        made = 0
        while not stop_event.is_set():
            made += 1
            if made % 3 == 0:
                tool, arguments = "series", {"currencies": "USD,JPY", "from": f"{2000 + number % 20}-01-01",
                                             "to": f"{2001 + number % 20}-12-31", "group": "month"}
            else:
                tool, arguments = "rate", {"currencies": "USD", "date": f"2024-03-{10 + number % 18}"}
            try:
                status, _, body = call(port, tool, arguments, ident=made, timeout=30)
                answer = json.loads(body) if status == 200 else {}
                result = answer.get("result", {})
                with lock:
                    if answer.get("id") != made:
                        counts["failed"].append((status, "not its own id", body[:200]))
                    elif result.get("isError") is False:
                        counts["ok"] += 1
                    elif result.get("structuredContent", {}).get("code") == "busy" and tool == "series":
                        # The heavy limit: the call's own answer, a tool error saying to retry.
                        counts["busy"] += 1
                    else:
                        counts["failed"].append((status, body[:200]))
            except Exception as error:  # noqa: BLE001
                with lock:
                    counts["failed"].append(repr(error))

    worst = []

    def health():
        while not stop_event.is_set():
            began = time.monotonic()
            try:
                assert request(port, "GET", "/healthz", timeout=5)[0] == 200
                worst.append(time.monotonic() - began)
            except Exception:  # noqa: BLE001
                worst.append(99.0)
            time.sleep(0.1)

    threads = [threading.Thread(target=client, args=(n,), daemon=True) for n in range(64)]
    threads.append(threading.Thread(target=health, daemon=True))
    for thread in threads:
        thread.start()
    wrk = subprocess.run(
        ["wrk", "-t", "2", "-c", "16", "-d", "5s", "-s", os.path.join(HERE, "heavy_ranges.lua"),
         f"http://127.0.0.1:{port}"], capture_output=True, text=True, timeout=60)
    stop_event.set()
    for thread in threads:
        thread.join(timeout=40)
    assert not counts["failed"], f"MCP calls failed: {counts['failed'][:5]}"
    assert counts["ok"] > 100, counts
    assert counts["busy"] > 0, f"no range met the heavy limit: {counts}"
    assert worst and max(worst) < 1.0, f"/healthz took {max(worst):.2f} s"
    http_rate = re.search(r"Requests/sec:\s+([\d.]+)", wrk.stdout)

    # SIGTERM with MCP calls in flight: every client gets an answer or a closed connection, soon.
    stop_event.clear()
    ended = []

    def in_flight(number):
        began = time.monotonic()
        try:
            call(port, "series", {"currencies": "USD", "from": "1999-01-04", "to": "2026-09-30"}, ident=number,
                 timeout=20)
        except Exception:  # noqa: BLE001
            pass
        ended.append(time.monotonic() - began)

    flying = [threading.Thread(target=in_flight, args=(n,), daemon=True) for n in range(16)]
    for thread in flying:
        thread.start()
    time.sleep(0.2)
    status, took = stop(process, 10)
    for thread in flying:
        thread.join(timeout=15)
    assert status == 0, status
    assert len(ended) == 16 and max(ended) < 12, f"{len(ended)} of 16 in-flight calls ended: {ended}"
    print(f"ok: {counts['ok']} MCP calls answered ({counts['busy']} busy) beside "
          f"{http_rate.group(1) if http_rate else '?'} heavy HTTP requests/s; /healthz at worst "
          f"{max(worst) * 1000:.0f} ms; SIGTERM with 16 calls in flight: exit 0 in {took:.2f} s")


if __name__ == "__main__":
    if sys.argv[1] == "rules":
        rules(sys.argv[2], sys.argv[3], sys.argv[4])
    elif sys.argv[1] == "load":
        load(sys.argv[2], sys.argv[3])
    else:
        sys.exit(f"unknown check {sys.argv[1]}")
