"""Battles (glossary Battle, Attack, Attack Target; chapter 9 as cited): declare, respond, check
(9.5.3), fight with Defiance at the same moment (9.5.6) and a Realm's counterblow
(interpretation/realm-counterblow), capture step, Berserk (9.5.8), aftermath. Battles started by
effects begin at the fight (interpretation/battle-by-effect)."""

from __future__ import annotations

from judge.engine.data import parts
from judge.engine.data.cards import CardDef, EffectDef
from judge.engine.data.edition import numbers
from judge.engine.data.errors import Reason
from judge.engine.data.keywords import (
    BERSERK,
    DEFIANCE,
    DUAL_WIELDING,
    PRECISION,
    RANGE,
    TAUNT,
    UNYIELDING,
    guards,
    restrictions,
)
from judge.engine.play import cascade, effects, nonevents, references, zones
from judge.engine.play.clauses import Opening, Series
from judge.engine.play.game import Battle, Entry, Game
from judge.engine.play.sayings import Said, say
from judge.engine.position import board as stats
from judge.engine.position.action import Action
from judge.engine.position.state import SlotRef, Soul
from judge.engine.position.views import KeywordSource, RealmView, SoulView
from judge.engine.rules import legality

R_CHECK = ("9.5.3", "glossary/attack-target")

R_FIGHT = ("glossary/battle", "glossary/atk", "glossary/def")


def declare(g: Game, action: Action) -> None:
    """The attack is declared (Taunt was checked by legality, only now); the attack counts from
    here unless it is cancelled (9.5.3). A response window opens (12.2)."""
    ref = action.slot("value", g.state)
    target = action.slot("target", g.state)
    soul = g.state.soul(ref)
    soul.attacks_made += 1
    holder = g.state.holder(target)
    b = Battle(ref, soul.uid, target, holder.uid, counts_as_attack=True)
    board = g.board()
    extra, rules = _declaration_notes(g, board, ref, target)
    instances = len(board.souls[ref].instances(DUAL_WIELDING.name))
    two = say("attack_dual_two_instances") if instances > 1 else None
    dual = say("attack_dual_wielding", instances=two) if soul.attacks_made > 1 else None
    g.trace.add("battle", say("attack_declared", card=soul.name, slot=ref, target=g.name_at(target),
                              count=soul.attacks_made, dual=dual,
                              notes=say("attack_notes", notes=extra) if extra else None),
                ("glossary/attack", "glossary/attack-target", *rules,
                 *(("glossary/dual-wielding",) if soul.attacks_made > 1 else ()),
                 *(("13.4.2",) if soul.attacks_made > 1 and instances > 1 else ())),
                [{"slot": str(ref), "attacks_made": [soul.attacks_made - 1, soul.attacks_made]}],
                cards=[g.at(ref), g.at(target)])
    nonevents.taunt_exceptions(g, board, target)
    nonevents.taunt_idle(g, board, target)
    g.battle = b
    try:
        context = {"attacker": soul.uid, "attacked": holder.uid}
        # the occasions go in as words until the Cascade takes them as records (issue 26)
        cascade.triggered(g, "attacks", ref, context, say("on_attacks", card=soul.name, slot=ref))
        if not target.is_realm:
            cascade.triggered(g, "attacked", target, context,
                              say("on_attacked", card=holder.name, slot=target))
        cascade.flush_pending(g)
        cascade.run_window(g, say("window_after_declaration", card=soul.name, slot=ref))
        if g.stopped or g.state.winner:
            return
        problem = check(g, b)
        if problem:
            _cancel(g, b, soul.name, problem)
            return
        g.trace.add("battle", say("attack_check_passes", card=soul.name, target=g.name_at(b.target)), R_CHECK,
                    cards=[g.at(b.target)])
        fight(g, b)
    finally:
        g.battle = None
    aftermath(g, b)


