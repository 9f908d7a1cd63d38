"""Resolving one effect (chapter 11): fizzling (11.6.1), costs (11.5), then its `do` list part by
part, each doing as much as it can (11.6.3), targets remembered by slot and protection checked
again (11.4.8, 11.6.4), "If …" checked when its part resolves (11.3.2)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import singledispatch
from typing import Any

from judge.engine.data import parts
from judge.engine.data.cards import EffectDef, Keyword, TargetSpec
from judge.engine.data.errors import Reason, StepLimit
from judge.engine.data.keywords import UNYIELDING
from judge.engine.data.keywords import words as keyword_words
from judge.engine.data.parts import Part
from judge.engine.play import references, zones
from judge.engine.play.clauses import Opening, Series
from judge.engine.play.game import Entry, Game, Target
from judge.engine.play.sayings import Said, say
from judge.engine.play.sayings import words as say_words
from judge.engine.position import board as stats
from judge.engine.position import condition_words as words
from judge.engine.position.conditions import failed_conditions
from judge.engine.position.state import Lasting, SlotRef

R_FIZZLE = "11.6.1"


# --- fizzling and costs -----------------------------------------------------------------------------

def fizzle_reason(g: Game, entry: Entry) -> Reason | None:
    """Why `entry` can't resolve now (11.6.1), as a record, or None."""
    if entry.negated:
        return Reason.of("fizzle_negated", effect=entry.label, by=entry.negated_by)
    if entry.kind in ("activated", "timing") and entry.source_uid is not None \
            and not g.is_active_uid(entry.source_uid):
        how = g.left.get(entry.source_uid, "no longer active")
        # 15.5.1: a card that left the field and came back is a new card (a new uid): name it where it
        # applies
        back = how in ("hand", "exile") and any(
            (s := g.state.soul_at(r)) is not None and s.name == entry.card
            for r in g.state.soul_refs(entry.controller))
        note = "; the one on the field now came back and is a new card" if back else ""
        return Reason.of("fizzle_card_inactive", effect=entry.label, card=entry.card, how=_how(how),
                         slot=str(entry.source_ref), went=_went(g, how, g.state.find_uid(entry.source_uid)
                                                                or entry.source_ref, entry.controller),
                         note=note, also=("15.5.1",) if back else ())
    if entry.kind == "event" and not g.is_active_uid(entry.caster_uid):
        how = g.left.get(entry.caster_uid,
                         "no longer active") if entry.caster_uid is not None else "no longer active"
        # 10.2.5: the Caster, named where it stood when it cast the Event, and where it went
        now = g.state.find_uid(entry.caster_uid) if entry.caster_uid is not None else None
        return Reason.of("fizzle_caster_inactive", effect=entry.label, how=_how(how),
                         caster=entry.context.get("caster_name", "its Caster"), slot=str(entry.source_ref),
                         went=_went(g, how, now or entry.source_ref, entry.controller))
    if entry.kind == "ambush" and entry.ambusher_uid is not None and g.left.get(entry.ambusher_uid) == "hand":
        return Reason.of("fizzle_ambusher_returned", effect=entry.label)
    return None


def _how(how: str) -> str:
    return {"hand": "returned to the hand", "exile": "exiled", "captured": "captured"}.get(how, how)


def _went(g: Game, how: str, ref: SlotRef | None, owner: str) -> str:
    """Where a card that is no longer active went, in words: face down on its slot, or to a zone."""
    where = ref.player if ref is not None else owner
    return {"hand": f"was returned to {where}'s hand",
            "exile": "was exiled",
            "captured": f"was captured and lies face down on {ref}",
            "shattered": f"shattered and lies face down on {ref}, which it blocks"}.get(how, f"is {how}")


