"""Every scenario under scenarios/ resolves and meets its `expect:` (the perft files of this
project). Expectations were written from the Codex text, not from the engine's output."""

from __future__ import annotations

from pathlib import Path

import pytest

from judge.codex import load_codex
from judge.commands.resolve import is_scenario_file
from judge.engine import load_scenario_file
from judge.engine.driver.resolve import resolve

ROOT = Path(__file__).resolve().parent.parent / "scenarios"
FILES = sorted(p for p in ROOT.rglob("*.yaml") if is_scenario_file(p))


def test_the_library_is_not_empty():
    assert len(FILES) >= 40


@pytest.mark.parametrize("path", FILES, ids=[p.relative_to(ROOT).as_posix() for p in FILES])
def test_scenario(path):
    scenario = load_scenario_file(path)
    ruling = resolve(scenario)
    assert not ruling.get("loop"), f"{scenario.id}: the resolution hit the step cap"
    if scenario.expect is not None:
        failures = ruling["expect"]["failures"]
        assert not failures, f"{scenario.id}:\n  " + "\n  ".join(failures)
    codex = load_codex()
    unknown = sorted({r for step in ruling["steps"] for r in step["rules"] if not codex.knows(r)})
    assert not unknown, f"{scenario.id}: cites rule ids the Codex does not know: {unknown}"


@pytest.mark.parametrize("path", [p for p in FILES if "mechanics" in p.parts],
                         ids=[p.name for p in FILES if "mechanics" in p.parts])
def test_mechanics_scenarios_say_what_they_test(path):
    scenario = load_scenario_file(path)
    assert scenario.title and scenario.question, f"{path.name}: needs a title and a question"
    assert scenario.expect and scenario.expect.get("cites"), f"{path.name}: needs expect with cites"
