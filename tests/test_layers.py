"""Layers run one way and no module of `judge/` imports itself round a cycle.

The layers, lowest first (house style, "Layers run one way"): the project paths ← the Codex data ←
the engine ← the scenario library ← search and the desk (peers: neither imports the other) ← the web
← the commands. A module may import its own package and any lower layer, never a higher one or a
peer. Every import counts: at module level, inside a function, under `if TYPE_CHECKING:`.

Inside the engine the folders are layers too (ENGINE_FOLDERS, lowest first; docs/ENGINE.md), each of at
most MAX_FOLDER_MODULES modules; outside it, every module imports only the engine's face
(`judge/engine/__init__.py`), never a module inside. Tests and benchmarks may import the engine's
internals where they test or time an internal (a verb's check, the derived board, the trace watcher);
what they test through the public API they import from the face.

The checker reads the source with `ast` (nothing is imported), so it also runs on a planted copy.
"""

from __future__ import annotations

import ast
import shutil
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

from judge import ROOT

JUDGE = ROOT / "judge"

# The layer order, in one place: (name, the packages or modules it holds), lowest first.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("paths", ("judge",)),                      # judge/__init__.py: where the data lives
    ("codex", ("judge.codex",)),
    ("engine", ("judge.engine",)),
    ("library", ("judge.library",)),
    ("search and desk", ("judge.search", "judge.desk")),
    ("reading", ("judge.reading",)),   # a dispute in words into a scenario; its reading uses the desk words
    ("saved rulings",
     ("judge.rulings",)),      # the database: saved rulings (SQLite or PostgreSQL), rate-limit counts
    ("edition changes", ("judge.changes",)),   # what changed between two editions, for every ruling
    ("web", ("judge.web",)),
    ("commands", ("judge.cli", "judge.coverage", "judge.commands", "judge.docs_tables")),
)

# The engine's folders, lowest first: a module imports its own folder and the ones before it.
ENGINE_FOLDERS = ("data", "position", "rules", "play", "driver")
MAX_FOLDER_MODULES = 15
ENGINE = "judge.engine"

# Import cycles tolerated for now: none. An actual cycle must lie within one of these; an entry that no
# longer holds a cycle must be deleted, so the list only shrinks.
KNOWN_ENGINE_CYCLES: tuple[frozenset[str], ...] = ()

# Packages whose functions may still import a module of judge/: none (such an import dodges a cycle).
KNOWN_FUNCTION_IMPORTS: tuple[str, ...] = ()


# --- the checker --------------------------------------------------------------------------------------

