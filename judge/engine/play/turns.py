"""Turn flow: `end_phase` walks Preparation → Combat → Emplacement → the opponent's turn (glossary
Preparation/Combat/Emplacement Phase); the turn's end ends durations (13.3.1,
interpretation/lasting-effect-ends); the next turn begins with the Escalation Spiral's wake-up and
the draw (glossary Escalation Spiral, Draw, Decked Out)."""

from __future__ import annotations

from judge.engine.data.edition import numbers
from judge.engine.data.errors import Reason
from judge.engine.data.keywords import words as keyword_words
from judge.engine.play import zones
from judge.engine.play.game import Game
from judge.engine.play.sayings import say
from judge.engine.position.board import SPANS
from judge.engine.position.state import PHASES, PLAYERS, SETUP, Lasting, SlotRef

# the glossary entry of each phase, in the order of PHASES; a phase change cites the two it names
R_PHASES = ("glossary/preparation-phase", "glossary/combat-phase", "glossary/emplacement-phase")


def end_phase(g: Game) -> None:
    state = g.state
    if state.phase == SETUP:
        end_round(g)
        return
    index = PHASES.index(state.phase)
    if index + 1 < len(PHASES):
        new = PHASES[index + 1]
        state.phase = new
        g.trace.add("turn", say("phase_ends", player=state.turn_player, ended=PHASES[index].capitalize(),
                                begins=new.capitalize()), (R_PHASES[index], R_PHASES[index + 1]),
                    [{"phase": [PHASES[index], new]}])
        return
    end_turn(g)
    if not state.winner:
        begin_turn(g)


FIRST_TURN = "B"  # glossary/player-b: B takes the first turn of the duel


def end_round(g: Game) -> None:
    """glossary/setup, Player A, Player B: the recruiting rounds alternate from A (A recruits first), A has
    4 and B 3 (edition numbers; a player whose rounds run out is skipped); after the last round turn 1
    begins, and it is B's (B takes the first turn). A Soul recruited in a round may attack only in a
    later turn (glossary/recruit); turn 1 is one."""
    state = g.state
    tp, rnd = state.turn_player, state.round
    for p in PLAYERS:
        state.players[p].recruits = []
        for slot in state.players[p].slots.values():
            if slot.soul is not None:
                slot.soul.recruited_this_turn = False
    rules = ("glossary/setup", "glossary/player-a", "glossary/player-b", "interpretation/setup-rounds")
    rounds = numbers().recruiting_rounds
    other = g.other(tp)
    # B's round k follows A's round k; A's round k+1 follows B's round k
    for nxt, nxt_round in ((other, rnd if tp == "A" else rnd + 1), (tp, rnd + 1)):
        if nxt_round <= rounds(nxt):
            state.turn_player, state.round = nxt, nxt_round
            g.trace.add("turn", say("setup_round_ends", player=tp, round=rnd, rounds=rounds(tp), next=nxt,
                                    next_round=nxt_round, next_rounds=rounds(nxt)), rules,
                        [{"round": [f"{tp} {rnd}", f"{nxt} {nxt_round}"]}])
            return
    g.trace.add("turn", say("setup_ends", player=tp, round=rnd, rounds=rounds(tp), first=FIRST_TURN), rules,
                [{"phase": [SETUP, PHASES[0]]}])
    state.round = 0
    state.turn_player = g.other(FIRST_TURN)   # begin_turn passes the turn to the other player
    begin_turn(g)


def _ends(g: Game, lasting: Lasting) -> bool:
    """13.3.1: "this turn" ends now; "until the end of your opponent's next turn" ends at the end of
    the first turn of the opponent that began after the effect was created."""
    last = g.state.last_turn(lasting)
    return last is not None and g.state.turn >= last


def _slot_stays(g: Game, ended: Lasting, step: int) -> None:
    """13.3.4: of two effects laid on one slot, the one that ends later decides how long the slot is
    affected: when the shorter ends, the slot stays affected by the other, said at that step."""
    if ended.kind != "lay" or ended.on is None:
        return
    for other in (e for e in g.state.lasting if e.kind == "lay" and e.on == ended.on):
        last = g.state.last_turn(other)
        till = f" until the end of turn {last} ({g.state.player_of_turn(last)}'s)" if last is not None else ""
        what = keyword_words(other.value) if isinstance(other.value, str) else "affected"
        reason = Reason.of("slot_effect_stays", slot=str(ended.on), ended=ended.source, other=other.source,
                           until=SPANS.get(other.until, other.until.replace("_", " ")), what=what, till=till,
                           last_turn=last)
        g.trace.add("consequence", say("consequence_reason", step=step, reason=reason), reason.rules,
                    caused_by=step,
                    reasons=[reason])


