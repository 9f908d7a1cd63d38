"""Mutated library scenarios posted to every scenario endpoint (issue 13): never a 5xx, and every 4xx
names where the problem is (a key path, a line or a byte)."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from judge import SCENARIOS_DIR
from judge.engine.data import yamlio
from judge.web import create_app

LIBRARY = sorted(p for p in Path(SCENARIOS_DIR).rglob("*.yaml")
                 if p.name not in ("untestable.yaml", "coverage-baseline.yaml"))[:80]

MIRROR = {"name": "Fuzz Mirror", "type": "soul", "rank": 2, "attribute": "light", "atk": 5, "def": 100,
          "hp": 1000,
          "effects": [{"kind": "timing", "trigger": "after_battle", "mandatory": True,
                       "do": [{"battle": {"attacker": "self", "target": "attacker",
                                          "counts_as_attack": True}}]}]}

ODD_VALUES = [None, True, 0, -1, 10**40, 1.5, "", "x" * 300, "X\ud800Y", [], {}, [[[]]], {"a": {"b": None}}]


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    instance = tmp_path_factory.mktemp("fuzz")
    app = create_app({"TESTING": True, "RATELIMIT_ENABLED": False, "JUDGE_BUDGET_SECONDS": 10,
                      "DATABASE": str(instance / "r.sqlite3"),
                      "INDEX_DIR": str(instance / "index")})
    return app.test_client()


def paths(data, prefix=()):
    """Every (container, key) in `data`, for a mutation to pick from."""
    out = []
    items = data.items() if isinstance(data, dict) else enumerate(data) if isinstance(data, list) else ()
    for key, value in items:
        out.append((data, key))
        out += paths(value, (*prefix, key))
    return out


@st.composite
def mutated(draw):
    """(body bytes, content type): a library scenario changed in one to three ways."""
    path = draw(st.sampled_from(LIBRARY))
    data = yamlio.load_project_file(path.read_text())
    data = copy.deepcopy(data)
    raw_suffix = ""
    for _ in range(draw(st.integers(0, 3))):
        places = paths(data)
        kind = draw(st.sampled_from(["drop", "retype", "huge", "deep", "tag", "loop", "surrogate"]))
        if kind in ("drop", "retype", "deep", "surrogate") and places:
            parent, key = draw(st.sampled_from(places))
            if kind == "drop":
                del parent[key]
            elif kind == "retype":
                parent[key] = draw(st.sampled_from(ODD_VALUES))
            elif kind == "deep":
                value = parent[key]
                for _ in range(draw(st.integers(5, 80))):
                    value = [value]
                parent[key] = value
            else:
                parent[key] = "\ud800" + str(parent[key])[:20]
        elif kind == "huge":
            raw_suffix += f"\nnotes: {draw(st.sampled_from(['9' * 5000, '0x' + 'f' * 200, '-' + '1' * 30]))}"
        elif kind == "tag":
            tagged = draw(st.sampled_from(['!!set {a}', '!!binary aGk=', '!foo x', '.nan']))
            raw_suffix += f"\nnotes: {tagged}"
        elif kind == "loop":  # two mirrors whose mandatory after-battle battles never end
            data["cards"] = [*(data.get("cards") if isinstance(data.get("cards"), list) else []), MIRROR]
            state = data.get("state") if isinstance(data.get("state"), dict) else {}
            data["state"] = state
            players = state.get("players") if isinstance(state.get("players"), dict) else {}
            state["players"], state["phase"] = players, "combat"
            for player in ("A", "B"):
                mine = players.get(player) if isinstance(players.get(player), dict) else {}
                players[player] = mine
                field = mine.get("field") if isinstance(mine.get("field"), dict) else {}
                mine["field"] = {**field, "altar": field.get("altar", "Queen Sol"), "C3": "Fuzz Mirror"}
                for slot in ("C2", "C2·0", "Cm1", "Cr1", "Cr1·0"):
                    mine["field"].pop(slot, None)
            data["actions"] = [{"attack": "C3", "target": "B:C3", "by": state.get("turn_player", "A")}]
            data.pop("expect", None)
    as_json = draw(st.booleans()) and not raw_suffix
    if as_json:
        body = json.dumps(data).encode("utf-8", "surrogatepass")
        return body, "application/json"
    if raw_suffix:  # YAML: the JSON mapping as a block so a trailing key can follow it
        text = "\n".join(f"{k}: {json.dumps(v)}" for k, v in data.items()) + raw_suffix
    else:
        text = "\n".join(f"{k}: {json.dumps(v)}" for k, v in data.items())
    body = text.encode("utf-8")
    if draw(st.integers(0, 9)) == 0:  # now and then, bytes that are not UTF-8
        at = draw(st.integers(0, len(body)))
        body = body[:at] + b"\xff\xfe" + body[at:]
    return body, "application/yaml"


def located(response) -> bool:
    """A 4xx says where: problems with a key path or line, or an error naming a byte or a line."""
    body = response.get_json(silent=True)
    if body is None:  # an HTML page (the desk's form): it lists the problems in the page
        return "problem" in response.get_data(as_text=True).lower()
    problems = body.get("problems") or []
    if problems:
        return all("path" in p and (p["path"] or "line" in p or p.get("message")) for p in problems)
    return bool(re.search(r"byte \d+|line \d+|actions|cards|after|JSON|YAML|nested|upload",
                          body.get("error", "")))


def post_all(client, body: bytes, content_type: str):
    for path in ("/api/position", "/api/resolve", "/api/legal", "/api/legal?after=1"):
        yield path, client.post(path, data=body, content_type=content_type)
    text = body.decode("utf-8", "replace")
    for path in ("/desk/parse.json", "/desk/board.json", "/desk/resolve.json", "/desk/legal.json"):
        yield path, client.post(path, json={"yaml": text})
    yield "/desk", client.post("/desk", data={"yaml": text})
    page = client.get("/desk").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    yield "/desk/share", client.post("/desk/share", data={"yaml": text, "csrf_token": token},
                                     headers={"Accept": "application/json"})


@settings(max_examples=30, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                 HealthCheck.data_too_large])
@given(mutated())
def test_mutated_library_scenarios_never_get_a_5xx(client, case):
    body, content_type = case
    for path, response in post_all(client, body, content_type):
        assert response.status_code < 500, (path, response.get_data(as_text=True)[:500])
        if 400 <= response.status_code < 500:
            assert located(response), (path, response.get_data(as_text=True)[:500])
