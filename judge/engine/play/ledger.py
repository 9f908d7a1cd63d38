"""What a resolution did, kept as facts for the answers (contract §7): which step took or refused each
queued action, what became of each Cascade entry (the step that let it resolve, or the fizzle with its
reason, or the negation), and, for the cards and slots a question follows, what they were after every
step. Play writes it; `judge.engine.driver.answers` reads it; nothing here is a rule.

    g.ledger.took(action_index, step_n)           # play: an action is taken
    g.ledger.refused(action_index, step_n, why)   # play: an action is rejected
    g.ledger.passed_over(action_index, step_n, why)  # play: a window passed a queued answer by (not legal)
    g.ledger.resolved(entry_id, step_n)           # effects: the step that decided it resolves
    g.ledger.fizzled(entry_id, step_n, why, rules)
    g.ledger.negated(entry_id, step_n, by, rules)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Outcome:
    """What became of one Cascade entry."""

    how: str                        # resolved | fizzled | negated
    step: int                       # the deciding step: the one that let it resolve, the fizzle, the negation
    why: str = ""                   # the fizzle's reason, or who negated it
    rules: tuple[str, ...] = ()


@dataclass(frozen=True)
class Used:
    """One Cascade entry and where it came from: the queued action that used it (or None: it
    triggered), its words (`Firebolt`, `Mirror Sprite's Vanish`) and the card it belongs to."""

    entry: int
    action: int | None
    label: str
    card: str
    kind: str                       # event | ambush | activated | timing
    pushed: int                     # the step that put it on the Cascade
    targets: tuple[int, ...] = ()   # the cards it targeted (their uids, as chosen)
    source: int | None = None       # the card whose effect it is (a Soul or Realm; None for an Event)


@dataclass
class Ledger:
    taken: dict[int, int] = field(default_factory=dict)       # action index -> its first step
    rejected: dict[int, int] = field(default_factory=dict)    # action index -> its reject step
    reasons: dict[int, str] = field(default_factory=dict)     # action index -> why it is not legal
    # action index -> (the window's step, why): a queued answer not legal in the window it was meant for
    passed: dict[int, tuple[int, str]] = field(default_factory=dict)
    used: list[Used] = field(default_factory=list)
    outcomes: dict[int, Outcome] = field(default_factory=dict)  # entry id -> outcome
    ended: int | None = None                                   # the step that ended the duel
    # followed cards and slots: key -> [(step n, what it was after that step)], the first at step 0
    seen: dict[str, list[tuple[int, Any]]] = field(default_factory=dict)
    watchers: dict[str, Callable[[], Any]] = field(default_factory=dict)

    # --- written by play
    def took(self, action: int, step: int) -> None:
        self.taken.setdefault(action, step)

    def refused(self, action: int, step: int, why: str) -> None:
        """A queued answer a window passed by is refused where it decided: in that window (12.1)."""
        step, why = self.passed.get(action, (step, why))
        self.rejected.setdefault(action, step)
        self.reasons.setdefault(action, why)

    def passed_over(self, action: int, step: int, why: str) -> None:
        self.passed.setdefault(action, (step, why))

    def pushed(self, entry: int, action: int | None, label: str, card: str, kind: str, step: int,
               targets: tuple[int, ...] = (), source: int | None = None) -> None:
        self.used.append(Used(entry, action, label, card, kind, step, targets, source))

    def resolved(self, entry: int, step: int) -> None:
        self.outcomes.setdefault(entry, Outcome("resolved", step))

    def fizzled(self, entry: int, step: int, why: str, rules: tuple[str, ...]) -> None:
        self.outcomes.setdefault(entry, Outcome("fizzled", step, why, rules))

    def negated(self, entry: int, step: int, by: str, rules: tuple[str, ...]) -> None:
        self.outcomes.setdefault(entry, Outcome("negated", step, by, rules))

    # --- following what a question is about
    def follow(self, key: str, look: Callable[[], Any]) -> None:
        """Call `look()` now (step 0) and after every step; keep what it sees each time it changes."""
        self.watchers[key] = look
        self.seen[key] = [(0, look())]

    def after(self, step: int) -> None:
        for key, look in self.watchers.items():
            now = look()
            history = self.seen[key]
            if history[-1][1] != now:
                history.append((step, now))