def cost_problem(g: Game, entry: Entry) -> str | None:
    """11.5.2: a cost is paid in full or not at all; this says why it can't be paid, or None."""
    need_discard = sum(c.get("discard", 0) or 0 for c in entry.effect.cost)
    if need_discard and zones.hand_count(g, entry.controller) < need_discard:
        have = zones.hand_count(g, entry.controller)
        return (f"{entry.controller} must discard {need_discard} but has {have} "
                f"card{'s' if have != 1 else ''} in hand")
    for c in entry.effect.cost:
        if "pay_hp" in c:
            payer = _payer(entry, c.get("by", "self"))
            if not g.is_active_uid(payer):
                return f"the Soul that must pay {c['pay_hp']} HP is not active (11.5.5)"
    return None


def _payer(entry: Entry, by: str) -> int | None:
    return {"self": entry.source_uid, "caster": entry.caster_uid, "ambusher": entry.ambusher_uid}.get(by)


def pay_costs(g: Game, entry: Entry) -> int | None:
    """Pay the cost in full (11.5.1); the step that says the effect resolves although paying HP captured
    its payer (11.5.5), or None."""
    kept = None
    g.trace.add("cost", say("cost_paid_in_full", effect=entry.label),
                ("11.5.1", "11.5.2", "11.5.4", "11.2.1"))
    for c in entry.effect.cost:
        if c.get("discard"):
            zones.discard(g, entry.controller, c["discard"], entry.discard,
                          say("the_cost_of", effect=entry.label), ("11.5.1", "11.5.5"))
        elif "pay_hp" in c:
            ref = g.where(_payer(entry, c.get("by", "self")))
            if ref is None:  # cost_problem made sure the payer is active
                raise KeyError(f"the Soul paying the cost of {entry.label} is not on the field")
            payer = g.state.soul(ref)
            armament = payer.armament.name if payer.armament is not None else None
            zones.deal_damage(g, ref, c["pay_hp"], say("paying_the_cost_of", effect=entry.label),
                              ("11.5.5", "14.3.1", "glossary/pay-hp"), what="cost_paid")
            zones.check_captures(g)
            if payer.captured:
                # 11.5.5: the effect still resolves as far as it can, even if paying captured its payer;
                # its Armament went to the Elysium with the capture (10.3.4a)
                went = f"; its Armament {armament} went to {payer.owner}'s Elysium" if armament else ""
                why = Reason.of("payer_captured", card=payer.name, slot=str(ref), hp=c["pay_hp"],
                                effect=entry.label, armament=armament or "", went=went,
                                also=("10.3.4", "10.3.4a") if armament else ())
                kept = g.trace.add("resolve", say("payer_captured", reason=Opening(why)), why.rules,
                                   reasons=[why], cards=[(ref, payer.name)], what="resolve_checked").n
    return kept


# --- resolving ----------------------------------------------------------------------------------------

def resolve_entry(g: Game, entry: Entry) -> None:
    """11.6.1: check whether the effect can still resolve; pay its cost (11.5.1); do what it says."""
    g.trace.add("resolve", say("resolve_begins", effect=entry.label, controller=entry.controller),
                ("glossary/cascade",), what="resolve_begins")
    reason = fizzle_reason(g, entry)
    if reason is None and entry.kind == "event":
        caster = g.where(entry.caster_uid)
        if caster is None:  # fizzle_reason made sure the Caster is active
            raise KeyError(f"the Caster of {entry.card} is not on the field")
        g.trace.add("resolve", say("caster_still_active", caster=g.name_at(caster), card=entry.card),
                    ("10.2.5",), cards=[g.at(caster)], what="resolve_checked")
    if reason is None and entry.effect.condition:
        now = None
        where = g.where(entry.source_uid) if entry.source_uid is not None else None
        if where is not None and not where.is_realm:
            now = say("condition_at_this_point",
                      holds=words.condition_now(g.board(), where, entry.effect.condition))
        g.trace.add("resolve", say("condition_not_checked_again", effect=entry.label, now=now), ("11.3.1",),
                    what="resolve_checked")
    if reason is None and entry.kind == "ambush" and not g.is_active_uid(entry.ambusher_uid):
        how = _how(g.left.get(entry.ambusher_uid, "moved") if entry.ambusher_uid is not None else "moved")
        g.trace.add("resolve", say("ambush_resolves_anyway", card=entry.card, how=how),
                    ("10.4.7", "11.6.1c"), what="resolve_checked")
    if reason is None:
        problem = cost_problem(g, entry)
        if problem is not None:
            reason = Reason.of("fizzle_cost", effect=entry.label, problem=problem)
    if reason is not None:
        fizzled = g.trace.add("fizzle", say("fizzles", effect=entry.label, reason=reason),
                              (R_FIZZLE, *reason.rules), reasons=[reason])
        g.ledger.fizzled(entry.id, fizzled.n, reason.text, fizzled.rules)
    else:
        checked = len(g.trace.steps)   # the last check made: what let it resolve
        kept = pay_costs(g, entry) if entry.effect.cost else None
        g.ledger.resolved(entry.id, kept or checked)
        run_do(g, entry, entry.effect.do)
    finish(g, entry)


