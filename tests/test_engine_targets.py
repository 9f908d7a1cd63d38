"""Target legality (11.4.1–11.4.7, 13.6.2): reach, captured Souls, Soul Spots, naming spots, not twice."""

from __future__ import annotations

from engine_helpers import CARDS, base, cited

from judge.engine.driver import verbs
from judge.engine.driver.scenario import load_scenario

EXTRA = [
    {"name": "Far Shot", "type": "event", "rank": 0, "effects": [
        {"kind": "activated", "targets": [{"soul": "opposing", "lines": "any"}],
         "do": [{"damage": 5, "to": "target"}]}]},
    {"name": "Pair Shot", "type": "event", "rank": 0, "effects": [
        {"kind": "activated", "targets": [{"soul": "any"}, {"soul": "any"}],
         "do": [{"damage": 5, "to": "target1"},
                                                                                  {"damage": 5,
                                                                                   "to": "target2"}]}]},
    {"name": "Spot Frost", "type": "event", "rank": 0, "effects": [
        {"kind": "activated", "targets": [{"spot": "opposing"}], "do": [{"lay": "frozen", "on": "target",
                                                                         "until": "end_of_turn"}]}]},
    {"name": "Friendly Fire", "type": "event", "rank": 0, "effects": [
        {"kind": "activated", "targets": [{"soul": "own"}], "do": [{"damage": 5, "to": "target"}]}]},
]


def verify(action, A=None, B=None):
    data = base(A={"field": {"C2": "Knight"}, "hand": ["Far Shot", "Pair Shot", "Spot Frost", "Friendly Fire",
                                                       "Grave Call", "Wormhole", "Chains"], **(A or {})},
                B=B or {"field": {"C3": "Warlord", "C2": "Knight"}})
    data["cards"] = CARDS + EXTRA
    state = load_scenario(data).state
    return verbs.verify(state, verbs.action_of({**action, "caster": "C2"}))


def test_11_4_2_any_opposing_soul_reaches_every_line():
    assert verify({"cast": "Far Shot", "targets": ["B:C3"]}) == []
    assert "11.4.2" in cited(verify({"cast": "Chains", "targets": ["B:C3"]}))


def test_11_4_2_own_and_opposing_reach():
    assert "11.4.2" in cited(verify({"cast": "Friendly Fire", "targets": ["B:C2"]}))
    assert verify({"cast": "Friendly Fire", "targets": ["C2"]}) == []


def test_11_4_3_a_captured_soul_only_by_an_effect_that_asks_for_one():
    a = {"field": {"C2": "Knight", "Cm1": {"card": "Squire", "captured": True}}}
    assert "11.4.3" in cited(verify({"cast": "Friendly Fire", "targets": ["Cm1"]}, A=a))
    assert verify({"cast": "Grave Call", "targets": ["Cm1"]}, A=a) == []
    assert "11.4.3" in cited(verify({"cast": "Grave Call", "targets": ["C2"]}, A=a))


def test_11_4_4_a_soul_spot_may_be_empty():
    assert verify({"cast": "Spot Frost", "targets": ["B:R1·0"]}) == []


def test_11_4_5_a_spot_naming_the_soul_needs_an_active_front_line_soul_on_it():
    v = verify({"cast": "Wormhole", "targets": ["B:R1·0"], "discard": ["Chains"]})
    assert "11.4.5" in cited(v)
    v = verify({"cast": "Wormhole", "targets": ["B:C3"], "discard": ["Chains"]})
    assert "11.4.5" in cited(v) and "line 2" in v[0].text
    assert verify({"cast": "Wormhole", "targets": ["B:C2"], "discard": ["Chains"]}) == []


def test_13_6_2_unyielding_protects_its_spot_from_an_effect_naming_it():
    v = verify({"cast": "Wormhole", "targets": ["B:C2"], "discard": ["Chains"]},
               B={"field": {"C2": "Test Noah"}})
    assert "13.6.2" in cited(v) and "11.4.5" in cited(v)


def test_13_6_7_unyielding_does_not_protect_a_spot_not_naming_the_soul():
    assert verify({"cast": "Spot Frost", "targets": ["B:C2"]}, B={"field": {"C2": "Test Noah"}}) == []


def test_13_6_7_unyielding_does_not_protect_against_own_effects():
    assert verify({"cast": "Friendly Fire", "targets": ["C2"]}, A={"field": {"C2": "Test Noah"}}) == []


def test_11_4_6_the_same_slot_cannot_be_chosen_twice():
    v = verify({"cast": "Pair Shot", "targets": ["B:C2", "B:C2"]})
    assert "11.4.6" in cited(v)
    assert verify({"cast": "Pair Shot", "targets": ["B:C2", "C2"]}) == []


def test_11_4_1_the_number_of_targets_must_match():
    assert "11.4.1" in cited(verify({"cast": "Pair Shot", "targets": ["B:C2"]}))


def test_11_4_1_an_effect_without_a_legal_target_cant_be_used():
    v = verify({"cast": "Chains"}, B={"field": {"C3": "Test Noah"}})
    assert "11.4.1" in cited(v)


def test_an_event_cast_without_its_targets_works_them_out_once(monkeypatch):
    """Checking the cast and casting it both need the first legal targets: worked out once per cast,
    and the Event still takes them (11.4.1)."""
    from judge.engine.driver.resolve import resolve
    from judge.engine.position import targets

    calls: list[str] = []
    real = targets._combinations
    def counted(board, effect, *rest):
        calls.append(effect.label)
        return real(board, effect, *rest)

    monkeypatch.setattr(targets, "_combinations", counted)
    data = base(A={"hand": ["Chains"], "field": {"C3": "Warlord", "C2": "Knight"}},
                B={"field": {"C3": "Knight"}})
    data["actions"] = [{"cast": "Chains", "caster": "C2"}]
    ruling = resolve(load_scenario(data))
    assert ruling["rejected"] is None
    assert any(s["changes"] and s["changes"][0].get("captured") == [False, True] for s in ruling["steps"])
    assert len(calls) == 1, calls


def test_distinct_targets_exist_exactly_when_each_selector_can_have_a_slot_of_its_own():
    """11.4: each selector a different target; the greedy first pick (a for the first) is undone when a
    later selector can have nothing else."""
    import itertools

    from judge.engine.position.state import SlotRef
    from judge.engine.position.targets import _distinct_choice

    a, b, c = (SlotRef("A", s) for s in ("C3", "L2", "R2"))
    assert _distinct_choice([[a, b], [a]], set())          # a for the second, b for the first
    assert _distinct_choice([[a, b, c], [a, b], [a]], set())
    assert not _distinct_choice([[a, b], [a, b], [b, a]], set())
    assert not _distinct_choice([[a, b], [a]], {b})         # b taken already
    pools_of = [[a], [b], [a, b], [b, c], [a, c], [a, b, c]]
    for pools in itertools.product(pools_of, repeat=3):     # against trying every assignment
        pools = [list(p) for p in pools]
        brute = any(len(set(pick)) == 3 for pick in itertools.product(*pools))
        assert _distinct_choice(pools, set()) == brute, pools
