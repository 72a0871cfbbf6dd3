#!/usr/bin/env python3
"""`ecbrates serve`'s access log against the ways an operator's log pipeline misbehaves.

    access_log_check.py stall  ECBRATES STORE
    access_log_check.py rotate ECBRATES STORE FOLDER

stall: the server's standard error is a pipe that is read up to the "serving" line and never
again (a stalled journald, `serve 2>&1 | cmd` where cmd stops). First the same load with
standard error read (the usual rate), then with it stalled: wrk's 8 connections for 4 s must get
their answers at no less than a fifth of the usual rate (the bug was a 200-fold fall) with no
errors, /healthz must answer within 1 s throughout, /metrics must count the dropped lines, and
SIGTERM must end the server within 5 s. Then once more, stalled and then read again: one notice
on standard error says how many lines were dropped, as many as /metrics counted.

rotate: --access-log FOLDER/access.log; requests 1..N, `mv access.log access.log.1`, SIGHUP,
requests N+1..M: every request's line is in one of the two files, once (none lost by the
move), and every line after SIGHUP in the new file.

Prints one summary line starting "ok" (with the figures), or fails with an assertion.
"""
import http.client
import os
import re
import signal
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from serve_process import start  # noqa: E402


def get(port, path, timeout=5):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    connection.request("GET", path)
    answer = connection.getresponse()
    body = answer.read()
    connection.close()
    return answer.status, body


def wrk(port, seconds=4):
    """wrk's requests/s and errors for 8 connections on one day's rates."""
    out = subprocess.run(
        ["wrk", "-t", "2", "-c", "8", "-d", f"{seconds}s", "--timeout", "2s",
         f"http://127.0.0.1:{port}/2024-03-28?symbols=USD"],
        capture_output=True, text=True, timeout=seconds + 30).stdout
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    errors = re.search(r"Socket errors: .*|Non-2xx.*", out)
    return rate, (errors.group(0) if errors else None), out


def healthz_watch(port, stop, worst):
    while not stop.is_set():
        began = time.monotonic()
        try:
            status, _ = get(port, "/healthz", timeout=5)
            assert status == 200, status
        except Exception as failure:  # noqa: BLE001 - any failure counts as a slow answer
            worst.append(99.0)
            print(f"/healthz failed: {failure!r}", file=sys.stderr)
        worst.append(time.monotonic() - began)
        time.sleep(0.1)


def metric(port, name):
    _, body = get(port, "/metrics")
    match = re.search(rf"^{name} (\d+)$", body.decode(), re.M)
    assert match, f"no {name} in /metrics"
    return int(match.group(1))


