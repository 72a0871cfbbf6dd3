#!/usr/bin/env bash
# The container image, end to end with podman: built from the checkout by scripts/container
# (package, mmdebstrap base, podman build), run on a new volume, healthy on /healthz, answering
# a query as the ECB's file says, stopped by SIGTERM with exit 0, and started again on the same
# volume with the store kept (no second import); then run with TLS (--tls-cert/--tls-key from a
# test CA made here with openssl, the key mounted root-owned, group 10001, mode 0640): healthy by
# the image's own HEALTHCHECK (`podman healthcheck run`), and over https (curl --cacert) a query
# agrees with the ECB's file to the digit; and a key the server cannot read (root's, mode 0600)
# makes it exit 64 naming the file.
#
#   Tests/ECBRatesTests/Deploy/container_check.sh [BINARY]
#
# BINARY: the release binary to package (default .build/release/ecbrates). When podman cannot
# start any container on this machine (no podman; a kernel or sandbox that refuses it), which it
# tries first with a root file system of three files (/bin/true and its libraries, no image), it
# prints one line starting "SKIP:" saying why, and exits 0; nothing else is a skip (a missing
# mmdebstrap or runc fails, naming the package). Otherwise its last line is a summary starting
# "container_check: OK" (the image's size and build time, the time from the container's start
# to healthy, with and without TLS, the stop's time), or it says what failed, exit 1.
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

