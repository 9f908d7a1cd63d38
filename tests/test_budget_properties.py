"""Every loop bounded (issue 22): a scenario grown in each dimension the probe grew — targets of one
effect, effects of a card, custom cards, queued actions, nesting, name length — is answered by every
engine route within the request's budget plus its grace, by a generous bound: before, 11 targets took
7–15 s and 20 never finished. The engine's own accounting is asserted as well: a ruling cut short says
it was the budget that stopped it."""

from __future__ import annotations

import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from judge.web import create_app

BUDGET = 0.5
GRACE = 0.5     # what a request may run past its deadline (drawing boards, building the answer)
SLACK = 3.0     # a generous allowance for a loaded CI machine: no tight timing here
ROUTES = ["/api/v1/resolve", "/api/v1/legal", "/api/v1/position", "/desk/board.json", "/desk/resolve.json"]


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    instance = tmp_path_factory.mktemp("budget-properties")
    app = create_app({"TESTING": True, "RATELIMIT_ENABLED": False, "JUDGE_BUDGET_SECONDS": BUDGET,
                      "DATABASE": str(instance / "r.sqlite3"), "INDEX_DIR": str(instance / "index")})
    return app.test_client()


def grown(targets: int, effects: int, cards: int, actions: int, depth: int, name_length: int) -> dict:
    """A scenario `cards` custom Events in hand, each with `effects` effects of `targets` Soul Spot
    targets, names `name_length` long, `actions` casts queued, and notes nested `depth` levels."""
    names = [f"E{i} " + "n" * max(0, name_length - 4) for i in range(cards)]
    effect = {"kind": "activated", "targets": [{"spot": "any"}] * targets,
              "do": [{"damage": 1, "to": "target"}]}
    notes: object = "deep"
    for _ in range(depth):
        notes = [notes]
    return {"title": "grown", "notes": notes,
            "cards": [{"name": n, "type": "event", "rank": 1, "effects": [effect] * effects} for n in names],
            "state": {"players": {"A": {"field": {"altar": "Queen Sol", "C3": "Storm Titan", "C2": "Noah"},
                                        "hand": names},
                                  "B": {"field": {"altar": "King Umbra", "C3": "Noah", "C2": "Noah"}}}},
            "actions": [{"cast": names[i % len(names)], "caster": "C3"} for i in range(actions)]}


@given(targets=st.integers(1, 24), effects=st.integers(1, 12), cards=st.integers(1, 60),
       actions=st.integers(0, 60), depth=st.integers(0, 34), name_length=st.integers(4, 3500),
       route=st.sampled_from(ROUTES))
@settings(max_examples=14, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
def test_a_grown_scenario_is_answered_within_its_budget(client, targets, effects, cards, actions, depth,
                                                        name_length, route):
    data = grown(targets, effects, cards, actions, depth, name_length)
    body = {"scenario": data} if route.startswith("/desk") else data
    started = time.monotonic()
    response = client.post(route, json=body)
    took = time.monotonic() - started
    assert response.status_code in (200, 400, 413, 422), response.get_data(as_text=True)[:300]
    assert took < BUDGET + GRACE + SLACK, (took, targets, effects, cards, actions, depth, name_length)
    answer = response.get_json()
    ruling = answer.get("ruling", answer) if isinstance(answer, dict) else {}
    if isinstance(ruling, dict) and ruling.get("stopped"):
        assert "budget" in ruling["stopped"]["reason"] or "cap" in ruling["stopped"]["reason"]


@pytest.mark.parametrize("dimension", ["targets", "effects", "cards", "actions", "depth", "name_length"])
def test_each_dimension_at_its_cap_is_answered_within_its_budget(client, dimension):
    """Each dimension alone at the desk's cap, the others small: the corners hypothesis may not pick."""
    sizes = {"targets": 1, "effects": 1, "cards": 1, "actions": 1, "depth": 0, "name_length": 8}
    sizes[dimension] = {"targets": 24, "effects": 12, "cards": 60, "actions": 60, "depth": 34,
                        "name_length": 3500}[dimension]
    for route in ("/api/v1/resolve", "/api/v1/legal"):
        started = time.monotonic()
        response = client.post(route, json=grown(**sizes))
        assert response.status_code in (200, 400, 422)
        assert time.monotonic() - started < BUDGET + GRACE + SLACK, (dimension, route)
