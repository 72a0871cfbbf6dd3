#!/usr/bin/env bash
# Every Kubernetes manifest in deploy/kubernetes passes kubernetes-validate (PyPI), strictly
# (an unknown field is an error), against the Kubernetes version that kubernetes-validate
# defaults to (its own version's: 1.37 for 1.37.0).
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
echo "kubernetes_check: $(("${#manifests[@]}" - failed)) passed, $failed failed ($("$validate" --version 2>&1 | tail -1), --strict)"
[ "$failed" -eq 0 ]
