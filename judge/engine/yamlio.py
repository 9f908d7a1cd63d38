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


def fix_keys(data: Any) -> Any:
    """Recursively rename a mapping key True (YAML 1.1's reading of `on`) to "on"."""
    if isinstance(data, dict):
        return {("on" if k is True else k): fix_keys(v) for k, v in data.items()}
    if isinstance(data, list):
        return [fix_keys(v) for v in data]
    return data
