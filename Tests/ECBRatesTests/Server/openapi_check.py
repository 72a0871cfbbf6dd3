#!/usr/bin/env python3
"""The OpenAPI document of `/api/` checked with real tools: openapi-spec-validator reads it as
OpenAPI 3.1, then Schemathesis sends it seeded requests at a live `ecbrates serve` and checks
every answer against it.

  openapi_check.py BASE_URL SPEC.json --seed N --max-examples N
                   [--phases examples,coverage,fuzzing] [--checks NAME,NAME,…]

BASE_URL is where `ecbrates serve` listens (http://127.0.0.1:PORT); SPEC.json the document.
Prints one summary line, `operations O, requests R, failures F` (and `ok` on its own line when
F is 0); else, for each distinct failure, the operation, the request (method and URL), the
status answered, the check and why, and exits 1. A document that is not valid OpenAPI 3.1, or
a run that Schemathesis could not finish (the server unreachable, an operation it could not
generate), also exits 1, saying why; bad arguments exit 2.

The libraries, from PyPI into .build/pyenv by scripts/prerequisites: openapi-spec-validator
0.9.0 (OpenAPIV31SpecValidator: the document against the OpenAPI 3.1 meta-schema, then its
references, parameters and operation ids), schemathesis 4.32.5 (its Python engine, the one its
CLI runs, driven here without the CLI so that the seed, the phases and the checks are set in
code) and jsonschema 4.26.0.

What Schemathesis does here, per operation:
  - phases `examples` (the document's own examples, if any), `coverage` (a deterministic walk
    of each parameter's edges: each enum value, a pattern's boundary, a missing or duplicated
    parameter, values of the wrong type) and `fuzzing` (Hypothesis: --max-examples cases per
    operation, valid and invalid ones, `generation.mode = all`); no `stateful` phase (the
    document has no links). The coverage phase's count is fixed by the document, not by
    --max-examples; `--phases fuzzing` leaves it out.
  - the checks (by default, all of Schemathesis's): not_a_server_error (no 5xx),
    status_code_conformance (the status is one the operation documents),
    content_type_conformance, response_schema_conformance (the body validates against its
    schema, formats included), response_headers_conformance, positive_data_acceptance (a
    schema-valid request is answered, 2xx, 3xx or 404, or 422 for a question its values together
    leave without an answer: see POSITIVE_STATUSES), negative_data_rejection (a schema-invalid one is refused with a 4xx),
    missing_required_header, unsupported_method (405 for a method the document does not list),
    allow_header_conformance (OPTIONS' Allow lists exactly the document's methods), and the
    authentication and resource checks, which find nothing to check here.

Deterministic: the seed given, Hypothesis derandomized with it (generation.deterministic with an
explicit seed), no example database (generation.database = "none": nothing replayed from an
earlier run), Hypothesis's own caches in a temporary directory of the run (no .hypothesis/ in
the working directory), no Schemathesis cache (cache.enabled = false), one
worker, no shrinking (each failure is reported as first found, and the request count does not
depend on how a failure shrinks). The same seed against the same server and store sends the
same requests.

Offline: every request goes to BASE_URL; the document is read from its file (a remote $ref is
not followed: keep the document self-contained). Schemathesis 4 has no telemetry (the 3.x
upload to its service is gone, and nothing in 4.x reads SCHEMATHESIS_TELEMETRY), and
Hypothesis sends nothing; SCHEMATHESIS_TELEMETRY=false is set all the same, for any version
that reads it.

Requests are counted by an `after_call` hook (every response to a generated case, each
unexpected-method and coverage case included) and checked against the interactions Schemathesis
recorded (what its reports count); the summary line gives the hook's count. Before the cases,
Schemathesis sends two probes of its own (GET / and GET /schemathesis-probe…, both 404 here),
which neither count includes. A run that made no request fails.
"""
import argparse
import json
import os
import sys
import tempfile
from collections import OrderedDict