def _declaration_notes(g: Game, board: stats.Board, ref: SlotRef,
                       target: SlotRef) -> tuple[list[Said], tuple[str, ...]]:
    """What the declaration step says beside the attack, and the rules for it: the Front Line, an
    Unyielding attacker ignoring a Taunt, Range from the Second Line, Taunt checked now and only now."""
    soul = g.state.soul(ref)
    extra: list[Said] = []
    rules: tuple[str, ...] = ()
    if not target.is_realm:
        extra.append(say("attack_target_front_line", card=g.state.holder(target).name))
        rules += ("glossary/front-line",)
        for taunter, ks in legality.taunts_protecting(board, target):
            if board.unyielding_against(ref, ks.source_rank, ks.controller):
                extra.append(say("attack_ignores_taunt", card=soul.name, taunter=g.name_at(taunter),
                                 rank=ks.source_rank))
                rules += ("13.6.1", "13.6.3")
    if board.line(ref) == 2:
        extra.append(say("attack_with_range", card=soul.name))
        rules += ("glossary/range", "9.1.1")
    # Taunt is checked at the declaration only (glossary Attack Target); say so where a Taunt is in force
    if any(board.has_keyword(r, TAUNT.name) for r in g.state.soul_refs(target.player)):
        extra.append(say("attack_taunt_checked_now"))
        rules += ("glossary/taunt",)
    return extra, rules


def _cancel(g: Game, b: Battle, name: str, problem: tuple[Said, tuple[str, ...]]) -> None:
    """9.5.3: the attack is cancelled before the fight and does not count."""
    soul_now = _attacker_soul(g, b)
    if soul_now is not None and soul_now.attacks_made > 0:
        soul_now.attacks_made -= 1
    text, why = problem
    # "A cancelled attack does not count (9.5.3)": of the texts we have, only the glossary's Dual
    # Wielding entry says it (9.5.3 is absent), so that entry is cited for it, for every attacker
    g.trace.add("battle", say("attack_cancelled", card=name, problem=text),
                (*R_CHECK, *why, "glossary/dual-wielding"), cards=[g.at(b.target)])


def _attacker_soul(g: Game, b: Battle) -> Soul | None:
    ref = g.where(b.attacker_uid)
    return g.state.soul_at(ref) if ref is not None and not ref.is_realm else None


def check(g: Game, b: Battle) -> tuple[Said, tuple[str, ...]] | None:
    """9.5.3: the attack is cancelled if the target is gone, changed or out of the Front Line, or the
    attacker is no longer active, Frozen, restricted or pushed back beyond its reach."""
    board = g.board()
    now = g.where(b.attacker_uid)
    if now is None or not g.is_active_uid(b.attacker_uid):
        return say("check_attacker_inactive"), ()
    b.attacker = now
    view = board.souls[now]
    for record, restriction in restrictions():   # each keyword that forbids attacking (keywords.py)
        if view.has(record.name):
            return say("check_attacker_restricted", card=view.card.name, still=restriction.still), \
                restriction.still_rules
    line = board.line(now)
    reach = 2 if view.has(RANGE.name) else 1
    if line is None or line > reach:
        return (say("check_beyond_reach", card=view.card.name, line=line,
                    reach=say("reach_second_line") if reach == 2 else say("reach_front_line")),
                ("glossary/range",) if reach == 2 else ("glossary/front-line",))
    holder = g.state.holder_at(b.target)
    if holder is None or holder.uid != b.target_uid:
        return say("check_target_changed", slot=b.target), ("15.5.1",)
    if getattr(holder, "captured", False) or getattr(holder, "shattered", False):
        return say("check_target_inactive", card=holder.name, slot=b.target), ("glossary/active",)
    if not b.target.is_realm and not board.is_front_line(b.target):
        return (say("check_target_left_front_line", card=holder.name, slot=b.target,
                    line=board.line(b.target)),
                ("glossary/front-line",))
    if not b.target.is_realm:
        target_view = board.souls[b.target]
        for record, guard in guards():   # each keyword that keeps its Soul from being chosen (keywords.py)
            if target_view.has(record.name) and guard.holds(target_view):
                return (say("check_target_guarded", card=holder.name, slot=b.target, still=guard.still),
                        ("glossary/attack-target", *guard.rules))
    return None


Hit = tuple[SlotRef, int, Said, tuple[str, ...], Said, bool]


