#!/usr/bin/env python3
"""docs/deploy.md's commands, run as written, in order, from a clean clone of the checkout.

  deploy_doc_check.py [BINARY] [--uncommitted] [--keep]

The commands are those of the page's ```sh blocks marked for running by a comment on the line
just before the fence:

  <!-- deploy-check: run -->

(the page's other blocks install into /etc, need a registry, a cluster or docker: they are shown,
not run). Every command of those blocks runs in one bash, in the page's order (so that the
`eval "$(scripts/container --podman-env)"` of one block holds for the next, and a file one makes
is there for the next), in a clone of this checkout (`git clone`, so: what is committed;
--uncommitted also applies the work tree's changes and untracked files) whose release binary is
BINARY (default .build/release/ecbrates, copied to the clone's .build/release/ecbrates) and
whose base image is this checkout's cached one (.build/container/debian-bookworm-slim.tar, linked
with its date, when there is one: else scripts/container makes it in the clone).

A command continues on the next line after a trailing backslash. Each must exit 0; a command
followed by lines starting with "#> " must print (on its standard output) those lines, exactly
but for trailing white space, and for "…", which stands for any text within a line. Ports 8080
and 8443 of the page (127.0.0.1:PORT: in a -p and localhost:PORT) become free ones, so that
nothing on this machine is in the way.

Nothing leaves the machine: the clone's podman settings (its .build/container/podman/
containers.conf, which scripts/container keeps when it exists) give every container
ECBRATES_NOW=2026-10-01T10:00:00+02:00 (the bundled history's last day is the latest: no
refresh is due) and ECBRATES_ECB_URL on a closed loopback port; a container of three files checks
that they arrive. Afterwards, every container and volume in the clone's podman storage is
removed, then the clone.

When podman cannot start any container here (no podman; a kernel or sandbox that refuses it), it
prints one line starting "SKIP:" and exits 0. Otherwise its last line is a summary starting
"deploy_doc_check: OK", or it prints each failing command (the page's line, its output) and exits
1. Python's standard library only.
"""
import argparse
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
PAGE = "docs/deploy.md"
MARK = re.compile(r"^\s*<!--\s*deploy-check:\s*run\s*-->\s*$")
FENCE = re.compile(r"^(`{3,})\s*(\S*)\s*$")
ELLIPSIS = "\u2026"
PORTS = (8080, 8443)
CONTAINER_ENV = ["PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "TERM=xterm",
                 "ECBRATES_NOW=2026-10-01T10:00:00+02:00", "ECBRATES_ECB_URL=http://127.0.0.1:9/"]
TIMEOUT = 1800


class Skip(Exception):
    pass


def fail(message):
    print(f"deploy_doc_check: FAILED: {message}", file=sys.stderr)
    sys.exit(1)


def marked_blocks(path):
    """[(line number of the fence, [lines])] of the ```sh blocks marked for running."""
    lines = path.read_text(encoding="utf-8").split("\n")
    blocks, index = [], 0
    while index < len(lines):
        fence = FENCE.match(lines[index])
        if not fence:
            index += 1
            continue
        start, marked = index, index > 0 and MARK.match(lines[index - 1])
        body = []
        index += 1
        while index < len(lines) and lines[index].strip() != fence.group(1):
            body.append(lines[index])
            index += 1
        index += 1
        if marked:
            if fence.group(2) != "sh":
                fail(f"{PAGE}:{start + 1}: a deploy-check mark on a block that is not sh ({fence.group(2)!r})")
            blocks.append((start + 1, body))
    return blocks


def commands(start, body):
    """[(line, text, expected lines or None)] of one block."""
    result, index = [], 0
    while index < len(body):
        line = body[index]
        number = start + 1 + index
        index += 1
        stripped = line.strip()
        if stripped.startswith("#> ") or stripped == "#>":
            if not result:
                fail(f"{PAGE}:{number}: an output line (#>) before any command")
            expected = result[-1][2] if result[-1][2] is not None else []
            expected.append(stripped[3:])
            result[-1] = (result[-1][0], result[-1][1], expected)
            continue
        if not stripped or stripped.startswith("#"):
            continue
        text = line
        while text.endswith("\\") and index < len(body):
            text += "\n" + body[index]
            index += 1
        result.append((number, text, None))
    return result


def matches(expected, actual):
    pattern = "".join("[^\n]*?".join(re.escape(piece) for piece in line.rstrip().split(ELLIPSIS)) + "\n"
                      for line in expected)
    return re.fullmatch(pattern, "".join(line.rstrip() + "\n" for line in actual)) is not None


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def run(argv, **options):
    return subprocess.run(argv, capture_output=True, text=True, **options)


