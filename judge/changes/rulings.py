"""What an edition change does: the Codex's changes (judge.changes.diff) and, for every library ruling
and every saved ruling, whether it still holds.

    report = changes("0.4.0", "0.4.1", saved=RulingStore(path))
    report.to_dict(url_of)   # {"from", "to", "rules", "glossary", "rulings", "data"}

A ruling is re-judged under both editions (whatever edition its scenario names):
  outcome-changed     the outcomes differ (winner, rejected action, final board, derived values);
  cites-changed-rule  same outcome, but a rule or glossary entry its trace cites was changed or
                      removed (cited as is, or a sub-item under it): a judge should look again;
  same                neither.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from judge.changes.diff import Change, compare, compare_data
from judge.codex.book import load_edition
from judge.codex.editions import editions
from judge.desk import runner
from judge.engine import budget
from judge.library import LIBRARY, cited_rules, cites_rule
from judge.rulings.sqlite import RulingStorage

STATUSES = ("outcome-changed", "cites-changed-rule", "same")
KINDS = ("library", "saved")


@dataclass(frozen=True)
class RulingChange:
    kind: str  # one of KINDS
    id: str  # the library path id, or the saved ruling's id
    status: str  # one of STATUSES
    changed_rules: tuple[str, ...]  # the changed ids the ruling cites
    before: dict[str, Any] | None  # the outcome under `from` (outcome-changed only)
    after: dict[str, Any] | None  # the outcome under `to` (outcome-changed only)

    def to_dict(self, url: str) -> dict[str, Any]:
        return {
            "id": self.id,
            "url": url,
            "status": self.status,
            "changed_rules": list(self.changed_rules),
            "before": self.before,
            "after": self.after,
        }


@dataclass(frozen=True)
class EditionChanges:
    old: str
    new: str
    rules: tuple[Change, ...]
    glossary: tuple[Change, ...]
    data: tuple[Change, ...]
    rulings: tuple[RulingChange, ...]

    def to_dict(self, url_of: Callable[[str, str], str]) -> dict[str, Any]:
        """The JSON of /changes/<from>...<to>.json; `url_of(kind, id)` builds each ruling's link."""
        return {
            "from": self.old,
            "to": self.new,
            "rules": [c.to_dict() for c in self.rules],
            "glossary": [c.to_dict() for c in self.glossary],
            "rulings": [r.to_dict(url_of(r.kind, r.id)) for r in self.rulings],
            "data": [c.to_dict() for c in self.data],
        }

    def count(self, status: str) -> int:
        return sum(r.status == status for r in self.rulings)


def changes(old: str, new: str, saved: RulingStorage | None = None) -> EditionChanges:
    """Compare edition `old` with `new` (UnknownEdition for one we don't hold)."""
    held = editions()
    before, after = load_edition(old), load_edition(new)
    rules, glossary = compare(before, after)
    data = compare_data(held.folder(old), held.folder(new))
    changed = [c.id for c in (*rules, *glossary)]
    scenarios: list[tuple[str, str, dict[str, Any]]] = [("library", e.pid, e.data) for e in LIBRARY.entries()]
    if saved is not None:
        scenarios += [("saved", s.id, s.scenario) for s in saved.all()]
    rulings = tuple(judge_twice(kind, rid, data_, old, new, changed) for kind, rid, data_ in scenarios)
    return EditionChanges(old, new, tuple(rules), tuple(glossary), tuple(data), rulings)


SAVED_SECONDS = 1.0  # the budget of one saved ruling's judgement under each edition on the web (the CLI's,
                     # and the library's, ours: none, so a clock never marks one of ours as changed)


def judge_twice(
    kind: str, rid: str, data: dict[str, Any], old: str, new: str, changed: Iterable[str]
) -> RulingChange:
    if old == new:  # one edition against itself: every ruling is the same, nothing to judge
        return RulingChange(kind, rid, "same", (), None, None)
    first, cited_first = _judge(data, old)
    second, cited_second = _judge(data, new)
    cited = dict.fromkeys([*cited_first, *cited_second])
    hit = tuple(c for c in changed if any(cites_rule(c, rule) for rule in cited))
    if runner.canonical_json(first) != runner.canonical_json(second):
        return RulingChange(kind, rid, "outcome-changed", hit, first, second)
    return RulingChange(kind, rid, "cites-changed-rule" if hit else "same", hit, None, None)


