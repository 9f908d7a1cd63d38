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
        g.trace.add("turn", f"{state.turn_player} ends the {PHASES[index].capitalize()} Phase; the "
                            f"{new.capitalize()} Phase begins.", (R_PHASES[index], R_PHASES[index + 1]),
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
            g.trace.add("turn", f"Setup: Player {tp} ends recruiting round {rnd} of {rounds(tp)}; Player "
                                f"{nxt}'s recruiting round {nxt_round} of {rounds(nxt)} begins.", rules,
                        [{"round": [f"{tp} {rnd}", f"{nxt} {nxt_round}"]}])
            return
    g.trace.add("turn", f"Setup: Player {tp} ends recruiting round {rnd} of {rounds(tp)}, the last "
                        f"before the first turn; setup is over and Player {FIRST_TURN} takes the first turn.",
                rules, [{"phase": [SETUP, PHASES[0]]}])
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
        g.trace.add("consequence", f"Because of step {step}: {reason.text}.", reason.rules, caused_by=step,
                    reasons=[reason])


def end_turn(g: Game) -> None:
    state = g.state
    g.trace.add("turn", f"{state.turn_player} ends the Emplacement Phase, and with it turn {state.turn}.",
                ("glossary/emplacement-phase", "interpretation/lasting-effect-ends"))
    ending = [e for e in state.lasting if _ends(g, e)]
    if ending:
        state.lasting = [e for e in state.lasting if e not in ending]
        for e in ending:
            on_card = g.where(e.to) if e.on is None else None
            where = (f"the slot {e.on}" if e.on is not None
                     else g.name_at(on_card) if on_card is not None else "a card that left")
            src_ref = SlotRef.parse(e.source, None, g.state.field) if ":" in str(e.source) else None
            source = g.name_at(src_ref) if src_ref is not None and g.state.soul_at(src_ref) else e.source
            ended = g.trace.add("turn", f"{source}'s effect on {where} "
                                        f"({SPANS.get(e.until, e.until.replace('_', ' '))}) ends with turn "
                                        f"{state.turn}.",
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
    g.trace.add("turn", f"Turn {state.turn} begins: {nxt} is the turn player (their turn {ps.turns_taken}); "
                        "the Preparation "
                f"Phase begins.",
                ("glossary/turn-player", "glossary/preparation-phase"),
                [{"turn": [state.turn - 1, state.turn], "turn_player": nxt}])
    wake(g, nxt)
    # glossary/decked-out: a deck empty at the start of the Preparation Phase
    if ps.deck_count == 0:
        if ps.decked_out_turns is None:
            ps.decked_out_turns = 1
            g.trace.add("turn", f"{nxt}'s deck is empty at the start of their Preparation Phase: {nxt} is "
                                "Decked Out and loses at the end of their "
                                f"{ordinal(numbers().decked_out_turns)} turn counted from this one.",
                        ("glossary/decked-out",))
        else:
            ps.decked_out_turns += 1
            g.trace.add("turn", f"{nxt} is Decked Out: this is their turn {ps.decked_out_turns} of "
                                f"{numbers().decked_out_turns} counted from then.", ("glossary/decked-out",))
    elif ps.decked_out_turns is not None:
        # glossary/decked-out: a Decked Out player stays Decked Out for the rest of the duel
        ps.decked_out_turns += 1
        g.trace.add("turn", f"{nxt} stays Decked Out for the rest of the duel, though their deck is no "
                            f"longer empty: this is their turn {ps.decked_out_turns} of "
                            f"{numbers().decked_out_turns} counted from then.", ("glossary/decked-out",))
    zones.draw(g, nxt, 1, "the draw that begins the Preparation Phase", ("glossary/preparation-phase",))


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
    g.trace.add("turn", f"Escalation Spiral: {player} wakes the rank-{rank} slot {SlotRef(player, chosen)}, "
                        f"which becomes proactive (no choice was given, so the first rank-{rank} slot is "
                        "taken); every slot of a lower rank is awake.",
                ("glossary/escalation-spiral", "glossary/proactive", "interpretation/escalation-spiral"),
                [{"slot": str(SlotRef(player, chosen)), "proactive": [False, True]}])


ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")


def ordinal(n: int) -> str:
    """3 -> "third" (the words of the Codex's counts); beyond ten, "11th"."""
    return ORDINALS[n - 1] if 1 <= n <= len(ORDINALS) else f"{n}th"
