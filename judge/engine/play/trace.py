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
from judge.engine.play.sayings import Said
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


# What a step records beside its kind, where a reader needs more than the kind (the answers, the desk):
WHAT = frozenset({
    "",                  # nothing more than its kind
    "action_refused",    # a queued action is illegal (reject): `action`, `player`
    "action_taken",      # a queued action is taken: `action`, `player`
    "resolve_begins",    # a Cascade entry begins to resolve
    "resolve_checked",   # a check that lets an entry resolve (its Caster still active, an Ambush anyway, …)
    "trigger_missed",    # a trigger that does not fire, or is lost: `of` is its card
    "kept_off",          # an effect or keyword that could have applied does nothing (Unyielding, a Taunt
                         # that does not protect): `of` is the card whose effect or keyword it is
    "waits",             # a queued action waits (the event slot)
    "values_changed",    # a consequence: derived values of `cards[0]` changed
    "cost_paid",         # damage a Soul takes paying a cost (pays HP, 11.5.5)
})


@dataclass(frozen=True)
class CardAt:
    """A card a step names, as its slot and name."""

    slot: str
    name: str

    def to_dict(self) -> dict[str, str]:
        return {"slot": self.slot, "name": self.name}


@dataclass(frozen=True)
class Facts:
    """The facts of a step beside its words: what happened (`what`, one of WHAT), the cards on the field it
    names (slot and name, the one it is about first), the card whose effect or keyword it speaks of (`of`),
    the queued action it takes or refuses and who queued it. Values before and after and what moved where
    are its `changes`; why, its `reasons`; the rules, its `rules`."""

    what: str = ""
    cards: tuple[CardAt, ...] = ()
    of: str | None = None
    action: int | None = None
    player: str | None = None
    because: tuple[str, ...] = ()   # a refusal's violations, each in its own words
    shows: tuple[tuple[str, str, int], ...] = ()   # values the step states: (card, "ATK", 25)

    def __post_init__(self) -> None:
        if self.what not in WHAT:
            raise ValueError(f"unknown step fact {self.what!r}; add it to WHAT")

    def slots(self) -> set[str]:
        return {c.slot for c in self.cards}


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
    facts: Facts = Facts()
    record: Said | None = None   # what it says, as a record (sayings.py); `text` is rendered from it

    @property
    def said(self) -> str:
        """The step's words as one sentence, as an answer quotes them."""
        text = self.text.strip()
        return text if text.endswith((".", "!", "?", ")")) else text + "."

    def to_dict(self) -> dict[str, Any]:
        out = self._dict()
        out["facts"] = facts_dict(self)
        return out

    def _dict(self) -> dict[str, Any]:
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
    namer: Callable[[str], str | None] | None = None   # the name of the card on a slot now (the game's)

    def add(self, kind: str, text: Said, rules: Iterable[str] = (),
            changes: Iterable[dict[str, Any]] = (), caused_by: int | None = None,
            reasons: Iterable[Reason] = (), *, cards: Iterable[tuple[Any, str]] = (), what: str = "",
            of: str | None = None, action: int | None = None, player: str | None = None,
            because: tuple[str, ...] = (), shows: Iterable[tuple[str, str, int]] = ()) -> Step:
        if kind not in KINDS:
            raise ValueError(f"unknown step kind {kind!r}")
        words = text.text   # the one place a step's words are made: sayings.render
        if len(self.steps) >= self.cap:
            raise StepLimit(f"the cap of {self.cap} steps was reached; the last step was: {words}")
        budget.check(len(self.steps))
        changes = tuple(changes)
        if caused_by is None and self.explainer is not None:
            caused_by = self.explainer.cause(kind, changes)
        reasons = tuple(reasons)
        facts = Facts(what, self._cards(cards, changes, reasons), of, action, player, because, tuple(shows))
        step = Step(len(self.steps) + 1, kind, words, _unique(rules), changes, caused_by, reasons, facts,
                    text)
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

    def _cards(self, named: Iterable[tuple[Any, str]], changes: tuple[dict[str, Any], ...],
               reasons: tuple[Reason, ...]) -> tuple[CardAt, ...]:
        """The cards a step names: those its maker names, those its changes touch on the field, those its
        reason records name (a slot with its card)."""
        out: dict[tuple[str, str], None] = {}
        for ref, name in named:
            if name and ":" in str(ref):
                out.setdefault((str(ref), name), None)
        for change in changes:
            if "card" in change:
                for end in (change.get("from"), change.get("to")):
                    # a slot, not "A:L2 (face down)" nor "A.hand"
                    if isinstance(end, str) and ":" in end and " " not in end:
                        out.setdefault((end, str(change["card"])), None)
            elif isinstance(change.get("slot"), str) and self.namer is not None:
                holder = self.namer(change["slot"])
                if holder is not None:
                    out.setdefault((change["slot"], holder), None)
        for reason in records(reasons):
            for slot_key, card_key in SLOT_CARD_FACTS:
                slot, card = reason.facts.get(slot_key), reason.facts.get(card_key)
                if isinstance(slot, str) and ":" in slot:
                    out.setdefault((slot, str(card or "")), None)
        return tuple(CardAt(slot, name) for slot, name in out)

    def force(self, kind: str, text: Said, rules: Iterable[str] = ()) -> Step:
        """Add a step even past the cap (for the report that names the loop)."""
        step = Step(len(self.steps) + 1, kind, text.text, _unique(rules), record=text)
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


# the facts of a reason that name a card on the field: its slot and its name
SLOT_CARD_FACTS = (("slot", "card"), ("taunter_slot", "taunter"))


def records(reasons: Iterable[Reason]) -> list[Reason]:
    """Reason records with the ones nested in them (the candidates a target excluded)."""
    out: list[Reason] = []
    for r in reasons:
        out.append(r)
        out += records([x for x in r.facts.get("excluded", ()) if isinstance(x, Reason)])
    return out


def facts_dict(step: Step) -> dict[str, Any]:
    """A step's `facts` in a ruling (docs/scenario-format.md, "Output extensions")."""
    f = step.facts
    out: dict[str, Any] = {}
    if f.what:
        out["what"] = f.what
    out["cards"] = [c.to_dict() for c in f.cards]
    if f.of is not None:
        out["of"] = f.of
    if f.action is not None:
        out["action"] = f.action
    if f.player is not None:
        out["player"] = f.player
    if f.because:
        out["because"] = list(f.because)
    if f.shows:
        out["shows"] = [{"card": card, "of": label, "value": value} for card, label, value in f.shows]
    values = [{"slot": c["slot"], "of": key, "before": v[0], "after": v[1]} for c in step.changes
              if isinstance(c.get("slot"), str) for key, v in c.items()
              if key != "slot" and isinstance(v, list) and len(v) == 2]
    if values:
        out["values"] = values
    moved = [{"card": c["card"], "from": c.get("from"), "to": c.get("to")}
             for c in step.changes if "card" in c]
    if moved:
        out["moved"] = moved
    return out


def _unique(rules: Iterable[str]) -> tuple[str, ...]:
    seen: dict[str, None] = {}
    for rule in rules:
        if rule:
            seen.setdefault(rule, None)
    return tuple(seen)