def _judge(data: dict[str, Any], edition: str) -> tuple[dict[str, Any], list[str]]:
    """The outcome of `data` under `edition` and the rule ids its ruling cites; a scenario the
    engine can't read gives {"problems": [...]} as its outcome."""
    try:
        ruling = runner.resolve(data, source="changes", snapshots=False, edition=edition)
    except runner.DeskInputError as exc:
        return {"problems": exc.problems}, []
    except budget.OutOfTime as exc:  # its budget ran out before the first step (loading it): no ruling
        return {"problems": [{"path": "", "message": f"not judged: {exc}"}]}, []
    expect = data.get("expect")
    expected = expect.get("cites") or [] if isinstance(expect, dict) else []
    return runner.outcome(ruling), list(cited_rules(ruling, expected))


KIND = "changes"   # what the store keeps a judgement under: "changes <from>...<to> <versions>"
BATCH = 20         # saved rulings read from the store at once (their scenarios only)
LEASE_SECONDS = 30.0  # how long one process may hold an edition pair's judging before another may
WAIT = 1.5  # seconds a request waits for another judging the same pair (then 503 with Retry-After)


class Pending(Exception):
    """The report is not complete yet: `judged` of `total` rulings are; the rest are being judged."""

    def __init__(self, judged: int, total: int) -> None:
        super().__init__(f"{judged} of {total} rulings judged so far")
        self.judged = judged
        self.total = total


def codex_changes(old: str, new: str) -> tuple[tuple[Change, ...], tuple[Change, ...], tuple[Change, ...]]:
    """The Codex's own changes between two editions (rules, glossary, data): our data, compared once
    per process (and editions folder) without a visitor's budget. UnknownEdition for one we don't hold."""
    held = editions()
    return _codex_changes(old, new, str(held.root), tuple(held.versions))


@lru_cache(maxsize=16)
def _codex_changes(old: str, new: str, root: str, versions: tuple[str, ...]
                   ) -> tuple[tuple[Change, ...], tuple[Change, ...], tuple[Change, ...]]:
    with budget.unlimited():
        before, after = load_edition(old), load_edition(new)
        rules, glossary = compare(before, after)
        held = editions()
        data = compare_data(held.folder(old), held.folder(new))
    return tuple(rules), tuple(glossary), tuple(data)


_digests: dict[tuple, str] = {}


def library_digest(library: list[Any]) -> str:
    """A hash of the library's scenarios (what its judgements depend on beside the engine and Codex)."""
    key = tuple(id(e.data) for e in library)
    found = _digests.get(key)
    if found is None:
        digest = hashlib.sha256()
        for entry in library:
            digest.update(f"{entry.pid}\0{runner.canonical_json(entry.data)}\0".encode())
        found = _digests[key] = digest.hexdigest()[:12]
        if len(_digests) > 4:
            _digests.clear()
            _digests[key] = found
    return found


def _packed(change: RulingChange) -> bytes:
    record = {"status": change.status, "changed_rules": list(change.changed_rules), "before": change.before,
              "after": change.after}
    return zlib.compress(json.dumps(record, separators=(",", ":")).encode("utf-8"), 6)


def _unpacked(kind: str, rid: str, value: bytes) -> RulingChange:
    record = json.loads(zlib.decompress(value))
    return RulingChange(kind, rid, record["status"], tuple(record["changed_rules"]), record["before"],
                        record["after"])


# (store, kind) -> (the store, the saved rulings' stamp, the report); the store kept so its id stays its own
_reports: dict[tuple[int, str], tuple[RulingStorage, Any, EditionChanges]] = {}
_reports_lock = threading.Lock()