def fight(g: Game, b: Battle) -> None:
    """ATK − DEF, never below 0, rounded down to a step of 5 (the edition's damage_step; Precision:
    DEF counts 0); Defiance and a Realm's counterblow at the same moment. No captures until the
    capture step (9.5.8)."""
    board = g.board()
    att = board.souls[b.attacker]
    tgt = board.card_view(b.target)
    _fight_notes(g, b, att, tgt)
    hits = [_attack_hit(b, att, tgt), *_defiance_hits(g, b, board, att, tgt)]
    if b.target.is_realm:
        hits.append(_counterblow(b, att, tgt))
    nonevents.attacker_defiance(g, board, b.attacker, b.target, b.counts_as_attack)
    b_hp_before = tgt.hp.total
    dealt_by_attack = _deal(g, hits)
    captured = _capture_step(g)
    _no_berserk_notes(g, b, att, tgt, captured)
    if g.state.winner or not b.counts_as_attack:
        return
    target_taken = not b.target.is_realm and b.target in captured and dealt_by_attack >= b_hp_before \
        and dealt_by_attack > 0
    if not target_taken:
        if g.is_active_uid(b.attacker_uid):
            nonevents.berserk_not_taken(g, att, b.attacker, b.target, captured, dealt_by_attack, b_hp_before)
        return
    if b.attacker_uid == b.target_uid:
        g.trace.add("battle", say("battled_itself", card=att.card.name), ("glossary/berserk",))
        return
    if not g.is_active_uid(b.attacker_uid):
        if att.has(BERSERK.name) or _has_capture_instants(g, att.card):
            g.trace.add("nonevent", say("berserk_attacker_captured_too", card=att.card.name),
                        ("glossary/berserk", "9.5.8", "11.8.1"), what="trigger_missed", of=att.card.name)
        return
    berserk(g, b, att)


# A hit is (slot, amount, source, rules, arithmetic, battle damage?): the attack damage and a Realm's
# counterblow are battle damage; Defiance is an Instant Effect (11.1.5), so its damage is effect damage
# dealt at the same moment (9.5.6), not battle damage (13.6.6 vs 13.6.7).

def _attack_hit(b: Battle, att: SoulView, tgt: SoulView | RealmView) -> Hit:
    precision = att.has(PRECISION.name)
    dfn = 0 if precision else tgt.def_.total
    raw = att.atk.total - dfn
    dmg = zones.in_steps(max(0, raw))
    atk_text, atk_rules = stats.explain(att.atk, "ATK")
    def_text, def_rules = stats.explain(tgt.def_, "DEF")
    rounding = _rounded_down(raw, dmg)
    if precision:
        arith = say("attack_arithmetic_precision", atk=atk_text, def_=def_text, rounding=rounding)
    else:
        arith = say("attack_arithmetic", atk=atk_text, def_=def_text, raw=raw, floor=_floor(raw),
                    rounding=rounding)
    source = (say("attack_source", card=att.card.name) if b.counts_as_attack
              else say("battle_source", card=att.card.name))
    rules = R_FIGHT + atk_rules + (("9.4.2", "glossary/precision") if precision else def_rules)
    return (b.target, dmg, source, rules, arith, True)


def _floor(raw: int) -> Said | None:
    """Battle damage is never below 0 (glossary/battle): said when ATK − DEF is."""
    return say("arithmetic_never_below_0") if raw < 0 else None


def _rounded_down(raw: int, dealt: int) -> Said | None:
    """Damage comes in steps of the edition's damage_step, rounded down (glossary/damage): said when
    that changed it."""
    step = numbers().damage_step
    return say("arithmetic_rounded_down", amount=dealt, step=step) if dealt != max(0, raw) else None


