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
from dataclasses import dataclass, field
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


@dataclass
class _Judged:
    """One worker's judgements of one edition pair (by key: "library:<pid>" or a saved ruling's id),
    decoded once, and the report last made from them with the saved rulings' stamp it was made for."""

    store: RulingStorage  # kept so that its id stays its own
    kind: str  # what the store keeps its judgements under
    lock: threading.Lock = field(default_factory=threading.Lock)
    changes: dict[str, RulingChange] = field(default_factory=dict)
    report: tuple[Any, EditionChanges] | None = None


_judged: dict[tuple[int, str], _Judged] = {}
_judged_lock = threading.Lock()
PAIRS = 8          # edition pairs a worker keeps judgements of (then it starts again)
READ_AT_ONCE = 500  # kept judgements read from the store in one query
RENDER_SECONDS = (0.05, 40e-6)  # time kept for making the answer: fixed, and per ruling in the report


def _pair(saved: RulingStorage, kind: str) -> _Judged:
    with _judged_lock:
        found = _judged.get((id(saved), kind))
        if found is None:
            if len(_judged) >= PAIRS:
                _judged.clear()
            found = _judged[(id(saved), kind)] = _Judged(saved, kind)
        return found


def cached_changes(old: str, new: str, saved: RulingStorage, versions: str = "",
                   seconds: float | None = None) -> EditionChanges:
    """The report of /changes/<old>...<new>, bounded by `seconds` (what is left of a request's budget).

    Each ruling is judged once, by whichever worker or instance comes first, and kept in the store under
    the versions of what judged it (a save adds one ruling, judged by the next request); one process
    judges an edition pair at a time (a lease in the store), one thread of a worker works on a pair at a
    time (the others wait for it, within their own time). A worker decodes each kept judgement once and
    keeps it, so a save costs the next request one ruling, not the whole report. Work stops where the
    next ruling would not fit before the deadline with the time to make the answer left over (each
    request does at least one ruling's work, so every request makes progress).

    Raises Pending while rulings remain unjudged or undecoded (the caller answers 503 with
    Retry-After), UnknownEdition for an edition we don't hold."""
    rules, glossary, data = codex_changes(old, new)
    library = LIBRARY.entries()
    if old == new:  # one edition against itself: every ruling is the same, nothing to judge or decode
        same = [RulingChange("library", e.pid, "same", (), None, None) for e in library]
        same += [RulingChange("saved", rid, "same", (), None, None) for rid in saved.ids()]
        return EditionChanges(old, new, rules, glossary, data, tuple(same))
    deadline = None if seconds is None else time.monotonic() + seconds
    pair = _pair(saved, f"{KIND} {old}...{new} {versions} {library_digest(library)}")
    stamp = saved.stamp()
    made = pair.report
    if made is not None and made[0] == stamp:
        return made[1]
    if not pair.lock.acquire(timeout=WAIT if deadline is None else max(0.0, min(WAIT, _left(deadline)))):
        raise Pending(len(pair.changes), len(library) + stamp[0])  # another thread of ours is at it
    try:
        made = pair.report
        if made is not None and made[0] == stamp:
            return made[1]
        keys = [f"library:{e.pid}" for e in library] + saved.ids()
        reserve = RENDER_SECONDS[0] + RENDER_SECONDS[1] * len(keys)
        _gather(pair, keys, library, old, new, [c.id for c in (*rules, *glossary)],
                None if deadline is None else deadline - reserve, deadline)
        judged = [pair.changes[k] for k in keys if k in pair.changes]
        if len(judged) < len(keys):
            raise Pending(len(judged), len(keys))
        for gone in set(pair.changes) - set(keys):  # saved rulings deleted meanwhile
            del pair.changes[gone]
        report = EditionChanges(old, new, rules, glossary, data, tuple(judged))
        pair.report = (stamp, report)
        if deadline is not None and _left(deadline) < reserve:
            raise Pending(len(judged), len(keys))  # complete: the next request answers it at once
        return report
    finally:
        pair.lock.release()


def _left(deadline: float) -> float:
    return deadline - time.monotonic()


