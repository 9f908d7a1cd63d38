"""The editions of the Codex side by side. `codex/editions.yaml` lists them (oldest first) and names
the current one; each edition is a folder `codex/editions/<version>/` that `Codex` reads.

    from judge.codex.editions import editions
    editions().current                 # "0.4.0"
    editions().folder("0.4.0")         # Path(".../codex/editions/0.4.0")

`judge.codex.load_edition(version=None)` loads one (the current one by default). The folder holding
`editions.yaml` is `codex/` unless the environment variable JUDGE_CODEX_DIR names another, which
is how tests and trial imports keep away from the project's own data.
"""

from __future__ import annotations

import json
import os
import re
import time
from dataclasses import dataclass
from pathlib import Path
from threading import Lock

from judge import CODEX_DIR
from judge.codex.loader import read_yaml
from judge.codex.model import CodexError

ENV = "JUDGE_CODEX_DIR"
INDEX = "editions.yaml"
FOLDER = "editions"
VERSION = re.compile(r"^\d{1,3}(?:\.\d{1,3}){1,3}(?:-[a-z0-9]{1,20})?$")
"""What an edition's version looks like ("0.4.0", "0.5.1-test"): it names a folder and a URL part."""
EDITION_DATA = ("numbers.yaml", "field.yaml")
"""Files of an edition that are ours, not the Codex's text: the numbers and the slot tree the engine
reads. A new edition keeps its base's unless `judge import-codex` is given a file of the same name."""


class UnknownEdition(CodexError):
    """A version that is not one of the editions we hold."""


@dataclass(frozen=True)
class Edition:
    version: str
    folder: Path
    date: str = ""
    sources: tuple[str, ...] = ()


@dataclass(frozen=True)
class Editions:
    root: Path
    current: str
    editions: tuple[Edition, ...]

    def get(self, version: str | None) -> Edition | None:
        return next((e for e in self.editions if e.version == version), None)

    def require(self, version: str | None = None) -> Edition:
        """The edition `version` (the current one when None), or UnknownEdition naming the ones we hold."""
        found = self.get(self.current if version is None else str(version))
        if found is None:
            raise UnknownEdition(f"no Codex edition {version!r}; we hold {', '.join(self.versions)}")
        return found

    def folder(self, version: str | None = None) -> Path:
        return self.require(version).folder

    @property
    def versions(self) -> list[str]:
        return [e.version for e in self.editions]

    def previous(self, version: str) -> str | None:
        """The edition listed before `version`, if any."""
        at = self.versions.index(version)
        return self.versions[at - 1] if at > 0 else None


def codex_root() -> Path:
    """The folder with `editions.yaml` (and `cards/`, `sources/`): JUDGE_CODEX_DIR or `codex/`."""
    return Path(os.environ.get(ENV) or CODEX_DIR)


_cache: dict[str, tuple[float, int, Editions]] = {}
_lock = Lock()
_DEFAULT_ROOT = str(CODEX_DIR)
RECHECK = 1.0
"""Seconds between looks at editions.yaml's time stamp: the engine asks for the current edition at
every slot lookup, and a stat each time would cost more than the lookup."""


def editions(root: Path | str | None = None) -> Editions:
    """The editions under `root` (default `codex_root()`), read again when editions.yaml changes
    (looked at once a second at most; `write_index` forgets what it replaced at once)."""
    key = str(root) if root else os.environ.get(ENV) or _DEFAULT_ROOT   # a str: hashed once, cheap
    cached = _cache.get(key)
    now = time.monotonic()
    if cached and now - cached[0] < RECHECK:
        return cached[2]
    index = Path(key) / INDEX
    try:
        stamp = index.stat().st_mtime_ns
    except OSError:
        raise CodexError(f"{index}: file not found") from None
    found = cached[2] if cached and cached[1] == stamp else read_editions(Path(key))
    with _lock:
        _cache[key] = (now, stamp, found)
    return found


def read_editions(root: Path) -> Editions:
    where = str(root / INDEX)
    data = read_yaml(root / INDEX)
    if not isinstance(data, dict) or not isinstance(data.get("editions"), list) or not data["editions"]:
        raise CodexError(f"{where}: expected `editions:`, a list of editions, and `current:`")
    listed: list[Edition] = []
    for i, raw in enumerate(data["editions"]):
        version = str(raw.get("version", "")) if isinstance(raw, dict) else ""
        if not VERSION.match(version):
            raise CodexError(
                f"{where}: editions[{i}].version: expected a version like 0.4.0, got {version!r}"
            )
        if any(e.version == version for e in listed):
            raise CodexError(f"{where}: editions[{i}]: version {version} is listed twice")
        listed.append(
            Edition(
                version=version,
                folder=root / FOLDER / version,
                date=str(raw.get("date") or ""),
                sources=tuple(str(s) for s in raw.get("sources") or ()),
            )
        )
    found = Editions(root=root, current=str(data.get("current", "")), editions=tuple(listed))
    if found.get(found.current) is None:
        raise CodexError(
            f"{where}: current: {data.get('current')!r} is not one of the editions listed "
            f"({', '.join(found.versions)})"
        )
    return found


def write_index(root: Path, listed: list[dict], current: str) -> None:
    """Write editions.yaml again with `listed` (each {version, date, sources}) and `current`."""
    head = (
        "# The editions of the Codex we hold, oldest first, and the one that is current.\n"
        "# Each edition is a folder under editions/: codex.yaml (its chapters), chapters/, glossary.yaml,\n"
        "# interpretations/. `judge import-codex --edition V` adds one; pages, search and rulings use the\n"
        "# current edition unless they name another. `date` is the day we took the edition in.\n"
    )
    lines = [f"current: {json.dumps(current)}", "editions:"]
    for item in listed:  # JSON scalars are YAML too, and keep "1.10" a string
        lines.append(f"  - version: {json.dumps(str(item['version']))}")
        lines.append(f"    date: {json.dumps(str(item.get('date') or ''))}")
        lines.append(f"    sources: {json.dumps([str(s) for s in item.get('sources') or []])}")
    body = "\n".join(lines) + "\n"
    path = root / INDEX
    tmp = path.with_suffix(".yaml.tmp")
    tmp.write_text(head + body, encoding="utf-8")
    tmp.replace(path)
    with _lock:
        _cache.pop(str(root), None)
