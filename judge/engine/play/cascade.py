"""Response windows, priority and the Cascade (chapter 12, from the glossary: Priority, Response
window, Cascade, Fast, Timing Effect, Instant Effect; interpretation/priority-and-windows).

- A window opens after an attack declaration, a new Cascade entry, or triggered Timing Effects
  (12.2). The turn player holds priority first.
- While nobody has responded, both players must pass in a row to close it; a response passes
  priority to the other player, and one pass then closes it.
- Implicit passing (contract §4): the player holding priority passes unless the next queued action
  is theirs and legal at that moment.
- When the window closes, the Cascade resolves from the top without interruption; Timing Effects
  triggered meanwhile go on a new Cascade afterwards, which opens a new window.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from judge.engine.data.cards import CardDef, EffectDef
from judge.engine.data.errors import Reason
from judge.engine.data.keywords import FROZEN
from judge.engine.play import effects, zones
from judge.engine.play.clauses import Opening, Series, Words
from judge.engine.play.game import Entry, Game, Pending, Target
from judge.engine.play.sayings import Said, say
from judge.engine.play.trace import Step
from judge.engine.play.triggers import triggered as triggered  # called as cascade.triggered by the moves
from judge.engine.position import condition_words as words
from judge.engine.position import targets, tree
from judge.engine.position.action import Action
from judge.engine.position.state import Realm, SlotRef, Soul
from judge.engine.rules import legality
from judge.engine.rules import moment as checks
from judge.engine.rules.moment import Offer, Window

# a window opens after an attack declaration, a new Cascade entry or triggered Timing Effects (12.2,
# glossary Response window), the turn player holding priority first (glossary Priority)
R_WINDOW = ("glossary/response-window", "glossary/priority", "12.2")
# passing and closing: both pass in a row, or one pass after a response (glossary Priority); who holds
# priority after a response and passing for a player are ours (interpretation/priority-and-windows)
R_PASS = ("glossary/priority", "interpretation/priority-and-windows")
R_CASCADE = ("glossary/cascade",)


# --- the moment, as engine-core's legality sees it ----------------------------------------------------

def window(g: Game, holder: str | None = None) -> Window:
    if not g.window_open:
        return Window(response=False, in_battle=g.battle is not None)
    return Window(response=True, priority=holder or g.priority, in_battle=g.battle is not None,
                  moment=_moment(g), offered=tuple(_offers(g)))


def _moment(g: Game) -> dict[str, Any] | None:
    """What an Ambush that names a moment may answer now (10.4.6, 12.6.1): the effect on top of the
    Cascade (its targets are "targeted"), or, in the window after an attack declaration while no
    effect has been added, the attack (the attacked Soul is "attacked")."""
    b = g.battle
    if not g.cascade:
        if b is None or b.by_effect or b.target.is_realm:
            return None
        return {"trigger": "attacked", "subjects": [b.target], "controller": b.target.player,
                "attacker": b.attacker_uid, "attacked": b.target_uid,
                "what": "the attack on " + g.name_at(b.target)}
    top = g.cascade[-1]
    subjects = [t.ref for t in top.targets
                if t.names_soul and not t.ref.is_realm and t.ref.player != top.controller
                and g.state.active_soul_at(t.ref) is not None]
    return {"trigger": "targeted", "subjects": subjects, "controller": top.controller, "entry": top.id,
            "attacker": top.source_uid, "what": top.label}


def _offers(g: Game) -> list[Offer]:
    out = []
    for p in g.offered:
        ref = g.where(p.card_uid)
        if ref is not None and g.is_active_uid(p.card_uid):
            out.append(Offer(p.controller, ref, p.effect.label, p.effect, p.source_rank, p.granted_by))
    return out


# --- putting effects on the Cascade ------------------------------------------------------------------

def _choose(g: Game, action: Action, eff: EffectDef, source: targets.Source) -> tuple[list[Target], bool]:
    given = action.target_refs(g.state) if "targets" in action.args else None
    chosen, _, picked = targets.choose_targets(g.board(), eff, given, source)
    # chosen may be shorter than the specs (choose_targets drops a given target that names no slot)
    return [effects.make_target(g, ref, spec) for ref, spec in zip(chosen, eff.targets, strict=False)], picked


def target_rules(g: Game, entry: Entry) -> tuple[str, ...]:
    """11.4: targets are chosen now (11.4.1); a Soul Spot target is the slot (11.4.4), one that
    names the Soul targets it too (11.4.5); "any line" reaches every line (11.4.2)."""
    if not entry.targets:
        return ()
    rules = ["11.4.1"]
    for t in entry.targets:
        if t.what == "spot":
            rules.append("11.4.5" if t.names_soul else "11.4.4")
        elif t.what == "soul" and not t.ref.is_realm and g.state.active_soul_at(t.ref) is not None \
                and not g.board().is_front_line(t.ref):
            rules.append("11.4.2")
        if t.captured:
            rules.append("11.4.3")
    return tuple(rules)


def _targeting(g: Game, entry: Entry, picked: bool) -> Said | None:
    """The targets an entry was given, as a clause (None without targets)."""
    if not entry.targets:
        return None
    names = Series(tuple(g.name_at(t.ref) if t.what != "spot"
                         else say("target_spot_held", slot=str(t.ref), card=g.name_at(t.ref))
                         if g.state.soul_at(t.ref) else say("target_spot", slot=str(t.ref))
                         for t in entry.targets))
    return say("targeting", targets=names, picked=say("first_legal_targets") if picked else None)


def put_on_cascade(g: Game, entry: Entry, used: Said, rules: tuple[str, ...],
                   reasons: tuple[Reason, ...] = ()) -> None:
    """The entry goes on top of the Cascade; an Activated or Timing Effect counts towards its limit
    now, even if it later fizzles (11.7.3). Souls it targets may trigger (`targeted`)."""
    g.cascade.append(entry)
    rules = (*rules, *target_rules(g, entry))
    counted = None
    if entry.kind in ("activated", "timing"):
        effects.count_use(g, entry.source_uid, entry.effect)
        if entry.effect.limit and entry.source_uid is not None:  # the card whose effect it is (11.7.2)
            turn, game = g.state.uses(entry.source_uid, entry.effect.label)
            counted = say("use_counted", limit=entry.effect.limit.text, turn=turn, game=game)
            rules = (*rules, "11.7.1", "11.7.2", "11.7.3")
    depth = len(g.cascade)
    said = say("goes_on_cascade_top", used=used, counted=counted, depth=depth) if depth > 1 else \
        say("goes_on_cascade", used=used, counted=counted, depth=depth)
    pushed = g.trace.add("cascade", said, (*rules, *R_CASCADE),
                         [{"cascade": "push", "entry": entry.label, "controller": entry.controller}],
                         reasons=reasons)
    g.ledger.pushed(entry.id, entry.action, entry.label, entry.card, entry.kind, pushed.n,
                    entry.target_uids, entry.source_uid)
    _leader_labels(g, entry)
    for t in entry.targets:
        soul = g.state.active_soul_at(t.ref) if not t.ref.is_realm else None
        if soul is not None and t.names_soul and t.ref.player != entry.controller:
            triggered(g, "targeted", t.ref, {"triggering_entry": entry.id},
                      say("targeted_by", card=soul.name, slot=str(t.ref), effect=entry.label))


def _leader_labels(g: Game, entry: Entry) -> None:
    """glossary/leader: a Leader card recruited as an ordinary Soul keeps the label, so a target that asks
    for a Leader reaches it; said where such a target is chosen off the altar (a judge would ask why)."""
    for t, spec in zip(entry.targets, entry.effect.targets, strict=False):
        soul = g.state.active_soul_at(t.ref) if not t.ref.is_realm else None
        if soul is None or not (spec.where or {}).get("leader") or t.ref.slot == g.state.field.root:
            continue
        reason = Reason.of("leader_label", card=soul.name, slot=str(t.ref), effect=entry.label)
        g.trace.add("effect", say("leader_label", reason=Opening(reason)), reason.rules, reasons=[reason])


def cast(g: Game, action: Action) -> None:
    player = g.actor(action)
    card = g.card(action.value)
    eff = card.played_effect
    caster = action.slot("caster", g.state) if "caster" in action.args else _first_caster(g, action, card)
    zones.take_from_hand(g, player, card.name)
    g.state.event_slot = card.name
    soul = g.state.soul(caster)
    picked = None if "caster" in action.args else say("first_legal_caster")
    frozen = meets = None
    caster_rules: tuple[str, ...] = ()
    if g.board().has_keyword(caster, FROZEN.name):
        frozen = say("frozen_caster", card=soul.name)
        caster_rules = ("glossary/frozen",)
    if card.caster:
        meets = say("caster_requirement_met", card=soul.name)
        caster_rules = (*caster_rules, "10.2.2", "11.2.2")
    entry = Entry(g.new_entry_id(), "event", card.name, eff, player, card.rank, caster_uid=soul.uid,
                  source_ref=caster, discard=list(action.args.get("discard") or []), action=action.index,
                  context={"caster_name": soul.name})
    entry.targets, chosen = _choose(g, action, eff, targets.Source.of(player, card))
    put_on_cascade(g, entry, say("casts_event", player=player, card=card.name, rank=card.rank,
                                 caster=soul.name, slot=str(caster), picked=picked, frozen=frozen,
                                 meets=meets,
                                 targets=_targeting(g, entry, chosen)),
                   ("10.2.1", "10.2.3", "10.2.4", "11.5.1", *caster_rules))
    flush_pending(g)


def _first_caster(g: Game, action: Action, card: CardDef) -> SlotRef:
    for ref in g.state.soul_refs(g.actor(action)):
        probe = Action(action.index, action.verb, action.value, action.by,
                       {**action.args, "caster": str(ref)})
        if not checks.run(legality.verify_cast, False, g.state, probe, window(g), g.board()):
            return ref
    raise ValueError("no legal Caster")  # verify() refused the action before we got here


def activate(g: Game, action: Action) -> None:
    player = g.actor(action)
    ref = action.slot("card", g.state)
    holder: Realm | Soul = g.state.realm(ref) if ref.is_realm else g.state.soul(ref)
    card = g.card(holder.name)
    eff = card.known_effect(str(action.value))
    entry = Entry(g.new_entry_id(), "activated", card.name, eff, player, card.rank, source_uid=holder.uid,
                  source_ref=ref, discard=list(action.args.get("discard") or []), action=action.index)
    entry.targets, picked = _choose(g, action, eff, targets.Source.of(player, card, ref))
    cond = None
    if eff.condition and not ref.is_realm:
        cond = say("condition_holds_at_use", holds=words.condition_now(g.board(), ref, eff.condition))
    if ref.is_realm and len(tree.proactive_slots(g.state, player)) < len(g.state.field.slots):
        # 10.5.2: said where it decides something, while the Escalation Spiral still limits A's Souls
        reason = Reason.of("realm_needs_no_proactive_slot", card=card.name, slot=str(ref))
        g.trace.add("action", say("spiral_does_not_limit", reason=Opening(reason), card=card.name,
                                  effect=eff.label),
                    (*reason.rules, "glossary/escalation-spiral"),
                    reasons=[reason])
    blocked = getattr(g.board().view(ref), "blocked", ())
    if blocked:
        kept = Series(tuple(say("does_not_reach_it", what=b.what, source=b.source, rank=b.source_rank)
                            for b in blocked), "; ")
        g.trace.add("action", say("unyielding_keeps_off", card=card.name, slot=str(ref), kept=kept),
                    ("13.6.1", "13.6.3"), cards=[(ref, card.name)], what="kept_off")
    facts = {"player": player, "card": card.name, "effect": eff.label, "slot": str(ref),
             "targets": _targeting(g, entry, picked), "condition": cond}
    used = say("uses_fast_activated", **facts) if eff.fast else say("uses_activated", **facts)
    put_on_cascade(g, entry, used,
                   ("11.1.2", "glossary/activated-effect", *(("11.3.1",) if cond else ())))
    flush_pending(g)


def spring(g: Game, action: Action) -> None:
    player = g.actor(action)
    ref = action.slot("at", g.state)
    slot = g.state.slot(ref)
    amb = next(a for a in slot.ambushes if a.name.lower() == str(action.value).lower() and a.owner == player)
    slot.ambushes.remove(amb)
    g.in_flight.append((amb.owner, amb.name))
    card = g.card(amb.name)
    eff = card.played_effect
    ambusher = g.state.soul(ref)
    entry = Entry(g.new_entry_id(), "ambush", card.name, eff, player, card.rank, ambusher_uid=ambusher.uid,
                  source_ref=ref, discard=list(action.args.get("discard") or []), action=action.index)
    rules: tuple[str, ...] = ("10.4.3", "10.4.5", "10.4.5b" if g.window_open else "10.4.5a")
    moment = _moment(g) if g.window_open else None
    if eff.kind == "timing" and moment is not None:
        entry.context["triggering_entry"] = moment.get("entry")
        entry.context["attacker"] = moment.get("attacker")
        entry.context["attacked"] = moment.get("attacked")
        rules = (*rules, "10.4.6", "12.6.1", "11.8.2",
                 *(("interpretation/ambush-answers-an-attack",) if moment["trigger"] == "attacked" else ()))
    set_by_other = not_limited = None
    if amb.setter != ambusher.uid:
        set_by_other = say("ambush_set_by_another", card=ambusher.name)
        rules = (*rules, "10.4.4")
    if not g.board().is_proactive(ref):
        not_limited = say("springing_not_limited")
        rules = (*rules, "10.4.9")
    entry.targets, picked = _choose(g, action, eff, targets.Source.of(player, card, ref))
    answer = None
    why: tuple[Reason, ...] = ()
    if moment is not None and eff.kind == "timing" and eff.trigger:
        # 10.4.6: why it may be sprung now, said at the spring
        now = Reason.of("ambush_moment_now", ambush=card.name, moment=eff.trigger.replace("_", " "),
                        now=checks.moment_now(g.state, window(g, player), ref), ambusher=str(ref))
        answer, why = say("ambush_answers", moment=moment["what"], now=now), (now,)
    put_on_cascade(g, entry, say("springs_ambush", player=player, card=card.name, rank=card.rank,
                                 slot=str(ref), answer=answer, ambusher=ambusher.name,
                                 targets=_targeting(g, entry, picked), set_by_other=set_by_other,
                                 not_limited=not_limited), rules, why)
    flush_pending(g)


def use(g: Game, action: Action) -> None:
    player = g.actor(action)
    ref = action.slot("card", g.state)
    name = str(action.value).lower()
    offer = next(p for p in g.offered if g.where(p.card_uid) == ref and p.effect.label.lower() == name)
    g.offered.remove(offer)
    entry = Entry(g.new_entry_id(), "timing", offer.card, offer.effect, player, offer.source_rank,
                  source_uid=offer.card_uid, source_ref=ref, context=dict(offer.context),
                  discard=list(action.args.get("discard") or []), action=action.index)
    entry.targets, picked = _choose(g, action, offer.effect, _source(g, offer, ref))
    put_on_cascade(g, entry, say("uses_offered", player=player, card=offer.card, effect=offer.effect.label,
                                 slot=str(ref), trigger=offer.trigger_text,
                                 targets=_targeting(g, entry, picked)),
                   ("11.8.4", "12.4.3", "11.1.3"))
    flush_pending(g)


def _source(g: Game, p: Pending, ref: SlotRef) -> targets.Source:
    """Who a waiting (or offered) Timing Effect counts as coming from: its card, or for a granted effect
    its granter, with the granter's rank (13.2.2)."""
    card = g.card(p.card)
    name = f"{card.name}'s {p.effect.label} granted by {p.granted_by}" if p.granted_by else card.name
    return targets.Source(p.controller, name, p.source_rank, ref, p.granted_by)


