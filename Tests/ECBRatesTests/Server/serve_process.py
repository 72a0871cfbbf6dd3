"""`ecbrates serve` as a child process on a free loopback port, for the checks that drive it
(access_log_check.py, mcp_http_check.py). Standard library only."""
import os
import socket
import subprocess
import time

NOW = "2026-10-01T12:00:00Z"


def free_port():
    """A loopback port nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(binary, store, extra=(), stderr=subprocess.DEVNULL):
    """Starts `BINARY serve` on STORE with EXTRA arguments (ECBRATES_NOW set); returns (process,
    port) once the port accepts connections, or fails saying why."""
    port = free_port()
    process = subprocess.Popen(
        [binary, "serve", "--listen", f"127.0.0.1:{port}", "--store", store, *extra],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=stderr, env=dict(os.environ, ECBRATES_NOW=NOW))
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return process, port
        except OSError:
            assert process.poll() is None, f"the server ended at start (exit {process.returncode})"
            time.sleep(0.05)
    raise AssertionError("the server did not start listening in 30 s")
