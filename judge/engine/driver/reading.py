"""Answering (contract §7): what one resolution did, read from the game's ledger, the step records (their
`facts` and `reasons`, never their words) and the final board; each kind's answer is a method of `Reader`,
named in its row of `answers.QUESTIONS`.

The deciding step of each kind of question:
The deciding step of each kind of question:
- `legal`: the refusal of the action (a `reject` step), or, when it is legal, the step that took it,
  unless a non-event step attached to it says why a restriction did not apply (a Taunt that protects
  nobody): then that one.
- `resolves`: the negation, or the fizzle, or the step that let it resolve (its Caster still active,
  its Ambusher gone but an Ambush resolving anyway), as play recorded them for that Cascade entry.
- `happens_to`: the step where the card last changed in the most telling way (leaving, capture,
  damage, healing, a move, a value); a change of values explained by a consequence step is that
  step; when nothing happened, why not (`_why_nothing`): the non-event about it (an Unyielding block),
  the fizzle or negation of an effect aimed at it or its own, a trigger that did not fire or was lost.
- `value`: the step where the value took its final form (its consequence step when there is one); when
  the queue never changed it, the non-event of its card's own trigger that would have, or none.
- `winner`: the step that ended the duel; no winner: a Leader card captured off the altar, or none.

"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from judge.engine.data.errors import Reason
from judge.engine.data.keywords import MORAL
from judge.engine.driver.asking import VALUES, Ask, describe, named, used_label
from judge.engine.position.action import Action
from judge.engine.position.outcome import ENDINGS
from judge.engine.position.state import SlotRef, State

if TYPE_CHECKING:
    from judge.engine.play.game import Game
    from judge.engine.play.ledger import Used
    from judge.engine.play.trace import Step

# what can happen to a card, most telling first (the order of a happens_to verdict)
HAPPENINGS = ("captured", "shattered", "returned", "exiled", "damaged", "healed", "moved", "changed")
LEFT_WORDS = {"hand": "returned", "exile": "exiled", "captured": "captured"}
QUIET = ("window", "turn", "cascade", "resolve", "zone")   # steps that name a card without acting on it
# the reasons of a trigger that does not fire or is lost (data/errors.py REASONS)
TRIGGER_REASONS = ("trigger_condition", "limit_used_up", "trigger_inactive", "trigger_negated",
                   "trigger_lost_no_target")
SLOT_FACTS = ("slot", "taunter_slot")   # the facts of a reason that name a card's slot
# the glossary entry of each value a question may ask, for a value that holds as printed
VALUE_RULES = {"atk": ("glossary/atk",), "def": ("glossary/def",), "hp": ("glossary/hp",),
               "max_hp": ("glossary/hp",), "damage": ("glossary/damage",), "captured": ("glossary/capture",),
               "line": ("glossary/line",), "proactive": ("glossary/proactive",)}


# --- following, during play --------------------------------------------------------------------

def follow_card(g: Game, ask: Ask) -> None:
    """A question about a card (happens_to): follow it by identity, wherever it goes."""
    holder = g.state.holder_at(ask.slot) if ask.slot is not None else None
    if holder is not None:
        g.ledger.follow(ask.key, _card_look(g, holder.uid))


def follow_slot(g: Game, ask: Ask) -> None:
    """A question about a slot's values (value): follow what stands there."""
    if ask.slot is not None:
        g.ledger.follow(ask.key, _slot_look(g, ask.slot))


@dataclass(frozen=True)
class Seen:
    """A followed card as it was after a step."""

    place: str                       # its slot, or hand | exile | elysium | gone once it left
    damage: int = 0
    captured: bool = False
    values: tuple[int, int, int] = (0, 0, 0)      # ATK, DEF, max HP
    keywords: tuple[str, ...] = ()
    realm: bool = False              # a Realm is shattered at 0 HP where a Soul is captured


def _card_look(g: Game, uid: int) -> Callable[[], Seen]:
    def look() -> Seen:
        ref = g.state.find_uid(uid)
        holder = g.state.holder_at(ref) if ref is not None else None
        if ref is None or holder is None or holder.uid != uid:
            return Seen(g.left.get(uid, "gone"))
        view = g.board().view(ref)
        if view is None:
            return Seen(str(ref), holder.damage, True)
        down = bool(getattr(view, "captured", False) or getattr(view, "shattered", False))
        return Seen(str(ref), view.damage, down, (view.atk.total, view.def_.total, view.max_hp.total),
                    tuple(sorted({k.keyword.name for k in view.keywords})), ref.is_realm)
    return look