def _defiance_hits(g: Game, b: Battle, board: stats.Board, att: SoulView,
                   tgt: SoulView | RealmView) -> list[Hit]:
    """Defiance: the attacked Soul deals it to the attacker at the same moment (9.5.6)."""
    defiances = tgt.instances(DEFIANCE.name) if b.counts_as_attack and not b.target.is_realm else []
    attacker_unyielding = (board.has_keyword(b.attacker, UNYIELDING.name)
                           and b.attacker.player != b.target.player)
    hits: list[Hit] = []
    for ks in defiances:
        granted = ks.kind != "printed"
        # 11.2.3: a granted Defiance comes from the card that grants it; its rank matters only against an
        # Unyielding attacker (13.2.2), cited on the step that says whether Unyielding stops it
        source_rules = (*(("11.2.3",) if granted else ()),
                        *(("13.2.2",) if granted and attacker_unyielding else ()))
        if g.board().unyielding_against(b.attacker, ks.source_rank, ks.controller):
            _defiance_stopped(g, b, att, tgt, ks, source_rules)
            continue
        hits.append(_defiance_hit(b, tgt, ks, stacked=len(defiances) > 1))
    higher = [ks for ks in defiances if ks.source_rank > att.card.rank] if attacker_unyielding else []
    if higher:
        g.trace.add("instant", say("defiance_reaches_unyielding", card=att.card.name, slot=b.attacker,
                                   rank=att.card.rank, source_rank=higher[0].source_rank),
                    ("13.6.7", "13.6.7e", "13.6.3",
                     *(("11.2.3", "13.2.2") if higher[0].kind != "printed" else ())),
                     cards=[(b.attacker, att.card.name)])
    return hits


def _defiance_from(tgt: SoulView | RealmView, ks: KeywordSource) -> str:
    """Where a Defiance comes from: the card that grants it, or the Soul's own card (printed)."""
    return ks.label if ks.kind != "printed" else tgt.card.name


def _defiance_stopped(g: Game, b: Battle, att: SoulView, tgt: SoulView | RealmView, ks: KeywordSource,
                      source_rules: tuple[str, ...]) -> None:
    """13.6.6, 13.6.3: a Defiance of the Unyielding attacker's rank or lower does nothing to it."""
    g.trace.add("nonevent", say("defiance_stopped_by_unyielding", card=tgt.card.name, amount=ks.keyword.value,
                                source=_defiance_from(tgt, ks), source_rank=ks.source_rank,
                                attacker=att.card.name, slot=b.attacker, rank=att.card.rank),
                ("13.6.6", "13.6.3", "glossary/defiance", *source_rules),
                cards=[(b.attacker, att.card.name),
                       g.at(SlotRef.parse(ks.source) if ks.source and ":" in ks.source else None)],
                what="kept_off", of=tgt.card.name)


def _defiance_hit(b: Battle, tgt: SoulView | RealmView, ks: KeywordSource, stacked: bool) -> Hit:
    """One instance of Defiance as a hit: effect damage (an Instant Effect, 11.1.5) dealt at the same
    moment as the attack damage (9.5.6); instances each deal their own (13.4.1)."""
    stack = ("13.4.1",) if stacked else ()
    mid = ("12.5.1", "11.1.5") if b.by_effect else ()
    source = say("defiance_source", card=tgt.card.name, source=_defiance_from(tgt, ks),
                 source_rank=ks.source_rank)
    arithmetic = say("defiance_arithmetic", each=say("defiance_each_instance") if stack else None,
                     mid=say("defiance_mid_effect") if mid else None)
    return (b.attacker, ks.keyword.value, source,
            ("9.5.6", "glossary/defiance", "glossary/instant-effect", "11.1.5", *ks.rules,
             *(("11.2.3",) if ks.kind != "printed" else ()), *stack, *mid), arithmetic, False)


def _counterblow(b: Battle, att: SoulView, tgt: SoulView | RealmView) -> Hit:
    """A Realm strikes back (interpretation/realm-counterblow)."""
    raw_c = tgt.atk.total - att.def_.total
    blow = zones.in_steps(max(0, raw_c))
    against = (say("counterblow_against_attack") if b.counts_as_attack
               else say("counterblow_against_battle", card=att.card.name))
    # the Codex says a Realm strikes back with its ATK (glossary Realm, 10.5.3); how much it deals is
    # ours, as 9.4.4 is absent: battle damage like an attack's (interpretation/realm-counterblow)
    return (b.attacker, blow, say("counterblow_source", card=tgt.card.name),
            ("glossary/realm", "10.5.3", "interpretation/realm-counterblow", "9.4.4"),
            say("counterblow_arithmetic", atk=tgt.atk.total, def_=att.def_.total, raw=raw_c,
                floor=_floor(raw_c), rounding=_rounded_down(raw_c, blow), against=against), True)


