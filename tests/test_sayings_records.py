"""A step's words are said from a record (judge/engine/play/sayings.py): in every module of the engine,
every `trace.add(...)` / `trace.force(...)` passes as its text a `say(...)` call, or a name bound only to
`say(...)` calls (or to a choice between them, or to what a function of the module typed as returning a
`Said` returns), never an f-string, a literal, a concatenation or the `.text` of something else (mypy
holds `Trace.add` to a `Said` too). And no fact of a `say(...)` is words written where the step happens
(an f-string or strings joined with +): a clause that is there only sometimes is a row of its own."""

from __future__ import annotations

import ast

import pytest

from judge import ROOT

ENGINE = ROOT / "judge" / "engine"
# every module of the engine that adds a step
MODULES = tuple(sorted(p.relative_to(ROOT).as_posix() for p in ENGINE.rglob("*.py")
                       if ".trace.add(" in p.read_text(encoding="utf-8")
                       or ".trace.force(" in p.read_text(encoding="utf-8")))


def _is_say(node: ast.AST | None) -> bool:
    """`say(...)`, or a choice between two of them (`say(a) if x else say(b)`)."""
    if isinstance(node, ast.IfExp):
        return _is_say(node.body) and _is_say(node.orelse)
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "say"


def _sayers(tree: ast.AST) -> set[str]:
    """The module's functions typed as returning a Said (or a tuple whose first item is one)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.returns is not None:
            returns = ast.unparse(node.returns).replace(" ", "")
            if returns == "Said" or returns.startswith("tuple[Said,"):
                out.add(node.name)
    return out


def _said_by(value: ast.AST | None, sayers: set[str]) -> ast.AST | None:
    """A call to one of `sayers` stands for the say(...) it returns."""
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in sayers:
        return ast.Call(ast.Name("say"), [], [])
    return value


def _bindings(func: ast.AST, sayers: set[str]) -> dict[str, list[ast.AST | None]]:
    """What each name of a function is bound to (every assignment; a parameter or a loop name as None; the
    first name of a tuple bound to what a function of `sayers` returns as that function's say(...))."""
    out: dict[str, list[ast.AST | None]] = {}
    if isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
        for arg in (*func.args.posonlyargs, *func.args.args, *func.args.kwonlyargs):
            out.setdefault(arg.arg, []).append(None)
    for node in ast.walk(func):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                first = target.elts[0] if isinstance(target, ast.Tuple) and target.elts else None
                for name in ast.walk(target):
                    if isinstance(name, ast.Name):
                        value = node.value if isinstance(target, ast.Name) else \
                            _said_by(node.value, sayers) if name is first else None
                        out.setdefault(name.id, []).append(_said_by(value, sayers))
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)) and isinstance(node.target, ast.Name):
            out.setdefault(node.target.id, []).append(
                node.value if isinstance(node, ast.AnnAssign) else None)
        elif isinstance(node, (ast.For, ast.comprehension)):
            for name in ast.walk(node.target):
                if isinstance(name, ast.Name):
                    out.setdefault(name.id, []).append(None)
    return out


def _step_calls(tree: ast.AST) -> list[tuple[ast.Call, ast.AST]]:
    """Each `<x>.trace.add(...)` / `trace.force(...)` call with the function it is in."""
    out = []
    for func in ast.walk(tree):
        if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for node in ast.walk(func):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr in ("add", "force"):
                owner = node.func.value
                if (isinstance(owner, ast.Attribute) and owner.attr == "trace") or \
                        (isinstance(owner, ast.Name) and owner.id == "trace"):
                    out.append((node, func))
    return out


def problems(source: str) -> list[int]:
    """The lines of step calls whose text is not said from a record."""
    tree = ast.parse(source)
    sayers = _sayers(tree)
    found = []
    for call, func in _step_calls(tree):
        text = call.args[1] if len(call.args) > 1 else next(
            (k.value for k in call.keywords if k.arg == "text"), None)
        if _is_say(text):
            continue
        if isinstance(text, ast.Name):
            bound = _bindings(func, sayers).get(text.id, [])
            if bound and all(_is_say(value) for value in bound):
                continue
        found.append(call.lineno)
    return found


