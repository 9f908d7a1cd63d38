"""YAML as the scenario format reads it: YAML 1.2 booleans, JSON's types, bounded in size and depth.

What users send is read by libyaml's parser where PyYAML has it (`CLoader`, about ten times faster),
else by the pure-Python one (`PyLoader`); both hold the same limits and say where a problem is
(line numbers). The project's own files are read by `load_project_file` (libyaml, no limits).

PyYAML follows YAML 1.1, where `on`, `off`, `yes`, `no`, `y` and `n` are booleans: the contract's
`{lay: frozen, on: target}` would get the key True. Here only true/false are booleans. For data
that was already loaded elsewhere with `yaml.safe_load`, `fix_keys` turns a key True back into "on".
"""

from __future__ import annotations

import math
import re
from typing import Any

import yaml

from judge.engine.data import budget

MAX_NODES = 50_000  # values in one scenario (as written, and with YAML aliases expanded)
MAX_NESTING = 100   # levels of [ { or indentation read (a scenario needs about ten; the desk takes 40)
CHECK_EVERY = 256   # nodes composed (or tokens read) between two looks at the request's clock


class TooLarge(yaml.YAMLError):
    """The text holds more than MAX_NODES values, or nests past MAX_NESTING: reading stopped there
    (`problem_mark` says where; `headline` is the one-line summary)."""

    def __init__(self, problem: str, mark: Any, headline: str = "The scenario is too large.") -> None:
        super().__init__(problem)
        self.problem = problem
        self.problem_mark = mark
        self.headline = headline


class PyLoader(yaml.SafeLoader):
    """User input, read by PyYAML's pure-Python parser (where libyaml is missing): YAML 1.2 booleans,
    JSON's types only, and a bounded read: at most MAX_NODES values composed, and the request's time
    budget looked at every CHECK_EVERY of them (OutOfTime past it), so no text, however it is written,
    keeps a request reading past its deadline."""

    def __init__(self, stream: Any) -> None:
        super().__init__(stream)
        self.nodes = 0
        self.fetched = 0

    def fetch_more_tokens(self) -> None:
        """The scanner's step: PyYAML's work per token grows with the nesting (deep `[[[…` took 5.8 s
        for 3,000 levels), so nesting is refused past MAX_NESTING and the clock looked at as it reads."""
        self.fetched += 1
        if self.flow_level > MAX_NESTING or len(self.indents) > MAX_NESTING:
            raise _too_deep(self.get_mark())
        if self.fetched % CHECK_EVERY == 0:
            budget.check_time()
        super().fetch_more_tokens()

    def compose_node(self, parent: Any, index: Any) -> Any:
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise _too_many(self.peek_event().start_mark)  # type: ignore[no-untyped-call]
        if self.nodes % CHECK_EVERY == 0:
            budget.check_time()
        return super().compose_node(parent, index)


_CSafeLoader: Any = getattr(yaml, "CSafeLoader", None)


class _CLoader(_CSafeLoader or yaml.SafeLoader):  # type: ignore[misc]
    """User input read by libyaml's parser (about ten times faster), under the same rules and limits:
    libyaml scans and composes in C, and asks the resolver as it enters each value, so the values and
    the depth are counted there, and the clock looked at, before anything deeper is read."""

    def __init__(self, stream: Any) -> None:
        super().__init__(stream)
        self.nodes = 0
        self.depth = 0

    def descend_resolver(self, current_node: Any, current_index: Any) -> None:
        self.nodes += 1
        self.depth += 1
        if self.depth > MAX_NESTING:
            raise _too_deep(current_node.start_mark)
        if self.nodes > MAX_NODES:
            raise _too_many(_last_mark(current_node))
        if self.nodes % CHECK_EVERY == 0:
            budget.check_time()
        super().descend_resolver(current_node, current_index)

    def ascend_resolver(self) -> None:
        self.depth -= 1
        super().ascend_resolver()


# The loader for what users send: libyaml's where PyYAML was built with it, else the pure-Python one.
CLoader: type[yaml.SafeLoader] | None = _CLoader if _CSafeLoader is not None else None
Loader: type[yaml.SafeLoader] = CLoader or PyLoader


def _too_deep(mark: Any) -> TooLarge:
    return TooLarge(f"the scenario is nested too deeply (more than {MAX_NESTING} levels)", mark,
                    "The scenario is nested too deeply.")


def _too_many(mark: Any) -> TooLarge:
    return TooLarge(f"the scenario has more than {MAX_NODES} values", mark)