def probe_root(folder, programs):
    """A root file system of these programs and the libraries they load."""
    for program in programs:
        files = [program] + re.findall(r"(/\S+) \(0x", run(["ldd", program]).stdout)
        for file in set(files):
            target = folder / file.lstrip("/")
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(file, target)


def main():
    parser = argparse.ArgumentParser(description="Runs docs/deploy.md's commands from a clean clone.")
    parser.add_argument("binary", nargs="?", default=str(ROOT / ".build/release/ecbrates"))
    parser.add_argument("--uncommitted", action="store_true", help="apply the work tree's changes to the clone")
    parser.add_argument("--keep", action="store_true", help="keep the clone (its path is printed)")
    arguments = parser.parse_args()
    binary = Path(arguments.binary).resolve()
    if not os.access(binary, os.X_OK):
        fail(f"no release binary at {binary} (scripts/build-release)")
    if not shutil.which("podman"):
        print("SKIP: deploy_doc_check: podman cannot start any container here: there is no podman "
              "(Debian: apt-get install podman runc mmdebstrap)")
        return 0

    started = time.monotonic()
    scratch = Path(tempfile.mkdtemp(prefix="deploy_doc_check."))
    clone = scratch / "ecbrates"
    environment = {k: v for k, v in os.environ.items() if k not in ("CONTAINERS_CONF", "CONTAINERS_STORAGE_CONF")}
    podman_environment = None
    try:
        # The clone, its release binary and its cached base.
        cloned = run(["git", "clone", "-q", str(ROOT), str(clone)])
        if cloned.returncode != 0:
            fail(f"git clone {ROOT}: {cloned.stderr}")
        if arguments.uncommitted:
            diff = run(["git", "diff", "HEAD", "--binary"], cwd=ROOT).stdout
            if diff:
                applied = subprocess.run(["git", "apply"], cwd=clone, input=diff, capture_output=True, text=True)
                if applied.returncode != 0:
                    fail(f"git apply (--uncommitted): {applied.stderr}")
            for name in run(["git", "ls-files", "--others", "--exclude-standard", "-z"], cwd=ROOT).stdout.split("\0"):
                if name:
                    (clone / name).parent.mkdir(parents=True, exist_ok=True)
                    shutil.copy2(ROOT / name, clone / name)
        (clone / ".build/release").mkdir(parents=True)
        shutil.copy2(binary, clone / ".build/release/ecbrates")
        base = ROOT / ".build/container/debian-bookworm-slim.tar"
        base_note = "the base made in the clone"
        if base.is_file() and time.time() - base.stat().st_mtime < 6.5 * 86400:
            (clone / ".build/container").mkdir(parents=True, exist_ok=True)
            try:
                os.link(base, clone / ".build/container" / base.name)
            except OSError:
                shutil.copy2(base, clone / ".build/container" / base.name)
            base_note = "the cached base"

        # The clone's podman settings, as scripts/container writes them, and the containers' environment.
        exported = run(["scripts/container", "--podman-env"], cwd=clone, env=environment)
        settings = dict(re.findall(r"(CONTAINERS_\w+)=(\S+)", exported.stdout))
        if exported.returncode != 0 or set(settings) != {"CONTAINERS_CONF", "CONTAINERS_STORAGE_CONF"}:
            fail(f"scripts/container --podman-env in the clone: {exported.stdout}{exported.stderr}")
        for value in settings.values():
            if not Path(value).resolve().is_relative_to(scratch.resolve()):
                fail(f"the clone's podman settings are outside it: {value}")
        conf = Path(settings["CONTAINERS_CONF"])
        text = conf.read_text()
        if "[containers]\n" not in text or "\nenv" in text:
            fail(f"{conf}: not the containers.conf scripts/container writes:\n{text}")
        conf.write_text(text.replace(
            "[containers]\n",
            "[containers]\n# deploy_doc_check.py: the bundled history is current, the ECB unreachable.\n"
            f"env = [{', '.join(chr(34) + e + chr(34) for e in CONTAINER_ENV)}]\n", 1))
        podman_environment = dict(environment, **settings)

        # Whether podman can start a container at all (a root of /bin/true, env and their
        # libraries), and whether the containers get the environment above.
        probe = scratch / "probe"
        probe_root(probe, ["/bin/true", "/usr/bin/env"])
        tried = run(["podman", "run", "--rm", "--network", "none", "--rootfs", str(probe), "/bin/true"],
                    env=podman_environment, timeout=300)
        if tried.returncode != 0:
            why = next((line for line in tried.stderr.splitlines() if "rror" in line), tried.stderr.strip()[:300])
            raise Skip(f"podman cannot start any container here: {why}")
        shown = run(["podman", "run", "--rm", "--network", "none", "--rootfs", str(probe), "/usr/bin/env"],
                    env=podman_environment, timeout=300)
        for variable in CONTAINER_ENV[2:]:
            if variable not in shown.stdout.split("\n"):
                fail(f"the clone's containers.conf does not give containers {variable}: {shown.stdout}{shown.stderr}")

        # The page's commands, in one bash.
        page = clone / PAGE
        blocks = marked_blocks(page)
        if not blocks:
            fail(f"{PAGE} has no block marked <!-- deploy-check: run -->")
        ports = {port: free_port() for port in PORTS}
        steps = [command for start, body in blocks for command in commands(start, body)]
        out = scratch / "out"
        out.mkdir()
        script = ["cd " + str(clone)]
        for number, (line, text, _) in enumerate(steps):
            for port, free in ports.items():
                text = text.replace(f"127.0.0.1:{port}:", f"127.0.0.1:{free}:").replace(f"localhost:{port}", f"localhost:{free}")
            script.append(f'date +%s.%N >"{out}/{number}.start"')
            script.append(f'{{ {text}\n}} >"{out}/{number}.out" 2>"{out}/{number}.err" </dev/null')
            script.append(f'__status=$?; echo $__status >"{out}/{number}.status"; [ $__status = 0 ] || exit 1')
        script.append(f'date +%s.%N >"{out}/end"')
        try:
            shell = subprocess.run(["bash", "--noprofile", "--norc", "-c", "\n".join(script)], env=environment,
                                   stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=TIMEOUT,
                                   start_new_session=True)
            shell_said = (shell.stdout + shell.stderr).strip()
        except subprocess.TimeoutExpired:
            shell_said = f"(the commands did not finish in {TIMEOUT} s)"

        # What each command did.
        failures, ran, compared, seconds = [], 0, 0, {}
        for number, (line, text, expected) in enumerate(steps):
            status_file = out / f"{number}.status"
            if not status_file.exists():
                if not failures:
                    failures.append(f"{PAGE}:{line}: $ {text}\n  never finished or never ran. {shell_said}")
                break
            ran += 1
            status = int(status_file.read_text())
            output = (out / f"{number}.out").read_text(errors="replace")
            errors = (out / f"{number}.err").read_text(errors="replace")
            ends = out / f"{number + 1}.start" if number + 1 < len(steps) else out / "end"
            if ends.exists():
                seconds[line] = float(ends.read_text()) - float((out / f"{number}.start").read_text())
            if status != 0:
                failures.append(f"{PAGE}:{line}: $ {text}\n  exit {status}\n{indent(output + errors)}")
                break
            if expected is not None:
                compared += 1
                actual = output.rstrip("\n").split("\n") if output else []
                if not matches(expected, actual):
                    failures.append(f"{PAGE}:{line}: $ {text}\n  printed:\n{indent(output)}\n  not:\n"
                                    f"{indent(chr(10).join(expected))}\n  (its standard error:)\n{indent(errors)}")
        if failures:
            for failure in failures:
                print(f"deploy_doc_check: FAILED: {failure}", file=sys.stderr)
            return 1
        build = next((seconds[l] for l, t, _ in steps
                      if t.strip().startswith("scripts/container") and "--podman-env" not in t and l in seconds), None)
        leftovers = run(["podman", "ps", "-aq"], env=podman_environment).stdout.split()
        print(f"deploy_doc_check: OK: {ran} commands of {len(blocks)} blocks of {PAGE} ran in order in a clean clone "
              f"with {base_note}, each exit 0, {compared} outputs as the page shows them; "
              f"{time.monotonic() - started:.0f} s in all"
              + (f" (scripts/container {build:.0f} s)" if build else "")
              + f"; {len(leftovers)} container(s) left by the page, removed")
        return 0
    except Skip as skip:
        print(f"SKIP: deploy_doc_check: {skip}")
        return 0
    finally:
        if podman_environment:
            for command in (["podman", "rm", "-af", "-t", "0"], ["podman", "volume", "rm", "-af"]):
                subprocess.run(command, env=podman_environment, capture_output=True, timeout=300)
        if arguments.keep:
            print(f"deploy_doc_check: kept {scratch}")
        else:
            shutil.rmtree(scratch, ignore_errors=True)


def indent(text):
    return "\n".join("    " + line for line in text.rstrip("\n").split("\n"))


if __name__ == "__main__":
    sys.exit(main())
