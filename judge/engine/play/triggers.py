"""Triggers (11.8, 12.5): what a card's Timing and Instant Effects do when something happens to it.
Only active cards' effects trigger (11.8.1); a negated card's effects do nothing (13.5.2); a condition
not met (11.3.3) or a limit used up (11.7.4) means no trigger, each said with its reason at the moment
the effect would have triggered. Instant Effects resolve at once; Timing Effects wait to go on the
Cascade or be offered (11.8; cascade.flush_pending)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from judge.engine.data.cards import CardDef, EffectDef
from judge.engine.data.errors import Reason
from judge.engine.play import effects
from judge.engine.play.clauses import Opening, Series
from judge.engine.play.game import Entry, Game, Pending
from judge.engine.play.sayings import Said, say
from judge.engine.position import board as stats
from judge.engine.position import condition_words as words
from judge.engine.position.conditions import failed_conditions
from judge.engine.position.state import Realm, SlotRef, Soul
from judge.engine.position.views import KeywordSource, RealmView, SoulView


@dataclass(frozen=True)
class Triggered:
    """A Timing or Instant Effect a card has now, printed or granted (13.2.1: a granted effect works
    as if printed), with the rank it counts as coming from (13.2.2) and where it comes from."""

    effect: EffectDef
    source_rank: int
    granted_by: str | None = None       # the granter's label ("Harold (A:L2)", "Iron Blade (Armament)")
    granted_rules: tuple[str, ...] = ()  # the rules that make it reach the card (aura, slot, Armament, …)
    keyword_rules: tuple[str, ...] = ()  # a keyword's effect (Reinforcement): the keyword's own rules


def timing_effects(card: CardDef, view: SoulView | RealmView | None) -> list[Triggered]:
    """The card's own Timing and Instant Effects with a trigger, and the effects its keywords in force
    carry (printed or granted: a Reinforcement from an aura, a slot effect, an Armament or an effect
    with a duration, 13.2.1); without a view (an inactive card), the printed ones."""
    out = [Triggered(e, card.rank) for e in card.effects if e.kind in ("timing", "instant") and e.trigger]
    sources = view.keywords if view is not None else [
        KeywordSource(k, "printed", "printed", None, None, card.rank, "") for k in card.keywords]
    for ks in sources:
        eff = ks.keyword.value
        if ks.keyword.record.value == "effect" and isinstance(eff, EffectDef) and eff.trigger:
            granted = ks.kind != "printed"
            out.append(Triggered(eff, ks.source_rank if granted else card.rank,
                                 ks.label if granted else None, ks.rules if granted else (),
                                 ks.keyword.record.rules))
    return out


@dataclass(frozen=True)
class _Seen:
    """A card that sees an event: where it stands, the card, what it is on the field, what happened
    (in words made from records), and the board as it was when the event happened."""

    ref: SlotRef
    card: CardDef
    holder: Soul | Realm
    text: Said
    board: stats.Board


def triggered(g: Game, event: str, ref: SlotRef, context: dict[str, Any], text: Said) -> None:
    """The card on `ref` sees `event` (11.8.1, 13.5.2, 11.3.3, 11.7.4; see the module's words)."""
    holder = g.state.realm_at(ref) if ref.is_realm else g.state.soul_at(ref)
    if holder is None:
        return
    card = g.card(holder.name)
    silent = _why_silent(g, holder, card, ref)
    if silent is not None:
        not_firing(g, card, event, text, silent)
        return
    board = g.board()
    seen = _Seen(ref, card, holder, text, board)
    for trig in timing_effects(card, board.view(ref)):
        if trig.effect.trigger == event:
            _fires(g, seen, trig, context)


def _why_silent(g: Game, holder: Soul | Realm, card: CardDef, ref: SlotRef) -> Reason | None:
    """Why none of the card's effects fire: it is not active (captured, shattered) or it is negated."""
    if getattr(holder, "captured", False) or getattr(holder, "shattered", False):
        how = "is captured" if getattr(holder, "captured", False) else "is shattered"
        return Reason.of("trigger_inactive", card=card.name, slot=str(ref), how=how)
    board = g.board()
    if board.is_negated(holder.uid):
        negators = [g.name_at(r) for uid in board.negated_by.get(holder.uid, []) if (r := g.where(uid))]
        return Reason.of("trigger_negated", card=card.name, slot=str(ref),
                         negator=" and ".join(negators) or "an effect in force")
    return None


def _fires(g: Game, seen: _Seen, trig: Triggered, context: dict[str, Any]) -> None:
    """One effect waiting for the event: its condition and limit checked, it resolves at once (an Instant
    Effect) or waits to go on the Cascade or be offered (a Timing Effect)."""
    ref, card, holder, eff = seen.ref, seen.card, seen.holder, trig.effect
    checked = _condition(g, seen, eff)
    if checked is None:
        return
    said, cond_rules = checked
    used_up = effects.limit_reason(g, holder.uid, eff, card.name)
    if used_up:
        # 11.7.4, glossary Limit: a triggered effect whose limit is used up does not trigger, mandatory
        # or not
        facts = {"card": card.name, "effect": eff.label, "trigger": said, "reason": used_up}
        g.trace.add("nonevent",
                    say("limit_stops_mandatory_trigger", **facts) if eff.mandatory
                    else say("limit_stops_trigger", **facts),
                    ("11.7.4", "glossary/limit"), reasons=[used_up],
                    cards=[(ref, card.name)], what="trigger_missed", of=card.name)
        return
    grant = Reason.of("granted_by", keyword=eff.label, source=trig.granted_by, card=card.name,
                      slot=str(ref), source_rank=trig.source_rank) if trig.granted_by else None
    granted = say("granted_clause", grant=Opening(grant)) if grant else None
    granted_rules = ("13.2.1", *trig.granted_rules) if grant else ()
    if eff.kind == "instant":
        entry = Entry(g.new_entry_id(), "instant", card.name, eff, ref.player, trig.source_rank,
                      source_uid=holder.uid, source_ref=ref, context=dict(context))
        effects.resolve_instant(g, entry, say("trigger_granted", trigger=said, granted=granted))
        return
    g.pending.append(Pending(holder.uid, card.name, eff, ref.player, trig.source_rank, eff.mandatory,
                             dict(context), said, trig.granted_by))
    kind = "mandatory" if eff.mandatory else "optional"
    wait = say("trigger_waits") if g.resolving else None
    g.trace.add("trigger", say("timing_triggers", card=card.name, kind=kind, effect=eff.label,
                               trigger=said, granted=granted, wait=wait),
                ("11.8.1", "11.8.2", "11.1.3", "glossary/timing-effect", *trig.keyword_rules, *granted_rules,
                 *cond_rules), reasons=[grant] if grant else (), cards=[(ref, card.name)])


def _condition(g: Game, seen: _Seen, eff: EffectDef) -> tuple[Said, tuple[str, ...]] | None:
    """11.3.3: a triggered effect's condition is checked at the trigger. What triggered it in words (with
    the condition that holds) and the rules, or None when it is not met (said here)."""
    ref, card = seen.ref, seen.card
    if not eff.condition or ref.is_realm:
        return seen.text, ()
    failed = failed_conditions(seen.board, ref, eff.condition)
    if failed:
        reason = Reason.of("trigger_condition", card=seen.holder.name, slot=str(ref), effect=eff.label,
                           failed=" and ".join(failed))
        g.trace.add("nonevent", say("trigger_condition_fails", card=card.name, effect=eff.label,
                                    trigger=seen.text, reason=reason), ("11.3.3",), reasons=[reason],
                    cards=[(ref, card.name)], what="trigger_missed", of=card.name)
        return None
    holds = words.condition_now(seen.board, ref, eff.condition)
    return say("trigger_condition_holds", trigger=seen.text, holds=holds), ("11.3.3", "11.3.1")


def not_firing(g: Game, card: CardDef, event: str, text: Said, reason: Reason) -> None:
    """A card's printed effects waiting for `event` that do not fire, said once, at the moment they would
    have (a captured, shattered or negated card): only where the card has such an effect."""
    effects_ = [t.effect for t in timing_effects(card, None) if t.effect.trigger == event]
    if not effects_:
        return
    names = Series(tuple(dict.fromkeys(e.label for e in effects_)), " and ")
    instant = None
    if reason.code == "trigger_inactive" and any(e.kind == "instant" for e in effects_):
        # 11.1.5: an Instant Effect whose card is no longer active (captured by the very damage that
        # triggered it) does nothing
        instant = say("inactive_instant_does_nothing")
        reason = Reason.of(reason.code, **{**reason.facts, "also": ("11.1.5",)})
    g.trace.add("nonevent", say("effects_do_not_trigger", card=card.name, effects=names, trigger=text,
                                reason=reason, instant=instant),
                reason.rules, reasons=[reason], what="trigger_missed", of=card.name)
