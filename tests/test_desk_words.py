"""The desk's words and helpers: actions in plain words, the legal actions of both players with the
passes implied, did-you-mean for card names, the nearest rule of a missing id, rulings ordered by how
directly they show a rule, dates as people write them, the library grouped by folder."""

from __future__ import annotations

import re

import pytest

from judge.desk import hints, pages, runner, words
from judge.engine import ScenarioError, load_scenario

pytest.importorskip("judge.engine.driver.api")

# A casts Firebolt (an Event, Preparation Phase); B has Hidden Snare (Fast) set under Harold.
POSITION = {
    "state": {"turn_player": "A", "phase": "preparation", "turn": 9, "players": {
        "A": {"turns_taken": 5, "field": {"altar": "Queen Sol", "C3": "Noah", "L2": "Grey Knight"},
              "hand": ["Firebolt"], "deck": 20},
        "B": {"turns_taken": 4, "field": {"altar": "King Umbra", "L2": "Dusk Lancer",
                                          "C3": {"card": "Harold", "ambushes": [{"card": "Hidden Snare"}]}},
              "hand": 3, "deck": 20}}},
    "actions": [],
}
CAST = {"cast": "Firebolt", "caster": "C3", "targets": ["B:C3"], "by": "A"}
SPRING = {"spring": "Hidden Snare", "at": "C3", "by": "B", "targets": ["A:L2"]}


def test_actions_read_as_a_judge_says_them():
    board = words.Board(POSITION["state"])
    assert words.describe(CAST, board) == "A casts Firebolt with Noah (C3) at B's Harold (C3)"
    assert words.describe(SPRING, board, "Firebolt") == \
        "B springs Hidden Snare (set on C3) at A's Grey Knight (L2), in answer to Firebolt"
    assert words.describe({"attack": "C3", "target": "B:L2"},
                          board) == "A's Noah (C3) attacks B's Dusk Lancer (L2)"
    assert words.describe({"end_phase": True}, board) == "A ends the Preparation Phase"
    setup = words.Board({**POSITION["state"], "phase": "setup", "turn": 0, "round": 2})
    assert words.describe({"end_phase": True}, setup) == "A ends their recruiting round"
    # JSON with sorted keys puts `by` first: the verb is still found
    assert words.describe(dict(sorted(CAST.items())), board).startswith("A casts Firebolt")


def test_the_queue_in_words_names_the_answer():
    data = dict(POSITION, actions=[CAST, SPRING])
    assert words.queue_words(data) == ["A casts Firebolt with Noah (C3) at B's Harold (C3)",
                                       "B springs Hidden Snare (set on C3) at A's Grey Knight (L2), in "
                                       "answer to Firebolt"]


def test_after_a_cast_both_players_answers_are_offered_and_no_pass():
    groups = words.legal_groups(dict(POSITION, actions=[CAST]), 1)
    players = [g["player"] for g in groups]
    assert "B" in players, groups  # A holds priority first, with only a pass: B's answers follow
    b = next(g for g in groups if g["player"] == "B")
    assert b["when"] == "in answer to Firebolt"
    assert any(a["action"].get("spring") == "Hidden Snare" for a in b["actions"])
    assert all("pass" not in a["action"] for g in groups for a in g["actions"])


def test_a_new_position_offers_casts_now_and_attacks_once_the_phase_ends():
    groups = words.legal_groups(POSITION, 0)
    assert [(g["player"], g["when"]) for g in groups][:2] == [("A", "now"),
                                                              ("A", "once the Preparation Phase ends")]
    cast_words = "A casts Firebolt with Noah (C3) at B's Harold (C3)"
    assert any(a["words"] == cast_words for a in groups[0]["actions"])
    attacks = groups[1]["actions"]
    assert attacks and all(a["queue"][0].get("end_phase") and "attack" in a["queue"][1] for a in attacks)
    # queued as offered, the phase ends and the attack is legal: nothing is rejected
    first = attacks[0]["queue"]
    ruling = runner.resolve(dict(POSITION, actions=first), snapshots=False)
    assert not ruling.get("rejected")


def test_the_other_players_turn_is_offered_after_this_one_queued_with_the_phase_ends():
    groups = words.legal_groups(POSITION, 0)
    later = [g for g in groups if g["when"] == "as the turn player, once A's turn ends"]
    assert later and later[0]["player"] == "B"
    for item in later[0]["actions"]:
        assert [a.get("end_phase") for a in item["queue"][:-1]] == [True, True, True]  # 3 phases end
        assert item["queue"][-1].get("by") == "B" and "after A ends their turn" in item["words"]
        ruling = runner.resolve(dict(POSITION, actions=item["queue"]), snapshots=False)
        assert not ruling.get("rejected"), item  # queued as offered, each is legal where it stands