def _push_mandatory(g: Game, p: Pending, ref: SlotRef, source: targets.Source,
                    items: list[Pending]) -> bool:
    """A mandatory Timing Effect goes on the Cascade, its targets chosen now (True), or is lost without one
    (11.8.3, False); the turn player's first (interpretation/trigger-order)."""
    tp = g.state.turn_player
    chosen, _, _ = targets.choose_targets(g.board(), p.effect, None, source)
    if p.effect.targets and not chosen:
        lost = targets.no_target(g.board(), p.effect, source, code="trigger_lost_no_target")
        g.trace.add("nonevent", say("trigger_lost", card=p.card, effect=p.effect.label, reason=lost),
                    ("11.8.3", *lost.rules), reasons=[lost],
                    cards=[(ref, p.card)], what="trigger_missed", of=p.card)
        return False
    entry = Entry(g.new_entry_id(), "timing", p.card, p.effect, p.controller, p.source_rank,
                  source_uid=p.card_uid, source_ref=ref, context=dict(p.context))
    entry.targets = [effects.make_target(g, r, s)
                     for r, s in zip(chosen, p.effect.targets, strict=False)]
    # 11.8.3: a mandatory Timing Effect's targets are chosen when it goes on the Cascade
    rules: tuple[str, ...] = ("11.8.2", "11.1.3", *(("11.8.3",) if p.effect.targets else ()))
    order = None
    if len(items) > 1:
        rules = (*rules, "interpretation/trigger-order")
    if len({i.controller for i in items}) > 1:
        # glossary Turn player: their simultaneous triggers are handled first
        order = say("turn_player_first", player=tp) if p.controller == tp \
            else say("after_turn_player", player=tp)
        rules = (*rules, "glossary/turn-player")
    put_on_cascade(g, entry, say("mandatory_used", card=p.card, effect=p.effect.label, slot=str(ref),
                                 player=p.controller, trigger=p.trigger_text,
                                 chosen_now=say("targets_chosen_now") if p.effect.targets else None,
                                 targets=_targeting(g, entry, bool(chosen)), order=order),
                   rules)
    return True


