"""Facts travel as records; words are made at the edge (issue 26): no module outside the trace's renderer
(judge/engine/play/trace.py, `Step.said`) and the reasons' table (judge/engine/data/errors.py) reads a
step's or a reason's words to decide anything: no `startswith`/`endswith`/`split`, no `in`, no regular
expression over `x.text`, `x["text"]` or `x.get("text")`, in the engine, the desk or the web layer. A
reader that needs to know something a step says reads its `facts`, `reasons` or `changes`."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCOPE = ("judge/engine", "judge/desk", "judge/web")
RENDERERS = {"judge/engine/play/trace.py", "judge/engine/data/errors.py"}
DECIDING = {"startswith", "endswith", "split", "find", "index", "count"}
REGEX = {"match", "search", "fullmatch", "findall", "finditer", "sub", "split"}


def _is_words(node: ast.AST) -> bool:
    """`x.text`, `x["text"]`, `x.get("text")`."""
    if isinstance(node, ast.Attribute) and node.attr == "text":
        return True
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) \
            and node.slice.value == "text":
        return True
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get"
            and bool(node.args) and isinstance(node.args[0], ast.Constant) and node.args[0].value == "text")


def _unwrap(node: ast.AST) -> ast.AST:
    """`str(x.text)`, `str(x.get("text") or "")` read the same words."""
    while True:
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "str" \
                and node.args:
            node = node.args[0]
        elif isinstance(node, ast.BoolOp):
            node = node.values[0]
        else:
            return node


def reads_of_words(tree: ast.AST) -> list[int]:
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr in DECIDING and _is_words(_unwrap(node.func.value)):
                lines.append(node.lineno)
            if node.func.attr in REGEX and any(_is_words(_unwrap(a)) for a in node.args):
                lines.append(node.lineno)
        if isinstance(node, ast.Compare) and any(isinstance(op, (ast.In, ast.NotIn)) for op in node.ops) \
                and any(_is_words(_unwrap(c)) for c in node.comparators):
            lines.append(node.lineno)
    return lines


def test_no_module_outside_the_renderer_decides_by_the_words_of_a_step():
    found = []
    for folder in SCOPE:
        for path in sorted((ROOT / folder).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if rel in RENDERERS:
                continue
            found += [f"{rel}:{n}" for n in reads_of_words(ast.parse(path.read_text(encoding="utf-8")))]
    assert found == [], "read a step's facts, reasons or changes, not its words: " + ", ".join(found)


def test_the_check_sees_each_way_of_reading_words():
    for code in ('step.text.startswith("A")', '" is lost" in step.text', 're.match(P, str(step["text"]))',
                 'step.get("text").endswith(".")', 'P.findall(str(step.get("text") or ""))'):
        assert reads_of_words(ast.parse(code)), code
    assert not reads_of_words(ast.parse('step.facts.what == "trigger_missed"'))