def stall(binary, store):
    # The usual rate: standard error read to the end by a thread.
    process, port = start(binary, store, [], subprocess.PIPE)
    reader = threading.Thread(target=lambda: process.stderr.read(), daemon=True)
    reader.start()
    usual, errors, out = wrk(port)
    assert errors is None, out
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=30) == 0

    # The same load with standard error never read after the first line.
    process, port = start(binary, store, [], subprocess.PIPE)
    first = process.stderr.readline().decode()
    assert first.startswith("serving "), first
    stop, worst = threading.Event(), []
    watcher = threading.Thread(target=healthz_watch, args=(port, stop, worst), daemon=True)
    watcher.start()
    stalled, errors, out = wrk(port)
    stop.set()
    watcher.join()
    assert errors is None, out
    # The failure this catches is a collapse (workers blocked in write(2): ~300 requests/s where
    # ~70,000 were answered); a fifth of the usual rate leaves room for a machine shared with
    # other tests, and none for the collapse.
    assert stalled >= usual * 0.2, f"{stalled:.0f} requests/s with the log stalled, {usual:.0f} when read"
    assert worst and max(worst) < 1.0, f"/healthz took {max(worst):.2f} s with the log stalled"
    dropped = metric(port, "ecbrates_access_log_dropped_lines_total")
    for _ in range(10):  # a busy machine may not fill the 1 MiB buffer in 4 s: more load until it has
        if dropped > 0:
            break
        wrk(port, seconds=2)
        dropped = metric(port, "ecbrates_access_log_dropped_lines_total")
    written = metric(port, "ecbrates_access_log_written_lines_total")
    assert dropped > 0, f"no dropped lines counted ({written} written) though the log was never read"
    began = time.monotonic()
    process.send_signal(signal.SIGTERM)
    try:
        status = process.wait(timeout=5)
    except subprocess.TimeoutExpired:
        process.kill()
        raise AssertionError("SIGTERM did not end the server within 5 s with its log stalled")
    took = time.monotonic() - began
    assert status == 0, status

    # Once the log flows again, one line says how many were lost.
    process, port = start(binary, store, [], subprocess.PIPE)
    process.stderr.readline()
    # Load until the buffer (1 MiB, ~13,000 lines) has overflowed: on a busy machine 2 s may not.
    for _ in range(10):
        wrk(port, seconds=2)
        lost = metric(port, "ecbrates_access_log_dropped_lines_total")
        if lost > 0:
            break
    assert lost > 0, "no lines dropped in 20 s of load with the log stalled"
    drained = []
    reader = threading.Thread(target=lambda: drained.append(process.stderr.read()), daemon=True)
    reader.start()
    time.sleep(0.5)
    assert get(port, "/2024-03-28?symbols=USD")[0] == 200
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=30) == 0
    reader.join(timeout=10)
    notices = re.findall(rb"access log: (\d+) lines? dropped: the log's reader did not keep up", drained[0])
    assert notices, f"no notice of the dropped lines once the log flowed: {drained[0][-400:]!r}"
    # The lines /metrics counted, and /metrics' own line (logged after its answer was sent).
    assert lost <= sum(int(n) for n in notices) <= lost + 1, (notices, lost)
    print(f"ok: {stalled:.0f} requests/s with the log stalled, {usual:.0f} when read; "
          f"/healthz at worst {max(worst) * 1000:.0f} ms; {dropped} lines dropped, {written} written; "
          f"SIGTERM to exit {took:.2f} s; the notice said {int(notices[0])} lines dropped")



def rotate(binary, store, folder):
    log = os.path.join(folder, "access.log")
    process, port = start(binary, store, ["--access-log", log], subprocess.DEVNULL)
    first = [f"/2024-03-28?symbols=USD&amount={n + 1}" for n in range(300)]
    second = [f"/2024-03-28?symbols=USD&amount={n + 1}" for n in range(300, 600)]
    for path in first:
        assert get(port, path)[0] == 200
    os.rename(log, log + ".1")
    process.send_signal(signal.SIGHUP)
    deadline = time.monotonic() + 10
    while not os.path.exists(log):
        assert time.monotonic() < deadline, "SIGHUP did not make a new access.log within 10 s"
        assert process.poll() is None, f"SIGHUP ended the server ({process.returncode})"
        time.sleep(0.02)
    for path in second:
        assert get(port, path)[0] == 200
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=30) == 0
    old = open(log + ".1").read().splitlines()
    new = open(log).read().splitlines()

    def targets(lines):
        return [re.search(r" GET (\S+) ", line).group(1) for line in lines]

    old_targets, new_targets = targets(old), targets(new)
    # A line is written just after its answer is sent, so the last few before the move may land
    # in either file; every line after SIGHUP is in the new one, and none is lost or doubled.
    assert sorted(old_targets + new_targets) == sorted(first + second), (
        f"{len(old_targets)} + {len(new_targets)} lines in the two files for 600 requests")
    assert set(old_targets) <= set(first), "a request after SIGHUP was logged to the moved file"
    assert set(second) <= set(new_targets), "requests after SIGHUP are missing from the new access.log"
    print(f"ok: {len(old)} lines in access.log.1, {len(new)} in the new access.log, none lost")


if __name__ == "__main__":
    if sys.argv[1] == "stall":
        stall(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == "rotate":
        rotate(sys.argv[2], sys.argv[3], sys.argv[4])
    else:
        sys.exit(f"unknown check {sys.argv[1]}")
