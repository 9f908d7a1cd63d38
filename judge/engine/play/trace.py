"""The trace: the steps of a resolution, each a frozen record a judge can read aloud.

A step is `{n, kind, text, rules, changes}` (contract §5): `text` is plain English naming cards
and slots and showing the arithmetic, `rules` the rule ids behind it (never empty when a rule
was applied), `changes` what moved, e.g. `{"slot": "B:C3", "damage": [0, 15]}` or
`{"card": "Iron Blade", "from": "A:L2", "to": "A.elysium"}`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

from judge.engine.data import budget
from judge.engine.data.errors import Reason, StepLimit
from judge.engine.position.board import Board

# The kinds of step, so readers (the desk, tests) can group them.
KINDS = frozenset({
    "action",      # a queued action is taken
    "window",      # a response window opens or closes; who passes
    "cascade",     # an entry goes on the Cascade
    "resolve",     # a Cascade entry begins to resolve
    "fizzle",      # an entry fizzles (11.6.1)
    "cost",        # a cost is paid or can't be
    "effect",      # one part of an effect does something (or is skipped, 11.6.3)
    "trigger",     # a Timing or Instant Effect triggers, or does not
    "instant",     # an Instant Effect resolves
    "battle",      # a battle step
    "damage",      # damage dealt
    "heal",        # healing
    "capture",     # a Soul is captured, a Realm shatters
    "zone",        # a card moves between zones
    "turn",        # phases and turns
    "win",         # the duel ends
    "reject",      # a queued action is illegal
    "limit",       # the step cap was hit
    "position",    # nothing is queued: what the rules derive in the position as given
    "consequence", # what the rules changed as a consequence of an earlier step (`caused_by`)
    "nonevent",    # a keyword or trigger that could have applied and did not, with why
    "error",       # the engine itself failed (a bug): reported, never hidden
})


@dataclass(frozen=True)
class Step:
    """One step of play in a ruling."""

    n: int
    kind: str
    text: str
    rules: tuple[str, ...]
    changes: tuple[dict[str, Any], ...] = ()
    caused_by: int | None = None   # the step this one follows from (a consequence, a capture, a win)
    reasons: tuple[Reason, ...] = ()   # the records the step's "why" is made from (reasons.py)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "n": self.n,
            "kind": self.kind,
            "text": self.text,
            "rules": list(self.rules),
            "changes": [dict(c) for c in self.changes],
        }
        if self.caused_by is not None:
            out["caused_by"] = self.caused_by
        if self.reasons:
            out["reasons"] = [r.to_dict() for r in self.reasons]
        return out


class Explainer(Protocol):
    """Watches the steps (judge/engine/play/consequences.py): names the step a new one follows from, and
    adds the consequences of a step after it."""

    def cause(self, kind: str, changes: tuple[dict[str, Any], ...]) -> int | None: ...

    def after(self, step: Step) -> None: ...

    def fell(self, ref: Any) -> int | None: ...


@dataclass
class Trace:
    """The growing list of steps; optionally a snapshot of the state after each one and the board
    derived after it (`board`: the game's own, derived once per version of the state and shared by
    every step, watcher and check that sees that version)."""

    cap: int = 10_000
    snapshot: Callable[[], dict[str, Any]] | None = None
    board: Callable[[], Board] | None = None
    steps: list[Step] = field(default_factory=list)
    states: list[dict[str, Any]] = field(default_factory=list)
    boards: list[Board] = field(default_factory=list)   # with `board`: the board after each step
    observer: Callable[[], None] | None = None
    explainer: Explainer | None = None
    watch: Callable[[Step], None] | None = None   # after every step (the answers' ledger)

    def add(self, kind: str, text: str, rules: Iterable[str] = (),
            changes: Iterable[dict[str, Any]] = (), caused_by: int | None = None,
            reasons: Iterable[Reason] = ()) -> Step:
        if kind not in KINDS:
            raise ValueError(f"unknown step kind {kind!r}")
        if len(self.steps) >= self.cap:
            raise StepLimit(f"the cap of {self.cap} steps was reached; the last step was: {text}")
        budget.check(len(self.steps))
        changes = tuple(changes)
        if caused_by is None and self.explainer is not None:
            caused_by = self.explainer.cause(kind, changes)
        step = Step(len(self.steps) + 1, kind, text, _unique(rules), changes, caused_by, tuple(reasons))
        self.steps.append(step)
        if self.snapshot is not None:
            self.states.append(self.snapshot())
        if self.board is not None:
            self.boards.append(self.board())
        if self.observer is not None:
            self.observer()
        if self.watch is not None:
            self.watch(step)
        if self.explainer is not None and kind != "consequence":
            self.explainer.after(step)
        return step

    def force(self, kind: str, text: str, rules: Iterable[str] = ()) -> Step:
        """Add a step even past the cap (for the report that names the loop)."""
        step = Step(len(self.steps) + 1, kind, text, _unique(rules))
        self.steps.append(step)
        if self.snapshot is not None:
            self.states.append(self.snapshot())
        if self.board is not None:
            try:
                with budget.unlimited():   # the step that says the clock ran out still shows its board
                    self.boards.append(self.board())
            except Exception:  # noqa: BLE001 - the engine failing to derive: that step has no board
                pass
        return step

    def cited(self) -> set[str]:
        return {rule for step in self.steps for rule in step.rules}

    def to_list(self) -> list[dict[str, Any]]:
        out = [step.to_dict() for step in self.steps]
        if self.snapshot is not None:
            # a step whose snapshot raised (the engine failing there) has no state: zip stops before it
            for item, state in zip(out, self.states, strict=False):
                item["state"] = state
        for item, board in zip(out, self.boards, strict=False):
            # the values a board picture shows (contributions left to the final `derived`): a step's
            # board is drawn from what the engine derived there, never by loading its state again
            item["derived"] = board.derived(detail=True, contributions=False)
        return out


def _unique(rules: Iterable[str]) -> tuple[str, ...]:
    seen: dict[str, None] = {}
    for rule in rules:
        if rule:
            seen.setdefault(rule, None)
    return tuple(seen)
