"""Loading the `state:` of a scenario (contract §2) into a State, every problem with its key path,
and checking that the position could arise (a rank-3 Soul on a rank-2 slot, a Leader off the
altar, an active Soul at 0 HP … are refused). Used by `scenario.load_scenario`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from judge.engine.data import card_reader as cardmod
from judge.engine.data import suggest
from judge.engine.data.cards import DURATIONS, CardDef, Library
from judge.engine.data.edition import active, numbers
from judge.engine.data.errors import Problems
from judge.engine.data.field import load_field
from judge.engine.data.input_checks import show
from judge.engine.position import board as stats
from judge.engine.position.outcome import Outcome
from judge.engine.position.state import (
    LASTING_KINDS,
    PHASES,
    PLAYERS,
    SETUP,
    Ambush,
    Armament,
    Lasting,
    PlayerState,
    Realm,
    Slot,
    SlotRef,
    Soul,
    State,
    marked_recruits,
)

DEFAULT_TURNS_TAKEN = 5

# a lasting effect's kind: the key naming where it is (a negation names it under `negate:` itself) …
_LASTING_WHERE = {"lay": "on", "gain": "to", "grant": "to"}
# … and how its value is read (a negation has none)
_LASTING_VALUES: dict[str, Callable[[cardmod._Checker, Any, str], Any]] = {
    "gain": lambda c, value, path: c.stats(value, path),
    "grant": lambda c, value, path: c.keyword(value, path),
    "lay": cardmod._v_lay,
}


class StateLoader:
    """Loads `state:` (contract §2) into a State and checks the position is consistent."""

    def __init__(self, problems: Problems, library: Library, source: str | None) -> None:
        self.p = problems
        self.base_library = library
        self.library = library
        self.source = source
        self.field = load_field()
        self.c = cardmod._Checker(problems)
        self._pending_setters: list[tuple[SlotRef, int, Any, str]] = []
        self.refused: set[str] = set()   # cards of the scenario's `cards:` refused for a bad value
        self._recruits: dict[str, list[str]] = {}   # `recruited_this_turn:` lists as given, per player

    def bad(self, path: str, message: str) -> None:
        self.p.add(path, message)

    def slot_hint(self, typed: Any) -> str:
        return suggest.after(" (", suggest.close(str(typed), (*self.field.slots, *self.field.realm_slots)),
                             ")")

    # --- cards and names
    def known(self, name: Any, path: str, ctype: str | None = None) -> CardDef | None:
        if not isinstance(name, str) or not name.strip():
            self.bad(path, f"expected a card name, got {show(name)}")
            return None
        card = self.library.get(name)
        if card is None:
            if name.strip().lower() not in self.refused:  # a refused card was already reported where it is
                self.bad(path, f"no card named {name!r} in the library or the scenario's `cards:`"
                               + suggest.after("; ", suggest.close(name, (c.name for c in self.library))))
            return None
        if ctype and card.type != ctype:
            self.bad(path, f"{card.name} is a {card.type}, not a {ctype}")
        version = active().version
        if card.editions and version not in card.editions:
            self.bad(path, f"{card.name} is not legal in Codex {version}; it is legal in "
                           f"{', '.join(card.editions)}")
        return card

    def names(self, value: Any, path: str) -> list[str]:
        out = []
        for i, item in enumerate(self.c.seq(value, path)):
            card = self.known(item, f"{path}[{i}]")
            if card:
                out.append(card.name)
        return out

    def pile(self, value: Any, path: str) -> tuple[list[str], int]:
        """A hand or deck: a count, a list of names, or (extension) {cards: [...], unnamed: N}."""
        if value is None:
            return [], 0
        if isinstance(value, bool):
            self.bad(path, "expected a count or a list of card names")
            return [], 0
        if isinstance(value, int):
            if value < 0:
                self.bad(path, f"expected a count of 0 or more, got {value}")
            return [], max(value, 0)
        if isinstance(value, Mapping):
            self.c.keys(value, ("cards", "unnamed"), path)
            hidden = self.c.integer(value.get("unnamed", 0), f"{path}.unnamed", 0) or 0
            return self.names(value.get("cards"), f"{path}.cards"), hidden
        return self.names(value, path), 0

    def turn_and_round(self, data: Mapping[str, Any], phase: str, turn_player: str, path: str) -> tuple[int,
                                                                                                        int]:
        """`turn: 0` and `round: N` go with `phase: setup` (contract §2): the recruiting rounds before
        turn 1, A has 4 and B has 3 (glossary Setup, Player A, Player B)."""
        if phase != SETUP:
            if "round" in data:
                self.bad(f"{path}.round", f"only with phase: setup (the recruiting rounds before turn 1); "
                                          f"this is the {phase} phase")
            return self.c.integer(data.get("turn", 9), f"{path}.turn", 1) or 9, 0
        turn = data.get("turn", 0)
        if turn != 0:
            self.bad(f"{path}.turn", f"expected 0 with phase: setup (before the first turn), got {turn!r}")
        most, rnd = numbers().recruiting_rounds(turn_player), data.get("round", 1)
        if isinstance(rnd, bool) or not isinstance(rnd, int) or not 1 <= rnd <= most:
            self.bad(f"{path}.round", f"expected 1..{most}: {turn_player} has {most} recruiting rounds "
                                      f"before the first turn (glossary/player-{turn_player.lower()}), got "
                                      f"{rnd!r}")
            rnd = 1
        return 0, rnd

    # --- state
    def state(self, data: Mapping[str, Any], path: str) -> State:
        self.c.keys(data,
                    ("turn_player", "phase", "turn", "round", "players", "lasting", "used", "event_slot",
                           "winner"), path)
        turn_player = str(data.get("turn_player", "A")).upper()
        if turn_player not in PLAYERS:
            self.bad(f"{path}.turn_player", f"expected A or B, got {data.get('turn_player')!r}")
            turn_player = "A"
        phase = data.get("phase", "preparation")
        if phase not in (SETUP, *PHASES):
            self.bad(f"{path}.phase", f"expected one of {', '.join((SETUP, *PHASES))}, got {phase!r}")
            phase = "preparation"
        state = _blank_state(self.library)
        state.turn_player, state.phase = turn_player, phase
        state.turn, state.round = self.turn_and_round(data, phase, turn_player, path)
        players = data.get("players")
        if players is None:
            players = {}
        if not isinstance(players, Mapping):
            self.bad(f"{path}.players", "expected a mapping with A and B")
            players = {}
        for key in players:
            if str(key).upper() not in PLAYERS:
                self.bad(f"{path}.players.{key}", "no such player; players are A and B")
        # 13.5.2 "newer": cards already on the board arrived in the order the file lists them, players
        # included (docs/scenario-format.md, "Which card is newer"): write B first to make B's the older
        listed = [str(key).upper() for key in players if str(key).upper() in PLAYERS]
        for p in dict.fromkeys([*listed, *PLAYERS]):
            pdata = players.get(p, players.get(p.lower()))
            if pdata is None:
                self.bad(f"{path}.players.{p}", "missing; each player has a Leader on the altar "
                                                "(glossary/altar)")
                continue
            if not isinstance(pdata, Mapping):
                self.bad(f"{path}.players.{p}", "expected a mapping with field:, hand:, …")
                continue
            self.player(state, p, pdata, f"{path}.players.{p}")
        if "event_slot" in data and data["event_slot"] is not None:
            self.known(data["event_slot"], f"{path}.event_slot", "event")
            state.event_slot = data["event_slot"]
        if data.get("winner") is not None:
            if data["winner"] not in PLAYERS:
                self.bad(f"{path}.winner", "expected A, B or nothing")
            else:
                state.outcome = Outcome.of("stated", data["winner"])
        for i, item in enumerate(self.c.seq(data.get("lasting"), f"{path}.lasting")):
            self.lasting(state, item, f"{path}.lasting[{i}]")
        for i, item in enumerate(self.c.seq(data.get("used"), f"{path}.used")):
            self.used(state, item, f"{path}.used[{i}]")
        return state

    def player(self, state: State, p: str, data: Mapping[str, Any], path: str) -> None:
        self.c.keys(data, ("turns_taken", "proactive", "field", "realms", "hand", "deck", "elysium",
                           "exile", "decked_out_turns", "recruited_this_turn"), path)
        ps = state.players[p]
        if state.phase == SETUP:
            # glossary/setup: the recruiting rounds come before turn 1, so nobody has taken a turn
            ps.turns_taken = self.c.integer(data.get("turns_taken", 0), f"{path}.turns_taken", 0, 0) or 0
        else:
            ps.turns_taken = self.c.integer(data.get("turns_taken", DEFAULT_TURNS_TAKEN),
                                            f"{path}.turns_taken",
                                            0) or 0
        for i, item in enumerate(self.c.seq(data.get("proactive"), f"{path}.proactive")):
            slot = self.field.normalize(item)
            if slot is None:
                self.bad(f"{path}.proactive[{i}]", f"no such slot {item!r}{self.slot_hint(item)}; slots are "
                                                   f"{self.field.describe()}")
            else:
                ps.proactive.add(slot)
        ps.hand, ps.hand_hidden = self.pile(data.get("hand"), f"{path}.hand")
        ps.deck, ps.deck_hidden = self.pile(data.get("deck", 20 if "deck" not in data else None),
                                            f"{path}.deck")
        ps.elysium = self.names(data.get("elysium"), f"{path}.elysium")
        ps.exile = self.names(data.get("exile"), f"{path}.exile")
        if data.get("decked_out_turns") is not None:
            ps.decked_out_turns = self.c.integer(data["decked_out_turns"], f"{path}.decked_out_turns", 0)
        if data.get("recruited_this_turn") is not None:
            sub = f"{path}.recruited_this_turn"
            items = self.c.seq(data["recruited_this_turn"], sub)
            self._recruits[p] = [card.name for i, item in enumerate(items)
                                 if (card := self.known(item, f"{sub}[{i}]", "soul"))]
        fdata = data.get("field")
        if fdata is None:
            fdata = {}
        if not isinstance(fdata, Mapping):
            self.bad(f"{path}.field", "expected a mapping of slot: card")
            fdata = {}
        seen: dict[str, str] = {}
        for key, value in fdata.items():
            sub = f"{path}.field.{key}"
            slot = self.field.normalize(key)
            if slot is None:
                realm_hint = " (realm slots go under realms:)" if self.field.is_realm_slot(str(key)) else ""
                self.bad(sub, f"no such slot{realm_hint}{self.slot_hint(key)}; slots are "
                              f"{self.field.describe()}")
                continue
            if slot in seen:
                self.bad(sub, f"the same slot as {seen[slot]}")
                continue
            seen[slot] = str(key)
            self.soul_slot(state, p, slot, value, sub)
        rdata = data.get("realms")
        if rdata is None:
            rdata = {}
        if not isinstance(rdata, Mapping):
            self.bad(f"{path}.realms", "expected a mapping of realm slot: card")
            rdata = {}
        for key, value in rdata.items():
            sub = f"{path}.realms.{key}"
            slot = self.field.normalize(key)
            if slot is None or not self.field.is_realm_slot(slot):
                self.bad(sub, f"no such realm slot; realm slots are {', '.join(self.field.realm_slots)}")
                continue
            self.realm_slot(state, p, slot, value, sub)

    def card_entry(self, value: Any, path: str) -> Mapping[str, Any] | None:
        """A slot's entry as a mapping: a bare card name is `{card: name}`; nothing there is None."""
        if value is None:
            return None
        if isinstance(value, str):
            return {"card": value}
        if not isinstance(value, Mapping):
            self.bad(path, "expected a card name or {card: …, damage: …}")
            return None
        return value

    def soul_slot(self, state: State, p: str, slot: str, value: Any, path: str) -> None:
        value = self.card_entry(value, path)
        if value is None:
            return
        self.c.keys(value,
                    ("card", "damage", "captured", "armament", "recruited", "attacks_made", "ambushes"),
                    path)
        target = state.players[p].slots[slot]
        if "card" in value and value["card"] is not None:
            soul = self.soul(state, p, slot, value, path)
            if soul is not None:
                target.soul = soul
        elif any(k in value for k in ("damage", "captured", "armament", "recruited", "attacks_made")):
            self.bad(f"{path}.card", "missing; damage, armament and the like belong to a Soul")
        self.ambushes(state, p, slot, target, value.get("ambushes"), f"{path}.ambushes")

    def soul(self, state: State, p: str, slot: str, value: Mapping[str, Any], path: str) -> Soul | None:
        """The Soul a slot's entry names, or None when its card is no Soul (reported)."""
        rank = self.field.rank(slot)
        card = self.known(value["card"], f"{path}.card", "soul")
        if card is None or card.type != "soul":
            return None
        if card.rank > rank:
            # glossary/slot, glossary/rank: a slot shows the highest rank a Soul on it may have
            self.bad(f"{path}.card", f"{card.name} is rank {card.rank} but {slot} is a rank-{rank} "
                                     "slot")
        soul = Soul(uid=state.new_uid(), name=card.name, owner=p)
        soul.damage = self.c.in_steps(value.get("damage", 0), f"{path}.damage") or 0
        soul.captured = self.c.boolean(value["captured"], f"{path}.captured") if "captured" in value \
            else False
        if "recruited" in value:
            rec = self.c.choice(value["recruited"], ("this_turn", "earlier"), f"{path}.recruited")
            soul.recruited_this_turn = rec == "this_turn"
        soul.attacks_made = self.c.integer(value.get("attacks_made", 0), f"{path}.attacks_made",
                                           0) or 0
        if value.get("armament") is not None:
            soul.armament = self.armament(state, slot, value["armament"], soul.captured, f"{path}.armament")
        return soul

    def armament(self, state: State, slot: str, arm_value: Any, captured: bool, path: str) -> Armament | None:
        if isinstance(arm_value, Mapping):
            self.c.keys(arm_value, ("card",), path)
            arm_value = arm_value.get("card")
        arm = self.known(arm_value, path, "armament")
        if arm is None or arm.type != "armament":
            return None
        rank = self.field.rank(slot)
        if arm.rank > rank:
            self.bad(path, f"{arm.name} is rank {arm.rank} but {slot} is a rank-{rank} slot (10.3.1)")
        if captured:
            self.bad(path, "a captured Soul carries no Armament: it went to the Elysium (10.3.4)")
        return Armament(state.new_uid(), arm.name)

    def ambushes(self, state: State, p: str, slot: str, target: Slot, value: Any, path: str) -> None:
        """The Ambushes set on a slot, each with its Setter (10.4.2)."""
        rank = self.field.rank(slot)
        setters_here = 0
        for i, item in enumerate(self.c.seq(value, path)):
            sub = f"{path}[{i}]"
            if isinstance(item, str):
                item = {"card": item}
            if not isinstance(item, Mapping):
                self.bad(sub, "expected {card: …, setter: …}")
                continue
            self.c.keys(item, ("card", "setter"), sub)
            card = self.known(item.get("card"), f"{sub}.card", "ambush")
            if card is None or card.type != "ambush":
                continue
            if card.rank > rank:
                self.bad(f"{sub}.card", f"{card.name} is rank {card.rank} but {slot} is a rank-{rank} slot "
                                        "(10.4.1)")
            setter_text = item.get("setter")
            setter: int | None = None
            if setter_text in (None, "here"):
                if target.soul is None:
                    self.bad(f"{sub}.setter",
                             "no Soul stands here; say `setter: gone` or where the Setter is")
                else:
                    setter = target.soul.uid
                    setters_here += 1
            elif setter_text != "gone":
                # extension: `setter: "A:L1"`: the Setter was teleported and now stands there (10.4.2)
                ref = SlotRef.parse(setter_text, p)
                if ref is None:
                    self.bad(f"{sub}.setter", f"expected gone, here or a slot like A:L1, got {setter_text!r}")
                else:
                    self._pending_setters.append((ref, len(target.ambushes), target, f"{sub}.setter"))
            target.ambushes.append(Ambush(state.new_uid(), card.name, p, setter))
        if setters_here > 1:
            # 10.4.2: each Soul may control only one set Ambush at a time
            self.bad(path, "the Soul here is the Setter of more than one Ambush; each Soul "
                           "controls only one set Ambush at a time (10.4.2)")

    def realm_slot(self, state: State, p: str, slot: str, value: Any, path: str) -> None:
        value = self.card_entry(value, path)
        if value is None:
            return
        self.c.keys(value, ("card", "damage", "shattered"), path)
        card = self.known(value.get("card"), f"{path}.card", "realm")
        if card is None or card.type != "realm":
            return
        rank = self.field.rank(slot)
        if card.rank > rank:
            self.bad(f"{path}.card", f"{card.name} is rank {card.rank} but {slot} is a rank-{rank} realm "
                                     "slot (10.5.1)")
        realm = Realm(state.new_uid(), card.name, p)
        realm.damage = self.c.in_steps(value.get("damage", 0), f"{path}.damage") or 0
        realm.shattered = self.c.boolean(value["shattered"],
                                         f"{path}.shattered") if "shattered" in value else False
        state.players[p].realms[slot] = realm

    def lasting(self, state: State, item: Any, path: str) -> None:
        data = self.c.mapping(item, path)
        if data is None:
            return
        kinds = [k for k in LASTING_KINDS if k in data]
        if len(kinds) != 1:
            self.bad(path, f"a lasting effect has exactly one of {', '.join(LASTING_KINDS)}")
            return
        kind = kinds[0]
        where_key = _LASTING_WHERE.get(kind)
        self.c.keys(data, (kind, *([where_key] if where_key else []), "until", "source", "controller",
                           "started_turn"), path)
        until = self.c.choice(data.get("until", "permanently"), DURATIONS, f"{path}.until") or "permanently"
        read = _LASTING_VALUES.get(kind)
        value = read(self.c, data[kind], f"{path}.{kind}") if read else None
        target = self.lasting_target(state, kind, data.get(where_key or "negate"),
                                     f"{path}.{where_key or 'negate'}")
        if target is None:
            return
        ref, to_uid = target
        source = data.get("source")
        found = self.lasting_source(state, source, f"{path}.source")
        if found is None:
            return
        source_uid, source_rank, source_player = found
        controller = self.lasting_controller(data.get("controller"), source_player, f"{path}.controller")
        started = self.c.integer(data.get("started_turn", state.turn), f"{path}.started_turn",
                                 1) or state.turn
        effect = Lasting(kind=kind, value=value, to=to_uid, on=ref if kind == "lay" else None, until=until,
                         controller=controller or state.turn_player, source=str(source),
                         source_uid=source_uid, source_rank=source_rank, started_turn=started,
                         seq=state.new_uid())
        if self.lasting_over(state, effect, path):
            return
        state.lasting.append(effect)

    def lasting_over(self, state: State, effect: Lasting, path: str) -> bool:
        """A lasting effect that begins in a later turn, or whose duration ended before this turn, can't be
        in force (13.3.1): reported, not loaded."""
        if state.turn < 1:
            return False
        if effect.started_turn > state.turn:
            self.bad(f"{path}.started_turn", f"turn {effect.started_turn} has not begun: this is turn "
                                             f"{state.turn}")
            return True
        last = state.last_turn(effect)
        if last is not None and last < state.turn:
            self.bad(f"{path}.until", f"begun in turn {effect.started_turn}, it ended at the end of turn "
                                      f"{last} (13.3.1), before this turn {state.turn}: leave it out of the "
                                      "position")
            return True
        return False

    def lasting_target(self, state: State, kind: str, target_text: Any,
                       path: str) -> tuple[SlotRef, int | None] | None:
        """Where a lasting effect is: a soul slot for a slot effect (13.3.3), else the card standing
        there (its uid); None when that is not so (reported)."""
        ref = SlotRef.parse(target_text, state.turn_player)
        if ref is None:
            self.bad(path, f"expected a slot like B:C3, got {show(target_text)}")
            return None
        if kind == "lay":
            if ref.is_realm:
                self.bad(path, "a slot effect is laid on a soul slot (13.3.3)")
                return None
            return ref, None
        holder = state.soul_at(ref) if not ref.is_realm else state.realm_at(ref)
        if holder is None:
            self.bad(path, f"no card stands on {ref}")
            return None
        return ref, holder.uid

    def lasting_controller(self, controller: Any, source_player: str | None, path: str) -> str | None:
        """The player controlling a lasting effect: as written, else its source's player."""
        if source_player is not None:
            controller = controller or source_player
        if controller is not None and controller not in PLAYERS:
            self.bad(path, "expected A or B")
            return None
        return None if controller is None else str(controller)

    def lasting_source(self, state: State, source: Any,
                       path: str) -> tuple[int | None, int, str | None] | None:
        """A lasting effect's source: a slot (its card's uid, rank and player) or a card name (its rank,
        13.6.3); None when it is missing or names nothing (reported)."""
        is_slot = isinstance(source, str) and ":" in source
        src_ref = SlotRef.parse(source, state.turn_player) if is_slot else None
        if src_ref is not None:
            holder = state.soul_at(src_ref) if not src_ref.is_realm else state.realm_at(src_ref)
            if holder is None:
                self.bad(path, f"no card stands on {src_ref}")
                return None
            return holder.uid, self.library[holder.name].rank, src_ref.player
        if source is not None:
            card = self.known(source, path)
            return None if card is None else (None, card.rank, None)
        self.bad(path, "missing; a slot like A:L2 or a card name (it decides Unyielding, 13.6.3)")
        return None

    def used(self, state: State, item: Any, path: str) -> None:
        data = self.c.mapping(item, path)
        if data is None:
            return
        self.c.keys(data, ("card", "effect", "this_turn", "this_game"), path)
        ref = SlotRef.parse(data.get("card"), state.turn_player)
        if ref is None:
            self.bad(f"{path}.card", f"expected a slot like A:altar, got {show(data.get('card'))}")
            return
        holder = state.soul_at(ref) if not ref.is_realm else state.realm_at(ref)
        if holder is None:
            self.bad(f"{path}.card", f"no card stands on {ref}")
            return
        card = self.library[holder.name]
        effect = data.get("effect")
        used = card.effect(effect) if isinstance(effect, str) else None
        if used is None:
            names = ", ".join(e.label for e in card.effects) or "none"
            self.bad(f"{path}.effect", f"{card.name} has no effect {effect!r}; its effects: {names}")
            return
        this_turn = self.c.integer(data.get("this_turn", 0), f"{path}.this_turn", 0) or 0
        this_game = self.c.integer(data.get("this_game", this_turn), f"{path}.this_game", 0) or 0
        if this_game < this_turn:
            self.bad(f"{path}.this_game", "can't be less than this_turn")
        state.used[(holder.uid, used.label.lower())] = [this_turn, this_game]

    # --- actions
    # --- consistency of the position as a whole
    def consistency(self, state: State) -> None:
        for ref, idx, slot, path in self._pending_setters:
            soul = state.soul_at(ref)
            if soul is None:
                self.bad(path, f"no Soul stands on {ref}")
            else:
                slot.ambushes[idx].setter = soul.uid
        self._pending_setters = []
        for p in PLAYERS:
            ps = state.players[p]
            path = f"state.players.{p}"
            altar = self.field.root
            leader = ps.slots[altar].soul
            if leader is None:
                self.bad(f"{path}.field.{altar}", "empty; the altar always holds the Leader (glossary/altar)")
            else:
                card = self.library[leader.name]
                if not card.leader:
                    self.bad(f"{path}.field.{altar}", f"{card.name} is not a Leader; the altar holds the "
                                                      "Leader (glossary/altar, glossary/leader)")
            for slot, s in ps.slots.items():
                if s.soul and s.soul.recruited_this_turn and p != state.turn_player:
                    self.bad(f"{path}.field.{slot}.recruited", f"{p} can't have recruited this turn: it is "
                                                               f"{state.turn_player}'s turn (10.1.1)")
            self.recruits(state, p, path)
            self.spiral(state, p, path)
        self.hp_check(state)

    def recruits(self, state: State, p: str, path: str) -> None:
        """10.1.1: the recruits made this turn; by default the Souls marked `recruited: this_turn`. A list
        given names them all, also those that have left the field since (ours)."""
        ps = state.players[p]
        marked = marked_recruits(ps)
        given = self._recruits.get(p)
        if given is None:
            ps.recruits = marked
            return
        ps.recruits = given
        if given and p != state.turn_player:
            self.bad(f"{path}.recruited_this_turn", f"{p} can't have recruited this turn: it is "
                                                    f"{state.turn_player}'s turn (10.1.1)")
        missing = Counter(n.lower() for n in marked) - Counter(n.lower() for n in given)
        if missing:
            self.bad(f"{path}.recruited_this_turn", f"leaves out {', '.join(sorted(missing))}, marked "
                                                    "`recruited: this_turn` on the field")

    def spiral(self, state: State, p: str, path: str) -> None:
        # interpretation/escalation-spiral: in turn t (< spiral_turns) the choice is one slot of rank t-1
        ps = state.players[p]
        t = ps.turns_taken
        if t >= numbers().spiral_turns or not ps.proactive:
            return
        chosen_now = [s for s in ps.proactive if self.field.rank(s) == t - 1]
        for s in ps.proactive:
            if self.field.rank(s) > t - 1:
                self.bad(f"{path}.proactive", f"{s} is a rank-{self.field.rank(s)} slot; in {p}'s turn {t} "
                                              f"only a rank-{t - 1} slot can be woken by choice "
                                              "(glossary/escalation-spiral)" if t else
                         f"{p} has taken no turn yet, so no slot is woken (glossary/escalation-spiral)")
        if len(chosen_now) > 1:
            self.bad(f"{path}.proactive", f"{', '.join(chosen_now)}: only one rank-{t - 1} slot is woken by "
                                          "choice (glossary/escalation-spiral)")

    def hp_check(self, state: State) -> None:
        souls = stats.derive(state).souls   # one derivation for the whole board
        for ref in state.soul_refs():
            view = souls[ref]
            if view.hp.total <= 0:
                soul = state.soul(ref)
                self.bad(f"state.players.{ref.player}.field.{ref.slot}.damage",
                         f"{soul.name} has {soul.damage} damage and a maximum HP of {view.max_hp.total}; at "
                         "0 HP it would have been captured (glossary/capture): add `captured: true` or lower "
                         "the damage")


def _blank_state(library: Library) -> State:
    return State(turn_player="A", phase="preparation", turn=9,
                 players={p: PlayerState.empty() for p in PLAYERS}, library=library)
