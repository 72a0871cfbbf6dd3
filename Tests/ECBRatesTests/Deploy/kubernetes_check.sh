#!/usr/bin/env bash
# Every Kubernetes manifest in deploy/kubernetes passes kubernetes-validate (PyPI), strictly
# (an unknown field is an error), against the Kubernetes version that kubernetes-validate
# defaults to (its own version's: 1.37 for 1.37.0), and against the minimum that
# deploy/kubernetes/deployment.yaml states ("Needs Kubernetes 1.29 or later"); and the
# Deployment fails against the version before it, so that the minimum stated is the real one.
#
#   Tests/ECBRatesTests/Deploy/kubernetes_check.sh [KUBERNETES_VALIDATE]
#
# KUBERNETES_VALIDATE: the program (default: .build/pyenv/bin/kubernetes-validate, which
# scripts/prerequisites installs). Prints one line per manifest and a summary; exits 1 when any
# manifest fails (or none is found), 2 when kubernetes-validate is missing.
set -euo pipefail
cd "$(dirname "$0")/../../.."
validate=${1:-.build/pyenv/bin/kubernetes-validate}
if [ ! -x "$validate" ]; then
    echo "kubernetes_check: no $validate: run scripts/prerequisites (it installs kubernetes-validate into .build/pyenv)" >&2
    exit 2
fi
shopt -s nullglob
manifests=(deploy/kubernetes/*.yaml deploy/kubernetes/*.yml)
if [ ${#manifests[@]} -eq 0 ]; then
    echo "kubernetes_check: no manifests in deploy/kubernetes" >&2
    exit 1
fi
failed=0
for manifest in "${manifests[@]}"; do
    if output=$("$validate" --strict "$manifest" 2>&1); then
        # kubernetes-validate exits 0 on a file it found no resource in: there must be one.
        if grep -q ' passed for resource ' <<<"$output"; then
            grep ' passed for resource ' <<<"$output"
        else
            echo "FAIL $manifest: no Kubernetes resource validated: $output"
            failed=$((failed + 1))
        fi
    else
        echo "FAIL $manifest: $output"
        failed=$((failed + 1))
    fi
done
# The minimum version the Deployment states, and the one before it.
minimum=$(grep -o 'Needs Kubernetes 1\.[0-9]* or later' deploy/kubernetes/deployment.yaml | grep -o '1\.[0-9]*' || true)
if [ -z "$minimum" ]; then
    echo "FAIL deploy/kubernetes/deployment.yaml does not say \"Needs Kubernetes 1.N or later\""
    failed=$((failed + 1))
else
    before=1.$((${minimum#1.} - 1))
    for manifest in "${manifests[@]}"; do
        if ! output=$("$validate" --strict -k "$minimum" "$manifest" 2>&1); then
            echo "FAIL $manifest against Kubernetes $minimum, the minimum stated: $output"
            failed=$((failed + 1))
        fi
    done
    if "$validate" --strict -k "$before" deploy/kubernetes/deployment.yaml >/dev/null 2>&1; then
        echo "FAIL deploy/kubernetes/deployment.yaml passes against Kubernetes $before too: the minimum it states ($minimum) is not the real one"
        failed=$((failed + 1))
    else
        echo "Kubernetes $minimum, the minimum stated, takes every manifest; $before refuses the Deployment"
    fi
fi
echo "kubernetes_check: $(("${#manifests[@]}" - failed)) passed, $failed failed ($("$validate" --version 2>&1 | tail -1), --strict; minimum Kubernetes ${minimum:-unknown})"
[ "$failed" -eq 0 ]