os.environ.setdefault("SCHEMATHESIS_TELEMETRY", "false")

from hypothesis.configuration import set_hypothesis_home_dir  # noqa: E402
from openapi_spec_validator import OpenAPIV31SpecValidator  # noqa: E402

import schemathesis  # noqa: E402
import schemathesis.specs.openapi.checks  # noqa: E402,F401 (registers the OpenAPI checks by name)
from schemathesis.checks import CHECKS  # noqa: E402
from schemathesis.engine import Status, events, from_schema  # noqa: E402

# Every check Schemathesis has: those about authentication (the API has none) and about
# resources made by one request and used by another (no links, no stateful phase) find nothing
# to check, and are on all the same, so that a future document that gives them work is checked.
DEFAULT_CHECKS = sorted(CHECKS.get_all_names())
# What a schema-valid request may get: Schemathesis's defaults (2xx, 3xx, 401, 403, 404, 409,
# 429, 5xx: a 5xx is not_a_server_error's to catch), and 422, which /api/ gives to parameters
# each well-formed that together ask what has no answer (statistic without group, from after
# to: a dependency between query parameters that OpenAPI 3.1 cannot state) and to a batch row
# that is not good data (a well-formed CSV naming a day without a rate), as the document says.
POSITIVE_STATUSES = ["2xx", "3xx", "401", "403", "404", "409", "422", "429", "5xx"]
PHASES = ["examples", "coverage", "fuzzing"]

calls = {"count": 0}


@schemathesis.hook
def after_call(context, case, response):
    calls["count"] += 1


def names(text, allowed, what):
    chosen = [name.strip() for name in text.split(",") if name.strip()]
    for name in chosen:
        if allowed is not None and name not in allowed:
            raise SystemExit(f"openapi_check.py: unknown {what} {name!r} (one of {', '.join(allowed)})")
    if not chosen:
        raise SystemExit(f"openapi_check.py: no {what} given")
    return chosen


def validate_document(path):
    """The document as a dict when it is valid OpenAPI 3.1; else prints why and exits 1."""
    try:
        with open(path, encoding="utf-8") as file:
            document = json.load(file)
    except (OSError, ValueError) as error:
        print(f"{path}: not a JSON document: {error}")
        sys.exit(1)
    version = document.get("openapi") if isinstance(document, dict) else None
    if not isinstance(version, str) or not version.startswith("3.1."):
        print(f"{path}: openapi is {version!r}, not 3.1.x")
        sys.exit(1)
    validator = OpenAPIV31SpecValidator(document, base_uri="file://" + os.path.abspath(path))
    try:
        errors = list(validator.iter_errors())
    except Exception as error:  # a $ref to nowhere is raised, not yielded
        print(f"{path}: not valid OpenAPI 3.1: {type(error).__name__}: {one_line(error, 300)}")
        sys.exit(1)
    if errors:
        for error in errors:
            where = "/".join(str(part) for part in getattr(error, "path", []) or [])
            print(f"{path}: not valid OpenAPI 3.1{' at ' + where if where else ''}: {error.message}")
        sys.exit(1)
    return document


def configuration(base_url, seed, max_examples, phases, checks):
    checks_table = {"enabled": False}
    for name in checks:
        checks_table[name] = {"enabled": True}
        if name == "positive_data_acceptance":
            checks_table[name]["expected-statuses"] = POSITIVE_STATUSES
    return schemathesis.Config.from_dict(
        {
            "seed": seed,
            "color": False,
            "cache": {"enabled": False},
            "base-url": base_url,
            "workers": 1,
            "continue-on-failure": True,
            "request-timeout": 30,
            "generation": {
                "mode": "all",
                "max-examples": max_examples,
                "deterministic": True,
                "database": "none",
                "no-shrink": True,
            },
            "phases": {
                "examples": {"enabled": "examples" in phases},
                "coverage": {"enabled": "coverage" in phases},
                "fuzzing": {"enabled": "fuzzing" in phases},
                "stateful": {"enabled": False},
            },
            "checks": checks_table,
        }
    )