command -v podman >/dev/null || skip "podman cannot start any container here: there is no podman (Debian: apt-get install podman runc mmdebstrap)"
[ -x "$binary" ] || fail "no release binary at $binary (scripts/build-release)"
[ -n "${CONTAINERS_CONF:-}" ] || eval "$(scripts/container --podman-env)"
command -v runc >/dev/null || fail "no runc, the runtime scripts/container configures podman with (Debian: apt-get install runc)"
work=$(mktemp -d /tmp/container_check.XXXXXX)
chmod 0755 "$work" # the TLS files' folder below is mounted into the containers: uid 10001 enters it
volume=ecbrates-check-$$
plain_name=ecbrates-check-$$
name=$plain_name # the container whose log fail shows
cleanup() {
    podman rm -f -t 0 "$plain_name" "$plain_name-tls" "$plain_name-key" >/dev/null 2>&1 || true
    podman volume rm -f "$volume" >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT

# Whether podman can start a container at all: one whose root is /bin/true and the libraries it
# loads (no image needed); its error is the reason for the skip.
probe=$work/probe
mkdir -p "$probe/bin"
cp /bin/true "$probe/bin/"
for library in $(ldd /bin/true | grep -o '/[^ ]*'); do
    mkdir -p "$probe$(dirname "$library")"
    cp "$library" "$probe$library"
done
if ! why=$(podman run --rm --network none --rootfs "$probe" /bin/true 2>&1); then
    skip "podman cannot start any container here: $(grep -m1 -i 'error' <<<"$why" || head -1 <<<"$why")"
fi
if ! podman image inspect localhost/debian:bookworm-slim >/dev/null 2>&1 && ! command -v mmdebstrap >/dev/null; then
    fail "no mmdebstrap to make the base image (Debian: apt-get install mmdebstrap)"
fi

# The image (the base made with mmdebstrap when none is cached).
started=$(now)
if ! image=$(scripts/container --binary "$binary" 2>"$work/build.log" | tail -1); then
    cat "$work/build.log" >&2
    fail "scripts/container failed"
fi
build_seconds=$(since "$started")
size_line=$(grep -m1 "^scripts/container: image " "$work/build.log" || true)
base_line=$(grep -m1 "^scripts/container: made the base in " "$work/build.log" || true)
size=$(podman image inspect --format '{{.Size}}' "$image")

# The run: a volume of its own, the image's own command line (serve --listen 0.0.0.0:8080
# --refresh auto --store /var/lib/ecbrates/rates.sqlite) published on a free loopback port;
# where podman cannot set up its bridge network, the host's network and --listen on that port.
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
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
process_start() { # STARTED [NAME]
    python3 - "$1" "$(podman inspect --format '{{.State.StartedAt}}' "${2:-$name}")" <<'EOF'
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
if ! run >/dev/null 2>"$work/run.log"; then
    podman rm -f "$name" >/dev/null 2>&1 || true
    network=host
    started=$(now)
    run >/dev/null 2>>"$work/run.log" || { cat "$work/run.log" >&2; fail "podman run failed"; }
fi
first_start=$(healthy "$started")
first_process=$(process_start "$started")
podman healthcheck run "$name" >/dev/null || fail "the image's HEALTHCHECK (ecbrates-healthcheck) says unhealthy"
uid=$(podman exec "$name" id -u) || fail "podman exec id -u failed"
[ "$uid" != 0 ] || fail "the server runs as root"
logs_say "importing the history bundled" || fail "the first start did not bootstrap the store from the bundled history"

# A query, against the ECB's file (read with expat, not by ecbrates): every rate of 2024-03-28,
# and USD on its own (1.0811).
check_query() {
    curl -sf "http://127.0.0.1:$port/2024-03-28" >"$work/all.json" || fail "GET /2024-03-28 failed"
    curl -sf "http://127.0.0.1:$port/2024-03-28?symbols=USD" >"$work/usd.json" || fail "GET /2024-03-28?symbols=USD failed"
    python3 - "$fixture" "$work/all.json" "$work/usd.json" <<'EOF' || fail "the answers differ from the ECB's file"
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

# TLS: a test CA and a certificate it signs for localhost and 127.0.0.1; the key root's, group
# 10001 (the image's user), mode 0640, as docs/deploy.md says; its folder mounted read-only.
tls=$work/tls
mkdir -m 0755 "$tls"
(
    cd "$tls"
    openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -days 2 -subj "/CN=container_check test CA"
    openssl req -newkey rsa:2048 -nodes -keyout server.key -out server.csr -subj "/CN=localhost"
    printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\n' >server.ext
    openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem -days 2 -extfile server.ext
    rm ca.key server.csr server.ext
    chmod 0644 ca.pem server.pem
    chown 0:10001 server.key
    chmod 0640 server.key
) >"$work/openssl.log" 2>&1 || { cat "$work/openssl.log" >&2; fail "openssl could not make the test CA"; }
tls_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
tls_options=(-v "$volume:/var/lib/ecbrates" -v "$tls:/etc/ecbrates/tls:ro" "${options[@]}")
tls_serve=(--refresh auto --store /var/lib/ecbrates/rates.sqlite --tls-cert /etc/ecbrates/tls/server.pem
    --tls-key /etc/ecbrates/tls/server.key)
if [ "$network" = bridge ]; then
    tls_run=(podman run -d --name "$name-tls" --health-interval disable -p "127.0.0.1:$tls_port:8443" "${tls_options[@]}"
        "$image" serve --listen 0.0.0.0:8443 "${tls_serve[@]}")
else # the host's network: the health listener on a free port of its own, not the entrypoint's 8079
    health_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    tls_run=(podman run -d --name "$name-tls" --health-interval disable --network host
        -e "ECBRATES_HEALTH_LISTEN=127.0.0.1:$health_port" "${tls_options[@]}"
        "$image" serve --listen "127.0.0.1:$tls_port" "${tls_serve[@]}")
fi
name=$plain_name-tls
started=$(now)
"${tls_run[@]}" >/dev/null 2>"$work/run.log" || { cat "$work/run.log" >&2; fail "podman run (TLS) failed"; }
# The image's HEALTHCHECK, as podman runs it, until it says healthy (30 s at most).
tls_healthy="" verdict=""
for _ in $(seq 300); do
    if verdict=$(podman healthcheck run "$name" 2>&1); then
        tls_healthy=$(since "$started")
        break
    fi
    [ "$(podman inspect --format '{{.State.Running}}' "$name")" = true ] ||
        fail "the TLS container exited ($(podman inspect --format '{{.State.ExitCode}}' "$name"))"
    sleep 0.1
done
[ -n "$tls_healthy" ] || fail "podman healthcheck run never said healthy in 30 s with --tls-cert (last: $verdict)"
tls_process=$(process_start "$started")
logs_say "health checks (/healthz, /metrics) on http://127.0.0.1:" ||
    fail "the server does not say it listens for health checks (the entrypoint's --health-listen)"
# Over https, verified with the test CA: one day, a few currencies, each rate with the digits the
# ECB's file writes.
tls_day=2025-01-10 tls_symbols=USD,JPY,GBP,CHF,HUF,ISK
curl -sS --fail --cacert "$tls/ca.pem" -o "$work/tls.json" "https://localhost:$tls_port/$tls_day?symbols=$tls_symbols" \
    2>"$work/curl.log" || fail "GET https://localhost:$tls_port/$tls_day with --cacert: $(cat "$work/curl.log")"
tls_rates=$(python3 - "$fixture" "$work/tls.json" "$tls_day" "$tls_symbols" <<'PYTHON'
import json, sys, xml.parsers.expat
days, current = {}, None
def start(name, attributes):
    global current
    if "time" in attributes:
        current = attributes["time"]; days[current] = {}
    elif "currency" in attributes:
        days[current][attributes["currency"]] = attributes["rate"]
parser = xml.parsers.expat.ParserCreate()
parser.StartElementHandler = start
parser.ParseFile(open(sys.argv[1], "rb"))
day, symbols = sys.argv[3], sys.argv[4].split(",")
ecb = {symbol: days[day][symbol] for symbol in symbols}
# The numbers as written (parse_float and parse_int keep their text): the ECB's digits, not only its values.
answer = json.load(open(sys.argv[2]), parse_float=str, parse_int=str)
expected = {"amount": "1", "base": "EUR", "date": day, "rates": ecb}
if answer != expected:
    print(f"  https /{day}?symbols={sys.argv[4]}: {answer}\n  the ECB's: {expected}", file=sys.stderr)
    sys.exit(1)
print(", ".join(f"{symbol} {rate}" for symbol, rate in ecb.items()))
PYTHON
) || fail "the https answer differs from the ECB's file"
podman stop -t 10 "$name" >/dev/null 2>&1 || fail "podman stop (TLS) failed"
status=$(podman inspect --format '{{.State.ExitCode}}' "$name")
[ "$status" = 0 ] || fail "after SIGTERM the TLS server exited $status, not 0"

# A key the server cannot read (root's, mode 0600, as a secret is often written): exit 64 at
# once, naming the file, rather than a server that never answers.
name=$plain_name-key
cp "$tls/server.key" "$tls/root.key"
chown 0:0 "$tls/root.key"
chmod 0600 "$tls/root.key"
key_status=0
podman run --name "$name" --network none -e ECBRATES_BOOTSTRAP=0 -v "$tls:/etc/ecbrates/tls:ro" "${options[@]}" "$image" serve \
    --store /tmp/rates.sqlite --tls-cert /etc/ecbrates/tls/server.pem --tls-key /etc/ecbrates/tls/root.key \
    >"$work/key.log" 2>&1 || key_status=$?
[ "$key_status" = 64 ] || fail "with a key uid 10001 cannot read, the container exited $key_status, not 64: $(cat "$work/key.log")"
grep -q "/etc/ecbrates/tls/root.key: cannot be read" "$work/key.log" ||
    fail "with a key uid 10001 cannot read, the server does not name it: $(cat "$work/key.log")"
name=$plain_name

[ -n "$base_line" ] && echo "container_check: ${base_line#scripts/container: }"
[ -n "$size_line" ] && echo "container_check: ${size_line#scripts/container: }"
minus() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a - b }'; }
mib=$(awk -v b="$size" 'BEGIN { printf "%.1f", b / 1048576 }')
echo "container_check: OK: image $image $mib MiB ($size bytes), built in $build_seconds s; network $network;" \
    "healthy $(minus "$first_start" "$first_process") s after the container started (bootstrap import included; ${first_start} s after podman run)," \
    "$(minus "$second_start" "$second_process") s on the kept volume (${second_start} s after podman run); runs as uid $uid;" \
    "SIGTERM: exit 0 in $stop_seconds s and $second_stop s; store kept ($after import(s), none on restart);" \
    "TLS: healthy by podman healthcheck run $(minus "$tls_healthy" "$tls_process") s after the container started" \
    "($tls_healthy s after podman run), https /$tls_day?symbols=… as the ECB's file ($tls_rates);" \
    "a root-owned 0600 key: exit 64 naming it"
exit 0