def finish(g: Game, entry: Entry) -> None:
    """Events and Ambushes go face up to their owner's Elysium afterwards, resolved or not
    (10.2.6, 10.4.8)."""
    if entry.kind == "event":
        g.state.players[entry.controller].elysium.append(entry.card)
        if g.state.event_slot and g.state.event_slot.lower() == entry.card.lower():
            g.state.event_slot = None
        g.trace.add("zone", say("goes_to_elysium", card=entry.card, owner=entry.controller), ("10.2.6",),
                    [{"card": entry.card, "from": "event slot", "to": f"{entry.controller}.elysium"}])
    elif entry.kind == "ambush":
        if (entry.controller, entry.card) in g.in_flight:
            g.in_flight.remove((entry.controller, entry.card))
        g.state.players[entry.controller].elysium.append(entry.card)
        g.trace.add("zone", say("goes_to_elysium", card=entry.card, owner=entry.controller), ("10.4.8",),
                    [{"card": entry.card, "from": "sprung", "to": f"{entry.controller}.elysium"}])
    zones.check_captures(g)


def run_do(g: Game, entry: Entry, do: Sequence[Part]) -> None:
    """Each part in order; a part with nothing to act on is skipped (11.6.3). The game captures
    Souls at 0 HP after each part (interpretation/capture-timing)."""
    for part in do:
        if g.state.winner:
            return
        apply_part(part, g, entry)
        zones.check_captures(g)


@singledispatch
def apply_part(part: Part, g: Game, entry: Entry) -> None:
    """Apply one part of an effect's `do` (parts.py); each part type registers its code below (and
    the Battle part in battle.py, with the battles)."""
    raise TypeError(f"no code applies the effect part {type(part).__name__}")


@apply_part.register
def _damage(part: parts.Damage, g: Game, entry: Entry) -> None:
    for ref in references.refs_for(g, entry, part.to, "damage"):
        zones.deal_damage(g, ref, part.amount, entry.label)


@apply_part.register
def _heal(part: parts.Heal, g: Game, entry: Entry) -> None:
    for ref in references.refs_for(g, entry, part.to, "heal"):
        zones.heal(g, ref, part.amount, entry.label)


@apply_part.register
def _capture(part: parts.Capture, g: Game, entry: Entry) -> None:
    for ref in references.refs_for(g, entry, part.who, "capture"):
        zones.capture(g, ref, say("captured_by_effect", effect=entry.label), ("glossary/capture",))
        zones.check_winner(g, [ref])


@apply_part.register
def _return(part: parts.Return, g: Game, entry: Entry) -> None:
    for ref in references.refs_for(g, entry, part.who, "return"):
        zones.return_to_hand(g, ref, entry.label)


