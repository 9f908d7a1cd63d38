"""The verb table (judge/engine/driver/verbs.py) is the one place a verb is known: the scenario loader,
legality, resolution and the legal-action list read it; actions are typed, their slots parsed once."""

from __future__ import annotations

import ast
import re
from dataclasses import replace
from pathlib import Path

import pytest
from engine_helpers import base, position

from judge import ROOT
from judge.desk import words as desk_words
from judge.engine import ScenarioError, SlotRef
from judge.engine.driver import verbs
from judge.engine.driver.scenario import load_scenario
from judge.engine.position.action import Action, Place
from judge.engine.position.board import derive
from judge.engine.rules import legality, moves
from judge.engine.rules import moment as checks


def test_every_verb_has_its_check_its_deed_and_its_candidates():
    for verb in verbs.TABLE:
        assert verb.verify.__name__ == f"verify_{verb.name}"
        assert verb.words.count("{") == verb.words.count("}") and verb.words.strip()
        assert callable(verb.do) and callable(verb.candidates)
        assert verb.value in verbs.VALUE_KINDS
        assert verb.required is None or verb.required in verb.keys
        assert (verb.card_type is not None) == (verb.value == "card")
        # a verb that answers in a response window is Fast (12.1: the priority holder may act)
        assert verb.respond is None or verb.fast


def test_the_loader_names_the_tables_verbs_and_their_required_keys():
    data = base(A={"field": {"C3": "Knight"}, "hand": ["Grunt"]})
    data["actions"] = [{"shout": "Grunt"}, {"recruit": "Grunt"}]
    with pytest.raises(ScenarioError) as err:
        load_scenario(data)
    text = err.value.describe()
    assert "one verb of " + ", ".join(v.name for v in verbs.TABLE) in text
    assert "actions[1].to: missing; recruit needs to:" in text


def test_slot_references_are_parsed_once_when_the_action_is_made():
    action = Action.of({"attack": " c3 ", "target": "b:altar"}, index=4, verbs=verbs.NAMES)
    assert action.places["value"] == Place(None, "C3")
    assert action.places["target"] == Place("B", "altar")
    state = position(phase="combat", A={"field": {"C3": "Knight"}}).state
    assert action.ref("value", state) == SlotRef("A", "C3")        # unprefixed: the acting player's
    assert action.ref("target", state) == SlotRef("B", "altar")
    assert Action.of({"attack": "nowhere", "target": "C:C3"}).places == {"value": None, "target": None}


def test_legal_actions_are_actions_so_membership_works_wherever_an_action_stands_in_a_queue():
    state = position(A={"field": {"C3": "Knight"}, "hand": ["Grunt"]}).state
    legal = verbs.legal_actions(state)
    assert all(isinstance(a, Action) for a in legal)
    assert verbs.action_of({"recruit": "Grunt", "to": "C2", "by": "A"}, index=7) in legal
    # C3 is taken: recruiting there is a candidate that verify refuses
    assert verbs.action_of({"recruit": "Grunt", "to": "C3", "by": "A"}) not in legal
    assert {a.verb for a in legal} == {"recruit", "end_phase"}


def test_legal_actions_come_in_the_tables_order():
    state = position(A={"field": {"C3": "Knight"}, "hand": ["Grunt"]}).state
    order = [v.name for v in verbs.TABLE]
    seen = [a.verb for a in verbs.legal_actions(state)]
    assert seen == sorted(seen, key=order.index)


def test_each_candidate_function_yields_only_its_own_verb():
    s = position(phase="combat", A={"field": {"C3": "Warlord"}, "hand": ["Grunt"]},
                 B={"field": {"Cm1": {"card": "Squire", "ambushes": ["Snare"]}, "R0": "Quick Medic"}})
    window = checks.Window(response=True, priority="B")
    for player in ("A", "B"):
        moment = moves.Moment(s.state, window, player, derive(s.state), s.state.soul_refs(player))
        for verb in verbs.TABLE:
            assert all(next(iter(d)) == verb.name for d in verb.candidates(moment))


VERB_NAMES = {v.name for v in verbs.TABLE}


def _verb_lists(path: Path) -> list[int]:
    """Lines of `path` holding a literal tuple, list or set of three or more verb names."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            names = [e.value for e in node.elts if isinstance(e, ast.Constant) and e.value in VERB_NAMES]
            if len(names) >= 3:
                out.append(node.lineno)
    return out


def test_no_module_but_the_table_lists_the_verbs():
    found = {p.relative_to(ROOT).as_posix(): _verb_lists(p) for p in (ROOT / "judge").rglob("*.py")}
    assert {k: v for k, v in found.items() if v} == {}


def test_every_verbs_words_fill_from_its_own_keys_and_a_new_verb_is_said_from_its_row(monkeypatch):
    """The desk says an action in the words of its verb's row (judge/desk/words.py has no list of its
    own): every placeholder is a key of the verb or one the desk fills, and a verb added to the table
    is said without touching the desk."""
    filled = {"by", "value", "targets", "phase"}
    for verb in verbs.TABLE:
        names = {f.split(":")[0] for f in re.findall(r"\{([^}]*)\}", verb.words)}
        assert names <= filled | set(verb.keys), (verb.name, names)
    row = verbs.Verb("shout", "card", ("at",), None, None, False, legality.verify_pass, verbs.TABLE[0].do,
                     moves.pass_, words="{by} shouts {value} at {at}", offered=False)
    monkeypatch.setitem(verbs.VERBS, "shout", row)
    board = desk_words.Board({"players": {"B": {"field": {"C3": "Harold"}}}})
    assert desk_words.describe({"shout": "Hey", "at": "B:C3"}, board) == "A shouts Hey at B's Harold (C3)"


def test_a_verb_not_offered_is_left_out_of_the_legal_actions(monkeypatch):
    state = position(A={"field": {"C3": "Knight"}, "hand": ["Grunt"]}).state
    assert any(a.verb == "recruit" for a in verbs.legal_actions(state))
    hidden = tuple(replace(v, offered=False) if v.name == "recruit" else v for v in verbs.TABLE)
    monkeypatch.setattr(verbs, "TABLE", hidden)
    assert not any(a.verb == "recruit" for a in verbs.legal_actions(state))
    assert any(a.verb == "end_phase" for a in verbs.legal_actions(state))
