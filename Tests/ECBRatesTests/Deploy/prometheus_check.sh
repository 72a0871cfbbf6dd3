#!/usr/bin/env bash
# deploy/prometheus/ecbrates-alerts.yaml, the alerting rules docs/deploy.md gives: Prometheus's
# own promtool accepts the file (`promtool check rules`) and its unit tests pass (`promtool test
# rules deploy/prometheus/ecbrates-alerts.test.yaml`: each alert fires when it should and not
# before); the file has the expected groups, every alert a severity and a summary and a unit test;
# and every metric its expressions name is one that a real `ecbrates serve` exports on /metrics
# (scraped here from BINARY, on a store imported from Fixtures/eurofxref-hist.xml).
#
#   Tests/ECBRatesTests/Deploy/prometheus_check.sh [BINARY]
#
# BINARY: the ecbrates executable (default .build/release/ecbrates). Needs promtool (Debian's
# prometheus package, which scripts/prerequisites installs) and PyYAML (in .build/pyenv, or the
# system's python3-yaml). Its last line is a summary starting "prometheus_check: OK", or it says
# what failed, exit 1; exit 2 when promtool or PyYAML is missing.
set -euo pipefail
cd "$(dirname "$0")/../../.."
binary=${1:-.build/release/ecbrates}
rules=deploy/prometheus/ecbrates-alerts.yaml
tests=deploy/prometheus/ecbrates-alerts.test.yaml

fail() {
    echo "prometheus_check: FAILED: $*" >&2
    exit 1
}
command -v promtool >/dev/null || {
    echo "prometheus_check: no promtool (Debian: apt-get install prometheus; scripts/prerequisites does)" >&2
    exit 2
}
python=.build/pyenv/bin/python3
[ -x "$python" ] && "$python" -c 'import yaml' 2>/dev/null || python=python3
"$python" -c 'import yaml' 2>/dev/null || {
    echo "prometheus_check: no PyYAML (scripts/prerequisites installs it into .build/pyenv; Debian: python3-yaml)" >&2
    exit 2
}
[ -x "$binary" ] || fail "no ecbrates executable at $binary"

check=$(promtool check rules "$rules" 2>&1) || fail "promtool check rules $rules: $check"
unit=$(cd "$(dirname "$tests")" && promtool test rules "$(basename "$tests")" 2>&1) ||
    fail "promtool test rules $tests: $unit"

# What /metrics exports: a server on a store with an import (so that the import's gauges are there).
work=$(mktemp -d)
server=""
cleanup() {
    [ -n "$server" ] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT
export ECBRATES_NOW=2026-10-01T12:00:00Z
"$binary" import Fixtures/eurofxref-hist.xml --store "$work/rates.sqlite" --quiet || fail "the store's import failed"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$binary" serve --listen "127.0.0.1:$port" --store "$work/rates.sqlite" --access-log "$work/access.log" 2>"$work/serve.log" &
server=$!
for _ in $(seq 100); do
    curl -sf -o "$work/metrics.txt" "http://127.0.0.1:$port/metrics" && break
    sleep 0.1
done
[ -s "$work/metrics.txt" ] || fail "no /metrics from $binary serve: $(cat "$work/serve.log")"

"$python" - "$rules" "$tests" "$work/metrics.txt" "$(grep -c '^  SUCCESS' <<<"$check$unit")" <<'PYTHON'
import re, sys, yaml

rules_path, tests_path, metrics_path = sys.argv[1:4]
problems = []

# The metric names /metrics exports: "# TYPE name kind", and a histogram's or summary's series.
exported = set()
for line in open(metrics_path):
    match = re.match(r"# TYPE (\S+) (\S+)", line)
    if match:
        name, kind = match.groups()
        exported.add(name)
        if kind in ("histogram", "summary"):
            exported |= {name + suffix for suffix in ("_bucket", "_sum", "_count")}

document = yaml.safe_load(open(rules_path))
groups = {group["name"]: group["rules"] for group in document["groups"]}
wanted = {"ecbrates-data": {"EcbratesRatesLate", "EcbratesRatesStale"}, "ecbrates-access-log": {"EcbratesAccessLogDropping"}}
for group, alerts in wanted.items():
    if group not in groups:
        problems.append(f"no group {group} (the groups: {', '.join(groups)})")
    elif not alerts <= {rule.get("alert") for rule in groups[group]}:
        problems.append(f"group {group} lacks {', '.join(sorted(alerts - {rule.get('alert') for rule in groups[group]}))}")

# PromQL's words that are not metric names: functions, aggregations, keywords (extend when a rule
# uses another).
PROMQL = {"abs", "absent", "absent_over_time", "avg", "avg_over_time", "bool", "bottomk", "by", "ceil", "changes",
          "clamp_max", "clamp_min", "count", "count_over_time", "day_of_week", "delta", "deriv", "floor", "group",
          "group_left", "group_right", "histogram_quantile", "hour", "idelta", "ignoring", "increase", "irate",
          "label_replace", "last_over_time", "max", "max_over_time", "min", "min_over_time", "offset", "on",
          "or", "and", "unless", "predict_linear", "quantile", "quantile_over_time", "rate", "resets", "round",
          "scalar", "sort", "stddev", "sum", "sum_over_time", "time", "timestamp", "topk", "vector", "without"}
named = set()
tested = set()
for test in yaml.safe_load(open(tests_path))["tests"]:
    for case in test.get("alert_rule_test", []):
        if case.get("exp_alerts"):
            tested.add(case["alertname"])
alerts = []
for group, rules in groups.items():
    for rule in rules:
        name = rule.get("alert") or rule.get("record")
        alerts.append(name)
        expression = rule["expr"]
        # Out: strings, label matchers and grouping clauses ({…}, by (…), on (…)), ranges [10m], numbers.
        bare = re.sub(r'"(?:[^"\\]|\\.)*"', " ", expression)
        bare = re.sub(r"\{[^}]*\}", " ", bare)
        bare = re.sub(r"\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", " ", bare)
        bare = re.sub(r"\[[^\]]*\]", " ", bare)
        for word in re.findall(r"[A-Za-z_:][A-Za-z0-9_:]*", bare):
            if word in PROMQL:
                continue
            named.add(word)
            if word not in exported:
                problems.append(f"{name}: {word} is not a metric that `ecbrates serve` exports on /metrics")
        if rule.get("alert"):
            if rule.get("labels", {}).get("severity") not in ("warning", "critical"):
                problems.append(f"{name}: no severity label (warning or critical)")
            if not rule.get("annotations", {}).get("summary"):
                problems.append(f"{name}: no summary annotation")
            if name not in tested:
                problems.append(f"{name}: no unit test in {tests_path} expects it to fire")
for problem in problems:
    print(f"prometheus_check: FAILED: {problem}", file=sys.stderr)
if problems:
    sys.exit(1)
print(f"prometheus_check: OK: {len(alerts)} alerts in {len(groups)} groups ({', '.join(groups)}); promtool check rules"
      f" and test rules pass (each alert fires in a unit test); the metrics they name ({', '.join(sorted(named))})"
      f" are all among the {len(exported)} series names /metrics exports")
PYTHON