def _deal(g: Game, hits: list[Hit]) -> int:
    """Every hit at the same moment, each measured against the HP before the fight; what the attack
    damage (the first hit) dealt."""
    dealt_by_attack = 0
    with g.enter(in_fight=True):
        for i, (ref, amount, source, rules, arithmetic, is_battle) in enumerate(hits):
            dealt = zones.deal_damage(g, ref, amount, source, rules, arithmetic, battle=is_battle)
            if i == 0:
                dealt_by_attack = dealt
    return dealt_by_attack


def _capture_step(g: Game) -> list[SlotRef]:
    """9.5.8: what the fight brought to 0 HP is captured now."""
    board_now = g.board()
    if any(v.hp.total <= 0 and not v.captured for v in board_now.souls.values()) or \
            any(v.hp.total <= 0 and not v.shattered for v in board_now.realms.values()):
        g.trace.add("battle", say("capture_step"), ("9.5.8", "glossary/capture"))
    captured = zones.check_captures(g, step=True)
    for ref in captured:
        # "when this Soul is captured": a captured card is no longer active, so it does not trigger (11.8.1)
        if not ref.is_realm and not g.state.winner:
            occasion = say("on_captured", card=g.state.soul(ref).name, slot=ref)
            cascade.triggered(g, "captured", ref, {}, occasion)
    return captured


def _no_berserk_notes(g: Game, b: Battle, att: SoulView, tgt: SoulView | RealmView,
                      captured: list[SlotRef]) -> None:
    """Berserk triggers only when the attack damage itself brought the target to 0 HP and it was
    captured in this step, the attacker still active and not the target (glossary/berserk)."""
    if b.counts_as_attack and not b.target.is_realm and b.attacker in captured and b.attacker != b.target \
            and tgt.has(BERSERK.name) and not g.state.winner:
        g.trace.add("nonevent", say("berserk_defiance_capture", card=tgt.card.name),
                    ("glossary/berserk", "glossary/defiance"), what="trigger_missed", of=tgt.card.name)
    if not b.counts_as_attack and not g.state.winner and not b.target.is_realm and b.target in captured \
            and b.attacker_uid != b.target_uid and g.is_active_uid(b.attacker_uid) and att.has(BERSERK.name):
        # Berserk "triggers when this Soul captures the Soul it attacked": in a battle that is no attack
        # the Soul attacked nothing (interpretation/battle-by-effect)
        g.trace.add("nonevent", say("berserk_battle_not_attack", card=att.card.name),
                    ("glossary/berserk", "interpretation/battle-by-effect"),
                    what="trigger_missed", of=att.card.name)


def _fight_notes(g: Game, b: Battle, att: SoulView, tgt: SoulView | RealmView) -> None:
    """What a judge would point out before the damage: battle damage is not an effect (13.6.7b),
    auras that give nothing here (13.1.2, 13.1.3), negated givers (13.5.2)."""
    board = g.board()
    for ref in (b.target, b.attacker) if b.target.is_realm else (b.target,):
        if not ref.is_realm and board.has_keyword(ref, UNYIELDING.name):
            g.trace.add("battle", say("unyielding_not_against_battle", card=g.name_at(ref)),
                        ("13.6.7", "13.6.7b"), cards=[g.at(ref)])
    if not b.target.is_realm:
        _aura_not_to_itself(g, b, tgt)
    else:
        _aura_not_to_realm(g, board, b.target, tgt)
    for ref, view in board.souls.items():
        if view.negated and not view.captured and ref.player in (b.attacker.player, b.target.player) and \
                any(e.kind == "static" for e in view.card.effects):
            g.trace.add("battle", say("negated_gives_nothing", card=g.name_at(ref)), ("13.5.2", "13.1.2"),
                        cards=[g.at(ref)])


