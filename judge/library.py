"""The scenario library: every scenario YAML under `scenarios/`, as rulings anyone can open.

A file is a scenario when it is a mapping with a `state:`; other YAML kept there (lists of what is
untestable, coverage baselines: `NOT_RULINGS`) is passed over. A scenario's path id is its path under
`scenarios/` without `.yaml` ("battle/defiance-kill"); only ids found by the scan are ever opened.

A domain module (layers: codex ← engine ← library ← search, desk ← web): it holds ids, titles and
cited rules, never a URL; the web builds links (`judge.web.links`). `card_slug` names a card of the
card library in ids and URLs.
"""

from __future__ import annotations

import logging
import stat
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from judge import SCENARIOS_DIR, engine
from judge.codex.importer import slugify
from judge.engine import ScenarioError, load_project_file

log = logging.getLogger(__name__)

UNTESTABLE_FILE = SCENARIOS_DIR / "untestable.yaml"
BASELINE_FILE = SCENARIOS_DIR / "coverage-baseline.yaml"
# Files under scenarios/ that are not rulings.
NOT_RULINGS = frozenset({UNTESTABLE_FILE.name, BASELINE_FILE.name})
# Seconds the served library trusts its last look at the folder: the search page, a rule page and the
# desk ask for rulings many times a second, and a walk of the folder (a stat per file) costs more
# than the rest of a search. An edited scenario shows within this long.
RECHECK_SECONDS = 2.0


def card_slug(name: str) -> str:
    """"Cyber-Wormhole" -> "cyber-wormhole"; "Principle of Stolen Energy" -> "principle-of-stolen-energy"."""
    return slugify(name)


def ruling_files(root: Path = SCENARIOS_DIR) -> list[Path]:
    """The YAML files under `root` that may be rulings (all but `NOT_RULINGS`), in path order."""
    if not root.is_dir():
        return []
    return sorted((p for p in root.rglob("*.yaml") if p.name not in NOT_RULINGS), key=lambda p: p.parts)


@dataclass(frozen=True)
class Entry:
    pid: str
    path: Path
    title: str
    question: str
    data: dict[str, Any] = field(repr=False, compare=False)

    @property
    def expected_cites(self) -> tuple[str, ...]:
        expect = self.data.get("expect") or {}
        cites = expect.get("cites") if isinstance(expect, dict) else None
        return tuple(str(c) for c in cites or [])


def cited_rules(ruling: Mapping[str, Any], expected: Iterable[str] = ()) -> tuple[str, ...]:
    """The rule ids a ruling rests on, each once: the `expected` cites, then every step's, then the
    rejection's."""
    rules = [str(r) for r in expected]
    for step in ruling.get("steps", []):
        rules.extend(step.get("rules", []))
    rules.extend((ruling.get("rejected") or {}).get("rules", []))
    return tuple(dict.fromkeys(rules))


