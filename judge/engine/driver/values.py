"""What every answer (contract §7) reads a step by, and the answers about values: `StepReader` holds the
game, the steps and the start, finds a step by its number, the steps about a card (by their `facts` and
`reasons`, never their words) and the step that explains a change; `value` answers `value: {slot, of}` from
the ledger's look at the slot after every step, the step records and the final board. `reading.Reader`
adds the other kinds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from judge.engine.data.keywords import MORAL
from judge.engine.driver.asking import VALUES, Ask
from judge.engine.play.trace import records
from judge.engine.position.action import Action
from judge.engine.position.state import State

if TYPE_CHECKING:
    from judge.engine.data.errors import Reason
    from judge.engine.play.game import Game
    from judge.engine.play.trace import Step

QUIET = ("window", "turn", "cascade", "resolve", "zone")   # steps that name a card without acting on it
# the reasons of a trigger that does not fire or is lost (data/errors.py REASONS)
TRIGGER_REASONS = ("trigger_condition", "limit_used_up", "trigger_inactive", "trigger_negated",
                   "trigger_lost_no_target")
SLOT_FACTS = ("slot", "taunter_slot")   # the facts of a reason that name a card's slot
# the glossary entry of each value a question may ask, for a value that holds as printed
VALUE_RULES = {"atk": ("glossary/atk",), "def": ("glossary/def",), "hp": ("glossary/hp",),
               "max_hp": ("glossary/hp",), "damage": ("glossary/damage",), "captured": ("glossary/capture",),
               "line": ("glossary/line",), "proactive": ("glossary/proactive",)}



# --- answering, after play ---------------------------------------------------------------------

@dataclass(frozen=True)
class Answer:
    ask: Ask
    question: str
    verdict: Any
    text: str
    step: int | None
    rules: tuple[str, ...]
    default: bool = False

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"ask": self.ask.to_dict(), "question": self.question, "verdict": self.verdict,
                               "text": self.text, "step": self.step, "rules": list(self.rules)}
        if self.default:
            out["default"] = True
        return out


    def with_facts(self, facts: dict[str, Any]) -> dict[str, Any]:
        out = self.to_dict()
        if facts:
            out["facts"] = facts
        return out


Said = tuple[Any, str, "int | None", Sequence[str]]   # verdict, text, deciding step, rules


class StepReader:
    """What one resolution did, as the answers read it: its steps by number and by the cards they are
    about, and the answers about values."""

    def __init__(self, g: Game, actions: Sequence[Action], start: State) -> None:
        self.g = g
        self.actions = actions
        self.start = start
        self.steps: list[Step] = g.trace.steps
        self.by_n = {s.n: s for s in self.steps}

    def step(self, n: int | None) -> Step | None:
        return self.by_n.get(n) if n is not None else None

    def rules(self, n: int | None) -> tuple[str, ...]:
        step = self.step(n)
        return step.rules if step is not None else ()

    def last_about(self, places: set[str]) -> Step | None:
        """The last step of play (not a window, a turn, a push on the Cascade …) whose facts name a card on
        one of `places`."""
        return next((s for s in reversed(self.steps) if s.kind not in QUIET and about(s, places)), None)

    def said(self, n: int | None) -> str:
        step = self.step(n)
        return step.said if step is not None else ""

    def stopped_at(self, uid: int | None) -> Step | None:
        """The fizzle or negation (11.6.1, 13.5.1) of the last Cascade entry that targeted the card `uid` or
        was its own (its cost then not paid), from the ledger's entries and their outcomes."""
        if uid is None:
            return None
        for used in reversed(self.g.ledger.used):
            outcome = self.g.ledger.outcomes.get(used.entry)
            aimed = uid in used.targets or uid == used.source
            if outcome is not None and outcome.how != "resolved" and aimed:
                return self.step(outcome.step)
        return None

    def _paid_before(self, capture: int) -> int | None:
        """The payment (damage taken paying a cost) that brought the Soul captured at step `capture` to 0 HP:
        the last step before the capture that is not a consequence or non-event, when it is one."""
        for step in reversed(self.steps[:capture - 1]):
            if step.kind in ("consequence", "nonevent"):
                continue
            return step.n if step.facts.what == "cost_paid" else None
        return None

    def _explained_by(self, n: int, place: str | None) -> int | None:
        """A consequence step that follows from step `n` (or is step `n`) and is about the card on `place`:
        its reason record names the card's slot (a Taunt switching, a slot effect outliving another), or,
        for a consequence of values, which carries no record and no changes, its words name the slot."""
        start = self.step(n)
        if start is not None and start.kind == "consequence":
            return n
        for step in self.steps[n:]:
            if step.kind != "consequence":
                break
            if step.caused_by == n and place and about(step, {place}):
                return step.n
        return None

    # --- value: the step where it took its final form
    def value(self, ask: Ask) -> Said:
        history = self.g.ledger.seen.get(ask.key, [])
        final = history[-1][1] if history else None
        label = VALUES[ask.of or "atk"]
        if final is None:
            return None, f"None: no card stands on {ask.slot} after the queue, so it has no {label}.", \
                None, ()
        value = _value_of(final, ask.of)
        card = dict(final[1]).get("card")
        values = [(n, _value_of(seen, ask.of)) for n, seen in history]
        changes = [(n, before) for (_, before), (n, after) in zip(values, values[1:], strict=False)
                   if before != after]
        what = (f"{card} ({ask.slot}) is {'' if value else 'not '}{label} after the queue"
                if isinstance(value, bool) else f"the {label} of {card} ({ask.slot}) after the queue")
        if not changes:
            return self._unchanged(ask, value, what, final, card)
        n, before = changes[-1]
        deciding = self._explained_by(n, str(ask.slot)) or n
        if ask.of == "captured" and value is True:   # captured paying a cost: the payment decides (11.5.5)
            deciding = self._paid_before(deciding) or deciding
        was = _was(before)
        text = f"{_shown(value)}: {what}; {was} before step {deciding}."
        step = self.step(deciding)
        if step is not None:
            text += f" {step.said}"
        stays = self._static_kept_off(ask)
        if stays is not None and stays[0].n > deciding:   # it stayed so later, for a reason a step gives
            text += f" It stays so at step {stays[0].n}: {stays[1].text}."
            return value, text, stays[0].n, stays[1].rules
        return value, text, deciding, self.rules(deciding)

    def _unchanged(self, ask: Ask, value: Any, what: str, final: Any, card: Any) -> Said:
        """A value no step changed: the step that dealt 0, the card's own trigger that did not fire, an
        opposing aura an Unyielding Soul shuts out, what kept an effect off it, else what holds it."""
        parts, rules = self._made_of(ask)
        said = self._why_unchanged(ask)
        if said is not None:   # 0 damage dealt, a heal with nothing to heal: the step that says so
            return value, f"{_shown(value)}: {what}. {said.said}", said.n, said.rules
        kept = self._trigger_kept_off(ask, card)
        if kept is not None:   # its own trigger that would have changed it did not fire: why not
            return value, f"{_shown(value)}: {what}; {kept.said}", kept.n, kept.rules
        shrugged = self._static_kept_off(ask)
        if shrugged is not None:   # an opposing aura that would have changed it does not reach it
            at, reason = shrugged
            return value, f"{_shown(value)}: {what}; {reason.text}.", at.n, reason.rules
        off = self._kept_off(ask, final[0])
        if off is not None:    # an effect that would have changed it was kept off it: that step
            return value, f"{_shown(value)}: {what}; no step changes it. {off.said}", off.n, off.rules
        holds, held_rules = self._holds(ask, card)
        shown = self._shown_at(ask)
        text = f"{_shown(value)}: {what}; no step changes it{parts}{holds}."
        if shown is not None:   # the position as given states it: the answer rests on that step
            return value, text, shown.n, shown.rules
        return value, text, None, tuple(dict.fromkeys((*rules, *held_rules)))

    def _static_kept_off(self, ask: Ask) -> tuple[Step, Reason] | None:
        """For a value: the step that says why it stayed, and its reason record: an opposing Static Effect
        that did not reach the Soul on the slot (Unyielding, 13.6.1), or a slot effect that outlived a
        shorter one laid beside it (13.3.4)."""
        shrug = ("unyielding_static",)
        codes = {"atk": shrug, "def": shrug, "max_hp": shrug, "hp": shrug,
                 "keywords": (*shrug, "slot_effect_stays")}
        return next(((s, r) for s in reversed(self.steps) for r in s.reasons
                     if r.code in codes.get(ask.of or "", ()) and r.facts.get("slot") == str(ask.slot)), None)

    def _trigger_kept_off(self, ask: Ask, card: Any) -> Step | None:
        """For a value no step changed: a non-event of a trigger of the card on the slot that did not fire
        (negated, its limit used up, its condition not met), read from its reason record: the record names
        the slot, or, for a limit used up (whose record names the effect, not its card), the effect is one of
        that card's; a non-event without a record (a Berserk whose Soul was captured in the same step, a
        capture that was no capture in battle) by its facts: a trigger of this card that was missed. Only
        values a triggered effect can change."""
        if ask.of not in ("atk", "def", "max_hp", "hp", "damage", "keywords") or not isinstance(card, str):
            return None
        definition = self.start.library.get(card)
        for step in self.steps:
            if step.kind != "nonevent":
                continue
            if not step.reasons and step.facts.what == "trigger_missed" and step.facts.of == card and \
                    (not step.facts.cards or str(ask.slot) in step.facts.slots()):
                return step
            for r in step.reasons:
                if r.code not in TRIGGER_REASONS:
                    continue
                if r.facts.get("slot") == str(ask.slot) and r.facts.get("card", card) == card:
                    return step
                if r.code == "limit_used_up" and definition is not None and \
                        definition.effect(str(r.facts.get("effect", ""))) is not None:
                    return step
        return None

    def _why_unchanged(self, ask: Ask) -> Step | None:
        """For damage or HP that no step changed: the last damage or heal step on the slot (0 damage)."""
        if ask.of not in ("damage", "hp"):
            return None
        return next((s for s in reversed(self.steps) if s.kind in ("damage", "heal")
                     and any(c.get("slot") == str(ask.slot) for c in s.changes)), None)

    def _kept_off(self, ask: Ask, uid: Any) -> Step | None:
        """For a value no step changed, what kept a change off the card: a step whose facts say an effect or
        keyword was kept off it (an Unyielding block, 13.6; a Leader that stays on its altar), or the fizzle
        or negation of an effect that targeted it (11.6.1, 13.5.1). Only values an effect can change."""
        if ask.of not in ("atk", "def", "max_hp", "hp", "damage", "keywords", "captured", "line") or \
                ask.slot is None:
            return None
        places = {str(ask.slot)}
        found = next((s for s in reversed(self.steps)   # kept off it, or a refused action that named it
                      if (s.facts.what == "kept_off" and about(s, places))
                      or (s.kind == "reject" and s.facts.slots() & places)), None)
        if found is not None or not isinstance(uid, int):
            return found
        aimed = self.stopped_at(uid)   # an effect aimed at it, or its own (its cost not paid)
        if aimed is not None:
            return aimed
        # a trigger of it or of an opposing card that did not fire or was lost: what would have reached it
        return next((s for s in reversed(self.steps)
                     if s.kind == "nonevent" and trigger_lost(s) and could_reach(s, places)), None)

    def _holds(self, ask: Ask, card: Any) -> tuple[str, tuple[str, ...]]:
        """What holds a value no step changed, in words and rules: an opposing Static Effect an Unyielding
        Soul shuts out (13.6.1), the keywords and where each comes from (printed, granted, 13.2.1), or the
        printed value itself (the value's glossary entry)."""
        view = self.g.board().view(ask.slot) if ask.slot is not None else None
        if view is None:
            return "", VALUE_RULES.get(ask.of or "", ())
        words: list[str] = []
        rules: list[str] = [*VALUE_RULES.get(ask.of or "", ())]
        if ask.of in ("atk", "def", "max_hp", "hp", "keywords"):
            for b in getattr(view, "blocked", ()):
                words.append(f"{b.what} (from {b.source}, rank {b.source_rank}) does not reach it: it is "
                             f"Unyielding against its opponent's effects of rank {view.card.rank} or lower")
                rules += ["13.6.1", "13.6.3"]
        if ask.of == "keywords":
            for ks in view.keywords:
                granted = ks.kind != "printed"
                label = ks.keyword.label()
                source = f"from {ks.label}, as if printed" if granted else "printed on it"
                words.append(f"{label[:1].upper()}{label[1:]} {source}")
                rules += [*ks.rules, *(("13.2.1",) if granted else ())]
            if not view.keywords:
                words.append("it has no keyword, printed or granted")
                own, own_rules = _own_gifts(view)
                words += own
                rules += own_rules
                rules.append("glossary/realm" if getattr(ask.slot, "is_realm", False) else "glossary/soul")
        elif ask.of == "damage" and not view.damage:
            words.append("nothing dealt it damage")
        elif not words and ask.of in ("atk", "def", "max_hp", "hp"):
            key = {"atk": "atk", "def": "def_", "max_hp": "max_hp", "hp": "max_hp"}[ask.of]
            if all(c.kind in ("printed", "damage", "floor") for c in getattr(view, key).contributions):
                words.append("it is the printed value; no effect in force changes it")
                own, own_rules = _own_gifts(view)
                words += own
                rules += own_rules
        return ("; " + "; ".join(words)) if words else "", tuple(dict.fromkeys(rules))

    def _shown_at(self, ask: Ask) -> Step | None:
        """The step that states what holds an unchanged value: the position as given (nothing queued)."""
        places = {str(ask.slot)}
        return next((s for s in self.steps if s.kind == "position" and about(s, places)), None)

    def _made_of(self, ask: Ask) -> tuple[str, tuple[str, ...]]:
        """What an unchanged ATK, DEF or maximum HP is made of (printed, Armament, auras…), and its rules."""
        view = self.g.board().view(ask.slot) if ask.slot is not None else None
        key = {"atk": "atk", "def": "def_", "max_hp": "max_hp", "hp": "max_hp"}.get(ask.of or "")
        if view is None or key is None:
            return "", ()
        parts = [c for c in getattr(view, key).contributions if c.kind not in ("damage", "floor")]
        if len(parts) < 2:
            return "", ()
        words = ", ".join(f"{c.amount:+d} {c.label}" if i else f"{c.amount} {c.label}"
                          for i, c in enumerate(parts))
        return f" ({words})", tuple(dict.fromkeys(r for c in parts for r in c.rules))