def module_names(root: Path) -> dict[str, Path]:
    """Every module under `root` (a `judge/` folder) by dotted name; a package by its own name."""
    found = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _imported(node: ast.Import | ast.ImportFrom, module: str, is_package: bool,
              modules: Mapping[str, Path]) -> list[str]:
    """The modules of `modules` an import statement loads: `from judge.engine import api` loads
    judge.engine.api (a module), `from judge.engine.api import resolve` loads judge.engine.api."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = node.module or ""
    if node.level:
        package = module.split(".") if is_package else module.split(".")[:-1]
        package = package[: len(package) - (node.level - 1)]
        base = ".".join([*package, base] if base else package)
    return [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base for alias in node.names]


def import_graph(root: Path) -> dict[str, set[str]]:
    """module -> the modules of `root` it imports (anywhere in its source)."""
    modules = module_names(root)
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        graph[name] = {target for node in ast.walk(tree) if isinstance(node, ast.Import | ast.ImportFrom)
                       for target in _imported(node, name, path.name == "__init__.py", modules)
                       if target in modules and target != name}
    return graph


def function_imports(root: Path) -> list[str]:
    """Each import of a module of `root` made inside a function: "module:line imports target"."""
    modules = module_names(root)
    found = []
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for func in ast.walk(tree):
            if not isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for node in ast.walk(func):
                if isinstance(node, ast.Import | ast.ImportFrom):
                    targets = [
                        t for t in _imported(node, name, path.name == "__init__.py", modules) if t in modules
                    ]
                    found += [f"{name}:{node.lineno} imports {t}" for t in targets]
    return sorted(set(found))


def layer_of(module: str) -> tuple[int, str]:
    """(rank, the package or module of LAYERS that holds `module`): the longest that matches."""
    best: tuple[int, str] | None = None
    for rank, (_, members) in enumerate(LAYERS):
        for member in members:
            inside = module == member or (member != "judge" and module.startswith(member + "."))
            if inside and (best is None or len(member) > len(best[1])):
                best = (rank, member)
    if best is None:
        raise AssertionError(f"{module} is in no layer: add it to LAYERS in tests/test_layers.py")
    return best


def upward_imports(graph: Mapping[str, Iterable[str]]) -> list[str]:
    """Each import from a lower layer to a higher one, or between peers of one layer."""
    wrong = []
    for module, targets in sorted(graph.items()):
        rank, home = layer_of(module)
        for target in sorted(targets):
            their_rank, their_home = layer_of(target)
            if their_rank > rank:
                wrong.append(
                    f"{module} ({LAYERS[rank][0]}) imports {target} ({LAYERS[their_rank][0]}), a higher layer"
                )
            elif their_rank == rank and their_home != home:
                wrong.append(f"{module} imports its peer {target} (both {LAYERS[rank][0]})")
    return wrong


def face_breaches(graph: Mapping[str, Iterable[str]]) -> list[str]:
    """Each import of a module inside the engine from outside it (only `judge.engine` itself may be
    imported), and each import of the face from inside the engine (the face is for the others)."""
    wrong = []
    for module, targets in sorted(graph.items()):
        inside = module.startswith(ENGINE + ".")
        for target in sorted(targets):
            if not inside and module != ENGINE and target.startswith(ENGINE + "."):
                wrong.append(f"{module} imports {target}, inside the engine: import it from judge.engine")
            elif inside and target == ENGINE:
                wrong.append(f"{module} imports the engine's face from inside the engine")
    return wrong


def engine_folder(module: str) -> int:
    """The rank of the folder of ENGINE_FOLDERS that holds an engine module."""
    folder = module.split(".")[2]
    if folder not in ENGINE_FOLDERS:
        raise AssertionError(f"{module} is in no folder of the engine: ENGINE_FOLDERS are {ENGINE_FOLDERS}")
    return ENGINE_FOLDERS.index(folder)


def folder_breaches(graph: Mapping[str, Iterable[str]]) -> list[str]:
    """Each import inside the engine from a lower folder to a higher one."""
    wrong = []
    for module, targets in sorted(graph.items()):
        if not module.startswith(ENGINE + "."):
            continue
        for target in sorted(targets):
            if target.startswith(ENGINE + ".") and engine_folder(target) > engine_folder(module):
                wrong.append(f"{module} imports {target}, a higher folder of the engine")
    return wrong


def reachable(graph: Mapping[str, Iterable[str]], start: str) -> set[str]:
    """The modules `start` imports, directly or through others (itself only when on a cycle)."""
    seen: set[str] = set()
    todo = list(graph.get(start, ()))
    while todo:
        module = todo.pop()
        if module not in seen:
            seen.add(module)
            todo.extend(graph.get(module, ()))
    return seen


def cycles(graph: Mapping[str, Iterable[str]]) -> list[frozenset[str]]:
    """The import cycles: each set of modules that all reach one another (a strongly connected
    component of more than one module), in name order."""
    reach = {module: reachable(graph, module) for module in graph}
    found = {frozenset(other for other in reach[module] if module in reach.get(other, ()))
             for module in graph if module in reach[module]}
    return sorted((c for c in found if len(c) > 1), key=sorted)


def unexpected_cycles(graph: Mapping[str, Iterable[str]],
                      known: Iterable[frozenset[str]] = KNOWN_ENGINE_CYCLES) -> tuple[list[str], list[str]]:
    """(cycles outside the allow-list, allow-list entries that no longer hold a cycle)."""
    known = list(known)
    actual = cycles(graph)
    new = [" -> ".join(sorted(c)) for c in actual if not any(c <= allowed for allowed in known)]
    stale = [", ".join(sorted(allowed)) for allowed in known if not any(c <= allowed for c in actual)]
    return new, stale


# --- the project ----------------------------------------------------------------------------------------

def test_every_module_of_judge_is_in_a_layer():
    for module in module_names(JUDGE):
        layer_of(module)


def test_no_import_runs_from_a_lower_layer_to_a_higher_one():
    assert upward_imports(import_graph(JUDGE)) == []


def test_no_import_cycle_within_judge():
    new, stale = unexpected_cycles(import_graph(JUDGE))
    assert new == [], "import cycles"
    assert stale == [], "KNOWN_ENGINE_CYCLES lists a cycle that is gone: delete it"


def test_no_function_imports_a_module_of_judge():
    """An import inside a function to dodge a cycle means the code is in the wrong module."""
    found = function_imports(JUDGE)
    assert [f for f in found if not f.startswith(tuple(p + "." for p in KNOWN_FUNCTION_IMPORTS))] == []


def test_outside_the_engine_only_its_face_is_imported():
    assert face_breaches(import_graph(JUDGE)) == []


def test_the_engine_is_folders_each_importing_only_those_below_it():
    graph = import_graph(JUDGE)
    assert folder_breaches(graph) == []
    inside = [m for m in module_names(JUDGE) if m.startswith(ENGINE + ".")]
    sizes = {folder: sum(1 for m in inside if m.split(".")[2] == folder and m.count(".") == 3)
             for folder in ENGINE_FOLDERS}
    assert all(engine_folder(m) >= 0 for m in inside)   # every module is in a folder, none loose
    assert all(1 <= n <= MAX_FOLDER_MODULES for n in sizes.values()), sizes


DATABASE_DRIVERS = ("sqlite3", "psycopg", "psycopg_pool")


def database_modules(root: Path) -> list[str]:
    """The modules of `root` that import a database driver."""
    found = []
    for name, path in module_names(root).items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else [])
            if any(n.split(".")[0] in DATABASE_DRIVERS for n in names):
                found.append(name)
                break
    return sorted(found)


def test_no_module_outside_judge_rulings_speaks_to_a_database():
    found = database_modules(JUDGE)
    assert found and all(m.startswith("judge.rulings.") for m in found), found


def test_the_scenario_library_is_below_search_and_the_desk():
    graph = import_graph(JUDGE)
    assert "judge.library" in graph["judge.search.library_sources"]
    assert not any(t.startswith(("judge.desk", "judge.web", "judge.search")) for t in graph["judge.library"])


# --- the checker catches what it should ---------------------------------------------------------------------

def test_a_planted_upward_import_inside_a_function_is_caught(tmp_path):
    copy = tmp_path / "judge"
    shutil.copytree(JUDGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    refs = copy / "codex" / "refs.py"
    refs.write_text(refs.read_text(encoding="utf-8")
                    + "\n\ndef _planted():\n    from judge.web.links import doc_url\n\n    return doc_url\n",
                    encoding="utf-8")
    wrong = upward_imports(import_graph(copy))
    assert wrong == ["judge.codex.refs (codex) imports judge.web.links (web), a higher layer"]
    assert [f.split(" ", 1)[1] for f in function_imports(copy) if f.startswith("judge.codex.")] == [
        "imports judge.web.links"]
    assert upward_imports(import_graph(JUDGE)) == []   # the copy, not the project, was changed


def test_a_planted_relative_upward_import_is_caught(tmp_path):
    copy = tmp_path / "judge"
    shutil.copytree(JUDGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    store = copy / "search" / "store.py"
    store.write_text(
        store.read_text(encoding="utf-8") + "\nfrom ..desk import runner  # noqa\n", encoding="utf-8"
    )
    assert upward_imports(import_graph(copy)) == [
        "judge.search.store imports its peer judge.desk.runner (both search and desk)"]


def test_a_planted_import_past_the_face_is_caught(tmp_path):
    copy = tmp_path / "judge"
    shutil.copytree(JUDGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    hints = copy / "desk" / "hints.py"
    planted = "\nfrom judge.engine.data.cards import CardDef  # noqa\n"
    hints.write_text(hints.read_text(encoding="utf-8") + planted, encoding="utf-8")
    board = copy / "engine" / "position" / "board.py"
    board.write_text(board.read_text(encoding="utf-8") + "\nfrom judge.engine.play import trace  # noqa\n",
                     encoding="utf-8")
    graph = import_graph(copy)
    assert face_breaches(graph) == [
        "judge.desk.hints imports judge.engine.data.cards, inside the engine: import it from judge.engine"]
    assert folder_breaches(graph) == [
        "judge.engine.position.board imports judge.engine.play.trace, a higher folder of the engine"]
    with pytest.raises(AssertionError, match="loose is in no folder"):
        engine_folder("judge.engine.loose")


def test_a_cycle_is_found_and_only_a_known_one_is_allowed():
    graph = {"judge.codex.a": {"judge.codex.b"}, "judge.codex.b": {"judge.codex.c"},
             "judge.codex.c": {"judge.codex.a"}, "judge.codex.d": {"judge.codex.a"}}
    assert cycles(graph) == [frozenset({"judge.codex.a", "judge.codex.b", "judge.codex.c"})]
    new, stale = unexpected_cycles(graph, known=())
    assert new == ["judge.codex.a -> judge.codex.b -> judge.codex.c"] and stale == []
    allowed = frozenset({"judge.codex.a", "judge.codex.b", "judge.codex.c", "judge.codex.d"})
    assert unexpected_cycles(graph, known=[allowed]) == ([], [])
    graph["judge.codex.c"] = set()   # the cycle is broken: its allowance is stale
    assert unexpected_cycles(graph, known=[allowed]) == ([], [", ".join(sorted(allowed))])


def test_a_lower_layer_importing_a_higher_one_in_a_synthetic_graph():
    graph = {
        "judge.engine.x": {"judge.library"},
        "judge.library": {"judge.engine.x"},
        "judge.web.y": {"judge.library"},
    }
    assert upward_imports(graph) == [
        "judge.engine.x (engine) imports judge.library (library), a higher layer"
    ]
    assert cycles(graph) == [frozenset({"judge.engine.x", "judge.library"})]