def _slot_look(g: Game, ref: SlotRef) -> Callable[[], Any]:
    def look() -> Any:
        view = g.board().view(ref)
        if view is None:
            return None
        holder = g.state.holder_at(ref)
        return (holder.uid if holder is not None else None, _freeze(view.to_dict(detail=False)))
    return look


def _freeze(value: Any) -> Any:
    if isinstance(value, dict):
        return tuple(sorted((k, _freeze(v)) for k, v in value.items()))
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    return value



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


class Reader:
    """What one resolution did, as the answers read it."""

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
        return next((s for s in reversed(self.steps) if s.kind not in QUIET and _about(s, places)), None)

    def said(self, n: int | None) -> str:
        step = self.step(n)
        return step.said if step is not None else ""

    # --- legal: the refusal, or the step that took the action (or the non-event attached to it)
    def legal(self, ask: Ask) -> Said:
        index = ask.action or 0
        action = self.actions[index]
        refused = self.g.ledger.rejected.get(index)
        if refused is not None:
            return "no", f"No: {sentence(self.g.ledger.reasons[index])}", refused, self.rules(refused)
        taken = self._taking_step(self.g.ledger.taken.get(index))
        if taken is None:
            stop = min(self.g.ledger.rejected.items(), default=None)
            why = (f"play stopped at action {stop[0]}, which is not legal (step {stop[1]})" if stop
                   else "play stopped before it")
            n = stop[1] if stop else None
            return "no", f"No: action {index} ({describe(action)}) is never taken: {why}.", n, self.rules(n)
        deciding = self._attached_nonevent(taken) or taken
        text = f"Yes: {describe(action)} is legal."
        waited = self._waited(action, taken)
        if waited is not None:   # it had to wait for the event slot: when it could be taken (10.2.3)
            step, reason = waited
            text += f" It waits (step {step.n}): {sentence(reason.text)}"
        text += f" {taken.said}"
        if deciding is not taken:
            text += f" {deciding.said}"
        return "yes", text, deciding.n, deciding.rules

    def _waited(self, action: Action, taken: Step) -> tuple[Step, Reason] | None:
        """The non-event, before the step that took a cast, whose record says it waited for the event slot
        (the record's `next` is the card it casts)."""
        card = str(action.value).lower()
        for step in self.steps[:taken.n - 1]:
            for r in step.reasons:
                if r.code == "event_slot_taken" and str(r.facts.get("next", "")).lower() == card:
                    return step, r
        return None

    def _taking_step(self, n: int | None) -> Step | None:
        """The step that takes an action: an answer in a window is taken after the passes noted first."""
        if n is None:
            return None
        return next((s for s in self.steps[n - 1:] if s.kind != "window"), self.step(n))

    def _attached_nonevent(self, first: Step) -> Step | None:
        """A non-event said right after the step that took an action, before anything else happens."""
        for step in self.steps[first.n:]:
            if step.kind == "nonevent":
                return step
            if step.kind != "consequence":
                return None
        return None

    # --- resolves: the negation, the fizzle, or the step that let it resolve
    def resolves(self, ask: Ask) -> Said:
        label = used_label(ask, self.actions, self.start)
        used = self._used(ask)
        if used is None:
            refused = self.g.ledger.rejected.get(ask.action) if ask.action is not None else None
            if refused is not None and ask.action is not None:
                why = sentence(self.g.ledger.reasons[ask.action])
                return "no", f"No: {label} is never used: {why}", refused, self.rules(refused)
            missed = self._missed(label)
            if missed is not None:   # a trigger that did not trigger, or was lost
                return "no", f"No: {missed.said}", missed.n, missed.rules
            return "no", (f"No: nothing of {label} is used: no effect of it goes on the Cascade or "
                          "resolves."), None, ()
        outcome = self.g.ledger.outcomes.get(used.entry)
        if outcome is None:
            return "no", (f"No: {used.label} goes on the Cascade (step {used.pushed}) but never resolves: "
                          "play stops first."), used.pushed, self.rules(used.pushed)
        if outcome.how == "negated":
            return "no", (f"No: {used.label} is negated by {outcome.why}, so it does not resolve (and costs "
                          "nothing)."), outcome.step, outcome.rules
        if outcome.how == "fizzled":
            return "no", f"No: {used.label} fizzles: {sentence(outcome.why)}", outcome.step, outcome.rules
        step = self.step(outcome.step)
        # the check that let it resolve says why (its Caster still active, an Ambush resolving anyway)
        checked = step is not None and step.kind == "resolve" and step.facts.what == "resolve_checked"
        text = f"Yes: {used.label} resolves. " + (step.said if step is not None and checked else
                                                   "Nothing that makes an effect fizzle (11.6.1) holds.")
        paid, captured = self._payment_captured(outcome.step)
        if paid is not None:   # 11.5.5: it resolves as far as it can, even if paying captured the payer
            text += (f" {paid.said} Paying captured {paid.facts.cards[0].name}, but a paid cost stays paid "
                     "and the effect still resolves as far as it can.")
        did = self._first_effect(captured or outcome.step)
        if did is not None:
            text += f" {did.said}"
        if paid is not None:
            return "yes", text, paid.n, paid.rules
        shielded = self.step(used.pushed - 1)   # 13.6.1: what would have stopped it is shut out of its card
        if shielded is not None and shielded.facts.what == "kept_off" and \
                any(c.name == used.card for c in shielded.facts.cards):
            return "yes", f"{text} {shielded.said}", shielded.n, shielded.rules
        granted = self._granted(used)
        if granted is not None:   # 13.2.1: a granted keyword works as if printed; the grant decides
            grant, reason = granted
            text += f" {sentence(reason.text[:1].upper() + reason.text[1:])}"
            return "yes", text, grant.n, grant.rules
        return "yes", text, outcome.step, self.rules(outcome.step)

    def _granted(self, used: Used) -> tuple[Step, Reason] | None:
        """The grant behind a keyword's effect that was used (13.2.1), from the `granted_by` record of the
        step that triggered it: the step that granted the keyword to the card's slot (a lasting grant), or,
        for a keyword an aura or Armament gives (no step grants it), that triggering step itself."""
        for i in range(min(used.pushed, len(self.steps)) - 1, -1, -1):
            step = self.steps[i]
            for r in step.reasons:
                if r.code != "granted_by" or r.facts.get("card") != used.card or \
                        used.label != f"{used.card}'s {r.facts.get('keyword')}":
                    continue
                slot = r.facts.get("slot")
                grant = next((s for s in reversed(self.steps[:i])
                              if any(c.get("slot") == slot and "grant" in c for c in s.changes)), None)
                return (grant or step), r
        return None

    def _payment_captured(self, after: int) -> tuple[Step | None, int | None]:
        """The damage a Soul took paying the cost of the entry that begins to resolve at step `after`, when it
        captured that Soul (a capture of its slot follows before the effect does anything), and the capture's
        step."""
        for i, step in enumerate(self.steps[after:], start=after):
            if step.kind in ("effect", "fizzle", "reject", "window", "turn", "instant") or \
                    (step.kind == "resolve" and step.facts.what == "resolve_begins"):
                return None, None
            if step.facts.what == "cost_paid" and step.facts.cards:
                slot = step.facts.cards[0].slot
                for later in self.steps[i + 1:]:
                    took = [c for c in later.changes if c.get("slot") == slot]
                    if later.kind == "capture" and any(c.get("captured") == [False, True] for c in took):
                        return step, later.n
                    if later.kind not in ("capture", "consequence", "nonevent"):
                        break
        return None, None

    def _missed(self, card: str) -> Step | None:
        """A non-event about one of `card`'s effects (it does not trigger, or is lost), read from its reason
        record: the record's `card` (or `source`, for a trigger lost for want of a target) is the card.
        A non-event without such a record (a trigger lost because its card is gone, a Berserk that captured
        nothing, a limit used up: that record names the effect, not its card) by its facts' `of`."""
        for step in self.steps:
            if step.kind != "nonevent":
                continue
            records = [r for r in step.reasons if r.code in TRIGGER_REASONS]
            named = [r for r in records if "card" in r.facts or "source" in r.facts]
            if named and any(card in (r.facts.get("card"), r.facts.get("source")) for r in named):
                return step
            if not named and (records or not step.reasons) and step.facts.of == card:
                return step   # no record naming a card: the step's own facts (`of`)
        return None

    def _used(self, ask: Ask) -> Used | None:
        used = self.g.ledger.used
        if ask.action is not None:
            return next((u for u in used if u.action == ask.action), None)
        name = (ask.card or "").lower()
        return next((u for u in reversed(used) if u.card.lower() == name), None)

    def _first_effect(self, after: int) -> Step | None:
        for step in self.steps[after:]:
            if step.kind in ("effect", "damage", "heal", "capture", "instant"):
                return step
            if step.kind in ("resolve", "fizzle", "reject", "window", "turn"):
                return None
        return None

    # --- happens_to: the most telling change, or the non-event that kept something off it
    def happens_to(self, ask: Ask) -> Said:
        history = self.g.ledger.seen.get(ask.key, [])
        name = named(self.start, ask.slot) if ask.slot is not None else "the card"
        events: dict[str, int] = {}          # what happened, in the order it first happened -> its last step
        for (_, old), (n, new) in zip(history, history[1:], strict=False):
            for what in _happenings(old, new):
                events[what] = n
        if not events:
            holder = self.start.holder_at(ask.slot) if ask.slot is not None else None
            why = self._why_nothing(history, holder.uid if holder is not None else None)
            if why is not None:
                return ["nothing"], f"Nothing: {why.said}", why.n, why.rules
            return ["nothing"], f"Nothing: no step of the ruling touches {name}.", None, ()
        place = getattr(history[-1][1], "place", None) if history else None
        steps = {what: (self._explained_by(n, place) or n) if what == "changed" else n
                 for what, n in events.items()}
        main = next(w for w in HAPPENINGS if w in events)   # the most telling decides
        if main == "captured":   # captured paying a cost: the payment decides (11.5.5, 14.3.1)
            paid = self._paid_before(steps[main])
            if paid is not None:
                steps[main] = paid
        said = list(dict.fromkeys(s.said for w in events
                                  if (s := self.step(steps[w])) is not None))
        head = " and ".join(events).capitalize()
        return list(events), f"{head}: " + " ".join(said), steps[main], self.rules(steps[main])

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
            if step.caused_by == n and place and _about(step, {place}):
                return step.n
        return None

    def _why_nothing(self, history: list[tuple[int, Any]], uid: int | None) -> Step | None:
        """Why nothing happened to the followed card, the first of:
        - a non-event about it, what kept something off it (an Unyielding block): its reason record names
          the card's slot, or, for a non-event without a record, its words do;
        - the fizzle or negation of an effect that targeted it, or that was its own (a cost not paid): the
          ledger's Cascade entries and their outcomes;
        - the last non-event of a trigger that did not fire or was lost (negated, condition not met, limit
          used up, no target, its card gone), of the card itself or of an opposing card: the effect that
          would have reached it;
        - else the last step of play that names it (0 damage, say), or None."""
        places = {p for p in {getattr(seen, "place", "") for _, seen in history} if ":" in p}
        naming = [s for s in self.steps if _about(s, places)]
        found = next((s for s in reversed(naming)
                      if s.kind == "nonevent" or s.facts.what == "kept_off"), None)
        if found is not None:
            return found
        if uid is not None:
            for used in reversed(self.g.ledger.used):
                outcome = self.g.ledger.outcomes.get(used.entry)
                if outcome is not None and outcome.how != "resolved" and (
                        uid in used.targets or uid == used.source):
                    return self.step(outcome.step)
        lost = next((s for s in reversed(self.steps)
                     if s.kind == "nonevent" and _trigger_lost(s) and _could_reach(s, places)), None)
        return lost or next((s for s in reversed(naming) if s.kind not in QUIET), None)

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
        n, before = changes[-1]
        deciding = self._explained_by(n, str(ask.slot)) or n
        if ask.of == "captured" and value is True:   # captured paying a cost: the payment decides (11.5.5)
            deciding = self._paid_before(deciding) or deciding
        was = ("the slot was empty" if before is None else "it had none" if before == []
               else "it was not" if before is False else "it was" if before is True
               else f"it was {_shown(before)}")
        text = f"{_shown(value)}: {what}; {was} before step {deciding}."
        step = self.step(deciding)
        if step is not None:
            text += f" {step.said}"
        stays = self._static_kept_off(ask)
        if stays is not None and stays[0].n > deciding:   # it stayed so later, for a reason a step gives
            text += f" It stays so at step {stays[0].n}: {stays[1].text}."
            return value, text, stays[0].n, stays[1].rules
        return value, text, deciding, self.rules(deciding)

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
                      if (s.facts.what == "kept_off" and _about(s, places))
                      or (s.kind == "reject" and s.facts.slots() & places)), None)
        if found is not None or not isinstance(uid, int):
            return found
        for used in reversed(self.g.ledger.used):
            outcome = self.g.ledger.outcomes.get(used.entry)
            aimed = uid in used.targets or uid == used.source
            if outcome is not None and outcome.how != "resolved" and aimed:
                return self.step(outcome.step)   # an effect aimed at it, or its own (its cost not paid)
        # a trigger of it or of an opposing card that did not fire or was lost: what would have reached it
        return next((s for s in reversed(self.steps)
                     if s.kind == "nonevent" and _trigger_lost(s) and _could_reach(s, places)), None)

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
        return next((s for s in self.steps if s.kind == "position" and _about(s, places)), None)

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

    # --- winner: the step that ended the duel
    def winner(self, ask: Ask) -> Said:
        won = self.step(self.g.ledger.ended)
        winner = self.g.state.winner
        if winner and won is not None:
            return winner, f"{winner} wins: {won.said}", won.n, won.rules
        if winner:
            return winner, f"{winner} wins: the duel was already over in the position as given.", None, \
                ENDINGS["stated"].rules
        ordinary = next(((s, r) for s in self.steps for r in s.reasons if r.code == "leader_card_ordinary"),
                        None)
        if ordinary is not None:   # a Leader card captured off the altar: its record says why that is no win
            step, reason = ordinary
            return "none", f"None: the duel goes on: {sentence(reason.text)}", step.n, step.rules
        # a duel ends only in the ways of the ENDINGS table: none of them happened, so it goes on
        ways = tuple(dict.fromkeys(r for e in ENDINGS.values() if e.name != "stated" for r in e.rules))
        return "none", "None: the duel goes on; no Leader is captured and no one is Decked Out for good.", \
            None, ways


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