def test_queued_phase_ends_are_named_for_the_phase_each_ends():
    ends = [{"end_phase": True}] * 3 + [{"end_phase": True, "by": "B"}]
    assert words.queue_words(dict(POSITION, actions=ends)) == [
        "A ends the Preparation Phase", "A ends the Combat Phase", "A ends the Emplacement Phase",
        "B ends the Preparation Phase"]


def _problems(hand: list[str]) -> list[dict]:
    data = dict(POSITION, state={**POSITION["state"], "players": {
        **POSITION["state"]["players"], "A": {**POSITION["state"]["players"]["A"], "hand": hand}}})
    with pytest.raises(ScenarioError) as caught:
        load_scenario(data)
    return caught.value.problems


def test_a_card_typo_gets_a_did_you_mean():
    (out,) = hints.explain(_problems(["Firebalt"]))
    assert out["suggest"] == "Firebolt" and out["message"].endswith("did you mean Firebolt?")
    assert out["card"] == "Firebalt" and out["words"].startswith("A's hand (card 1): ")
    (none,) = hints.explain(_problems(["Qqqqzz"]))
    assert "suggest" not in none and none["message"].endswith("; pick one from the card list.")


def test_a_missing_rule_goes_to_its_nearest_rule_never_a_whole_chapter():
    known = {"13.6": 1, "13.6.2": 1, "11.4": 1}
    assert pages.nearest_rule("13.6.2b", known) == "13.6.2"
    assert pages.nearest_rule("13.6.9a", known) == "13.6"
    assert pages.nearest_rule("11.4.9.3", known) == "11.4"
    assert pages.nearest_rule("12.1", {"12": 1}) is None
    assert pages.nearest_rule("glossary/x", known) is None


def test_rulings_that_name_a_rule_in_their_expectation_come_first(app):
    from judge.library import LIBRARY
    from judge.web.links import rulings_citing

    for rule in ("13.6.2", "11.6.1", "10.4.2"):
        with_it = [e.pid for e in LIBRARY.entries() if rule in e.expected_cites]
        with app.test_request_context():
            citing = rulings_citing(rule)
        ordered = pages.rulings_by_directness(rule, citing)
        ranks = [pages.directness(rule, r["id"])[0] for r in ordered]
        assert ranks == sorted(ranks)
        if with_it:
            assert ordered[0]["id"] in with_it


def test_dates_read_as_people_write_them():
    assert pages.human_date("2026-12-01T03:12:20+00:00") == "1 December 2026, 03:12 UTC"
    assert pages.human_date("not a date") == "not a date"


def test_the_library_page_groups_rulings_by_folder_with_the_search_on_top(client):
    body = client.get("/scenarios").get_data(as_text=True)
    assert body.index('role="search"') < body.index('class="library-group"')
    counts = [int(n) for n in re.findall(r'<summary><h2>[^<]+<span class="muted">\((\d+)\)</span>', body)]
    total = int(re.search(r"(\d+) rulings in \d+ groups", body).group(1))
    assert len(counts) > 1 and sum(counts) == total
    assert "Chapter 10: card types" in body


def test_search_counts_read_as_people_say_them(client):
    body = client.get("/search?q=damage").get_data(as_text=True)
    assert re.search(r"Results 1–10 of \d+\.", body)
    assert not re.search(r"page \d+ of \d+", body)
    glossary = client.get("/search?q=kind:glossary damage").get_data(as_text=True)
    assert "Glossary · " not in glossary


def test_a_step_lights_up_the_slots_it_changes_and_the_slots_its_facts_name():
    step = {"changes": [{"slot": "A:L2", "damage": [25, 35]}],
            "text": "Executioner (A:L2) takes 10 damage from Hidden Snare, set at B:L2.",
            "facts": {"cards": [{"slot": "A:L2", "name": "Executioner"},
                                {"slot": "B:L2", "name": "Hidden Snare"}]}}
    slots = {c["slot"] for c in pages.touched(step)}
    assert slots == {"A:L2", "B:L2"}
    assert pages.touched({"changes": [], "text": "A passes."}) == []