def flush_pending(g: Game) -> bool:
    """Waiting Timing Effects: mandatory ones go on the Cascade (targets chosen now; lost without
    one or when their card is gone, 11.8.3), optional ones are offered in the window (11.8.4).
    The turn player's first (interpretation/trigger-order). True when anything happened."""
    if not g.pending:
        return False
    tp = g.state.turn_player
    items = sorted(g.pending, key=lambda p: p.controller != tp)
    g.pending = []
    acted = False
    for p in items:
        ref = g.where(p.card_uid)
        if ref is None or not g.is_active_uid(p.card_uid):
            if p.mandatory:
                g.trace.add("nonevent", say("trigger_lost_card_gone", card=p.card, effect=p.effect.label),
                            ("11.8.3",), what="trigger_missed", of=p.card)
            continue
        source = _source(g, p, ref)   # 13.2.2: one rank, the granter's for a granted effect, everywhere
        if p.mandatory:
            if not _push_mandatory(g, p, ref, source, items):
                continue
        else:
            g.offered.append(p)
            # 11.4.1: an effect without a legal target can't be used; said at the offer, with the rank it
            # targets with (the granter's for a granted effect, 13.2.2)
            none = targets.no_target(g.board(), p.effect, source) if p.effect.targets and not \
                targets.choose_targets(g.board(), p.effect, None, source)[0] else None
            g.trace.add("trigger", say("optional_offered", card=p.card, effect=p.effect.label, slot=str(ref),
                                       player=p.controller,
                                       no_target=say("but_no_target", reason=none) if none else None),
                        ("11.8.4", "12.4.3", *(none.rules if none else ())), reasons=[none] if none else (),
                        cards=[(ref, p.card)])
        acted = True
    return acted