@apply_part.register
def _exile(part: parts.Exile, g: Game, entry: Entry) -> None:
    for ref in references.refs_for(g, entry, part.who, "exile", allow_captured=True):
        zones.exile(g, ref, entry.label)


@apply_part.register
def _unequip(part: parts.Unequip, g: Game, entry: Entry) -> None:
    for ref in references.refs_for(g, entry, part.who, "unequip"):
        zones.unequip(g, ref, entry.label)


@apply_part.register
def _teleport(part: parts.Teleport, g: Game, entry: Entry) -> None:
    for ref in references.refs_for(g, entry, part.who, "teleport"):
        zones.teleport(g, ref, references.teleport_destination(entry, ref, part.to), entry.label)


@apply_part.register
def _gain(part: parts.Gain, g: Game, entry: Entry) -> None:
    for ref in references.refs_for(g, entry, part.to, "gain"):
        add_lasting(g, entry, "gain", part.stats, ref, part.until or "permanently")


@apply_part.register
def _grant(part: parts.Grant, g: Game, entry: Entry) -> None:
    for ref in references.refs_for(g, entry, part.to, "grant"):
        add_lasting(g, entry, "grant", part.keyword, ref, part.until or "permanently")


@apply_part.register
def _lay(part: parts.Lay, g: Game, entry: Entry) -> None:
    for ref in _spot_refs(g, entry, part.on):
        add_lasting(g, entry, "lay", part.what, ref, part.until or "permanently")


@apply_part.register
def _negate(part: parts.Negate, g: Game, entry: Entry) -> None:
    negate(g, entry, part.what)


@apply_part.register
def _draw(part: parts.Draw, g: Game, entry: Entry) -> None:
    zones.draw(g, entry.controller, part.count, entry.label, ())


@apply_part.register
def _discard(part: parts.Discard, g: Game, entry: Entry) -> None:
    who = entry.controller if (part.who or "opponent") == "self" else g.other(entry.controller)
    zones.discard(g, who, part.count, [], entry.label, ("glossary/discard",))


@apply_part.register
def _enlist(part: parts.Enlist, g: Game, entry: Entry) -> None:
    enlist(g, entry, part.spec)


@apply_part.register
def _if(part: parts.If, g: Game, entry: Entry) -> None:
    cond = dict(part.condition)
    of = cond.pop("of", "self")
    found = references.resolve_ref(g, entry, of)
    failed = failed_conditions(g.board(), found[0][0], cond) if found else ["nothing is there any more"]
    who = g.name_at(found[0][0]) if found else of
    if not failed:
        g.trace.add("effect", say("if_met", effect=entry.label, who=who),
                    ("11.3.2",), cards=[g.at(found[0][0])] if found else ())
        run_do(g, entry, part.then or [])
    else:
        g.trace.add("effect", say("if_not_met", effect=entry.label, who=who,
                                  failed=Series(tuple(failed), "; ")),
                    ("11.3.2",), cards=[g.at(found[0][0])] if found else ())
        run_do(g, entry, part.otherwise or [])


def _spot_refs(g: Game, entry: Entry, name: str) -> list[SlotRef]:
    """A slot effect is laid on the slot itself, whatever stands there (13.3.3, 11.4.4)."""
    if name.startswith("target"):
        t = references.target_named(entry, name)
        if t is not None:
            if t.names_soul and g.state.soul_at(t.ref) is not None \
                    and references.protected(g, entry, t.ref, True):
                references.protected_note(g, entry, t.ref, True)
                return []
            if not t.names_soul and g.state.active_soul_at(t.ref) is not None and \
                    g.board().has_keyword(t.ref, UNYIELDING.name) and t.ref.player != entry.controller:
                g.trace.add("effect", say("unyielding_spot_laid", soul=g.name_at(t.ref), effect=entry.label),
                            ("13.6.7", "13.6.7d", "11.4.4"), cards=[g.at(t.ref)])
            return [t.ref]
        return []
    return [ref for ref, _ in references.resolve_ref(g, entry, name)]