def _records(reasons: Sequence[Reason]) -> list[Reason]:
    """A step's reason records with the ones nested in them (the candidates a target excluded)."""
    out: list[Reason] = []
    for r in reasons:
        out.append(r)
        out += _records([x for x in r.facts.get("excluded", ()) if isinstance(x, Reason)])
    return out


def _about(step: Step, places: set[str]) -> bool:
    """The step is about the card that stood on one of `places`: a fact of its reason records names the
    slot; a step whose records name no slot (a consequence of values, an Unyielding block by an Instant
    Effect, a damage step, a refusal for a negated card) names it among its facts' cards."""
    named = {r.facts.get(k) for r in _records(step.reasons) for k in SLOT_FACTS} - {None}
    if named:
        return bool(named & places)
    return bool(step.facts.slots() & places)


def _trigger_lost(step: Step) -> bool:
    """A non-event of a trigger that did not fire or was lost: its reason record says so; a non-event
    without a record (a trigger lost because its card is gone, a Berserk that captured nothing) by its
    facts (`trigger_missed`)."""
    if step.reasons:
        return any(r.code in TRIGGER_REASONS for r in step.reasons)
    return step.facts.what == "trigger_missed"


def _could_reach(step: Step, places: set[str]) -> bool:
    """A trigger's non-event may be why nothing happened to the card on `places`: its record's slot is the
    card's own, or the other player's (an opposing effect). A record without a slot, or a non-event without
    a record, says nothing of the side, so it may."""
    sides = {p.split(":", 1)[0] for p in places}
    slots = [str(r.facts["slot"]) for r in step.reasons if r.code in TRIGGER_REASONS and "slot" in r.facts]
    return not slots or any(slot in places or slot.split(":", 1)[0] not in sides for slot in slots)


def _happenings(old: Any, new: Any) -> list[str]:
    if not isinstance(old, Seen) or not isinstance(new, Seen):
        return []
    out = []
    on_field = ":" in new.place
    if not on_field and ":" in old.place:
        return [LEFT_WORDS.get(new.place, "moved")]
    if new.captured and not old.captured:
        out.append("shattered" if new.realm else "captured")
    if new.damage > old.damage:
        out.append("damaged")
    if new.damage < old.damage:
        out.append("healed")
    if on_field and new.place != old.place:
        out.append("moved")
    if (new.values, new.keywords) != (old.values, old.keywords) and not new.captured:
        out.append("changed")
    return out


def _value_of(seen: Any, of: str | None) -> Any:
    """One value of a followed slot as it was after a step (keywords as a list)."""
    if seen is None or of is None:
        return None
    value = dict(seen[1]).get(of)
    return list(value) if isinstance(value, tuple) else value


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

