"""Damage, healing, capture, shattering and moving cards between zones (glossary Damage, Heal,
Capture, Exile, Teleport; 10.3.4 for Armaments; 15.4.1 Leaders stay; 15.5.1 new card identity)."""

from __future__ import annotations

from typing import Any

from judge.engine.data.edition import numbers
from judge.engine.data.errors import Reason
from judge.engine.data.keywords import FROZEN
from judge.engine.play.clauses import Series
from judge.engine.play.game import Game
from judge.engine.play.sayings import Said, say
from judge.engine.position import tree
from judge.engine.position.board import Board
from judge.engine.position.state import PLAYERS, Realm, Slot, SlotRef, Soul

R_DAMAGE = ("glossary/damage",)
R_HEAL = ("glossary/heal",)
# cited only where they decide something: damage from an effect reaches only a Soul that still has HP,
# healing removes at most the damage a card has
R_EFFECT_DAMAGE_HP = ("14.1.4", "11.6.5")
R_HEAL_AT_MOST = ("14.2.1", "11.6.5")
R_CAPTURE = ("glossary/capture", "interpretation/capture-timing")
R_ARMAMENT_ELYSIUM = ("10.3.4", "10.3.4a")
R_LEADER_STAYS = ("15.4.1", "glossary/leader")
R_NEW_CARD = ("15.5.1",)


def in_steps(amount: int) -> int:
    """Damage and healing come in steps of 5 (the edition's damage_step), rounded down
    (glossary/damage, glossary/heal)."""
    step = numbers().damage_step
    return max(0, int(amount)) // step * step


def rounded(amount: int, kind: str) -> tuple[int, Said | None, tuple[str, ...]]:
    """The amount in steps of 5 (the edition's damage_step), rounded down, and the clause and rule when
    rounding changed it (glossary/damage: "always in steps of 5, rounded down"; glossary/heal likewise)."""
    amount = max(0, int(amount))
    done = in_steps(amount)
    if done == amount:
        return done, None, ()
    clause = say("damage_rounded", amount=amount, step=numbers().damage_step)
    return done, clause, ("glossary/heal",) if kind == "heal" else R_DAMAGE


