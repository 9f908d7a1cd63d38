"""Legality of recruit (10.1.1, 5.3, glossary Recruit, Frozen, Capture)."""

from __future__ import annotations

from engine_helpers import check, cited


def test_10_1_1_recruit_onto_an_empty_slot_under_an_active_soul_is_legal():
    assert check({"recruit": "Grunt", "to": "L2"}, A={"hand": ["Grunt"]}) == []


def test_10_1_1_recruit_only_in_the_preparation_phase():
    v = check({"recruit": "Grunt", "to": "L2"}, phase="combat", A={"hand": ["Grunt"]})
    assert "10.1.1" in cited(v) and "Preparation" in v[0].text


def test_10_1_1_recruit_only_in_own_turn():
    v = check({"recruit": "Grunt", "to": "L2", "by": "B"}, B={"hand": ["Grunt"]})
    assert v and "glossary/turn-player" in cited(v)


def test_10_1_1_recruit_only_from_the_hand():
    v = check({"recruit": "Grunt", "to": "L2"}, A={"hand": ["Knight"]})
    assert any("not in A's hand" in x.text for x in v)


def test_glossary_recruit_slot_rank_at_least_the_souls():
    v = check({"recruit": "Knight", "to": "L1"}, A={"hand": ["Knight"], "field": {"L2": "Knight"}})
    assert any("rank 2" in x.text and "rank-1 slot" in x.text for x in v)
    assert "glossary/recruit" in cited(v)


def test_glossary_recruit_directly_under_a_slot_holding_an_active_soul():
    v = check({"recruit": "Grunt", "to": "L1·0"}, A={"hand": ["Grunt"], "field": {"L2": "Knight"}})
    assert any("not directly under" in x.text and "L1" in x.text for x in v)


def test_glossary_capture_a_captured_soul_blocks_its_slot_and_the_slots_under_it():
    field = {"L2": {"card": "Knight", "captured": True}}
    v = check({"recruit": "Grunt", "to": "L2"}, A={"hand": ["Grunt"], "field": field})
    assert any("not empty" in x.text for x in v)
    v = check({"recruit": "Grunt", "to": "L0"}, A={"hand": ["Grunt"], "field": field})
    assert any("not directly under" in x.text for x in v)


def test_glossary_frozen_no_recruit_anywhere_further_out_on_its_branch():
    field = {"C3": "Warlord", "Cr1": "Squire"}
    lasting = [{"lay": "frozen", "on": "A:C3", "until": "end_of_turn", "source": "Blizzard",
                "controller": "B"}]
    v = check({"recruit": "Grunt", "to": "Cr1·0"}, lasting=lasting, A={"hand": ["Grunt"], "field": field})
    assert "glossary/frozen" in cited(v) and "Warlord (A:C3)" in v[0].text
    # another branch is not affected
    assert check({"recruit": "Grunt", "to": "L2"}, lasting=lasting,
                 A={"hand": ["Grunt"], "field": field}) == []


def test_10_1_1_5_3_one_recruit_per_turn():
    v = check({"recruit": "Grunt", "to": "R2"},
              A={"hand": ["Grunt"], "field": {"L2": {"card": "Knight", "recruited": "this_turn"}}})
    assert {"10.1.1", "5.3"} <= cited(v)


def test_10_1_1_recruit_needs_a_soul_card():
    v = check({"recruit": "Iron Blade", "to": "L2"}, A={"hand": ["Iron Blade"]})
    assert any("not a soul" in x.text for x in v)


def test_glossary_escalation_spiral_recruiting_is_never_limited():
    assert check({"recruit": "Grunt", "to": "L2"},
                 A={"hand": ["Grunt"], "turns_taken": 1, "proactive": ["L0"]}) == []


def test_10_1_1_a_recruit_counts_after_its_soul_left_the_field():
    # the state says A recruited Grunt this turn, and Grunt is no longer on the field (returned)
    v = check({"recruit": "Grunt", "to": "L2"}, A={"hand": ["Grunt"], "recruited_this_turn": ["Grunt"]})
    assert "10.1.1" in cited(v)
    assert v[0].reason is not None and v[0].reason.code == "recruit_used_up"
    assert "has left the field since" in v[0].text


def test_10_1_1_recruits_made_travel_in_the_final_state_and_load_again():
    from pathlib import Path

    from judge import engine

    text = Path("scenarios/10-card-types/recruit-counts-recruits-not-souls-still-there.yaml").read_text()
    ruling = engine.resolve(engine.load_scenario(text))
    final = ruling["final"]
    assert final["players"]["A"]["recruited_this_turn"] == ["Shade Scout"]
    again = engine.load_scenario({"state": final, "actions": [{"recruit": "Shade Scout", "to": "L2"}],
                                  "cards": engine.load_scenario(text).cards_raw})
    assert engine.resolve(again)["rejected"]["action"] == 0


def test_10_1_1_recruits_this_turn_must_include_the_souls_marked_so():
    from judge import engine

    bad = {"state": {"players": {"A": {"field": {"altar": "Queen Sol", "L2": {"card": "Grey Knight",
                                                                            "recruited": "this_turn"}},
                                       "recruited_this_turn": ["Shade Scout"]},
                                 "B": {"field": {"altar": "King Umbra"}}}}}
    try:
        engine.load_scenario(bad)
    except engine.ScenarioError as e:
        assert any(p["path"] == "state.players.A.recruited_this_turn" for p in e.problems)
    else:
        raise AssertionError("a list leaving out a Soul marked recruited this turn must be refused")