# --- windows ----------------------------------------------------------------------------------------------

def run_window(g: Game, opened_by: Said) -> None:
    """A window, the Cascade it closes on, and the windows of Timing Effects triggered meanwhile."""
    while not g.stopped and not g.state.winner:
        _one_window(g, opened_by)
        if g.stopped or g.state.winner:
            return
        if not flush_pending(g):
            return
        opened_by = say("opened_by_triggers")


@dataclass
class _Passes:
    """The passes of a window since its last response, said together in one step: the notes, the rules
    that make a queued action not legal now, the reason records behind them, and the queued answers
    passed by with why (the ledger's)."""

    notes: list[Said] = field(default_factory=list)
    why_not: list[str] = field(default_factory=list)
    held: list[Reason] = field(default_factory=list)
    over: list[tuple[int, str]] = field(default_factory=list)

    def said(self, g: Game, step: Step) -> None:
        """The step that says these passes: the queued answers passed by rest on it."""
        for index, why in self.over:
            g.ledger.passed_over(index, step.n, why)

    def clear(self) -> None:
        """After a response: the passes before it are said, the next step says only those after it."""
        self.notes, self.why_not, self.held, self.over = [], [], [], []


def _one_window(g: Game, opened_by: Said) -> None:
    tp = g.state.turn_player
    holder = tp
    passes = 0
    responded = False
    seen = _Passes()
    with g.enter(window_open=True, priority=holder):
        g.trace.add("window", say("window_opens", opened_by=opened_by, player=holder), R_WINDOW)
        waits = False
        while True:
            with g.enter(priority=holder):
                nxt = g.peek()
                if g.paused is not None:
                    return   # play stops before the next queued action, in this window (state_after)
                if not waits and _waits_for_event_slot(g, nxt, holder):
                    waits = True
                turn = _turn(g, nxt, holder, seen)
            if g.paused is not None:
                return
            if turn == "stopped":
                break
            if turn == "responded":
                responded = True
                passes = 0
                holder = g.other(holder)
                continue
            passes += 1
            if (responded and passes >= 1) or passes >= 2:
                break
            holder = g.other(holder)
    g.offered.clear()
    seen.said(g, _say_close(g, seen.notes, seen.why_not, responded, seen.held))
    resolve_cascade(g)


