#!/usr/bin/env bash
# The container image, end to end with podman: built from the checkout by scripts/container
# (package, mmdebstrap base, podman build), run on a new volume, healthy on /healthz, answering
# a query as the ECB's file says, stopped by SIGTERM with exit 0, and started again on the same
# volume with the store kept (no second import).
#
#   Tests/ECBRatesTests/Deploy/container_check.sh [BINARY]
#
# BINARY: the release binary to package (default .build/release/ecbrates). On a machine that
# cannot build or run containers (no podman, runc or mmdebstrap; a kernel that refuses
# containers) it prints one line starting "SKIP:" saying why, and exits 0. Otherwise its last
# line is a summary starting "container_check: OK" (the image's size, the time from the
# container's start to a healthy /healthz, the stop's time), or it says what failed, exit 1.
#
# The containers run with ECBRATES_NOW=2026-10-01T10:00:00+02:00 (the bundled history ends on
# 2026-09-30: nothing is due, so `--refresh auto` has nothing to fetch) and ECBRATES_ECB_URL on
# a closed loopback port: the check never reaches past this machine.
set -euo pipefail
cd "$(dirname "$0")/../../.."
binary=${1:-.build/release/ecbrates}
fixture=Fixtures/eurofxref-hist.xml

skip() {
    echo "SKIP: container_check: $*"
    exit 0
}
fail() {
    echo "container_check: FAILED: $*" >&2
    [ -n "${name:-}" ] && { podman logs "$name" 2>&1 || true; } | tail -20 | sed 's/^/  log: /' >&2
    exit 1
}
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'; }

for tool in podman runc; do
    command -v "$tool" >/dev/null || skip "no $tool on this machine (Debian: apt-get install podman runc mmdebstrap)"
done
[ -x "$binary" ] || fail "no release binary at $binary (scripts/build-release)"
[ -n "${CONTAINERS_CONF:-}" ] || eval "$(scripts/container --podman-env)"
if ! podman image inspect localhost/debian:bookworm-slim >/dev/null 2>&1 && ! command -v mmdebstrap >/dev/null; then
    skip "no mmdebstrap to make the base image (Debian: apt-get install mmdebstrap)"
fi

# The image. A build that fails because this machine cannot run a container (the build's RUN
# is one) is a skip; any other failure is a failure.
started=$(now)
if ! image=$(scripts/container --binary "$binary" 2>/tmp/container_check.$$.log | tail -1); then
    if ! probe=$(podman run --rm --network host --entrypoint true localhost/debian:bookworm-slim 2>&1); then
        rm -f /tmp/container_check.$$.log
        skip "this machine cannot run containers: $(grep -m1 -i 'error' <<<"$probe" || head -1 <<<"$probe")"
    fi
    cat /tmp/container_check.$$.log >&2
    rm -f /tmp/container_check.$$.log
    fail "scripts/container failed"
fi
build_seconds=$(since "$started")
size_line=$(grep -m1 "^scripts/container: image " /tmp/container_check.$$.log || true)
rm -f /tmp/container_check.$$.log
size=$(podman image inspect --format '{{.Size}}' "$image")

