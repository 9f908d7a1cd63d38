"""Bad input never crashes: a valid scenario with any one value replaced by junk either loads or is
refused with a ScenarioError listing key paths (and what loads, `position` can describe)."""

from __future__ import annotations

import copy

from engine_helpers import base
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from judge import engine
from judge.engine import ScenarioError

JUNK = st.recursive(
    st.none() | st.booleans() | st.integers(-20, 60) | st.sampled_from(
        ["", "C3", "B:C3", "A:realm1", "Grunt", "frozen", "target", "x" * 3, "L1.0", "end_of_turn",
         "1/Turn"]),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(
        st.sampled_from(["card", "damage", "to", "on", "gain", "atk", "kind", "do", "targets", "soul", "x"]),
        children, max_size=3),
    max_leaves=8,
)


def _scenario():
    data = base(A={"field": {"C3": "Warlord", "L2": {"card": "Knight", "damage": 5, "armament": "Iron Blade",
                                                    "ambushes": ["Snare"]}},
                   "hand": ["Grunt", "Chains"], "realms": {"realm1": "Temple"}},
                B={"field": {"C3": "Test Noah", "Cm1": "Medic"}})
    data["state"]["lasting"] = [{"gain": {"def": 5}, "to": "B:C3", "until": "end_of_turn", "source": "A:C3"}]
    data["state"]["used"] = [{"card": "B:Cm1", "effect": "Field Dressing", "this_turn": 1}]
    data["actions"] = [{"recruit": "Grunt", "to": "R2"},
                       {"cast": "Chains", "caster": "C3", "targets": ["B:Cm1"]}]
    data["cards"] = data["cards"][:12] + data["cards"][-12:]
    return data


def _paths(node, prefix=()):
    yield prefix
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, (*prefix, i))


PATHS = [p for p in _paths(_scenario()) if p]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(PATHS), JUNK)
def test_any_junk_value_loads_or_is_refused_with_key_paths(path, junk):
    data = copy.deepcopy(_scenario())
    node = data
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = junk
    try:
        scenario = engine.load_scenario(data)
    except ScenarioError as exc:
        assert exc.problems and all(isinstance(p["path"], str) and p["message"] for p in exc.problems)
        return
    out = engine.position(scenario)
    assert len(out["checks"]) == len(scenario.actions)