def _waits_for_event_slot(g: Game, nxt: Action | None, holder: str) -> bool:
    """10.2.3: the turn player's next Event waits for the event slot; said once, where the window passes
    it by."""
    if nxt is None or nxt.verb != "cast" or not g.state.event_slot \
            or not g.actor(nxt) == holder == g.state.turn_player:
        return False
    reason = Reason.of("event_slot_taken", event=g.state.event_slot, next=nxt.value)
    g.trace.add("nonevent", say("queued_action_waits", player=holder, action=nxt.describe(), reason=reason),
                reason.rules, reasons=[reason], what="waits")
    return True


def _turn(g: Game, nxt: Action | None, holder: str, seen: _Passes) -> str:
    """The holder of priority takes their next queued action if it is a pass or a legal answer, else
    passes (contract §4): "passed", "responded", or "stopped" (the answer ended the duel or the play)."""
    if nxt is None or g.actor(nxt) != holder or not (nxt.verb == "pass" or g.verbs.responds(nxt.verb)):
        seen.notes.append(say("passes", player=holder))
        return "passed"
    violations = g.verbs.verify(g.state, nxt, window(g, holder), g.board())
    if nxt.verb == "pass" or not violations:
        if not violations:
            g.take()
        if nxt.verb == "pass":
            seen.notes.append(say("passes", player=holder))
            return "passed"
        if seen.notes:
            seen.said(g, g.trace.add("window", say("window_passes", passes=_sentence(seen.notes)),
                                     (*R_PASS, *seen.why_not), reasons=seen.held))
            seen.clear()
        g.verbs.respond(g, nxt)
        return "stopped" if g.stopped or g.state.winner else "responded"
    seen.notes.append(say("passes_not_legal", player=holder, action=nxt.describe(),
                          why=Series(tuple(violations), "; ")))
    seen.why_not += [r for v in violations for r in v.rules]
    if holder != g.state.turn_player and nxt.verb != "use":
        # the opponent acts only in a window (12.1): its queued answer is refused here, where it was meant
        # to be taken (a Timing Effect not offered: where it did not trigger); the turn player's actions
        # may still be taken after the window
        seen.held += [v.reason for v in violations if v.reason is not None]
        seen.over.append((nxt.index, "; ".join(v.text for v in violations)))
    return "passed"


