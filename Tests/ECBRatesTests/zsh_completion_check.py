"""Completes real prefixes in an interactive zsh (a pseudo-terminal, Python's pty), as a
person does with the Tab key: loads ecbrates' zsh completion script through compinit, with
`ecbrates` a shell function that prints the line it is given, then for each prefix types it,
Tab, and Return, and prints the line as completed (one line per prefix; "[no line]" when zsh
did not run it).

    python3 zsh_completion_check.py SCRIPT_DIR "PREFIX" ...

The environment must give PATH (with the ecbrates binary, which the script asks for the
store's currency codes through `command ecbrates`) and ECBRATES_STORE, and may give ROOT, the
directory to complete file names in.
"""
import os
import pty
import select
import sys
import time

script_dir, prefixes = sys.argv[1], sys.argv[2:]
MARK = "LINE:"


def main():
    pid, fd = pty.fork()
    if pid == 0:
        env = dict(os.environ, TERM="xterm", PS1="zsh> ")
        os.execve("/usr/bin/zsh", ["zsh", "-f", "-i"], env)
    typed = (
        f"cd {os.environ.get('ROOT', '.')}; fpath=({script_dir} $fpath); autoload -U compinit; compinit -u -D; "
        f"ecbrates() {{ print -r -- \"{MARK}$*\"; }}; echo READY\n"
    )
    for prefix in prefixes:
        typed += prefix + "\t\n"
    typed += "exit\n"
    out = b""
    sent = False
    end = time.time() + 60
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
            if not sent and b"zsh> " in out:
                # One line at a time: zle reads keys as they come, so a Tab is completed before
                # the Return after it is read.
                for line in typed.splitlines(keepends=True):
                    os.write(fd, line.encode())
                    time.sleep(0.5)
                sent = True
        elif os.waitpid(pid, os.WNOHANG)[0]:
            break
    text = out.decode(errors="replace").replace("\r", "")
    lines = [line[line.index(MARK) + len(MARK):] for line in text.split("\n") if line.startswith(MARK)]
    for index in range(len(prefixes)):
        print(lines[index] if index < len(lines) else "[no line]")
    if len(lines) < len(prefixes):
        sys.stderr.write(text)


main()
