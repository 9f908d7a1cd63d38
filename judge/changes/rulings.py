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

import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
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


SAVED_SECONDS = 2.0  # the budget of one saved ruling's judgement under each edition


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
    expect = data.get("expect")
    expected = expect.get("cites") or [] if isinstance(expect, dict) else []
    return runner.outcome(ruling), list(cited_rules(ruling, expected))


_cache: dict[tuple, EditionChanges] = {}
_base: dict[tuple, EditionChanges] = {}          # (editions, library) → the report without saved rulings
_judged: dict[tuple, dict[str, RulingChange]] = {}  # the same key → each saved ruling, judged once
_lock = threading.Lock()


def cached_changes(old: str, new: str, saved: RulingStorage | None = None) -> EditionChanges:
    """`changes()`, computed once per edition pair (and library), then for each saved ruling once: a
    save adds one ruling's two judgements, never the library's and every saved ruling's again (that
    took 2.9–3.5 s a request, growing with the saved rulings). The library is judged without the
    request's budget (it is ours, and a ruling cut short by the clock would be kept as if it changed);
    each saved ruling gets a budget of its own (the web's, fresh), so a loop stops where it always does."""
    held = editions()
    key = (old, new, str(held.root), tuple(held.versions), LIBRARY.stamp())
    stamp = (*key, saved.stamp() if saved is not None else None)
    with _lock:
        found = _cache.get(stamp)
        base = _base.get(key)
    if found is not None:
        return found
    if base is None:
        with budget.unlimited():
            base = changes(old, new)
        with _lock:
            if len(_base) > 8:  # a few edition pairs at most; a changed library makes new keys
                _base.clear()
                _judged.clear()
            _base[key] = base
    records = saved.all() if saved is not None else []
    with _lock:
        judged = _judged.setdefault(key, {})
    changed = [c.id for c in (*base.rules, *base.glossary)]
    for record in records:
        if record.id not in judged:
            with budget.limit(budget.Budget(seconds=SAVED_SECONDS, steps=runner.WEB_STEP_CAP)):
                judged[record.id] = judge_twice("saved", record.id, record.scenario, old, new, changed)
    found = EditionChanges(old, new, base.rules, base.glossary, base.data,
                           (*base.rulings, *(judged[r.id] for r in records)))
    with _lock:
        _cache.clear()
        _cache[stamp] = found
    return found
