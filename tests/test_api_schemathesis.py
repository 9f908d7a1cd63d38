"""schemathesis against a live app: every /api/v1 operation of /api/openapi.json gets generated
requests (bounded: MAX_EXAMPLES each, valid and invalid) under every check schemathesis has: no 5xx,
every answer as the document says (status code, content type, headers, body schema), valid data
accepted and invalid data refused."""

from __future__ import annotations

import json
import urllib.request
from collections import Counter

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from live import serving

from judge.web import create_app, openapi

MAX_EXAMPLES = 30
CALLS: Counter = Counter()   # (operation, status) → requests, printed at the end (pytest -s)


@pytest.fixture(scope="module")
def api_server(tmp_path_factory):
    instance = tmp_path_factory.mktemp("schemathesis-instance")
    app = create_app({"TESTING": True, "DATABASE": str(instance / "rulings.sqlite3"),
                      "INDEX_DIR": str(instance / "index"), "RATELIMIT_ENABLED": False})
    with serving(app, "schemathesis-server") as url:
        app.config["JUDGE_ORIGIN"] = url  # the servers of its document name it
        yield url
    by_operation, by_status = Counter(), Counter()
    for (operation, status), count in CALLS.items():
        by_operation[operation] += count
        by_status[status] += count
    print(f"\nschemathesis: {sum(CALLS.values())} requests over {len(by_operation)} operations;",
          ", ".join(f"{op} {n}" for op, n in sorted(by_operation.items())),
          "| statuses:", dict(sorted(by_status.items())))


# The document the app serves at /api/openapi.json (checked below), loaded at import so that each
# operation is a test of its own (schemathesis' lazy fixture loader does not work with pytest 9).
# The coverage phase (hundreds of boundary cases per operation) would take minutes: the suite runs the
# documented examples, then MAX_EXAMPLES generated requests per operation, valid and invalid.
# Every check is on. One is told what the document says: a scenario whose shape the schema allows may
# still be refused (400) for what only the engine knows (card names, slots, the Codex), or be more work
# than one request may take (422), so for the POST operations those are answers to valid data too.
ENGINE_REFUSALS = ["200", "201", "400", "422", "429", "501", "503"]
CONFIG = schemathesis.Config.from_dict({
    "phases": {"coverage": {"enabled": False}},
    "generation": {"mode": "all"},
    "operations": [{"include-method": "POST",
                    "checks": {"positive_data_acceptance": {"expected-statuses": ENGINE_REFUSALS}}}],
})
schema = schemathesis.openapi.from_dict(openapi.document("/"), config=CONFIG)


def test_the_served_document_is_the_one_tested(api_server):
    with urllib.request.urlopen(f"{api_server}/api/openapi.json") as response:
        served = json.load(response)
    assert served == json.loads(json.dumps(openapi.document(f"{api_server}/")))


@schema.parametrize()
@settings(max_examples=MAX_EXAMPLES, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
def test_every_operation_answers_as_documented_and_never_5xx(case, api_server):
    response = case.call_and_validate(base_url=api_server)  # every check schemathesis has
    CALLS[(case.operation.label, response.status_code)] += 1