def _own_gifts(view: Any) -> tuple[list[str], list[str]]:
    """What a card gives to others and not to itself: its Moral (to its Underlings, glossary Moral) and its
    auras to its controller's other Souls (13.1.2)."""
    words: list[str] = []
    rules: list[str] = []
    for ks in getattr(view, "keywords", ()):
        if ks.keyword.name == MORAL.name and ks.kind == "printed":
            words.append(f"its own {MORAL.title} gives to its Underlings, not to itself")
            rules += MORAL.rules
    if any(e.kind == "static" and e.to == "other_own_souls" for e in view.card.effects) and not view.negated:
        words.append("its aura gives to its controller's other Souls, not to itself")
        rules.append("13.1.2")
    return words, rules


def about(step: Step, places: set[str]) -> bool:
    """The step is about the card that stood on one of `places`: a fact of its reason records names the
    slot; a step whose records name no slot (a consequence of values, an Unyielding block by an Instant
    Effect, a damage step, a refusal for a negated card) names it among its facts' cards."""
    named = {r.facts.get(k) for r in records(step.reasons) for k in SLOT_FACTS} - {None}
    if named:
        return bool(named & places)
    return bool(step.facts.slots() & places)


def trigger_lost(step: Step) -> bool:
    """A non-event of a trigger that did not fire or was lost: its reason record says so; a non-event
    without a record (a trigger lost because its card is gone, a Berserk that captured nothing) by its
    facts (`trigger_missed`)."""
    if step.reasons:
        return any(r.code in TRIGGER_REASONS for r in step.reasons)
    return step.facts.what == "trigger_missed"


