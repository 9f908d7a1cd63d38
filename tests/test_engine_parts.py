"""Effect parts as types (judge/engine/data/parts.py): the card schema builds them from PARTS, each has
the code that applies it (effects.apply_part) and its words; the vocabulary is served from the tables."""

from __future__ import annotations

import ast
import json
import string

import pytest

from judge import ROOT
from judge.engine import Problems, load_library, vocabulary
from judge.engine.data import card_reader as card_schema
from judge.engine.data import parts
from judge.engine.driver import verbs
from judge.engine.play import (
    battle,  # noqa: F401 (battle registers its part)
    effects,
)
from judge.engine.position.state import LASTING_KINDS

CARD = {"name": "Tester", "type": "event", "rank": 0,
        "effects": [{"kind": "activated", "do": [
            {"damage": 10, "to": "target"}, {"teleport": "self", "to": "l1.0"},
            {"if": {"damaged": True}, "then": [{"heal": 5, "to": "self"}], "else": [{"draw": 1}]}]}]}


def test_the_schema_builds_typed_parts_with_checked_values():
    problems = Problems()
    card = card_schema.parse_card(CARD, "card", problems)
    assert not problems, problems.items
    damage, teleport, branch = card.effects[0].do
    assert isinstance(damage, parts.Damage) and (damage.amount, damage.to) == (10, "target")
    assert isinstance(teleport, parts.Teleport) and teleport.to == "L1·0"     # the slot spelled once
    assert isinstance(branch, parts.If) and branch.condition == {"damaged": True}
    assert isinstance(branch.then[0], parts.Heal) and isinstance(branch.otherwise[0], parts.Draw)
    assert damage.describe() == "deals 10 damage to target"


def test_a_missing_required_key_is_named_with_its_path():
    problems = Problems()
    bad = {**CARD, "effects": [{"kind": "activated", "do": [{"damage": 10}]}]}
    card_schema.parse_card(bad, "card", problems)
    assert [(p["path"], p["message"]) for p in problems.items] == [
        ("card.effects[0].do[0].to", "missing; damage needs to")]


@pytest.mark.parametrize("part", list(parts.PARTS.values()), ids=list(parts.PARTS))
def test_every_part_has_its_key_first_a_parser_for_each_kind_and_code_that_applies_it(part):
    assert part.FORM[0].written == part.KEY
    assert all(key.kind in card_schema.VALUE_PARSERS for key in part.FORM)
    assert effects.apply_part.dispatch(part) is not effects.apply_part.dispatch(parts.Part)
    placeholders = {name for _, name, _, _ in string.Formatter().parse(part.WORDS) if name}
    assert placeholders <= {key.field for key in part.FORM}


def test_every_part_of_the_library_cards_is_a_typed_part():
    def walk(items):
        for item in items:
            assert isinstance(item, parts.Part), item
            if isinstance(item, parts.If):
                walk([*item.then, *(item.otherwise or [])])

    for card in load_library():
        for eff in card.effects:
            walk(eff.do)


def test_the_vocabulary_is_json_and_comes_from_the_tables():
    vocab = json.loads(json.dumps(vocabulary()))
    assert [v["verb"] for v in vocab["verbs"]] == list(verbs.NAMES)
    assert [p["part"] for p in vocab["effect_parts"]] == list(parts.PARTS)
    recruit = vocab["verbs"][0]
    words = recruit.pop("words")
    assert recruit.pop("offered") is True          # recruiting is offered among the legal actions
    assert "{value}" in words and "{to" in words   # the desk's words: a template over the verb's keys
    assert recruit == {"verb": "recruit", "value": "card", "keys": ["to"], "required": "to",
                       "card_type": "soul", "fast": False, "responds": False, "on_cascade": False,
                       "in_setup": True}
    assert [v["verb"] for v in vocab["verbs"] if v["on_cascade"]] == ["cast", "spring", "activate", "use"]
    assert "altar" in vocab["slots"]["soul"] and vocab["lines"]["1"] == "the Front Line"


def test_the_lasting_kinds_are_the_parts_that_leave_an_effect_in_force():
    assert LASTING_KINDS == ("gain", "grant", "lay", "negate")


def test_no_module_but_parts_lists_the_effect_parts():
    names = set(parts.PARTS)
    found = {}
    for path in (ROOT / "judge").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            elts = node.keys if isinstance(node, ast.Dict) else getattr(node, "elts", None)
            if isinstance(node, (ast.Tuple, ast.List, ast.Set, ast.Dict)):
                listed = [e.value for e in elts if isinstance(e, ast.Constant) and e.value in names]
                if len(listed) >= 5:   # (a trace's step kinds share four words with the parts)
                    found.setdefault(path.relative_to(ROOT).as_posix(), []).append(node.lineno)
    assert found == {}
