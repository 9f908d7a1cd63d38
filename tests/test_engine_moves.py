"""legal_actions against an independent oracle written from the glossary (Recruit, Line, Attack,
Attack Target), on random positions (Hypothesis)."""

from __future__ import annotations

from engine_helpers import CARDS, base
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from judge.engine import ScenarioError, load_field
from judge.engine.driver import verbs
from judge.engine.driver.scenario import load_scenario
from judge.engine.rules import moment as checks

FIELD = load_field()
PLAIN = [c for c in CARDS if c["type"] == "soul" and not c.get("leader") and not c.get("keywords")
         and not c.get("effects")]
RANGED = [c for c in CARDS if c["name"] == "Archer"]
PARENT = {s: FIELD.parent(s) for s in FIELD.slots}


def _lines(field: dict) -> dict[str, int]:
    """glossary/line, from scratch: 1 with no active Soul further out, else 1 + the furthest back."""
    active = {s for s, e in field.items() if not e.get("captured")}

    def below(slot):
        return [s for s in active if s != slot and _is_under(s, slot)]

    def line(slot):
        under = below(slot)
        return 1 if not under else 1 + max(line(s) for s in under)

    return {s: line(s) for s in active}


def _is_under(slot, upper):
    p = PARENT[slot]
    while p is not None:
        if p == upper:
            return True
        p = PARENT[p]
    return False


@st.composite
def boards(draw):
    players = {}
    for p in ("A", "B"):
        field = {}
        for slot in draw(st.lists(st.sampled_from([s for s in FIELD.slots if s != "altar"]), unique=True,
                                  max_size=7)):
            pool = [c for c in PLAIN + RANGED if c["rank"] <= FIELD.rank(slot)]
            field[slot] = {"card": draw(st.sampled_from(pool))["name"], "captured": draw(st.booleans())
                           and draw(st.booleans())}
            if p == "A" and draw(st.integers(0, 4)) == 0:
                field[slot]["recruited"] = "this_turn"
        players[p] = {"field": field}
    players["A"]["hand"] = draw(st.lists(st.sampled_from([c["name"] for c in PLAIN]), max_size=2))
    return players, draw(st.sampled_from(["preparation", "combat"]))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards())
def test_glossary_recruit_and_attack_lists_match_the_oracle(case):
    players, phase = case
    data = base(**players)
    data["state"]["phase"] = phase
    try:
        state = load_scenario(data).state
    except ScenarioError:
        return
    actions = [a.to_dict() for a in verbs.legal_actions(state)]
    field = {"altar": {"card": "Test Queen"}, **players["A"]["field"]}
    foes = {"altar": {"card": "Test King"}, **players["B"]["field"]}

    # glossary/recruit, 10.1.1: Preparation Phase, one per turn, empty slot of enough rank directly
    # under a slot holding an active Soul
    recruited = any(e.get("recruited") == "this_turn" for e in field.values())
    expected = set()
    if phase == "preparation" and not recruited:
        for name in set(players["A"]["hand"]):
            rank = next(c["rank"] for c in CARDS if c["name"] == name)
            for slot in FIELD.slots:
                parent = PARENT[slot]
                if slot in field or FIELD.rank(slot) < rank or parent is None:
                    continue
                if parent in field and not field[parent].get("captured"):
                    expected.add((name, slot))
    assert {(a["recruit"], a["to"]) for a in actions if "recruit" in a} == expected

    # glossary/attack and attack-target: Front Line (Second Line with Range), recruited earlier;
    # an active opposing Soul in the Front Line
    lines, foe_lines = _lines(field), _lines(foes)
    expected = set()
    if phase == "combat":
        for slot, line in lines.items():
            has_range = field[slot]["card"] == "Archer"
            if field[slot].get("recruited") == "this_turn" or not (line == 1 or (line == 2 and has_range)):
                continue
            for target, tline in foe_lines.items():
                if tline == 1:
                    expected.add((slot, f"B:{target}"))
    assert {(a["attack"], a["target"]) for a in actions if "attack" in a} == expected


def test_10_4_5_in_a_response_window_the_priority_holder_may_spring_use_fast_effects_or_pass():
    from engine_helpers import position

    s = position(phase="combat", A={"field": {"C3": "Warlord"}, "hand": ["Grunt"]},
                 B={"field": {"Cm1": {"card": "Squire", "ambushes": ["Snare"]}, "R0": "Quick Medic",
                              "R2": "Medic"}})
    actions = [a.to_dict() for a in verbs.legal_actions(s.state, checks.Window(response=True, priority="B"))]
    taken = {next(iter(a)) for a in actions}
    assert taken == {"spring", "activate", "pass"}
    assert all(a["by"] == "B" for a in actions)
    # Medic's Field Dressing is not Fast (11.1.2): not offered in A's turn
    assert not any(a.get("activate") == "Field Dressing" for a in actions)
