"""The two readers of what users send (libyaml's, used where PyYAML has it, and the pure-Python one):
the same data, the same limits, each problem with its line."""

from __future__ import annotations

import pytest
import yaml

from judge import SCENARIOS_DIR
from judge.engine import ScenarioError
from judge.engine.data import yamlio
from judge.engine.driver.scenario import load_scenario

LOADERS = [pytest.param(yamlio.PyLoader, id="python"),
           pytest.param(yamlio.CLoader, id="libyaml",
                        marks=pytest.mark.skipif(yamlio.CLoader is None, reason="PyYAML without libyaml"))]


@pytest.fixture(params=LOADERS)
def loader(request, monkeypatch):
    monkeypatch.setattr(yamlio, "Loader", request.param)
    return request.param


def _problems(text: str) -> list[dict]:
    with pytest.raises(ScenarioError) as info:
        load_scenario(text)
    return info.value.problems


def test_libyaml_reads_user_input_where_pyyaml_has_it():
    assert yamlio.Loader is (yamlio.CLoader or yamlio.PyLoader)
    assert (yamlio.CLoader is not None) == bool(getattr(yaml, "__with_libyaml__", False))


def test_both_read_every_library_scenario_alike():
    if yamlio.CLoader is None:
        pytest.skip("PyYAML without libyaml")
    files = sorted(SCENARIOS_DIR.rglob("*.yaml"))
    assert len(files) > 100
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert yaml.load(text, Loader=yamlio.CLoader) == yaml.load(text, Loader=yamlio.PyLoader), path


def test_yaml_12_booleans_and_json_types(loader):
    text = "a: {on: yes, off: no, y: n, t: true, f: False}\nd: 2024-05-01\nn: null\nx: 1.5\n"
    data = yamlio.safe_load(text)
    assert data == {"a": {"on": "yes", "off": "no", "y": "n", "t": True, "f": False}, "d": "2024-05-01",
                    "n": None, "x": 1.5}


@pytest.mark.parametrize("text, message", [
    ("x: !foo 1\n", "the tag !foo is not allowed"),
    ("x: !!set {a, b}\n", "the tag !!set is not allowed"),
    ("x: .inf\n", "not a finite number"),
])
def test_what_json_cannot_hold_is_refused_with_its_line(loader, text, message):
    problems = _problems("title: t\n" + text)
    assert message in problems[0]["message"] and problems[0]["line"] == 2


def test_a_huge_integer_is_kept_as_text_and_refused_with_its_key_path(loader):
    problems = _problems("state: {players: {A: {deck: 123456789012345678901234}}}\n")
    assert any(p["path"] == "state.players.A.deck" and "too large" in p["message"] for p in problems)


def test_a_syntax_error_names_its_line(loader):
    problems = _problems("title: x\nstate: {players: [\n  - a\n bad")
    assert problems[0]["line"] >= 2 and "YAML syntax error" in problems[0]["message"]


@pytest.mark.parametrize("depth", [101, 500, 3000])
def test_nesting_past_the_limit_is_refused_with_its_line(loader, depth):
    problems = _problems("title: deep\nstate: " + "[" * depth + "]" * depth)
    assert "nested too deeply (more than 100 levels)" in problems[0]["message"]
    assert problems[0]["line"] == 2


def test_block_nesting_past_the_limit_is_refused(loader):
    text = "state:\n" + "".join("  " * n + "k:\n" for n in range(1, 150))
    assert "nested too deeply" in _problems(text)[0]["message"]


def test_nesting_within_the_limit_reads(loader):
    assert yamlio.safe_load("a: " + "[" * 90 + "1" + "]" * 90)["a"] is not None


def test_more_values_than_the_limit_are_refused(loader):
    problems = _problems("title: many\nnotes: [" + ",".join(["1"] * (yamlio.MAX_NODES + 10)) + "]\n")
    assert f"more than {yamlio.MAX_NODES} values" in problems[0]["message"]
    assert "alias" not in problems[0]["message"] and problems[0]["line"] == 2


def test_an_alias_bomb_is_refused_not_expanded(loader):
    levels = ['a0: &a0 ["x", "x", "x", "x", "x", "x", "x", "x", "x"]']
    for i in range(1, 9):
        levels.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]")
    problems = _problems("\n".join(levels) + "\nstate: {players: {A: {hand: *a8}}}\n")
    assert "aliases are expanded" in problems[0]["message"]


def test_the_clock_is_looked_at_while_reading(loader, monkeypatch):
    looks = []
    monkeypatch.setattr(yamlio.budget, "check_time", lambda: looks.append(1))
    yamlio.safe_load("notes: [" + ",".join(["1"] * 5000) + "]\n")
    assert len(looks) >= 5000 // yamlio.CHECK_EVERY - 1


def test_an_escaped_lone_surrogate_is_refused_with_its_key_path(loader):
    """libyaml refuses the escape itself; the pure-Python reader reads it, and the checks name the key."""
    problems = _problems('title: "X\\ud800Y"\nstate: {players: {A: {field: {}}}}\n')
    assert any(p["path"] == "title" and "lone surrogate" in p["message"] for p in problems)