def deal_damage(g: Game, ref: SlotRef, amount: int, source: str | Said, rules: tuple[str, ...] = (),
                arithmetic: str | Said | None = None, battle: bool = False, what: str = "") -> int:
    """Deal damage to the Soul or Realm on `ref`; returns the damage dealt.

    14.1.4 / 11.6.5: damage from an effect only reaches a Soul that still has HP. Damage never
    takes a card below 0 HP (glossary/hp), and it comes in steps of 5 (glossary/damage): the stored
    damage stays a multiple of 5, so on a maximum HP that is not (33) the last step may pass it (35),
    and the card shows 0 HP.
    """
    amount, rounding, r_round = rounded(amount, "damage")
    card = g.state.realm_at(ref) if ref.is_realm else g.state.soul_at(ref)
    if card is None or getattr(card, "captured", False) or getattr(card, "shattered", False):
        return 0
    hp = g.board().card_view(ref).hp.total
    name = g.name_at(ref)
    kind = say("damage_kind_battle") if battle else say("damage_kind_effect")
    if hp <= 0:
        g.trace.add("damage", say("damage_no_hp_left", card=name, amount=amount, kind=kind, rounding=rounding,
                                  source=source),
                    # 13.4.1 (each instance deals its own) is the rule of damage dealt, not of damage
                    # that finds no HP: cited only where the instance deals it
                    (*(r for r in rules if r != "13.4.1"), *R_EFFECT_DAMAGE_HP, *r_round),
                              cards=[g.at(ref)])
        return 0
    dealt = min(amount, -(-hp // 5) * 5)
    before = card.damage
    card.damage = before + dealt
    short = dealt < amount or hp < dealt
    extra = say("damage_only_part", dealt=min(dealt, hp), amount=amount, hp=hp) if short else None
    how = say("damage_arithmetic", arithmetic=arithmetic) if arithmetic else None
    g.trace.add("damage", say("damage_dealt", card=name, amount=amount, kind=kind, rounding=rounding,
                              source=source, arithmetic=how, short=extra, hp_before=hp,
                              hp_after=max(0, hp - dealt)),
                (*rules, *R_DAMAGE, *r_round), [{"slot": str(ref), "damage": [before, card.damage]}],
                what=what)
    return dealt


def heal(g: Game, ref: SlotRef, amount: int, source: str | Said, rules: tuple[str, ...] = ()) -> int:
    """Healing removes at most the damage a card has (14.2.1, 11.6.5)."""
    amount, rounding, r_round = rounded(amount, "heal")
    soul: Soul | Realm | None
    if ref.is_realm:
        soul = g.state.realm_at(ref)
        if soul is None or soul.shattered:
            return 0
    else:
        soul = g.state.active_soul_at(ref)
    if soul is None:
        return 0
    name = g.name_at(ref)
    healed = min(amount, soul.damage)
    if healed == 0:
        g.trace.add("heal", say("heal_nothing", card=name, amount=amount, rounding=rounding, source=source),
                    (*rules, *R_HEAL, *R_HEAL_AT_MOST, *r_round), cards=[g.at(ref)])
        return 0
    before = soul.damage
    soul.damage -= healed
    extra = say("heal_only_part", amount=amount, damage=before) if healed < amount else None
    g.trace.add("heal", say("healed", source=source, healed=healed, rounding=rounding, card=name, short=extra,
                            before=before, after=soul.damage),
                (*rules, *R_HEAL, *(R_HEAL_AT_MOST if healed < amount else ()), *r_round),
                [{"slot": str(ref), "damage": [before, soul.damage]}])
    return healed


# --- capture ------------------------------------------------------------------------------------

def capture(g: Game, ref: SlotRef, why: str | Said, rules: tuple[str, ...]) -> None:
    """Turn the Soul face down on its slot; its Armament goes to the Elysium (10.3.4a)."""
    soul = g.state.soul_at(ref)
    if soul is None or soul.captured:
        return
    soul.captured = True
    g.left[soul.uid] = "captured"
    changes = [{"slot": str(ref), "captured": [False, True]}]
    rules = (*rules, "10.1.3")
    armament = None
    if soul.armament is not None:
        arm = soul.armament
        soul.armament = None
        g.state.players[soul.owner].elysium.append(arm.name)
        changes.append({"card": arm.name, "from": str(ref), "to": f"{soul.owner}.elysium"})
        armament = say("armament_to_elysium", armament=arm.name)
        rules = (*rules, *R_ARMAMENT_ELYSIUM)
    g.trace.add("capture", say("captured", card=soul.name, slot=ref, why=why, armament=armament),
                (*rules, "glossary/capture"), changes)
    captured_trigger_note(g, soul.name, ref)


def check_captures(g: Game, *, step: bool = False, max_hp_fell: bool = False) -> list[SlotRef]:
    """The game captures every Soul at 0 HP (also one whose maximum HP fell to its damage, 14.4.3)
    and shatters every Realm at 0 HP (10.5.4), all at once; repeated while captures change
    auras. Not between a battle's fight and its capture step unless `step` (9.5.8)."""
    if g.in_fight and not step:
        return []
    captured: list[SlotRef] = []
    while True:
        board = g.board()
        # Souls found in a later round reached 0 HP because earlier captures lowered their maximum HP
        # (an aura ended); those found in the same round were at 0 HP together
        earlier = bool(captured)
        souls = [ref for ref, view in board.souls.items() if not view.captured and view.hp.total <= 0]
        realms = [ref for ref, view in board.realms.items() if not view.shattered and view.hp.total <= 0]
        if not souls and not realms:
            break
        for ref in souls:
            why, rules = _why_captured(g, board, ref, step, max_hp_fell or earlier)
            capture(g, ref, why, rules)
            captured.append(ref)
        for ref in realms:
            _shatter(g, ref)
    if captured:
        check_winner(g, captured)
        _leader_cards_off_the_altar(g, captured)
    return captured


def _why_captured(g: Game, board: Board, ref: SlotRef, step: bool,
                  fell_before: bool) -> tuple[Said, tuple[str, ...]]:
    """Why the Soul on `ref` is captured now: at 0 HP, or (14.4.3) because its maximum HP fell to its
    damage (`fell_before`: the caller knows it did), with the rules."""
    view = board.souls[ref]
    soul = g.state.soul(ref)
    # a battle's capture step is the Codex's own moment (9.5.8, glossary Capture); every other
    # moment of "after every step of play" is ours (interpretation/capture-timing)
    rules: tuple[str, ...] = ("glossary/capture", "9.5.8") if step else R_CAPTURE
    # damage comes in steps of 5: on a maximum HP of 33 the last step stores 35 (deal_damage)
    fell = g.trace.explainer is not None and g.trace.explainer.fell(ref) is not None
    if fell_before or fell or soul.damage > -(-view.max_hp.total // 5) * 5:
        return (say("captured_max_hp_fell", max_hp=view.max_hp.total, damage=soul.damage),
                ("14.4.3", "glossary/hp", *rules))
    return say("captured_at_zero_hp", damage=soul.damage, max_hp=view.max_hp.total), rules


def _shatter(g: Game, ref: SlotRef) -> None:
    """A Realm at 0 HP shatters (10.5.4): face down, it blocks its slot for the rest of the duel."""
    realm = g.state.realm(ref)
    realm.shattered = True
    g.left[realm.uid] = "shattered"
    g.trace.add("capture", say("realm_shatters", card=realm.name, slot=ref),
                ("10.5.4", "glossary/shatter"),
                [{"slot": str(ref), "shattered": [False, True]}])


def _leader_cards_off_the_altar(g: Game, captured: list[SlotRef]) -> None:
    """glossary/leader: another Leader card in the deck is recruited as an ordinary Soul; capturing it
    on an ordinary slot ends nothing. Said at the capture, where a player could think the duel won."""
    if g.state.winner:
        return
    for ref in captured:
        soul = g.state.soul_at(ref)
        if ref.is_realm or soul is None or ref.slot == g.state.field.root or not g.card(soul.name).leader:
            continue
        reason = Reason.of("leader_card_ordinary", card=soul.name, slot=str(ref), player=ref.player,
                           leader=g.state.soul(SlotRef(ref.player, g.state.field.root)).name)
        g.trace.add("nonevent", say("no_win_leader_card", reason=reason), reason.rules, reasons=[reason])


def check_winner(g: Game, captured: list[SlotRef]) -> None:
    """Capturing the opposing Leader wins; both at once: the turn player wins (glossary/turn-player)."""
    if g.state.winner:
        return
    root = g.state.field.root
    fallen = [p for p in PLAYERS if SlotRef(p, root) in captured]
    if not fallen:
        return
    if len(fallen) == 2:
        g.end_duel("both leaders captured", g.state.turn_player)
    else:
        loser = fallen[0]
        leader = g.state.soul(SlotRef(loser, root)).name
        g.end_duel("leader captured", g.other(loser), loser=loser, leader=leader)


# --- leaving the field ----------------------------------------------------------------------------

def _forget(g: Game, uid: int, how: str) -> int:
    """15.5.1: the card that left is gone for good; what was tied to it (lasting effects, limits,
    the Ambush it set) is dropped. If it comes back, it is a new card with a new uid."""
    g.left[uid] = how
    before = len(g.state.lasting)
    g.state.lasting = [e for e in g.state.lasting if e.to != uid]
    dropped = before - len(g.state.lasting)
    for key in [k for k in g.state.used if k[0] == uid]:
        del g.state.used[key]
    for p in PLAYERS:
        for slot in g.state.players[p].slots.values():
            for amb in slot.ambushes:
                if amb.setter == uid:
                    amb.setter = None   # 10.4.2: a Soul that left the field is free of its Ambush
    return dropped


def _lost_note(dropped: int) -> tuple[Said | None, tuple[str, ...]]:
    if not dropped:
        return None, ()
    return say("lasting_lost"), ("13.3.2",)


Clauses = dict[str, Said | None]


def _leave_field(g: Game, ref: SlotRef, soul: Soul, pile: str,
                 armament: tuple[str, str]) -> tuple[list[dict[str, Any]], Clauses, tuple[str, ...]]:
    """The Soul on `ref` leaves its slot for its owner's `pile` (10.1.3); its Armament goes to the pile
    `armament` names (10.3.4); what lasted on the Soul is lost with it (13.3.2). Returns the changes,
    the clauses to add to the step (`armament`, `lost`: None when not there) and the rules they rest on."""
    armament_pile, sub_item = armament
    g.state.slot(ref).soul = None
    owner = g.state.players[soul.owner]
    getattr(owner, pile).append(soul.name)
    changes = [{"card": soul.name, "from": str(ref), "to": f"{soul.owner}.{pile}"}]
    clauses: Clauses = {"armament": None}
    rules: tuple[str, ...] = ()
    if soul.armament is not None:
        getattr(owner, armament_pile).append(soul.armament.name)
        changes.append({"card": soul.armament.name, "from": str(ref), "to": f"{soul.owner}.{armament_pile}"})
        name = soul.armament.name
        clauses["armament"] = (say("armament_to_hand_too", armament=name) if armament_pile == "hand"
                               else say("armament_to_elysium", armament=name))
        rules = ("10.3.4", sub_item)
    clauses["lost"], extra_rules = _lost_note(_forget(g, soul.uid, pile))
    return changes, clauses, (*rules, *extra_rules)


def is_leader_altar(g: Game, ref: SlotRef) -> bool:
    return ref.slot == g.state.field.root


def unequip(g: Game, ref: SlotRef, source: str) -> bool:
    """10.3.5: an Armament leaves while its Wielder stays: it goes to its owner's Elysium (ours, as for a
    captured Wielder, 10.3.4a), the Wielder loses its values, and if its damage is now as high as its new
    maximum HP it is captured (14.4.3)."""
    soul = g.state.soul_at(ref)
    if soul is None or soul.captured:
        return False
    if soul.armament is None:
        reason = Reason.of("part_skipped", effect=source, verb="unequip", ref=str(ref),
                           which=f"{soul.name} ({ref}) carries no Armament")
        g.trace.add("effect", say("unequip_no_armament", source=source, reason=reason), reason.rules,
                    reasons=[reason],
                    cards=[(ref, soul.name)])
        return False
    arm = soul.armament
    before = g.board().souls[ref].max_hp.total
    soul.armament = None
    owner = g.state.soul(ref).owner
    g.state.players[owner].elysium.append(arm.name)
    after = g.board().souls[ref].max_hp.total
    stays = (say("unequip_stays_max_hp_fell", card=soul.name, before=before, after=after, damage=soul.damage)
             if after != before else say("unequip_stays", card=soul.name))
    g.trace.add("zone", say("unequipped", armament=arm.name, card=soul.name, slot=ref, owner=owner,
                            source=source, stays=stays),
                ("10.3.5", "10.3.3", "interpretation/armament-leaves"),
                [{"card": arm.name, "from": str(ref), "to": f"{owner}.elysium"}], cards=[(ref, soul.name)])
    check_captures(g, max_hp_fell=after < before)
    return True


def return_to_hand(g: Game, ref: SlotRef, source: str, rules: tuple[str, ...] = ()) -> bool:
    soul = g.state.soul_at(ref)
    if soul is None:
        return False
    if is_leader_altar(g, ref):
        g.trace.add("zone", say("leader_stays_rest_happens", card=soul.name, slot=ref, source=source),
                    (*rules, *R_LEADER_STAYS, "11.6.6", "11.6.3"), cards=[(ref, soul.name)], what="kept_off")
        return False
    changes, more, more_rules = _leave_field(g, ref, soul, "hand", ("hand", "10.3.4b"))
    text = say("returned_to_hand", card=soul.name, slot=ref, owner=soul.owner, source=source,
               armament=more["armament"], lost=more["lost"])
    rules = (*rules, *more_rules)
    # 15.5.1 (a card that leaves and comes back is a new card) is cited where it decides something:
    # what lasted on the card is lost with it (13.3.2)
    g.trace.add("zone", text, (*rules, "10.1.3", *(R_NEW_CARD if "13.3.2" in more_rules else ())), changes)
    return True


def exile(g: Game, ref: SlotRef, source: str, rules: tuple[str, ...] = ()) -> bool:
    soul = g.state.soul_at(ref)
    if soul is None:
        return False
    if is_leader_altar(g, ref):
        g.trace.add("zone", say("leader_stays", card=soul.name, slot=ref, source=source),
                    (*rules, *R_LEADER_STAYS, "11.6.6"), cards=[(ref, soul.name)], what="kept_off")
        return False
    reaches = None
    if soul.captured:
        reaches = say("exile_reaches_captured")
        rules = (*rules, "11.6.2")
    changes, more, more_rules = _leave_field(g, ref, soul, "exile", ("elysium", "10.3.4a"))
    text = say("exiled", card=soul.name, slot=ref, source=source, captured=reaches, armament=more["armament"],
               lost=more["lost"])
    rules = (*rules, *more_rules)
    g.trace.add("zone", text, (*rules, "glossary/exile", "10.1.3"), changes)
    return True


def teleport_problem(g: Game, ref: SlotRef, dest: SlotRef) -> Said | None:
    """Why the Soul on `ref` can't be teleported to `dest` (glossary/teleport), or None."""
    fld = g.state.field
    soul = g.state.active_soul_at(ref)
    if soul is None:
        return say("teleport_no_active_soul", slot=ref)
    if is_leader_altar(g, ref):
        return say("teleport_leader", card=soul.name)
    if dest.player != ref.player or dest.is_realm:
        return say("teleport_not_own_slot", dest=dest, player=ref.player)
    target: Slot = g.state.slot(dest)
    if target.soul is not None:
        return say("teleport_not_empty", dest=dest)
    rank = g.card(soul.name).rank
    if fld.rank(dest.slot) != rank:
        return say("teleport_wrong_rank", dest=dest, dest_rank=fld.rank(dest.slot), card=soul.name, rank=rank)
    parent = fld.parent(dest.slot)
    if parent == ref.slot:
        return say("teleport_own_underling", dest=dest, card=soul.name)
    if parent is None or g.state.active_soul_at(SlotRef(ref.player, parent)) is None:
        return say("teleport_no_active_parent", dest=dest)
    frozen = tree.is_under_frozen(g.state, dest, lambda r: g.board().has_keyword(r, FROZEN.name))
    if frozen is not None:
        return say("teleport_under_frozen", dest=dest, frozen=g.name_at(frozen))
    return None


def teleport(g: Game, ref: SlotRef, dest: SlotRef, source: str, rules: tuple[str, ...] = ()) -> bool:
    problem = teleport_problem(g, ref, dest)
    soul = g.state.soul_at(ref)
    if problem is not None:
        if soul is not None and is_leader_altar(g, ref):
            g.trace.add("zone", say("leader_stays", card=soul.name, slot=ref, source=source),
                        (*rules, *R_LEADER_STAYS, "11.6.6"),
                                cards=[(ref, soul.name)], what="kept_off")
        else:
            g.trace.add("effect", say("teleport_refused", source=source, card=g.name_at(ref), dest=dest,
                                      problem=problem), (*rules, "glossary/teleport", "11.6.3"),
                                  cards=[g.at(ref)])
        return False
    moving = g.state.soul(ref)
    g.state.slot(ref).soul = None
    g.state.slot(dest).soul = moving
    changes = [{"card": moving.name, "from": str(ref), "to": str(dest)}]
    armament = None
    if moving.armament is not None:
        rules = (*rules, "10.3.4", "10.3.4c")
        armament = say("teleport_armament_moves", armament=moving.armament.name)
        changes.append({"card": moving.armament.name, "from": str(ref), "to": str(dest)})
    ambushes = say("teleport_ambushes_stay") if g.state.slot(ref).ambushes else None
    g.trace.add("zone", say("teleported", card=moving.name, slot=ref, dest=dest, source=source,
                            armament=armament, ambushes=ambushes), (*rules, "glossary/teleport"), changes)
    return True


def place_soul(g: Game, player: str, slot: str, name: str) -> Soul:
    """A card put on the field is a new card with a fresh identity (15.5.1)."""
    soul = Soul(uid=g.state.new_uid(), name=name, owner=player, recruited_this_turn=True)
    g.state.players[player].slots[slot].soul = soul
    return soul


def take_from_hand(g: Game, player: str, name: str) -> bool:
    ps = g.state.players[player]
    for i, card in enumerate(ps.hand):
        if card.lower() == name.lower():
            del ps.hand[i]
            return True
    if ps.hand_hidden > 0:
        ps.hand_hidden -= 1
        return True
    return False


def draw(g: Game, player: str, count: int, why: str | Said, rules: tuple[str, ...]) -> int:
    """Take the top card of the deck into the hand; from an empty deck nothing (glossary/draw)."""
    ps = g.state.players[player]
    drawn = 0
    names: list[str] = []
    for _ in range(count):
        if ps.deck:
            card = ps.deck.pop(0)
            ps.hand.append(card)
            names.append(card)
        elif ps.deck_hidden > 0:
            ps.deck_hidden -= 1
            ps.hand_hidden += 1
            names.append("an unnamed card")
        else:
            more = say("draw_more", count=count - drawn) if drawn else None
            g.trace.add("zone", say("deck_empty_no_draw", player=player, more=more, why=why),
                        (*rules, "glossary/draw"))
            break
        drawn += 1
    if drawn:
        cards = Series(tuple(names))
        g.trace.add("zone", say("drew_cards", player=player, count=drawn, why=why, cards=cards) if drawn > 1
                    else say("drew_one", player=player, why=why, cards=cards),
                    (*rules, "glossary/draw"),
                    [{"player": player, "hand": [len(ps.hand) + ps.hand_hidden - drawn,
                                                                          len(ps.hand) + ps.hand_hidden]}])
    return drawn


def discard(g: Game, player: str, count: int, chosen: list[str], why: str | Said,
            rules: tuple[str, ...]) -> list[str]:
    """Put cards from the hand into the Elysium; the discarding player chooses (glossary/discard).
    Where no choice is given, the first cards of the hand are taken, and the trace says so."""
    ps = g.state.players[player]
    out: list[str] = []
    picked_by_engine = False
    wanted = list(chosen)
    while len(out) < count:
        pick = None
        while wanted:
            name = wanted.pop(0)
            match = next((c for c in ps.hand if c.lower() == name.lower()), None)
            if match is not None:
                pick = match
                break
        if pick is not None:
            ps.hand.remove(pick)
        elif ps.hand:
            pick = ps.hand.pop(0)
            picked_by_engine = True
        elif ps.hand_hidden:
            ps.hand_hidden -= 1
            g.unnamed_discards[player] += 1   # it goes to the Elysium, but its name is unknown
            pick = "an unnamed card"
            picked_by_engine = True
        else:
            break
        out.append(pick)
        if pick != "an unnamed card":
            ps.elysium.append(pick)
    if out:
        note = say("discard_no_choice") if picked_by_engine else None
        g.trace.add("zone", say("discarded", player=player, cards=Series(tuple(out)), why=why, chosen=note),
                    (*rules, "glossary/discard"),
                    [{"card": c, "from": f"{player}.hand", "to": f"{player}.elysium"} for c in out])
    return out


def hand_count(g: Game, player: str) -> int:
    return g.state.players[player].hand_count


def captured_trigger_note(g: Game, name: str, ref: SlotRef) -> None:
    """A Soul's own "when this Soul is captured" effect: only active cards' effects trigger (11.8.1),
    a mandatory Timing Effect whose card is no longer active before it goes on the Cascade is lost
    (11.8.3), and an Instant Effect of a card no longer active does nothing (11.1.5)."""
    for eff in g.card(name).effects:
        if eff.trigger == "captured" and eff.kind in ("timing", "instant"):
            instant = eff.kind == "instant"
            said = (say("captured_instant_idle", card=name, effect=eff.label, slot=ref) if instant
                    else say("captured_timing_lost", card=name, effect=eff.label, slot=ref))
            g.trace.add("nonevent", said,
                        ("11.8.1", "11.1.5" if eff.kind == "instant" else "11.8.3"),
                        cards=[(ref, name)],
                        what="kept_off" if eff.kind == "instant" else "trigger_missed", of=name)
