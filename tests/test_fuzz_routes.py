"""No 500 from any input (issue 22): every route of the app with odd query names (`endpoint`, `_`,
`__class__`, …) and values, a null or a wrong type at every key path of library scenarios on every
POST route, and nesting far past what a scenario needs (JSON and YAML). The same shapes, 20,000 and
more of them against a real gunicorn, are `bench/fuzz.py`."""

from __future__ import annotations

from collections import Counter

import pytest
from fuzz_shapes import requests_for, routes

from judge.web import create_app

SIMPLE = {"state": {"players": {"A": {"field": {"altar": "Queen Sol"}},
                               "B": {"field": {"altar": "King Umbra"}}}}}


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    instance = tmp_path_factory.mktemp("fuzz-routes")
    return create_app({"TESTING": True, "RATELIMIT_ENABLED": False, "DATABASE": str(instance / "r.sqlite3"),
                       "INDEX_DIR": str(instance / "index")})


def test_the_shapes_reach_every_route(app):
    covered = {rule.rule for rule in app.url_map.iter_rules()}
    reached = {path for _, path in routes(app)}
    assert len(reached) >= len(covered) - 5  # a route per parameter value; POST-only routes come below
    assert any("/changes/" in p for p in reached) and any("/editions/0.4.0/" in p for p in reached)


def test_no_request_of_the_probes_shapes_is_answered_5xx(app):
    client = app.test_client()
    saved = client.post("/api/v1/rulings", json=SIMPLE).get_json()["id"]
    statuses: Counter = Counter()
    failures = []
    for method, path, body, mimetype in requests_for(app, saved, seed=22):
        if method == "GET":
            response = client.get(path)
        else:
            response = client.post(path, data=body, content_type=mimetype)
        with response:
            statuses[response.status_code] += 1
            if response.status_code >= 500:
                failures.append((method, path[:120], (body or b"")[:120],
                                 response.get_data(as_text=True)[:200]))
    print(f"\n{sum(statuses.values())} requests:", dict(sorted(statuses.items())))
    assert not failures, failures[:5]
    assert sum(statuses.values()) > 500 and statuses[400] > 50 and statuses[200] > 100, statuses