def add_lasting(g: Game, entry: Entry, kind: str, value: Any, ref: SlotRef, until: str) -> None:
    state = g.state
    holder = None if kind == "lay" else state.realm(ref) if ref.is_realm else state.soul(ref)
    lasting = Lasting(kind=kind, value=value, to=None if holder is None else holder.uid,
                      on=ref if kind == "lay" else None, until=until, controller=entry.controller,
                      source=entry.card,
                      source_uid=entry.source_uid if entry.kind not in ("event", "ambush") else None,
                      source_rank=entry.source_rank, started_turn=state.turn, seq=state.new_uid())
    state.lasting.append(lasting)
    how = _describe_value(kind, value)
    span = stats.SPANS.get(until, until.replace("_", " "))  # the Codex's words (13.3.1, 13.3.2)
    now_has, shows, shown_rules = _now_has(g, kind, value, ref)
    facts, rules = _laid(g, entry, lasting, how, span) if kind == "lay" else \
        _given(g, entry, kind, holder, ref, (how, span, until))
    said = say("slot_effect_laid", **facts, now_has=now_has) if kind == "lay" else \
        say("stats_gained", **facts, now_has=now_has) if kind == "gain" else \
        say("keyword_granted", **facts, now_has=now_has)
    g.trace.add("effect", said, tuple(dict.fromkeys((*rules, *shown_rules))),
                [{"slot": str(ref), kind: how, "until": until}], shows=shows)


def _laid(g: Game, entry: Entry, lasting: Lasting, how: str,
          span: str) -> tuple[dict[str, Any], tuple[str, ...]]:
    """A slot effect laid on a slot (13.3.3), side by side with the others on it (13.3.4): the facts of
    the step that says so, and its rules."""
    ref = lasting.on
    rules: tuple[str, ...] = ("13.3.3", *(("13.3.1",) if lasting.until != "permanently" else ()))
    others = [e for e in g.state.lasting if e.kind == "lay" and e.on == ref and e is not lasting]
    alongside = None
    if others:
        alongside = say("slot_effects_side_by_side", others=Series(tuple(e.source for e in others)))
        rules = (*rules, "13.3.4")
    return {"effect": entry.label, "what": how, "slot": str(ref), "span": span, "alongside": alongside}, rules


def _given(g: Game, entry: Entry, kind: str, holder: Any, ref: SlotRef,
           lasts: tuple[str, str, str]) -> tuple[dict[str, Any], tuple[str, ...]]:
    """Stats gained or a keyword granted for a while (13.2.1, 13.3.1, 13.3.2): the facts of the step that
    says so, and its rules; `lasts` is what is given, for how long in words, and the `until` key."""
    how, span, until = lasts
    rules = (*(("13.2.1",) if kind == "grant" else ()), *stats.lasting_rules(until))
    negated = None
    if kind == "grant" and holder is not None and g.board().is_negated(holder.uid):
        # 13.2.1 / 13.5.2: a granted keyword works as if printed, so it is negated with the card's own
        negated = say("granted_negated_at_once", card=holder.name, what=how)
        rules = (*rules, "13.5.2")
    facts = {"card": g.name_at(ref), "what": how, "span": span, "effect": entry.label, "negated": negated}
    return facts, rules


def _now_has(g: Game, kind: str, value: Any, ref: SlotRef) -> tuple[Said | None, list[tuple[str, str, int]],
                                                                    tuple[str, ...]]:
    """The values a gain leaves on the card, with their arithmetic (the clause, the values, their rules)."""
    stats_given = value.get("gain") if kind == "lay" and isinstance(value, Mapping) else \
        (value if kind == "gain" else None)
    view = g.board().view(ref) if stats_given else None
    if view is None or not stats_given:
        return None, [], ()
    names = {"atk": ("ATK", view.atk), "def": ("DEF", view.def_), "hp": ("max HP", view.max_hp)}
    shown: list[str] = []
    shows: list[tuple[str, str, int]] = []
    rules: tuple[str, ...] = ()
    for key in stats_given:
        label, val = names[key]
        part, why = stats.explain(val, label)
        shown.append(part)
        shows.append((view.card.name, label, val.total))
        rules = (*rules, *why)
    return say("now_has", card=g.name_at(ref), values=Series(tuple(shown))), shows, rules