def cached_changes(old: str, new: str, saved: RulingStorage, versions: str = "",
                   seconds: float | None = None) -> EditionChanges:
    """The report of /changes/<old>...<new>, bounded: judgements are made at most `seconds` at a time (a
    request's budget; a ruling is started while the longest judgement so far would fit, so one ruling's
    two judgements, at most SAVED_SECONDS × 2, may run past it), each kept in the
    store under the versions of what judged it, so a ruling is judged once (a save adds one, judged by
    the next request) by whichever worker or instance comes first; one process judges an edition pair
    at a time (a lease in the store). Raises Pending while rulings remain unjudged (the caller answers
    503 with Retry-After), UnknownEdition for an edition we don't hold."""
    rules, glossary, data = codex_changes(old, new)
    library = LIBRARY.entries()
    if old == new:  # one edition against itself: every ruling is the same, nothing to judge or decode
        same = [RulingChange("library", e.pid, "same", (), None, None) for e in library]
        same += [RulingChange("saved", rid, "same", (), None, None) for rid in saved.ids()]
        return EditionChanges(old, new, rules, glossary, data, tuple(same))
    kind = f"{KIND} {old}...{new} {versions} {library_digest(library)}"
    stamp = saved.stamp()
    with _reports_lock:
        found = _reports.get((id(saved), kind))
    if found is not None and found[1] == stamp:
        return found[2]
    ids = saved.ids()
    total = len(library) + len(ids)
    if len(saved.kept_keys(kind)) < total:
        _complete(kind, library, total, saved, old, new, [c.id for c in (*rules, *glossary)], seconds)
    kept = saved.kept_all(kind)
    judged = [_unpacked("library", e.pid, kept[f"library:{e.pid}"]) for e in library
              if f"library:{e.pid}" in kept]
    judged += [_unpacked("saved", rid, kept[rid]) for rid in ids if rid in kept]
    if len(judged) < total:  # a saved ruling deleted meanwhile, say
        raise Pending(len(judged), total)
    report = EditionChanges(old, new, rules, glossary, data, tuple(judged))
    with _reports_lock:
        if len(_reports) > 8:
            _reports.clear()
        _reports[(id(saved), kind)] = (saved, stamp, report)
    return report


def _complete(kind: str, library: list[Any], total: int, saved: RulingStorage, old: str, new: str,
              changed: list[str], seconds: float | None) -> None:
    """Judge what is left for as long as `seconds` allow (or wait up to WAIT for the process judging
    it); Pending when rulings remain unjudged."""
    keys = saved.kept_keys(kind)
    todo = [e for e in library if f"library:{e.pid}" not in keys]
    held = _judge_some(kind, todo, saved, old, new, changed, seconds)
    keys = saved.kept_keys(kind)
    waited = time.monotonic() + min(WAIT, seconds if seconds is not None else WAIT)
    while not held and len(keys) < total and time.monotonic() < waited:  # another judges: wait a little
        time.sleep(0.2)
        keys = saved.kept_keys(kind)
    if len(keys) < total:
        raise Pending(len(keys), total)


def _judge_some(kind: str, library: list[Any], saved: RulingStorage, old: str, new: str, changed: list[str],
                seconds: float | None) -> bool:
    """Judge unjudged rulings (the library's first, then saved ones, oldest first, BATCH at a time) and
    keep each, until `seconds` have passed (or the client went away); False (nothing done) when another
    process holds the pair's lease."""
    holder = saved.lease(kind, LEASE_SECONDS)
    if holder is None:
        return False
    request = budget.CURRENT.get()
    gone = request.gone if request is not None else None
    deadline = None if seconds is None else time.monotonic() + seconds
    try:
        def pending() -> Iterable[tuple[str, str, str, dict[str, Any]]]:
            for entry in library:
                yield "library", entry.pid, f"library:{entry.pid}", entry.data
            while batch := saved.pending(kind, BATCH):
                for rid, scenario in batch:
                    yield "saved", rid, rid, scenario

        longest = 0.0  # the longest judgement of this request so far: the next is expected to fit in it
        for ruling_kind, rid, key, scenario in pending():
            began = time.monotonic()
            if (deadline is not None and began + longest > deadline) or (gone is not None and gone()):
                return True
            if ruling_kind == "library":
                with budget.unlimited():
                    change = judge_twice(ruling_kind, rid, scenario, old, new, changed)
            else:
                with budget.limit(budget.Budget(seconds=SAVED_SECONDS, steps=runner.WEB_STEP_CAP, gone=gone)):
                    change = judge_twice(ruling_kind, rid, scenario, old, new, changed)
            if gone is not None and gone():
                return True  # cut short because the client left: not kept
            saved.keep(kind, key, _packed(change))
            longest = max(longest, time.monotonic() - began)
    finally:
        saved.release(kind, holder)
    return True