def could_reach(step: Step, places: set[str]) -> bool:
    """A trigger's non-event may be why nothing happened to the card on `places`: its record's slot is the
    card's own, or the other player's (an opposing effect). A record without a slot, or a non-event without
    a record, says nothing of the side, so it may."""
    sides = {p.split(":", 1)[0] for p in places}
    slots = [str(r.facts["slot"]) for r in step.reasons if r.code in TRIGGER_REASONS and "slot" in r.facts]
    return not slots or any(slot in places or slot.split(":", 1)[0] not in sides for slot in slots)



def _value_of(seen: Any, of: str | None) -> Any:
    """One value of a followed slot as it was after a step (keywords as a list)."""
    if seen is None or of is None:
        return None
    value = dict(seen[1]).get(of)
    return list(value) if isinstance(value, tuple) else value


def _was(before: Any) -> str:
    """What a value was before the step that changed it last."""
    if before is None:
        return "the slot was empty"
    if before == []:
        return "it had none"
    if isinstance(before, bool):
        return "it was" if before else "it was not"
    return f"it was {_shown(before)}"


def _shown(value: Any) -> str:
    """A value as an answer opens with it: 25, Yes/No for true/false, keywords listed."""
    if isinstance(value, bool):
        return "Yes" if value else "No"
    if isinstance(value, list):
        return (", ".join(map(str, value)) or "none").capitalize()
    return "None" if value is None else str(value)


def sentence(text: str) -> str:
    text = text.strip()
    return text if text.endswith((".", "!", "?", ")")) else text + "."