def _describe_value(kind: str, value: Any) -> str:
    if isinstance(value, Keyword):
        return keyword_words(value)
    if isinstance(value, Mapping):
        if "gain" in value:
            return _describe_value("gain", value["gain"])
        if "grant" in value:
            return _describe_value("grant", value["grant"])
        return ", ".join(f"{'+' if v >= 0 else ''}{v} {k.upper()}" for k, v in value.items() if v)
    return keyword_words(value) if kind == "lay" else str(value).replace("_", " ")


def negate(g: Game, entry: Entry, name: str) -> None:
    if name == "triggering_effect":
        wanted = entry.context.get("triggering_entry")
        victim = next((e for e in g.cascade if e.id == wanted), None)
        if victim is None:
            g.trace.add("effect", say("negate_target_gone", effect=entry.label), ("11.6.3", "13.5.1"))
            return
        # 13.5.3 / 13.6.5: an effect of an Unyielding Soul can't be negated by an opposing effect of a
        # rank up to the Soul's
        if victim.kind in ("activated", "timing") and victim.source_uid is not None and \
                victim.controller != entry.controller:
            ref = g.where(victim.source_uid)
            if ref is not None and not ref.is_realm and \
                    g.board().unyielding_against(ref, entry.source_rank, entry.controller):
                soul = g.state.soul(ref)
                g.trace.add("effect", say("negate_unyielding", effect=entry.label, rank=entry.source_rank,
                                          victim=victim.label, card=soul.name, slot=str(ref),
                                          card_rank=g.card(soul.name).rank),
                            ("13.6.5", "13.5.3", "13.6.3"), cards=[(ref, soul.name)])
                return
        victim.negated = True
        victim.negated_by = f" by {entry.label}"
        said = g.trace.add("effect", say("negates", effect=entry.label, victim=victim.label),
                           ("13.5.1", "11.5.3"))
        g.ledger.negated(victim.id, said.n, entry.label, said.rules)
        return
    for ref in references.refs_for(g, entry, name, "negate"):
        add_lasting(g, entry, "negate", None, ref, "permanently")


def enlist(g: Game, entry: Entry, spec: Mapping[str, Any]) -> None:
    ps = g.state.players[entry.controller]
    for i, name in enumerate(ps.deck):
        card = g.state.card(name)
        if card is None:
            continue
        if spec.get("type") and card.type != spec["type"]:
            continue
        if spec.get("attribute") and card.attribute != spec["attribute"]:
            continue
        if spec.get("rank") is not None and card.rank != spec["rank"]:
            continue
        if spec.get("name") and card.name.lower() != str(spec["name"]).lower():
            continue
        del ps.deck[i]
        ps.hand.append(card.name)
        g.trace.add("zone", say("enlists", player=entry.controller, card=card.name),
                    ("15.6.2", "glossary/enlist"), [{"card": card.name, "from": f"{entry.controller}.deck",
                      "to": f"{entry.controller}.hand"}])
        return
    g.trace.add("zone", say("enlists_nothing", effect=entry.label, player=entry.controller),
                ("15.6.2", "glossary/enlist"))


# --- Instant Effects ----------------------------------------------------------------------------------

MAX_INSTANT_DEPTH = 50