def _gather(pair: _Judged, keys: list[str], library: list[Any], old: str, new: str, changed: list[str],
            until: float | None, deadline: float | None) -> None:
    """Into `pair.changes`: what the store keeps (read and decoded READ_AT_ONCE at a time), then what is
    left judged (holding the pair's lease) or waited for (another process holds it), until `until`. When
    nothing was read, one ruling is judged before the `deadline` whatever `until` says (progress)."""
    kind = pair.kind
    missing = [k for k in keys if k not in pair.changes]
    found = 0
    for n in range(0, len(missing), READ_AT_ONCE):
        if n and until is not None and time.monotonic() > until:
            return
        for key, value in pair.store.kept_some(kind, missing[n:n + READ_AT_ONCE]).items():
            pair.changes[key] = _unpacked(*_kind_and_id(key), value)
            found += 1
    missing = [k for k in missing if k not in pair.changes]
    if not missing:
        return
    holder = pair.store.lease(kind, LEASE_SECONDS)
    if holder is None:  # another process judges this pair: take what it keeps meanwhile, a little while
        waited = time.monotonic() + (WAIT if until is None else max(0.0, min(WAIT, until - time.monotonic())))
        while missing and time.monotonic() < waited:
            time.sleep(0.2)
            for key, value in pair.store.kept_some(kind, missing[:READ_AT_ONCE]).items():
                pair.changes[key] = _unpacked(*_kind_and_id(key), value)
            missing = [k for k in missing if k not in pair.changes]
        return
    try:
        _judge_some(pair, kind, missing, library, old, new, changed, until,
                    first_free=found == 0 and (deadline is None or _left(deadline) > 0))
    finally:
        pair.store.release(kind, holder)


def _kind_and_id(key: str) -> tuple[str, str]:
    return ("library", key.removeprefix("library:")) if key.startswith("library:") else ("saved", key)


def _judge_some(pair: _Judged, kind: str, missing: list[str], library: list[Any], old: str, new: str,
                changed: list[str], until: float | None, first_free: bool) -> None:
    """Judge the `missing` rulings in order (the library's, then saved ones, oldest first; their scenarios
    read BATCH at a time), each written to the store with its batch in one transaction, until the next
    would not fit before `until` (the longest judgement so far is what the next is expected to take) or
    the client went away. With `first_free`, the first is judged whatever the clock says (progress)."""
    request = budget.CURRENT.get()
    gone = request.gone if request is not None else None
    scenarios = {f"library:{e.pid}": e.data for e in library}
    longest = 0.0
    for n in range(0, len(missing), BATCH):
        batch = missing[n:n + BATCH]
        wanted = [k for k in batch if k not in scenarios]
        scenarios.update(pair.store.scenarios(wanted) if wanted else [])
        done: list[tuple[str, bytes]] = []
        try:
            for key in batch:
                began = time.monotonic()
                free = first_free and n == 0 and not done
                late = not free and until is not None and began + longest > until
                if late or (gone is not None and gone()):
                    return
                scenario = scenarios.pop(key, None)
                if scenario is None:  # deleted meanwhile
                    continue
                change = _judged_now(*_kind_and_id(key), scenario, old, new, changed, gone)
                if gone is not None and gone():
                    return  # cut short because the client left: not kept
                done.append((key, _packed(change)))
                pair.changes[key] = change
                longest = max(longest, time.monotonic() - began)
        finally:
            pair.store.keep_many(kind, done)


def _judged_now(ruling_kind: str, rid: str, scenario: dict[str, Any], old: str, new: str, changed: list[str],
                gone: Callable[[], bool] | None) -> RulingChange:
    if ruling_kind == "library":  # ours: no clock, so a slow moment never marks one of ours as changed
        with budget.unlimited():
            return judge_twice(ruling_kind, rid, scenario, old, new, changed)
    with budget.limit(budget.Budget(seconds=SAVED_SECONDS, steps=runner.WEB_STEP_CAP, gone=gone)):
        return judge_twice(ruling_kind, rid, scenario, old, new, changed)
