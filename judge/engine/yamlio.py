"""YAML as the scenario format reads it: YAML 1.2 booleans.

PyYAML follows YAML 1.1, where `on`, `off`, `yes`, `no`, `y` and `n` are booleans: the contract's
`{lay: frozen, on: target}` would get the key True. Here only true/false are booleans. For data
that was already loaded elsewhere with `yaml.safe_load`, `fix_keys` turns a key True back into "on".
"""

from __future__ import annotations

import re
from typing import Any

import yaml


class Loader(yaml.SafeLoader):
    pass


Loader.yaml_implicit_resolvers = {
    key: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:bool"]
    for key, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
Loader.add_implicit_resolver("tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"),
                             list("tTfF"))


def safe_load(text: str | bytes) -> Any:
    return yaml.load(text, Loader=Loader)


class ProjectLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
    """The same reading with libyaml's parser (about ten times faster), for the project's own files
    (the scenario library). User input keeps `Loader`, whose depth errors the callers report."""


ProjectLoader.yaml_implicit_resolvers = Loader.yaml_implicit_resolvers


def load_project_file(text: str | bytes) -> Any:
    return yaml.load(text, Loader=ProjectLoader)


def fix_keys(data: Any, _seen: dict[int, Any] | None = None) -> Any:
    """Recursively rename a mapping key True (YAML 1.1's reading of `on`) to "on".

    Shared nodes (YAML aliases) are converted once and stay shared, so an alias bomb costs no more
    than its text, and a node that contains itself stays a cycle (the loader then refuses it)."""
    seen = {} if _seen is None else _seen
    if not isinstance(data, (dict, list)):
        return data
    if id(data) in seen:
        return seen[id(data)]
    if isinstance(data, dict):
        out: Any = {}
        seen[id(data)] = out
        for k, v in data.items():
            out["on" if k is True else k] = fix_keys(v, seen)
        return out
    out = []
    seen[id(data)] = out
    out.extend(fix_keys(v, seen) for v in data)
    return out


MAX_NODES = 50_000


def expanded_size_problem(data: Any, limit: int = MAX_NODES) -> str | None:
    """None when `data`, with YAML aliases expanded, has at most `limit` nodes and no cycle; else
    what is wrong. The walk stops as soon as the limit is passed, so it is cheap either way."""
    count = 0
    stack: list[tuple[Any, tuple[int, ...]]] = [(data, ())]
    while stack:
        node, path = stack.pop()
        count += 1
        if count > limit:
            return f"the scenario has more than {limit} values once its YAML aliases are expanded"
        if isinstance(node, (dict, list)):
            if id(node) in path:
                return "the scenario refers to itself (a YAML alias inside its own anchor)"
            inner = (*path, id(node))
            children = node.values() if isinstance(node, dict) else node
            stack.extend((child, inner) for child in children)
    return None
