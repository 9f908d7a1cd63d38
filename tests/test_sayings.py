"""The trace's words come from one table (judge/engine/play/sayings.py): every `say(code, ...)` in the
engine names a row of SAYINGS and gives every fact the row's words name, every row is said somewhere,
and no step is added with a sentence written where it happens."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from judge import ROOT
from judge.engine.data.errors import Reason
from judge.engine.play.sayings import SAYINGS, Said, fields, render, say

ENGINE = ROOT / "judge" / "engine"


def _calls() -> list[tuple[Path, ast.Call]]:
    out = []
    for path in sorted(ENGINE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "say":
                out.append((path, node))
    return out


def test_every_say_names_a_row_and_gives_its_facts() -> None:
    problems = []
    for path, call in _calls():
        where = f"{path.relative_to(ROOT)}:{call.lineno}"
        if not call.args or not isinstance(call.args[0], ast.Constant):
            problems.append(f"{where}: the code is not written out")
            continue
        code = call.args[0].value
        if code not in SAYINGS:
            problems.append(f"{where}: {code!r} is no row of SAYINGS")
            continue
        if any(k.arg is None for k in call.keywords):
            continue   # **facts: checked when it runs
        missing = fields(code) - {k.arg for k in call.keywords}
        if missing:
            problems.append(f"{where}: {code!r} needs {sorted(missing)}")
    assert problems == []


def test_every_row_is_said() -> None:
    said = {c.args[0].value for _, c in _calls() if c.args and isinstance(c.args[0], ast.Constant)}
    assert sorted(set(SAYINGS) - said) == []


def test_the_renderer_fills_clauses_reasons_and_nothing() -> None:
    code = next(iter(SAYINGS), None)
    if code is None:
        pytest.skip("no rows yet")
    facts = {name: "x" for name in fields(code)}
    assert "{" not in render(Said(code, facts)) or "{{" in SAYINGS[code]


def test_an_unknown_code_or_a_missing_fact_is_refused() -> None:
    with pytest.raises(KeyError):
        say("no such words")
    code = next((c for c in SAYINGS if fields(c)), None)
    if code is None:
        pytest.skip("no row with facts yet")
    with pytest.raises(KeyError, match="need the fact"):
        render(Said(code, {}))


def test_a_fact_may_be_a_reason_a_clause_or_nothing() -> None:
    from judge.engine.play import sayings
    reason = Reason.of("target_no_soul", slot="B:C3")
    assert sayings.words(reason) == "no Soul stands on B:C3"
    assert sayings.words(None) == ""
    assert sayings.words(7) == 7
