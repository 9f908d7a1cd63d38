"""The keyword table (judge/engine/data/keywords.py) is the one place a keyword is known: each is one
record (name, words, value kind and its parser, rules, where it acts), and no other module of judge/
spells a keyword's name — the places where a keyword acts read its record."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from engine_helpers import base, check

from judge import ROOT
from judge.codex import load_codex
from judge.engine import KEYWORDS, Keyword, ScenarioError
from judge.engine.data import card_reader, keywords
from judge.engine.data.card_reader import parse_keyword
from judge.engine.driver.resolve import resolve
from judge.engine.driver.scenario import load_scenario

TABLE = ROOT / "judge" / "engine" / "data" / "keywords.py"
# Strings that spell a keyword's name but are no keyword: OpenAPI examples of a glossary slug.
NOT_KEYWORDS = {"judge/web/openapi.py"}


def keyword_literals(path: Path, names: set[str]) -> list[str]:
    """`line: 'name'` for each string constant of `path` that is a keyword's name (docstrings aside)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
                  and node.body and isinstance(node.body[0], ast.Expr)
                  and isinstance(node.body[0].value, ast.Constant)}
    return [f"{node.lineno}: {node.value!r}" for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.lower() in names
            and id(node) not in docstrings]


def test_no_module_but_the_table_spells_a_keyword():
    names = set(KEYWORDS)
    found = {p.relative_to(ROOT).as_posix(): keyword_literals(p, names)
             for p in (ROOT / "judge").rglob("*.py")
             if p != TABLE and p.relative_to(ROOT).as_posix() not in NOT_KEYWORDS}
    assert {k: v for k, v in found.items() if v} == {}


def test_the_scan_finds_a_planted_keyword_literal(tmp_path):
    planted = tmp_path / "planted.py"
    planted.write_text('"""Frozen souls: frozen."""\n\ndef f(view):\n    """frozen"""\n'
                       '    return view.has("frozen") or view.has("Taunt")\n', encoding="utf-8")
    assert keyword_literals(planted, set(KEYWORDS)) == ["5: 'frozen'", "5: 'Taunt'"]


@pytest.mark.parametrize("record", KEYWORDS.values(), ids=lambda r: r.name)
def test_each_record_is_whole(record):
    assert record.value in keywords.VALUE_KINDS
    assert record.value == "none" or record.value in card_reader.KEYWORD_VALUE_PARSERS
    assert record.acts and set(record.acts) <= set(keywords.ACTS)
    assert record.kind in ("static", "instant", "timing")
    assert (record.trigger is not None) == (record.value == "effect")
    assert record.bare or record.with_value          # a keyword can be written somehow
    codex = load_codex()
    assert record.rules and all(codex.knows(r) for r in record.rules)
    assert keywords.words(record.name) == record.title
    assert record.name.replace("_", " ") == record.title.lower()


def test_the_four_words_of_a_keyword_come_from_its_record():
    assert keywords.words(Keyword("defiance", 10)) == "Defiance 10"
    assert Keyword("moral", {"atk": 5, "def": 0, "hp": 0}).label() == "moral +5 ATK"
    assert Keyword("taunt", "underlings").label() == "taunt (underlings)"
    assert Keyword("taunt", keywords.TAUNT.default).label() == "taunt"
    assert Keyword("berserk", ()).kind == "instant" and Keyword("frozen").kind == "static"


@pytest.mark.parametrize("data", ["frozen", {"defiance": 10}, {"taunt": {"radius": "underlings"}}, "taunt",
                                  {"moral": {"atk": 5}}])
def test_a_keyword_written_out_by_its_record_reads_back_the_same(data):
    kw = parse_keyword(data)
    assert parse_keyword(kw.record.to_data(kw.value)) == kw


def test_a_bad_keyword_value_is_refused_at_its_key_path():
    with pytest.raises(ScenarioError) as err:
        parse_keyword({"frozen": 3}, "cards[0].keywords[1]")
    assert err.value.problems == [{"path": "cards[0].keywords[1].frozen", "message": "frozen takes no value",
                                   "code": "keyword_takes_no_value", "facts": {"name": "frozen"}}]
    with pytest.raises(ScenarioError) as err:
        parse_keyword("defiance", "k")
    assert "defiance needs a value" in err.value.problems[0]["message"]


def test_the_attack_checks_loop_over_the_restrictions_of_the_table():
    names = [r.name for r, _ in keywords.restrictions()]
    assert names == [k.name for k in KEYWORDS.values() if "attack restriction" in k.acts]
    assert {"frozen", "cannot_attack"} <= set(names)   # a keyword added to the table joins them, no list here
    assert [r.name for r, _ in keywords.guards()] == [
        k.name for k in KEYWORDS.values() if "attack target" in k.acts]


def _wary(monkeypatch):
    """A keyword the Codex does not have, added as one record: its Soul can't be chosen as Attack Target
    while undamaged."""
    record = keywords.KeywordDef(
        "wary", "Wary", ("glossary/attack-target",), ("attack target",),
        guard=keywords.Guard(lambda view: view.damage == 0,
                             "is Wary and can't be chosen as Attack Target while undamaged",
                             "is Wary and undamaged, so it can't be the Attack Target", ()))
    monkeypatch.setitem(keywords.KEYWORDS, "wary", record)
    data = base(B={"field": {"C3": "Wary Knight"}}, A={"field": {"C3": "Warlord"}})
    data["cards"].append({"name": "Wary Knight", "type": "soul", "rank": 2, "attribute": "light",
                          "atk": 20, "def": 10, "hp": 35, "keywords": [{"wary": True}]})
    data["state"]["phase"] = "combat"
    return data


def test_a_new_keyword_that_guards_its_soul_acts_from_its_record_alone(monkeypatch):
    data = _wary(monkeypatch)
    refused = check({"attack": "C3", "target": "B:C3"}, A={"field": {"C3": "Warlord"}}, phase="combat",
                    B={"field": {"C3": {"card": "Knight"}}})
    assert refused == []   # an ordinary Knight may be attacked
    data["actions"] = [{"attack": "C3", "target": "B:C3"}]
    ruling = resolve(load_scenario(data))
    assert ruling["rejected"]["violations"][0]["text"] == (
        "Wary Knight (B:C3) is Wary and can't be chosen as Attack Target while undamaged")
    data["state"]["players"]["B"]["field"]["C3"] = {"card": "Wary Knight", "damage": 5}
    damaged = resolve(load_scenario(data))   # damaged, it may be attacked: the battle is fought
    assert damaged["rejected"] is None and "damage" in [step["kind"] for step in damaged["steps"]]
