"""Every step of these modules is said from a record (judge/engine/play/sayings.py): each
`trace.add(kind, text, ...)` / `trace.force(kind, text, ...)` passes as its text a `say(...)` call, a
conditional choosing between two of them, or a name every assignment of which (in the same function) is
one of those; no f-string, string literal, concatenation or `.text` of something else. And no fact of a
`say(...)` is itself words written where the step happens (an f-string or a concatenation of strings):
a clause that is there only sometimes is a row of its own, passed as a fact.

Checked here for the modules converted so far (issue 26, point 1); the list grows to the whole engine."""

from __future__ import annotations

import ast

import pytest

from judge import ROOT

MODULES = ("zones.py", "battle.py", "turns.py", "placing.py", "nonevents.py", "consequences.py")
PLAY = ROOT / "judge" / "engine" / "play"


def _is_say(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "say"


def _said(node: ast.AST, bound: dict[str, list[ast.AST]]) -> bool:
    """`node` is a record of what a step says: a say(...) call, a choice between two, or a name bound
    (every time) to one."""
    if _is_say(node):
        return True
    if isinstance(node, ast.IfExp):
        return _said(node.body, bound) and _said(node.orelse, bound)
    if isinstance(node, ast.Name):
        values = bound.get(node.id, [])
        return bool(values) and all(_said(v, {}) for v in values)
    return False


def _assignments(function: ast.AST) -> dict[str, list[ast.AST]]:
    out: dict[str, list[ast.AST]] = {}
    for node in ast.walk(function):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    out.setdefault(target.id, []).append(node.value)
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)) and isinstance(node.target, ast.Name) \
                and node.value is not None:
            out.setdefault(node.target.id, []).append(node.value)
    return out


def _is_trace_call(node: ast.AST) -> bool:
    """`….trace.add(...)`, `….trace.force(...)`, `trace.add(...)`."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("add", "force")):
        return False
    owner = node.func.value
    return (isinstance(owner, ast.Attribute) and owner.attr == "trace") or \
        (isinstance(owner, ast.Name) and owner.id == "trace")


def _is_written_words(node: ast.AST) -> bool:
    """An f-string, or strings joined with + (words made where the step happens)."""
    if isinstance(node, ast.JoinedStr):
        return True
    return isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add) and any(
        isinstance(side, (ast.JoinedStr, ast.Constant)) and not isinstance(getattr(side, "value", ""), int)
        for side in (node.left, node.right))


def problems(source: str, where: str) -> list[str]:
    """Each step text that is not a record, and each fact of a say(...) that is written words."""
    tree = ast.parse(source)
    out = []
    functions = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    for function in functions:
        bound = _assignments(function)
        for node in ast.walk(function):
            if _is_trace_call(node):
                assert isinstance(node, ast.Call)
                text = node.args[1] if len(node.args) > 1 else next(
                    (k.value for k in node.keywords if k.arg == "text"), None)
                if text is None or not _said(text, bound):
                    out.append(f"{where}:{node.lineno}: a step's text that is not a say(...) record")
            if _is_say(node):
                assert isinstance(node, ast.Call)
                out += [f"{where}:{k.value.lineno}: the fact {k.arg!r} is words written here"
                        for k in node.keywords if _is_written_words(k.value)]
    return sorted(set(out))


@pytest.mark.parametrize("module", MODULES)
def test_every_step_of_the_module_is_said_from_a_record(module: str) -> None:
    path = PLAY / module
    assert problems(path.read_text(encoding="utf-8"), path.relative_to(ROOT).as_posix()) == []


@pytest.mark.parametrize("module", MODULES)
def test_the_module_says_something(module: str) -> None:
    """The check above has something to check: each module adds steps, through say(...)."""
    tree = ast.parse((PLAY / module).read_text(encoding="utf-8"))
    assert any(_is_trace_call(n) for n in ast.walk(tree))
    assert any(_is_say(n) for n in ast.walk(tree))


@pytest.mark.parametrize("text", [
    'f"{name} takes {amount} damage."',
    '"Capture step."',
    'name + " is captured."',
    'said.text',
    'reason.text',
    'say("capture_step") if x else "nothing"',
    'words',
])
def test_words_written_where_the_step_happens_are_found(text: str) -> None:
    source = (f"def f(g, x, name, amount, said, reason):\n    words = f'{{name}}'\n"
              f"    g.trace.add('battle', {text})\n")
    assert problems(source, "m.py") == ["m.py:3: a step's text that is not a say(...) record"]


@pytest.mark.parametrize("text", [
    'say("capture_step")',
    'said',
    'say("capture_step") if x else say("battled_itself", card=name)',
])
def test_a_record_or_a_name_bound_to_one_passes(text: str) -> None:
    source = (f"def f(g, x, name):\n    said = say('capture_step')\n    g.trace.add('battle', {text})\n"
              "    g.trace.force('limit', said)\n")
    assert problems(source, "m.py") == []


def test_a_fact_written_as_words_is_found() -> None:
    source = "def f(g, name, n):\n    g.trace.add('battle', say('capture_step', card=f'{name}!', n=n + 1,\n" \
             "                                  why='a' + name))\n"
    assert problems(source, "m.py") == ["m.py:2: the fact 'card' is words written here",
                                        "m.py:3: the fact 'why' is words written here"]
