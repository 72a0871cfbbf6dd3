"""Drives `ecbrates shell` at a real terminal (a pseudo-terminal, Python's pty) as a person
types: a command, the up arrow to recall it, then quit; then a second session recalls the first
one's line from the history file. Prints each session's transcript as JSON lines.

    python3 shell_pty_check.py BINARY STORE HOME "LINE" ...
"""
import json
import os
import pty
import select
import sys
import time

binary, store, home = sys.argv[1:4]
UP = b"\x1b[A"
PROMPT = b"ecbrates> "


def session(steps):
    """Runs one shell; `steps` are the bytes typed, each after the next prompt is shown."""
    pid, fd = pty.fork()
    if pid == 0:
        env = {k: v for k, v in os.environ.items() if k != "XDG_STATE_HOME"}
        env["HOME"] = home
        env["TERM"] = "xterm"
        os.execve(binary, [binary, "shell", "--store", store], env)
    out = b""

    def read_until(prompts, timeout=30):
        nonlocal out
        end = time.time() + timeout
        while out.count(PROMPT) < prompts and time.time() < end:
            ready, _, _ = select.select([fd], [], [], 0.2)
            if ready:
                try:
                    out += os.read(fd, 65536)
                except OSError:
                    break
        return out.count(PROMPT) >= prompts

    for number, typed in enumerate(steps, start=1):
        if not read_until(number):
            out += b"\n[no prompt]"
            break
        os.write(fd, typed)
    end = time.time() + 30
    while time.time() < end:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
        elif os.waitpid(pid, os.WNOHANG)[0]:
            break
    try:
        _, status = os.waitpid(pid, 0)
    except ChildProcessError:
        status = 0
    return out.decode("utf-8", "replace"), os.waitstatus_to_exitcode(status)


line = sys.argv[4].encode()
first = session([line + b"\r", UP + b"\r", b"quit\r"])
second = session([UP + UP + b"\r", b"quit\r"])  # quit, then the line
for transcript, status in (first, second):
    print(json.dumps({"status": status, "transcript": transcript}))