def resolve_instant(g: Game, entry: Entry, trigger_text: Said) -> None:
    """An Instant Effect resolves at once, even mid-effect, and can't be answered (12.5.1). Souls at
    0 HP are captured first (except in a fight); if its card is no longer active it does nothing.
    It counts towards its limit when it begins to resolve (11.7.3)."""
    zones.check_captures(g)
    if entry.source_uid is not None and not g.is_active_uid(entry.source_uid):
        why = say("instant_card_inactive", card=entry.card)
        gone = g.trace.add("instant", say("instant_does_nothing", effect=entry.label, trigger=trigger_text,
                                          why=why),
                           ("glossary/instant-effect", "11.1.5"),
                           cards=[g.at(entry.source_ref)] if entry.source_ref else ())
        g.ledger.pushed(entry.id, None, entry.label, entry.card, entry.kind, gone.n,
                        entry.target_uids, entry.source_uid)
        g.ledger.fizzled(entry.id, gone.n, why.text, gone.rules)
        return
    if g.instant_depth >= MAX_INSTANT_DEPTH:
        # Instant Effects that trigger each other without end never come back to the step cap's loop
        # check; stop them here, naming the effect that keeps triggering.
        raise StepLimit(f"{entry.label} ({say_words(trigger_text)}) would be the Instant Effect number "
                        f"{MAX_INSTANT_DEPTH + 1} resolving one inside another: they keep triggering "
                        "each other")
    count_use(g, entry.source_uid, entry.effect)
    said = g.trace.add("instant", say("instant_resolves", effect=entry.label, trigger=trigger_text),
                       ("glossary/instant-effect", "12.5.1", "11.1.5",
                        *(("11.7.3",) if entry.effect.limit else ())),
                        cards=[g.at(entry.source_ref)] if entry.source_ref else ())
    g.ledger.pushed(entry.id, None, entry.label, entry.card, entry.kind, said.n,
                    entry.target_uids, entry.source_uid)
    g.ledger.resolved(entry.id, said.n)
    with g.enter(instant_depth=g.instant_depth + 1):
        run_do(g, entry, entry.effect.do)


def limit_used_up(g: Game, uid: int | None, effect: EffectDef) -> str | None:
    """11.7.1: "1/Turn", "2/Game"; limits belong to the one card on the field (11.7.2)."""
    reason = limit_reason(g, uid, effect)
    return reason.text if reason is not None else None


def limit_reason(g: Game, uid: int | None, effect: EffectDef, card: str | None = None) -> Reason | None:
    """The limit of `effect` used up on the card `uid` (named `card`), as a record (11.7.1, 11.7.4)."""
    if effect.limit is None or uid is None:
        return None
    this_turn, this_game = g.state.uses(uid, effect.label)
    lim = effect.limit
    named = {"card": card} if card else {}
    if lim.per_turn is not None and this_turn >= lim.per_turn:
        return Reason.of("limit_used_up", effect=effect.label, used=this_turn, per="turn", limit=lim.text,
                         **named)
    if lim.per_game is not None and this_game >= lim.per_game:
        return Reason.of("limit_used_up", effect=effect.label, used=this_game, per="duel", limit=lim.text,
                         **named)
    return None


def count_use(g: Game, uid: int | None, effect: EffectDef) -> None:
    if effect.limit is None or uid is None:
        return
    key = (uid, effect.label.lower())
    this_turn, this_game = g.state.used.get(key, [0, 0])
    g.state.used[key] = [this_turn + 1, this_game + 1]


def make_target(g: Game, ref: SlotRef, spec: TargetSpec | None) -> Target:
    holder = g.state.realm_at(ref) if ref.is_realm else g.state.soul_at(ref)
    names = spec is None or spec.what == "soul" or (spec.what == "spot" and spec.naming is not None) \
        or spec.what == "realm"
    return Target(ref=ref, what=spec.what if spec else "soul", names_soul=names,
                  captured=bool(spec and getattr(spec, "captured", False)),
                  uid=holder.uid if holder is not None else None)