class Library:
    """The rulings under `root`, read once per version of the folder: re-read when a file is added,
    removed or edited, which is looked for at most once every `recheck` seconds (0: on every call)."""

    def __init__(self, root: Path = SCENARIOS_DIR, recheck: float = 0.0) -> None:
        self.root = root
        self.recheck = recheck
        self._checked = 0.0   # time.monotonic() of the last look at the folder
        self._lock = threading.Lock()
        self._stamp: tuple | None = None
        self._entries: dict[str, Entry] = {}
        self._cites: dict[str, tuple[str, ...]] = {}
        self._answers: dict[str, tuple[dict[str, Any], ...]] = {}
        self._citing: dict[str, list[Entry]] = {}
        self._warming = False
        self._warmed = threading.Event()  # set once the background warm has resolved every entry

    def _files(self) -> list[tuple[Path, int]]:
        """The scenario files under the root in path order, each with its modification time: one stat
        a file, since every rule page asks whether the library changed."""
        if not self.root.is_dir():
            return []
        found = []
        for path in self.root.rglob("*.yaml"):
            if path.name in NOT_RULINGS:
                continue
            try:
                info = path.stat()
            except OSError:
                continue
            if stat.S_ISREG(info.st_mode):
                found.append((path, info.st_mtime_ns))
        return sorted(found, key=lambda item: item[0].parts)

    def entries(self) -> list[Entry]:
        return list(self._current()[0].values())

    def _current(self) -> tuple[dict[str, Entry], dict[str, list[Entry]]]:
        """The entries and the `citing` answers for the files as they are now (re-read when one changed)."""
        now = time.monotonic()
        with self._lock:
            if self._stamp is not None and now - self._checked < self.recheck:
                return self._entries, self._citing
        files = self._files()
        stamp = tuple((str(path), mtime) for path, mtime in files)
        with self._lock:
            self._checked = now
            if stamp != self._stamp:
                self._entries = {e.pid: e for e in (self._read(path) for path, _ in files) if e is not None}
                self._cites = {}
                self._answers = {}
                self._citing = {}
                self._stamp = stamp
            return self._entries, self._citing

    def stamp(self) -> tuple:
        """Changes whenever a scenario file is added, removed or edited."""
        self._current()
        return self._stamp or ()

    def _read(self, path: Path) -> Entry | None:
        try:
            data = load_project_file(path.read_text(encoding="utf-8"))  # our own files: the fast reader
        except (OSError, yaml.YAMLError):
            return None
        if not isinstance(data, dict) or "state" not in data:
            return None
        pid = path.relative_to(self.root).with_suffix("").as_posix()
        return Entry(pid, path, str(data.get("title") or data.get("id") or pid),
                     str(data.get("question") or "").strip(), data)

    def get(self, pid: str) -> Entry | None:
        return self._current()[0].get(pid)

    def cites(self, entry: Entry) -> tuple[str, ...]:
        """The rule ids the scenario's ruling cites (its expected cites included)."""
        cached = self._cites.get(entry.pid)
        if cached is not None:
            return cached
        try:
            ruling = resolve_entry(entry)
        except ScenarioError:
            ruling = {}
        except Exception:  # one scenario the engine trips on must not break every rule page
            log.exception("resolving library scenario %s failed", entry.pid)
            ruling = {}
        result = cited_rules(ruling, entry.expected_cites)
        self._answers[entry.pid] = tuple(ruling.get("answers") or ())
        self._cites[entry.pid] = result
        return result

    def answers(self, entry: Entry) -> tuple[dict[str, Any], ...]:
        """The answers of the scenario's ruling (contract §7), worked out with its cites."""
        if entry.pid not in self._answers:
            self.cites(entry)
        return self._answers.get(entry.pid, ())

    def search(self, query: str) -> list[Entry]:
        words = [w for w in query.lower().split() if w]
        entries = self.entries()
        if not words:
            return entries
        found = []
        for entry in entries:
            haystack = " ".join([entry.pid, entry.title, entry.question, *entry.expected_cites]).lower()
            rules = None
            for word in words:
                if word in haystack:
                    continue
                rules = rules if rules is not None else self.cites(entry)
                if not any(cites_rule(rule, word) for rule in rules):
                    break
            else:
                found.append(entry)
        return found

    def warm_in_background(self, done: Callable[[], None] | None = None) -> None:
        """Resolve the whole library once, off the request path, so the first rule page that lists its
        rulings does not wait for it (about two seconds for 250 scenarios); then `done()`."""
        with self._lock:
            start, self._warming = not self._warming, True

        def warm() -> None:
            for entry in self.entries():
                self.cites(entry)
            self._warmed.set()
        if start:
            threading.Thread(target=warm, name="library-cites", daemon=True).start()
        if done is not None:  # once warm, whichever call started it
            threading.Thread(target=lambda: self._warmed.wait() and done(), name="library-warmed",
                             daemon=True).start()

    def worked_out(self) -> dict[str, list[Any]]:
        """The cites and answers worked out so far, by entry: {pid: [cites, answers]} (for `adopt`)."""
        with self._lock:
            return {pid: [list(cites), list(self._answers.get(pid, ()))]
                    for pid, cites in self._cites.items()}

    def adopt(self, worked: Mapping[str, Any]) -> int:
        """Take cites and answers worked out before (`worked_out`, by the same code for the same files) for
        the entries held now; how many were taken."""
        entries, _ = self._current()
        taken = 0
        with self._lock:
            for pid, found in worked.items():
                if pid in entries and isinstance(found, list) and len(found) == 2:
                    self._cites[pid] = tuple(str(c) for c in found[0])
                    self._answers[pid] = tuple(found[1])
                    taken += 1
        return taken

    def citing(self, rule_id: str) -> list[Entry]:
        """The entries whose ruling cites `rule_id` or a rule under it; worked out once per rule id
        (every rule page asks) until a scenario file changes."""
        entries, answers = self._current()
        found = answers.get(rule_id)
        if found is None:
            found = answers[rule_id] = [e for e in entries.values()
                                        if any(cites_rule(r, rule_id) for r in self.cites(e))]
        return list(found)


def resolve_entry(entry: Entry) -> dict[str, Any]:
    """The §5 ruling of a library scenario (raises ScenarioError when it does not load); the project's
    own rulings are never cut short by a visitor's request budget."""
    with engine.budget.unlimited():
        return engine.resolve(engine.load_scenario(dict(entry.data), source=str(entry.path.name)))


def cites_rule(cited: str, rule_id: str) -> bool:
    """"11.6.1b" and "11.6.1.2" fall under "11.6.1"; "11.6.10" does not."""
    cited, rule_id = cited.lower(), rule_id.lower()
    if cited == rule_id:
        return True
    if not cited.startswith(rule_id):
        return False
    rest = cited[len(rule_id):]
    return rest.startswith(".") or (rest.isalpha() and rule_id[-1:].isdigit())


LIBRARY = Library(recheck=RECHECK_SECONDS)


def rulings_citing(rule_id: str) -> list[Entry]:
    """The library rulings whose trace (or expectation) cites `rule_id` or a rule under it."""
    return LIBRARY.citing(str(rule_id))
