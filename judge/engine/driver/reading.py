"""Answering (contract §7): what one resolution did, read from the game's ledger, the step records (their
`facts` and `reasons`, never their words) and the final board; each kind's answer is a method of `Reader`,
named in its row of `answers.QUESTIONS`.

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
- `value` (values.py): the step where the value took its final form; unchanged, what kept a change off it
  or what holds it.
- `winner`: the step that ended the duel; no winner: a Leader card captured off the altar, or none.

"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from judge.engine.data.errors import Reason
from judge.engine.driver.asking import Ask, describe, named, used_label
from judge.engine.driver.values import (
    QUIET,
    TRIGGER_REASONS,
    Said,
    StepReader,
    about,
    could_reach,
    sentence,
    trigger_lost,
)
from judge.engine.position.action import Action
from judge.engine.position.outcome import ENDINGS
from judge.engine.position.state import SlotRef

if TYPE_CHECKING:
    from judge.engine.play.game import Game
    from judge.engine.play.ledger import Used
    from judge.engine.play.trace import Step

# what can happen to a card, most telling first (the order of a happens_to verdict)
HAPPENINGS = ("captured", "shattered", "returned", "exiled", "damaged", "healed", "moved", "changed")
LEFT_WORDS = {"hand": "returned", "exile": "exiled", "captured": "captured"}

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




class Reader(StepReader):
    """What one resolution did, as the answers of `legal`, `resolves`, `happens_to` and `winner` read it
    (`value`: `StepReader`)."""

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
        return self._resolved(used, outcome.step)

    def _resolved(self, used: Used, at: int) -> Said:
        """It resolves: the check that let it (`at`), or, where the records say more, the payment that
        captured its payer (11.5.5), the Unyielding that shut out what would have stopped it (13.6.1), the
        grant of the keyword it comes from (13.2.1)."""
        step = self.step(at)
        # the check that let it resolve says why (its Caster still active, an Ambush resolving anyway)
        checked = step is not None and step.kind == "resolve" and step.facts.what == "resolve_checked"
        text = f"Yes: {used.label} resolves. " + (step.said if step is not None and checked else
                                                   "Nothing that makes an effect fizzle (11.6.1) holds.")
        paid, captured = self._payment_captured(at)
        if paid is not None:   # 11.5.5: it resolves as far as it can, even if paying captured the payer
            text += (f" {paid.said} Paying captured {paid.facts.cards[0].name}, but a paid cost stays paid "
                     "and the effect still resolves as far as it can.")
        did = self._first_effect(captured or at)
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
        return "yes", text, at, self.rules(at)

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
        naming = [s for s in self.steps if about(s, places)]
        found = next((s for s in reversed(naming)
                      if s.kind == "nonevent" or s.facts.what == "kept_off"), None)
        if found is not None:
            return found
        aimed = self.stopped_at(uid)
        if aimed is not None:
            return aimed
        lost = next((s for s in reversed(self.steps)
                     if s.kind == "nonevent" and trigger_lost(s) and could_reach(s, places)), None)
        return lost or next((s for s in reversed(naming) if s.kind not in QUIET), None)

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