def _last_mark(collection: Any) -> Any:
    """Where reading stopped inside a list or mapping: the end of its last value read so far."""
    last = collection.value[-1] if collection.value else None
    if isinstance(last, tuple):   # a mapping's (key, value)
        last = last[-1]
    return last.end_mark if last is not None else collection.start_mark


# YAML 1.2 booleans: only true/false (any case PyYAML knows), never yes/no/on/off.
_RESOLVERS = {
    key: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:bool"]
    for key, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
for _loader in (PyLoader, _CLoader):
    _loader.yaml_implicit_resolvers = {key: list(found) for key, found in _RESOLVERS.items()}
    _loader.add_implicit_resolver("tag:yaml.org,2002:bool",
                                  re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF"))


# User input holds only what JSON holds: a date reads as text, and tags for other types are refused
# with their line; an integer too long to be a count is kept as text (`HugeInt`) for `value_problems`
# to refuse with its key path (Python refuses to convert more than 4,300 digits at all).
MAX_INT = 2**53  # the largest whole number JSON carries exactly; no count in a scenario is near it
MAX_INT_DIGITS = 16


class HugeInt(str):
    """The text of an integer too large for a scenario, kept so the key path can be named."""


def _int(loader: yaml.SafeLoader, node: yaml.ScalarNode) -> Any:
    text = str(node.value).replace("_", "")
    if len(text.lstrip("+-")) > MAX_INT_DIGITS + 2:  # 0x/0o prefixes: checked by value below
        return HugeInt(text)
    value = yaml.SafeLoader.construct_yaml_int(loader, node)
    return HugeInt(text) if abs(value) > MAX_INT else value


def _float(loader: yaml.SafeLoader, node: yaml.ScalarNode) -> Any:
    value = yaml.SafeLoader.construct_yaml_float(loader, node)
    if not math.isfinite(value):
        raise yaml.constructor.ConstructorError(None, None, "not a finite number (JSON has no .inf or .nan)",
                                                node.start_mark)
    return value


def _refuse(loader: yaml.SafeLoader, node: yaml.Node) -> Any:
    raise yaml.constructor.ConstructorError(
        None, None, f"the tag {node.tag.replace('tag:yaml.org,2002:', '!!')} is not allowed: a scenario "
                    "holds only what JSON holds (mappings, lists, text, numbers, true/false, null)",
        node.start_mark)


def _text(loader: yaml.SafeLoader, node: yaml.ScalarNode) -> str:
    return loader.construct_yaml_str(node)


for _loader in (PyLoader, _CLoader):
    _loader.add_constructor("tag:yaml.org,2002:int", _int)
    _loader.add_constructor("tag:yaml.org,2002:float", _float)
    _loader.add_constructor("tag:yaml.org,2002:timestamp", _text)
    for _tag in ("set", "binary", "omap", "pairs"):
        _loader.add_constructor(f"tag:yaml.org,2002:{_tag}", _refuse)
    _loader.add_constructor(None, _refuse)  # any other tag (!foo)


def safe_load(text: str | bytes) -> Any:
    """User input (or a scenario file) as the scenario format reads it, within the limits above.

    A text libyaml refuses for any reason but our limits is read again by the pure-Python reader,
    which has the last word: its messages are the ones users have always had, and it reads a few texts
    libyaml refuses outright (an escaped lone surrogate, refused later with its key path; libyaml's own
    limit of 1,000 levels, met while scanning ahead, becomes ours of 100). Only a text that is wrong
    anyway pays for the second reading, itself bounded by the same limits."""
    try:
        return yaml.load(text, Loader=Loader)
    except TooLarge:
        raise
    except yaml.YAMLError:
        if Loader is PyLoader:
            raise
    return yaml.load(text, Loader=PyLoader)


def json_loads(text: str) -> Any:
    """JSON text as a scenario reads it: huge integers become `HugeInt` (refused with their key
    path by `value_problems`), never Python's 4,300-digit ValueError. Raises json.JSONDecodeError."""
    import json

    def parse_int(digits: str) -> Any:
        return HugeInt(digits) if len(digits.lstrip("-")) > MAX_INT_DIGITS or abs(int(digits)) > MAX_INT \
            else int(digits)

    def parse_constant(name: str) -> Any:
        raise json.JSONDecodeError(f"{name} is not JSON", name, 0)

    return json.loads(text, parse_int=parse_int, parse_constant=parse_constant)


def value_problems(data: Any, limit: int = 20) -> list[dict[str, str]]:
    """Values a scenario can't hold, with key paths: integers past ±2**53, numbers that aren't finite,
    text that is not valid Unicode (a lone surrogate such as "\\ud800"), and anything that is not a
    JSON type. Iterative, so no nesting is too deep to check; cycles are left to `expanded_size_problem`."""
    out: list[dict[str, str]] = []
    stack: list[tuple[Any, str]] = [(data, "")]
    seen: set[int] = set()
    while stack and len(out) < limit:
        node, path = stack.pop()
        problem = _value_problem(node)
        if problem:
            out.append({"path": path, "message": problem})
        elif isinstance(node, (dict, list)) and id(node) not in seen:
            seen.add(id(node))
            items = node.items() if isinstance(node, dict) else enumerate(node)
            for key, child in items:
                if isinstance(key, str) and _bad_text(key):
                    out.append({"path": path, "message": f"a key is not valid Unicode text: {key!r}"})
                    continue
                stack.append((child, f"{path}.{key}" if path else str(key)))
    return out


def _bad_text(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _value_problem(node: Any) -> str | None:
    if isinstance(node, HugeInt):
        return f"the number {node[:12]}… is too large (at most {MAX_INT})"
    if isinstance(node, str):
        return "the text is not valid Unicode (a lone surrogate)" if _bad_text(node) else None
    if isinstance(node, bool) or node is None or isinstance(node, (dict, list)):
        return None
    if isinstance(node, int):
        return None if abs(node) <= MAX_INT else f"the number is too large (at most {MAX_INT})"
    if isinstance(node, float):
        return None if math.isfinite(node) else "not a finite number"
    return f"a {type(node).__name__} is not a JSON value"


class ProjectLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
    """The same reading with libyaml's parser (about ten times faster), for the project's own files
    (the scenario library). User input keeps `Loader`, whose depth errors the callers report."""


ProjectLoader.yaml_implicit_resolvers = PyLoader.yaml_implicit_resolvers


def load_project_file(text: str | bytes) -> Any:
    return yaml.load(text, Loader=ProjectLoader)


def fix_keys(data: Any, _seen: dict[int, Any] | None = None) -> Any:
    """Rename a mapping key True (YAML 1.1's reading of `on`) to "on", at every depth.

    Shared nodes (YAML aliases) are converted once and stay shared, so an alias bomb costs no more
    than its text, and a node that contains itself stays a cycle (the loader then refuses it).
    Iterative (an explicit stack), so no nesting is too deep for it."""
    seen = {} if _seen is None else _seen

    def copy_of(node: Any) -> tuple[Any, bool]:
        """The converted container for `node` (made empty now, filled later) and whether it is new."""
        if id(node) in seen:
            return seen[id(node)], False
        made: Any = {} if isinstance(node, dict) else []
        seen[id(node)] = made
        return made, True

    if not isinstance(data, (dict, list)):
        return data
    root, _ = copy_of(data)
    stack: list[tuple[Any, Any]] = [(data, root)]
    while stack:
        node, out = stack.pop()
        items = node.items() if isinstance(node, dict) else enumerate(node)
        for k, v in items:
            if isinstance(v, (dict, list)):
                v_out, new = copy_of(v)
                if new:
                    stack.append((v, v_out))
            else:
                v_out = v
            if isinstance(out, dict):
                out["on" if k is True else k] = v_out
            else:
                out.append(v_out)
    return root



def expanded_size_problem(data: Any, limit: int = MAX_NODES) -> str | None:
    """None when `data`, with YAML aliases expanded, has at most `limit` nodes and no cycle; else
    what is wrong. The walk stops as soon as the limit is passed, so it is cheap either way."""
    count = 0
    shared = False  # a node met twice: the data has aliases (or is shared in memory)
    met: set[int] = set()
    stack: list[tuple[Any, tuple[int, ...]]] = [(data, ())]
    while stack:
        node, path = stack.pop()
        count += 1
        if count > limit:
            expanded = " once its YAML aliases are expanded" if shared else ""
            return f"the scenario has more than {limit} values{expanded}"
        if isinstance(node, (dict, list)):
            if id(node) in path:
                return "the scenario refers to itself (a YAML alias inside its own anchor)"
            shared = shared or id(node) in met
            met.add(id(node))
            inner = (*path, id(node))
            children = node.values() if isinstance(node, dict) else node
            stack.extend((child, inner) for child in children)
    return None


# A refused huge number may still be shown back to the user (the desk echoes what it could not use).
yaml.SafeDumper.add_representer(HugeInt, lambda dumper, value: dumper.represent_str(str(value)))