def one_line(text, limit=400):
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def main():
    parser = argparse.ArgumentParser(prog="openapi_check.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("base_url")
    parser.add_argument("spec")
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--max-examples", type=int, required=True)
    parser.add_argument("--phases", default=",".join(PHASES))
    parser.add_argument("--checks", default=",".join(DEFAULT_CHECKS))
    arguments = parser.parse_args()
    if arguments.max_examples < 1:
        parser.error("--max-examples must be at least 1")
    phases = names(arguments.phases, PHASES, "phase")
    checks = names(arguments.checks, sorted(CHECKS.get_all_names()), "check")

    document = validate_document(arguments.spec)
    # Hypothesis caches (the constants it collects from source, Unicode tables) go to a directory
    # of this run, removed after it: nothing is written to the working directory, nothing read back.
    home = tempfile.TemporaryDirectory(prefix="openapi-check-hypothesis-")
    set_hypothesis_home_dir(home.name)
    try:
        return run(arguments, document, phases, checks)
    finally:
        home.cleanup()


def run(arguments, document, phases, checks):
    config = configuration(arguments.base_url, arguments.seed, arguments.max_examples, phases, checks)
    try:
        schema = schemathesis.openapi.from_dict(document, config=config)
    except Exception as error:  # a LoaderError, said in its own words
        print(f"{arguments.spec}: Schemathesis cannot load it: {one_line(error)}")
        return 1

    operations = set()
    recorded = 0
    # Distinct failures, first found first: (operation, check, title, message) → (request, status).
    failures = OrderedDict()
    # Errors that stopped a request or an operation (the server unreachable, a case that could not
    # be generated), each said once: (operation, phase, what) → how many times.
    errors = OrderedDict()
    for event in from_schema(schema).execute():
        if isinstance(event, events.ScenarioFinished):
            recorder = event.recorder
            if event.status != Status.SKIP:
                operations.add(recorder.label)
            recorded += sum(1 for interaction in recorder.interactions.values() if interaction.response is not None)
            for case_id, nodes in recorder.checks.items():
                for node in nodes:
                    if node.status != Status.FAILURE or node.failure_info is None:
                        continue
                    failure = node.failure_info.failure
                    interaction = recorder.interactions.get(case_id)
                    if interaction is not None:
                        request = f"{interaction.request.method} {interaction.request.uri}"
                        status = interaction.response.status_code if interaction.response is not None else None
                    else:
                        case = recorder.cases[case_id].value if case_id in recorder.cases else None
                        request = f"{case.method} {case.formatted_path}" if case is not None else "?"
                        status = None
                    key = (recorder.label, node.name, failure.title, one_line(failure.message))
                    if key not in failures:
                        failures[key] = (request, status, event.phase)
        elif isinstance(event, events.NonFatalError):
            key = f"{event.label} ({event.phase} phase): {one_line(event.info.format())}"
            errors[key] = errors.get(key, 0) + 1
        elif isinstance(event, events.FatalError):
            errors[f"fatal: {one_line(event.exception)}"] = 1
        elif isinstance(event, events.Interrupted):
            errors["interrupted"] = 1

    print(f"operations {len(operations)}, requests {calls['count']}, failures {len(failures)}")
    if recorded != calls["count"]:
        print(f"(Schemathesis itself recorded {recorded} answered requests)")
    for (operation, check, title, message), (request, status, phase) in failures.items():
        print(f"FAIL {operation} [{check}, {phase} phase]: {request} -> {status}: {title}: {message}")
    for error, count in errors.items():
        print(f"ERROR {error}{f' (×{count})' if count > 1 else ''}")
    if calls["count"] == 0 and not errors:
        print("ERROR no request was made")
    if failures or errors or calls["count"] == 0:
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