def end_turn(g: Game) -> None:
    state = g.state
    g.trace.add("turn", say("turn_ends", player=state.turn_player, turn=state.turn),
                ("glossary/emplacement-phase", "interpretation/lasting-effect-ends"))
    ending = [e for e in state.lasting if _ends(g, e)]
    if ending:
        state.lasting = [e for e in state.lasting if e not in ending]
        for e in ending:
            on_card = g.where(e.to) if e.on is None else None
            where = (say("lasting_on_slot", slot=e.on) if e.on is not None
                     else g.name_at(on_card) if on_card is not None else say("lasting_on_card_gone"))
            src_ref = SlotRef.parse(e.source, None, g.state.field) if ":" in str(e.source) else None
            source = g.name_at(src_ref) if src_ref is not None and g.state.soul_at(src_ref) else e.source
            until = SPANS.get(e.until, e.until.replace("_", " "))
            said = say("lasting_ends", source=source, on=where, until=until, turn=state.turn)
            ended = g.trace.add("turn", said,
                                ("13.3.1", "interpretation/lasting-effect-ends"),
                                [{"lasting": e.kind, "on": str(e.on or on_card or "a card that left"),
                                  "ended": True}])
            _slot_stays(g, e, ended.n)
        zones.check_captures(g, max_hp_fell=True)
        if state.winner:
            return
    tp = state.turn_player
    ps = state.players[tp]
    if ps.decked_out_turns is not None and ps.decked_out_turns >= numbers().decked_out_turns:
        g.end_duel("decked out", g.other(tp), loser=tp, turns=ps.decked_out_turns)
        return


def begin_turn(g: Game) -> None:
    state = g.state
    nxt = g.other(state.turn_player)
    state.turn += 1
    state.turn_player = nxt
    state.phase = PHASES[0]
    for p in PLAYERS:
        state.players[p].recruits = []
        for slot in state.players[p].slots.values():
            if slot.soul is not None:
                slot.soul.recruited_this_turn = False
                slot.soul.attacks_made = 0
    for key, (_, game) in list(state.used.items()):
        state.used[key] = [0, game]   # 11.7.1: "1/Turn" counts again in every turn, whoever's
    ps = state.players[nxt]
    ps.turns_taken += 1
    g.trace.add("turn", say("turn_begins", turn=state.turn, player=nxt, count=ps.turns_taken),
                ("glossary/turn-player", "glossary/preparation-phase"),
                [{"turn": [state.turn - 1, state.turn], "turn_player": nxt}])
    wake(g, nxt)
    # glossary/decked-out: a deck empty at the start of the Preparation Phase
    if ps.deck_count == 0:
        if ps.decked_out_turns is None:
            ps.decked_out_turns = 1
            g.trace.add("turn", say("decked_out_begins", player=nxt,
                                    ordinal=ordinal(numbers().decked_out_turns)),
                        ("glossary/decked-out",))
        else:
            ps.decked_out_turns += 1
            g.trace.add("turn", say("decked_out_turn", player=nxt, turn=ps.decked_out_turns,
                                    turns=numbers().decked_out_turns), ("glossary/decked-out",))
    elif ps.decked_out_turns is not None:
        # glossary/decked-out: a Decked Out player stays Decked Out for the rest of the duel
        ps.decked_out_turns += 1
        g.trace.add("turn", say("decked_out_stays", player=nxt, turn=ps.decked_out_turns,
                                turns=numbers().decked_out_turns), ("glossary/decked-out",))
    zones.draw(g, nxt, 1, say("draw_of_preparation"), ("glossary/preparation-phase",))


def wake(g: Game, player: str) -> None:
    """glossary/escalation-spiral: at the start of their first four turns (the edition's spiral_turns)
    a player wakes one slot of rank 0, 1, 2, 3 in turn; slots of lower rank all wake
    (interpretation/escalation-spiral). With no choice given the first slot of that rank in the field
    file is taken."""
    ps = g.state.players[player]
    t = ps.turns_taken
    if t > numbers().spiral_turns:
        return
    rank = t - 1
    fld = g.state.field
    options = [s for s in fld.slots if fld.rank(s) == rank and s not in ps.proactive]
    if not options:
        return
    chosen = options[0]
    ps.proactive.add(chosen)
    g.trace.add("turn", say("spiral_wakes", player=player, rank=rank, slot=SlotRef(player, chosen)),
                ("glossary/escalation-spiral", "glossary/proactive", "interpretation/escalation-spiral"),
                [{"slot": str(SlotRef(player, chosen)), "proactive": [False, True]}])


ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")


def ordinal(n: int) -> str:
    """3 -> "third" (the words of the Codex's counts); beyond ten, "11th"."""
    return ORDINALS[n - 1] if 1 <= n <= len(ORDINALS) else f"{n}th"