def _is_written_words(node: ast.AST) -> bool:
    """An f-string, or strings joined with + (words made where the step happens)."""
    if isinstance(node, ast.JoinedStr):
        return True
    return isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add) and any(
        isinstance(side, (ast.JoinedStr, ast.Constant)) and not isinstance(getattr(side, "value", ""), int)
        for side in (node.left, node.right))


def written_facts(source: str) -> list[tuple[int, str]]:
    """(line, fact) of each fact of a say(...) that is words written where the step happens."""
    return sorted({(k.value.lineno, str(k.arg)) for node in ast.walk(ast.parse(source))
                   if _is_say(node) and isinstance(node, ast.Call)
                   for k in node.keywords if _is_written_words(k.value)})


@pytest.mark.parametrize("module", MODULES)
def test_every_step_is_said_from_a_record(module: str) -> None:
    path = ROOT / module
    assert problems(path.read_text(encoding="utf-8")) == [], f"{module}: steps not said with say(...)"


def test_no_fact_of_a_step_is_words_written_where_it_happens() -> None:
    found = {m: written_facts((ROOT / m).read_text(encoding="utf-8")) for m in MODULES}
    assert {m: f for m, f in found.items() if f} == {}


def test_a_fact_written_as_words_is_found() -> None:
    source = "def f(g, name, n):\n    g.trace.add('battle', say('capture_step', card=f'{name}!', n=n + 1,\n" \
             "                                  why='a' + name))\n"
    assert written_facts(source) == [(2, "card"), (3, "why")]


def test_the_check_catches_words_written_where_the_step_happens() -> None:
    written = '''
def f(g, entry, why):
    g.trace.add("effect", f"{entry.label} fizzles.")
    g.trace.add("effect", "Nothing happens.")
    g.trace.add("effect", why.text)
    said = "x" + entry.label
    g.trace.add("effect", said)
    g.trace.force("limit", entry.label + ".")
'''
    assert problems(written) == [3, 4, 5, 7, 8]


def test_the_check_lets_a_record_through() -> None:
    said = '''
def f(g, entry, tp, fast):
    g.trace.add("effect", say("negates", effect=entry.label, victim="x"))
    one = say("passes", player=tp)
    g.trace.add("window", one)
    both = say("uses_fast_activated") if fast else say("uses_activated")
    g.trace.add("action", both)
    g.trace.add("action", text=say("passes", player=tp))
'''
    assert problems(said) == []


def test_a_name_from_a_function_typed_as_saying_passes_and_one_from_words_does_not() -> None:
    helpers = '''
def _laid(g) -> tuple[Said, tuple[str, ...]]:
    return say("passes", player="A"), ()


def _words(g) -> tuple[str, tuple[str, ...]]:
    return "A passes", ()


def f(g):
    said, rules = _laid(g)
    g.trace.add("effect", said, rules)
    text, rules = _words(g)
    g.trace.add("effect", text, rules)
'''
    assert problems(helpers) == [14]


def test_a_name_bound_to_words_somewhere_is_caught() -> None:
    mixed = '''
def f(g, tp, x):
    said = say("passes", player=tp)
    if x:
        said = f"{tp} passes"
    g.trace.add("window", said)
'''
    assert problems(mixed) == [6]


def test_the_modules_are_found() -> None:
    """The check has something to check: the modules that add steps, the engine's own among them."""
    assert {"judge/engine/play/zones.py", "judge/engine/play/battle.py", "judge/engine/driver/resolve.py"} \
        <= set(MODULES)


def test_no_code_is_written_twice_in_the_table() -> None:
    """Two modules' rows with one code would silently keep only the last words (a dict literal)."""
    tree = ast.parse((ROOT / "judge/engine/play/sayings.py").read_text(encoding="utf-8"))
    table = next(n.value for n in ast.walk(tree) if isinstance(n, ast.AnnAssign)
                 and isinstance(n.target, ast.Name) and n.target.id == "SAYINGS")
    assert isinstance(table, ast.Dict)
    codes = [k.value for k in table.keys if isinstance(k, ast.Constant)]
    assert codes and sorted({c for c in codes if codes.count(c) > 1}) == []