def _aura_not_to_itself(g: Game, b: Battle, tgt: SoulView | RealmView) -> None:
    """13.1.2: an aura for its controller's other Souls gives nothing to the attacked Soul itself."""
    for eff in tgt.card.effects:
        if eff.kind == "static" and eff.to == "other_own_souls" and not tgt.negated:
            g.trace.add("battle", say("aura_not_to_itself", card=tgt.card.name), ("13.1.2",),
                        cards=[(b.target, tgt.card.name)], what="kept_off", of=tgt.card.name)
            return


def _gives_to_souls(view: SoulView | RealmView) -> bool:
    """An active card with an aura for its controller's Souls."""
    return not getattr(view, "captured", False) and not getattr(view, "shattered", False) and \
        any(e.kind == "static" and e.to in ("all_own_souls", "other_own_souls") for e in view.card.effects)


def _aura_not_to_realm(g: Game, board: stats.Board, target: SlotRef, tgt: SoulView | RealmView) -> None:
    """13.1.3: what an aura gives to its controller's Souls does not reach an attacked Realm."""
    views: list[tuple[SlotRef, SoulView | RealmView]] = [*board.souls.items(), *board.realms.items()]
    givers = [ref for ref, view in views
              if ref.player == target.player and ref != target and _gives_to_souls(view)]
    if givers:
        g.trace.add("battle", say("aura_not_to_realm", givers=Series(tuple(g.name_at(r) for r in givers)),
                                  realm=tgt.card.name), ("13.1.3",), cards=[g.at(r) for r in givers])


def _has_capture_instants(g: Game, card: CardDef) -> bool:
    return any(e.trigger == "captures_attack_target" for e in card.effects)


def berserk(g: Game, b: Battle, att: SoulView) -> None:
    ref = g.where(b.attacker_uid)
    if ref is None:
        raise KeyError(f"the attacker {att.card.name} is not on the field")  # fight checked it is active
    captured = say("berserk_captured", card=att.card.name, slot=ref)
    view = g.board().souls[ref]
    if view.negated and any(k.name == BERSERK.name for k in att.card.keywords):
        board = g.board()
        negators = [g.name_at(r) for uid in board.negated_by.get(g.state.soul(ref).uid, [])
                    if (r := g.where(uid))]
        reason = Reason.of("trigger_negated", card=att.card.name, slot=str(ref),
                           negator=" and ".join(negators) or "an effect in force")
        g.trace.add("nonevent", say("berserk_negated", card=att.card.name, keyword=BERSERK.title,
                                    captured=captured, reason=reason),
                    (*BERSERK.rules[:1], *reason.rules), reasons=[reason],
                    what="trigger_missed", of=att.card.name)
    for ks in view.instances(BERSERK.name):
        eff = EffectDef(name=BERSERK.title, kind=BERSERK.kind, trigger="captures_attack_target",
                        do=tuple(ks.keyword.value))
        rank = ks.source_rank
        entry = Entry(g.new_entry_id(), "instant", att.card.name, eff, ref.player, rank,
                      source_uid=b.attacker_uid,
                      source_ref=ref, context={"attacker": b.attacker_uid, "attacked": b.target_uid})
        grant = Reason.of("granted_by", keyword=BERSERK.title, source=ks.label, card=att.card.name,
                          slot=str(ref), source_rank=ks.source_rank) if ks.kind != "printed" else None
        granted = say("berserk_granted", grant=Opening(grant)) if grant else None
        g.trace.add("instant", say("berserk_triggers", captured=captured, granted=granted),
                    ("glossary/berserk", "9.5.8", *(("13.2.1", *ks.rules) if grant else ())),
                    reasons=[grant] if grant else (), cards=[(ref, att.card.name)])
        effects.resolve_instant(g, entry, captured)
    cascade.triggered(g, "captures_attack_target", ref,
                      {"attacker": b.attacker_uid, "attacked": b.target_uid}, captured)