# The run: a volume of its own, the image's own command line (serve --listen 0.0.0.0:8080
# --refresh auto --store /var/lib/ecbrates/rates.sqlite) published on a free loopback port;
# where podman cannot set up its bridge network, the host's network and --listen on that port.
volume=ecbrates-check-$$
name=ecbrates-check-$$
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cleanup() {
    podman rm -f -t 0 "$name" >/dev/null 2>&1 || true
    podman volume rm -f "$volume" >/dev/null 2>&1 || true
}
trap cleanup EXIT
podman volume create "$volume" >/dev/null
options=(-e ECBRATES_NOW=2026-10-01T10:00:00+02:00 -e ECBRATES_ECB_URL=http://127.0.0.1:9/)
# As Kubernetes' securityContext in deploy/kubernetes runs it: a read-only root (podman mounts
# tmpfs on /tmp, /run, /var/tmp), no capabilities, no privilege escalation.
options+=(--read-only --cap-drop ALL --security-opt no-new-privileges)
network=bridge
run() { # prints the container's id; the health check is run by hand below (no systemd timers here)
    if [ "$network" = bridge ]; then
        podman run -d --name "$name" --health-interval disable -p "127.0.0.1:$port:8080" -v "$volume:/var/lib/ecbrates" \
            "${options[@]}" "$image"
    else
        podman run -d --name "$name" --health-interval disable --network host -v "$volume:/var/lib/ecbrates" \
            "${options[@]}" "$image" serve --listen "127.0.0.1:$port" --refresh auto --store /var/lib/ecbrates/rates.sqlite
    fi
}
healthy() { # seconds from `podman run` to GET /healthz 200, or fails
    local started=$1
    for _ in $(seq 600); do
        if curl -sf -m 2 -o /dev/null "http://127.0.0.1:$port/healthz"; then
            since "$started"
            return 0
        fi
        [ "$(podman inspect --format '{{.State.Running}}' "$name")" = true ] || fail "the container exited ($(podman inspect --format '{{.State.ExitCode}}' "$name"))"
        sleep 0.05
    done
    fail "no 200 from /healthz in 30 s"
}
# How long after `podman run` the container's process started (podman's own time: with the vfs
# driver, creating a container copies the image's files).
process_start() {
    python3 - "$1" "$(podman inspect --format '{{.State.StartedAt}}' "$name")" <<'EOF'
import datetime, re, sys
m = re.match(r"(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)(\.\d+)? ([+-]\d{4})", sys.argv[2])
fraction = float(m.group(2) or 0)
started = datetime.datetime.strptime(m.group(1) + " " + m.group(3), "%Y-%m-%d %H:%M:%S %z").timestamp() + fraction
print(f"{started - float(sys.argv[1]):.2f}")
EOF
}
# Whether the container's log has a line with TEXT (conmon reads the standard output and error
# apart: a line written to one may show a moment after the other's).
logs_say() {
    for _ in $(seq 40); do
        grep -qF -- "$1" <<<"$(podman logs "$name" 2>&1)" && return 0
        sleep 0.05
    done
    return 1
}
started=$(now)
if ! run >/dev/null 2>/tmp/container_check.$$.log; then
    podman rm -f "$name" >/dev/null 2>&1 || true
    network=host
    started=$(now)
    run >/dev/null 2>>/tmp/container_check.$$.log || { cat /tmp/container_check.$$.log >&2; fail "podman run failed"; }
fi
rm -f /tmp/container_check.$$.log
first_start=$(healthy "$started")
first_process=$(process_start "$started")
podman healthcheck run "$name" >/dev/null || fail "the image's HEALTHCHECK (ecbrates-healthcheck) says unhealthy"
uid=$(podman exec "$name" id -u) || fail "podman exec id -u failed"
[ "$uid" != 0 ] || fail "the server runs as root"
logs_say "importing the history bundled" || fail "the first start did not bootstrap the store from the bundled history"

# A query, against the ECB's file (read with expat, not by ecbrates): every rate of 2024-03-28,
# and USD on its own (1.0811).
check_query() {
    curl -sf "http://127.0.0.1:$port/2024-03-28" >/tmp/container_check.$$.all || fail "GET /2024-03-28 failed"
    curl -sf "http://127.0.0.1:$port/2024-03-28?symbols=USD" >/tmp/container_check.$$.usd || fail "GET /2024-03-28?symbols=USD failed"
    python3 - "$fixture" /tmp/container_check.$$.all /tmp/container_check.$$.usd <<'EOF' || fail "the answers differ from the ECB's file"
import json, sys, xml.parsers.expat
from decimal import Decimal
days, current = {}, None
def start(name, attributes):
    global current
    if "time" in attributes:
        current = attributes["time"]; days[current] = {}
    elif "currency" in attributes:
        days[current][attributes["currency"]] = Decimal(attributes["rate"])
parser = xml.parsers.expat.ParserCreate()
parser.StartElementHandler = start
parser.ParseFile(open(sys.argv[1], "rb"))
ecb = days["2024-03-28"]
everything = json.load(open(sys.argv[2]), parse_float=Decimal, parse_int=Decimal)
usd = json.load(open(sys.argv[3]), parse_float=Decimal, parse_int=Decimal)
problems = []
if everything.get("date") != "2024-03-28" or everything.get("base") != "EUR":
    problems.append(f"/2024-03-28: {everything}")
if everything.get("rates") != ecb:
    problems.append(f"/2024-03-28: rates {everything.get('rates')}, the ECB's {ecb}")
if usd != {"amount": 1, "base": "EUR", "date": "2024-03-28", "rates": {"USD": ecb["USD"]}} or ecb["USD"] != Decimal("1.0811"):
    problems.append(f"/2024-03-28?symbols=USD: {usd}, the ECB's USD {ecb['USD']}")
for problem in problems:
    print("  " + problem, file=sys.stderr)
sys.exit(1 if problems else 0)
EOF
    rm -f /tmp/container_check.$$.all /tmp/container_check.$$.usd
}
check_query

# The imports in the store on the volume (the imports view), read on the host.
imports() {
    local mountpoint
    mountpoint=$(podman volume inspect --format '{{.Mountpoint}}' "$volume")
    python3 -c 'import sqlite3, sys; print(sqlite3.connect(f"file:{sys.argv[1]}?mode=ro", uri=True).execute("select count(*) from imports").fetchone()[0])' \
        "$mountpoint/rates.sqlite"
}

# SIGTERM: podman stop sends the image's STOPSIGNAL, then SIGKILL after 10 s (which would be
# exit 137): the server must exit 0 well before.
stopping=$(now)
podman stop -t 10 "$name" >/dev/null 2>&1 || fail "podman stop failed"
stop_seconds=$(since "$stopping")
status=$(podman inspect --format '{{.State.ExitCode}}' "$name")
[ "$status" = 0 ] || fail "after SIGTERM the server exited $status, not 0 (in $stop_seconds s)"
awk -v s="$stop_seconds" 'BEGIN { exit !(s < 5) }' || fail "SIGTERM took $stop_seconds s to stop the server (more than 5 s)"
[ "$(podman logs "$name" 2>&1 | tail -1)" = stopped ] || fail "the server's last words were not 'stopped'"
before=$(imports)
[ "$before" -ge 1 ] || fail "the store on the volume has no import"

# A new container on the same volume: the store is there, nothing is imported again.
podman rm "$name" >/dev/null 2>&1
started=$(now)
run >/dev/null 2>&1 || fail "podman run (the second) failed"
second_start=$(healthy "$started")
second_process=$(process_start "$started")
check_query
after=$(imports)
if grep -q "importing the history bundled" <<<"$(podman logs "$name" 2>&1)"; then fail "the second start imported the history again: the store did not survive"; fi
[ "$after" = "$before" ] || fail "the imports view had $before rows before the restart, $after after"
stopping=$(now)
podman stop -t 10 "$name" >/dev/null 2>&1
second_stop=$(since "$stopping")
status=$(podman inspect --format '{{.State.ExitCode}}' "$name")
[ "$status" = 0 ] || fail "the second SIGTERM: exit $status"

[ -n "$size_line" ] && echo "container_check: ${size_line#scripts/container: }"
minus() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a - b }'; }
mib=$(awk -v b="$size" 'BEGIN { printf "%.1f", b / 1048576 }')
echo "container_check: OK: image $image $mib MiB ($size bytes), built in $build_seconds s; network $network;" \
    "healthy $(minus "$first_start" "$first_process") s after the container started (bootstrap import included; ${first_start} s after podman run)," \
    "$(minus "$second_start" "$second_process") s on the kept volume (${second_start} s after podman run); runs as uid $uid;" \
    "SIGTERM: exit 0 in $stop_seconds s and $second_stop s; store kept ($after import(s), none on restart)"
exit 0
