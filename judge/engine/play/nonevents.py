"""What did not happen, where it is the question (issue 11, part 2): a keyword of a card a battle
involves that could have applied and did not, said once, with the reason and the rule. Only the
cards the step involves (the attacker and its Attack Target), so the trace stays readable.

Each function adds at most one `nonevent` step per keyword and battle; the battle calls them at the
moment the keyword would have acted (declaration, fight, capture step).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from judge.engine.data.errors import Reason
from judge.engine.data.keywords import BERSERK, DEFIANCE, TAUNT
from judge.engine.play.clauses import Opening
from judge.engine.play.sayings import say
from judge.engine.position import tree
from judge.engine.rules import legality

if TYPE_CHECKING:
    from judge.engine.play.game import Game
    from judge.engine.position.board import Board
    from judge.engine.position.state import SlotRef

R_TAUNT = ("glossary/taunt",)
R_DEFIANCE = ("glossary/defiance",)
R_BERSERK = ("glossary/berserk",)


def taunt_exceptions(g: Game, board: Board, target: SlotRef) -> None:
    """At the declaration: a Taunt in force whose radius holds the Attack Target but does not protect
    it, because the target has Taunt itself and its own rank is at least the Taunt Soul's."""
    if target.is_realm:
        return
    view = board.souls[target]
    if not view.has(TAUNT.name):
        return
    protecting = {ref for ref, _ in legality.taunts_protecting(board, target)}
    for ref, other in board.souls.items():
        if ref.player != target.player or ref == target or other.captured or ref in protecting \
                or not board.is_front_line(ref):
            continue
        for ks in other.instances(TAUNT.name):
            if target in legality.taunt_radius(board, ref, ks.keyword.value):
                g.trace.add("nonevent", say("taunt_does_not_protect", taunter=g.name_at(ref),
                                            taunter_rank=other.card.rank, target=g.name_at(target),
                                            rank=view.card.rank),
                            R_TAUNT, cards=[g.at(ref), g.at(target)])
                return


def attacker_defiance(g: Game, board: Board, attacker: SlotRef, target: SlotRef,
                      counts_as_attack: bool) -> None:
    """At the fight: the attacker's own Defiance does not trigger (it triggers when its Soul is
    attacked), nor on a Realm's counterblow."""
    if attacker == target:
        return  # Confusion: the Soul is its own attacker, and its Defiance triggers (glossary/defiance)
    view = board.souls.get(attacker)
    if view is None or not view.has(DEFIANCE.name):
        return
    counter = say("defiance_not_on_counterblow") if target.is_realm else None
    role = say("role_attacks") if counts_as_attack else say("role_battles")
    g.trace.add("nonevent", say("defiance_of_attacker", card=view.card.name, slot=attacker, role=role,
                                counterblow=counter), R_DEFIANCE,
                            cards=[(attacker, view.card.name)], what="trigger_missed", of=view.card.name)


def berserk_not_taken(g: Game, att: Any, attacker: SlotRef, target: SlotRef, captured: list[SlotRef],
                      dealt_by_attack: int, hp_before: int) -> None:
    """At the capture step: the attacker's Berserk does not trigger because the attack did not capture
    the Soul it attacked (a Realm, a Soul left with HP, or one an effect brought down)."""
    if not att.has(BERSERK.name) or attacker == target:
        return
    name, tgt = att.card.name, g.name_at(target)
    if target.is_realm:
        why = say("berserk_target_realm", target=tgt)
    elif target not in captured:
        view = g.board().souls.get(target)
        left = say("hp_left", hp=view.hp.total) if view is not None else None
        why = say("berserk_target_not_captured", target=tgt, left=left)
    elif dealt_by_attack < hp_before or dealt_by_attack == 0:
        why = say("berserk_not_by_attack_damage", target=tgt, dealt=dealt_by_attack, hp=hp_before)
    else:
        return
    g.trace.add("nonevent", say("berserk_not_taken", card=name, why=why), (*R_BERSERK, "9.5.8"),
    cards=[g.at(target)], what="trigger_missed", of=name)


def taunt_idle(g: Game, board: Board, target: SlotRef) -> None:
    """At the declaration: a Taunt Soul whose radius holds the Attack Target but which does not stand in
    the Front Line (a Soul in front of it) protects nobody, so the attack may be declared."""
    if target.is_realm:
        return
    for ref, other in board.souls.items():
        if ref.player != target.player or ref == target or other.captured or board.is_front_line(ref):
            continue
        for ks in other.instances(TAUNT.name):
            if target in legality.taunt_radius(board, ref, ks.keyword.value):
                ahead = tree.direct_underlings(board.state, ref)
                names = " and ".join(g.name_at(r) for r in ahead)
                reason = Reason.of("taunt_idle", card=other.card.name, slot=str(ref), front=names,
                                   in_front=[str(r) for r in ahead], target=g.name_at(target))
                g.trace.add("nonevent", say("taunt_idle", reason=Opening(reason)), reason.rules,
                            reasons=[reason])
                return