def _say_close(g: Game, notes: list[Said], why_not: list[str], responded: bool,
               held: list[Reason] | None = None) -> Step:
    """The step that closes a window: the passes that closed it, or the end of the duel inside it (its
    outcome), never passes in a row that did not happen."""
    if g.state.outcome is not None:
        over = g.state.outcome.refusal()
        said = say("window_closes_passes_over", passes=_sentence(notes), over=Words(over)) if notes \
            else say("window_closes_over", over=Words(over))
        return g.trace.add("window", said,
                           (*(R_PASS if notes else ()), *why_not, *over.rules), reasons=held or ())
    why = say("closed_after_response") if responded else say("closed_both_passed")
    return g.trace.add("window", say("window_closes", passes=_sentence(notes), why=why), (*R_PASS, *why_not),
                       reasons=held or ())


def _sentence(notes: list[Said]) -> Opening:
    """The passes of a window, one after another, as a sentence's opening ("Nobody acts" without any)."""
    return Opening(Series(tuple(notes), ", then ") if notes else say("nobody_acts"))


def resolve_cascade(g: Game) -> None:
    """From the top, without interruption (glossary/cascade); Timing Effects wait (12.2)."""
    if not g.cascade:
        return
    with g.enter(resolving=True):
        while g.cascade and not g.state.winner and not g.stopped:
            entry = g.cascade.pop()
            effects.resolve_entry(g, entry)
    if g.state.winner:
        g.cascade.clear()