def aftermath(g: Game, b: Battle) -> None:
    """After the battle: `after_battle` triggers of the Souls that battled (if still active)."""
    if g.state.winner or g.stopped:
        return
    seen: set[int] = set()
    for uid in (b.attacker_uid, b.target_uid):
        ref = g.where(uid)
        if uid in seen or ref is None or ref.is_realm:
            continue
        seen.add(uid)
        # a Soul captured in the battle is no longer active: its effect is lost, and said so (11.8.1)
        how = None if g.is_active_uid(uid) else say("battled_but_captured")
        cascade.triggered(g, "after_battle", ref, {"attacker": b.attacker_uid, "attacked": b.target_uid},
                          say("on_battled", card=g.state.soul(ref).name, slot=ref, how=how))
    if not b.by_effect and not g.resolving and cascade.flush_pending(g):
        cascade.run_window(g, say("window_after_battle"))


@effects.apply_part.register
def _battle_part(part: parts.Battle, g: Game, entry: Entry) -> None:
    """The effect part `battle:` (interpretation/battle-by-effect): the Souls it names must still be
    active, and an Unyielding target may be protected from it (13.6.2)."""
    attackers = references.resolve_ref(g, entry, part.spec["attacker"])
    targets = references.resolve_ref(g, entry, part.spec["target"])
    if not attackers or not targets:
        g.trace.add("effect", say("battle_part_soul_gone", effect=entry.label), ("11.6.3", "glossary/battle"))
        return
    target_ref, targeted = targets[0]
    if references.protected(g, entry, target_ref, targeted):
        references.protected_note(g, entry, target_ref, targeted)
        return
    effect_battle(g, entry, attackers[0][0], target_ref, bool(part.spec.get("counts_as_attack")))


def effect_battle(g: Game, entry: Entry, attacker: SlotRef, target: SlotRef, counts_as_attack: bool) -> None:
    """A battle started by an effect begins at the fight; it uses up no attack; it counts as an
    attack only if the effect says so (interpretation/battle-by-effect)."""
    att = g.state.active_soul_at(attacker) if not attacker.is_realm else None
    holder = g.state.holder_at(target)
    board = g.board()
    if att is None or holder is None:
        g.trace.add("battle", say("battle_by_effect_no_soul", effect=entry.label),
                    ("glossary/battle", "glossary/soul", "11.6.3"))
        return
    if counts_as_attack:
        view = board.souls[attacker]
        restricted = [restriction for record, restriction in restrictions() if view.has(record.name)]
        if restricted:
            why = restricted[0]
            # the glossary says it (Restriction: "stops battles started by effects that count as attacks")
            g.trace.add("battle", say("battle_by_effect_restricted", card=att.name, slot=attacker,
                                      restriction=why.by_effect), why.by_effect_rules,
                        cards=[(attacker, att.name)])
            return
    b = Battle(attacker, att.uid, target, holder.uid, counts_as_attack, by_effect=True)
    defiant = not target.is_realm and board.has_keyword(target, DEFIANCE.name)
    if counts_as_attack:
        kind = say("battle_counts_as_attack",
                   defiance=say("battle_defiance_triggers", card=holder.name) if defiant else None)
    else:
        kind = say("battle_not_an_attack", defiance=say("battle_defiance_idle") if defiant else None)
    g.trace.add("battle", say("battle_by_effect", effect=entry.label, card=att.name, slot=attacker,
                              target=g.name_at(target), kind=kind),
                ("glossary/battle", "glossary/attack", "interpretation/battle-by-effect",
                 *(("glossary/defiance",) if defiant else ())), cards=[(attacker, att.name), g.at(target)])
    if attacker == target and board.souls[attacker].has(BERSERK.name):
        g.trace.add("battle", say("battles_itself", card=att.name, slot=attacker), ("glossary/berserk",),
                    cards=[(attacker, att.name)])

    if counts_as_attack:
        context = {"attacker": att.uid, "attacked": holder.uid}
        cascade.triggered(g, "attacks", attacker, context,
                          say("on_attacks", card=att.name, slot=attacker))
        if not target.is_realm and target != attacker:
            cascade.triggered(g, "attacked", target, context,
                              say("on_attacked", card=holder.name, slot=target))
        elif target == attacker:
            cascade.triggered(g, "attacked", target, context,
                              say("on_attacked_by_itself", card=holder.name, slot=target))
    outer = g.battle
    g.battle = b
    try:
        fight(g, b)
    finally:
        g.battle = outer
    aftermath(g, b)
