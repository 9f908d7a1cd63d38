"""Loading the `state:` of a scenario (contract §2) into a State, every problem with its key path,
and checking that the position could arise (a rank-3 Soul on a rank-2 slot, a Leader off the
altar, an active Soul at 0 HP … are refused). Used by `scenario.load_scenario`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from judge.engine.data import card_reader as cardmod
from judge.engine.data.cards import DURATIONS, CardDef, Library
from judge.engine.data.edition import active, numbers
from judge.engine.data.errors import Problems
from judge.engine.data.field import load_field
from judge.engine.data.input_checks import show
from judge.engine.data.input_problems import matches
from judge.engine.data.parts import PARTS
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
        """A problem given as words only (code `input`)."""
        self.p.add(path, message)

    def problem(self, path: str, code: str, **facts: Any) -> None:
        """A problem of input_problems.PROBLEMS at `path`, its words made from `facts`."""
        self.p.problem(path, code, **facts)

    def near_slots(self, typed: Any) -> list[str]:
        """The slot names a mistyped one is close to (for "did you mean")."""
        return matches(str(typed), (*self.field.slots, *self.field.realm_slots))

    # --- cards and names
    def known(self, name: Any, path: str, ctype: str | None = None) -> CardDef | None:
        if not isinstance(name, str) or not name.strip():
            self.problem(path, "not_a_card_name", got=show(name))
            return None
        card = self.library.get(name)
        if card is None:
            if name.strip().lower() not in self.refused:  # a refused card was already reported where it is
                self.problem(path, "unknown_card", name=name,
                             near=matches(name, (c.name for c in self.library)))
            return None
        if ctype and card.type != ctype:
            self.problem(path, "wrong_card_type", card=card.name, type=card.type, wanted=ctype)
        version = active().version
        if card.editions and version not in card.editions:
            self.problem(path, "not_in_edition", card=card.name, version=version,
                         editions=list(card.editions))
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
            self.problem(path, "pile_shape")
            return [], 0
        if isinstance(value, int):
            if value < 0:
                self.problem(path, "negative_count", got=value)
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
                self.problem(f"{path}.round", "round_outside_setup", phase=phase)
            return self.c.integer(data.get("turn", 9), f"{path}.turn", 1) or 9, 0
        turn = data.get("turn", 0)
        if turn != 0:
            self.problem(f"{path}.turn", "setup_turn", got=repr(turn))
        most, rnd = numbers().recruiting_rounds(turn_player), data.get("round", 1)
        if isinstance(rnd, bool) or not isinstance(rnd, int) or not 1 <= rnd <= most:
            self.problem(f"{path}.round", "round_range", most=most, player=turn_player, got=repr(rnd))
            rnd = 1
        return 0, rnd

    # --- state
    def state(self, data: Mapping[str, Any], path: str) -> State:
        self.c.keys(data,
                    ("turn_player", "phase", "turn", "round", "players", "lasting", "used", "event_slot",
                           "winner"), path)
        turn_player = str(data.get("turn_player", "A")).upper()
        if turn_player not in PLAYERS:
            self.problem(f"{path}.turn_player", "not_a_player", got=repr(data.get("turn_player")))
            turn_player = "A"
        phase = data.get("phase", "preparation")
        if phase not in (SETUP, *PHASES):
            self.problem(f"{path}.phase", "not_a_choice", options=[SETUP, *PHASES], got=repr(phase))
            phase = "preparation"
        state = _blank_state(self.library)
        state.turn_player, state.phase = turn_player, phase
        state.turn, state.round = self.turn_and_round(data, phase, turn_player, path)
        players = data.get("players")
        if players is None:
            players = {}
        if not isinstance(players, Mapping):
            self.problem(f"{path}.players", "players_shape")
            players = {}
        for key in players:
            if str(key).upper() not in PLAYERS:
                self.problem(f"{path}.players.{key}", "no_such_player", player=str(key))
        # 13.5.2 "newer": cards already on the board arrived in the order the file lists them, players
        # included (docs/scenario-format.md, "Which card is newer"): write B first to make B's the older
        listed = [str(key).upper() for key in players if str(key).upper() in PLAYERS]
        for p in dict.fromkeys([*listed, *PLAYERS]):
            pdata = players.get(p, players.get(p.lower()))
            if pdata is None:
                self.problem(f"{path}.players.{p}", "missing_player", player=p)
                continue
            if not isinstance(pdata, Mapping):
                self.problem(f"{path}.players.{p}", "player_shape", player=p)
                continue
            self.player(state, p, pdata, f"{path}.players.{p}")
        if "event_slot" in data and data["event_slot"] is not None:
            self.known(data["event_slot"], f"{path}.event_slot", "event")
            state.event_slot = data["event_slot"]
        if data.get("winner") is not None:
            if data["winner"] not in PLAYERS:
                self.problem(f"{path}.winner", "winner_shape")
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
        self.proactive(ps, data, path)
        self.piles(ps, p, data, path)
        self.board_slots(state, p, data, path)

    def proactive(self, ps: PlayerState, data: Mapping[str, Any], path: str) -> None:
        """`proactive:`, the slots the Escalation Spiral woke by choice."""
        for i, item in enumerate(self.c.seq(data.get("proactive"), f"{path}.proactive")):
            slot = self.field.normalize(item)
            if slot is None:
                self.problem(f"{path}.proactive[{i}]", "no_such_proactive_slot", got=repr(item),
                             near=self.near_slots(item), slots=self.field.describe())
            else:
                ps.proactive.add(slot)

    def piles(self, ps: PlayerState, p: str, data: Mapping[str, Any], path: str) -> None:
        """Hand, deck, Elysium and Exile; the turns a decked-out player has left; the recruits made."""
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

    def board_slots(self, state: State, p: str, data: Mapping[str, Any], path: str) -> None:
        """`field:` (soul slots) and `realms:` (realm slots)."""
        fdata = data.get("field")
        if fdata is None:
            fdata = {}
        if not isinstance(fdata, Mapping):
            self.problem(f"{path}.field", "field_shape")
            fdata = {}
        seen: dict[str, str] = {}
        for key, value in fdata.items():
            sub = f"{path}.field.{key}"
            slot = self.field.normalize(key)
            if slot is None:
                self.problem(sub, "no_such_field_slot", player=p, key=str(key),
                             realm_slot=self.field.is_realm_slot(str(key)), near=self.near_slots(key),
                             slots=self.field.describe())
                continue
            if slot in seen:
                self.problem(sub, "same_slot", player=p, slot=slot, other=seen[slot])
                continue
            seen[slot] = str(key)
            self.soul_slot(state, p, slot, value, sub)
        rdata = data.get("realms")
        if rdata is None:
            rdata = {}
        if not isinstance(rdata, Mapping):
            self.problem(f"{path}.realms", "realms_shape")
            rdata = {}
        for key, value in rdata.items():
            sub = f"{path}.realms.{key}"
            slot = self.field.normalize(key)
            if slot is None or not self.field.is_realm_slot(slot):
                self.problem(sub, "no_such_realm_slot", player=p, key=str(key),
                             slots=list(self.field.realm_slots))
                continue
            self.realm_slot(state, p, slot, value, sub)

    def card_entry(self, value: Any, path: str) -> Mapping[str, Any] | None:
        """A slot's entry as a mapping: a bare card name is `{card: name}`; nothing there is None."""
        if value is None:
            return None
        if isinstance(value, str):
            return {"card": value}
        if not isinstance(value, Mapping):
            self.problem(path, "soul_entry_shape")
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
            self.problem(f"{path}.card", "missing_soul_card")
        self.ambushes(state, p, slot, target, value.get("ambushes"), f"{path}.ambushes")

    def soul(self, state: State, p: str, slot: str, value: Mapping[str, Any], path: str) -> Soul | None:
        """The Soul a slot's entry names, or None when its card is no Soul (reported)."""
        rank = self.field.rank(slot)
        card = self.known(value["card"], f"{path}.card", "soul")
        if card is None or card.type != "soul":
            return None
        if card.rank > rank:
            # glossary/slot, glossary/rank: a slot shows the highest rank a Soul on it may have
            self.problem(f"{path}.card", "soul_rank_over_slot", card=card.name, rank=card.rank, player=p,
                         slot=slot, slot_rank=rank)
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
            self.problem(path, "armament_rank_over_slot", card=arm.name, rank=arm.rank, slot=slot,
                         slot_rank=rank)
        if captured:
            self.problem(path, "captured_armament", card=arm.name)
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
                self.problem(sub, "ambush_shape")
                continue
            self.c.keys(item, ("card", "setter"), sub)
            card = self.known(item.get("card"), f"{sub}.card", "ambush")
            if card is None or card.type != "ambush":
                continue
            if card.rank > rank:
                self.problem(f"{sub}.card", "ambush_rank_over_slot", card=card.name, rank=card.rank,
                             slot=slot, slot_rank=rank)
            setter_text = item.get("setter")
            setter: int | None = None
            if setter_text in (None, "here"):
                if target.soul is None:
                    self.problem(f"{sub}.setter", "setter_here_empty", slot=slot)
                else:
                    setter = target.soul.uid
                    setters_here += 1
            elif setter_text != "gone":
                # extension: `setter: "A:L1"`: the Setter was teleported and now stands there (10.4.2)
                ref = SlotRef.parse(setter_text, p)
                if ref is None:
                    self.problem(f"{sub}.setter", "setter_shape", got=repr(setter_text))
                else:
                    self._pending_setters.append((ref, len(target.ambushes), target, f"{sub}.setter"))
            target.ambushes.append(Ambush(state.new_uid(), card.name, p, setter))
        if setters_here > 1:
            # 10.4.2: each Soul may control only one set Ambush at a time
            self.problem(path, "two_ambushes", player=p, slot=slot, setters=setters_here)

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
            self.problem(f"{path}.card", "realm_rank_over_slot", card=card.name, rank=card.rank, player=p,
                         slot=slot, slot_rank=rank)
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
            self.problem(path, "lasting_kind", kinds=list(LASTING_KINDS))
            return
        kind = kinds[0]
        # the part's own form (parts.PARTS) says where it is (`to:`, `on:`; a negation names it under
        # `negate:` itself) and what kind of value it holds
        form = PARTS[kind].FORM
        where_key = next((key.written for key in form[1:] if key.kind == "ref"), None)
        self.c.keys(data, (kind, *([where_key] if where_key else []), "until", "source", "controller",
                           "started_turn"), path)
        until = self.c.choice(data.get("until", "permanently"), DURATIONS, f"{path}.until") or "permanently"
        read = cardmod.VALUE_PARSERS[form[0].kind] if where_key else None
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
            self.problem(f"{path}.started_turn", "lasting_not_begun", started=effect.started_turn,
                         turn=state.turn)
            return True
        last = state.last_turn(effect)
        if last is not None and last < state.turn:
            self.problem(f"{path}.until", "lasting_ended", started=effect.started_turn, last=last,
                         turn=state.turn)
            return True
        return False

    def lasting_target(self, state: State, kind: str, target_text: Any,
                       path: str) -> tuple[SlotRef, int | None] | None:
        """Where a lasting effect is: a soul slot for a slot effect (13.3.3), else the card standing
        there (its uid); None when that is not so (reported)."""
        ref = SlotRef.parse(target_text, state.turn_player)
        if ref is None:
            self.problem(path, "not_a_board_slot", got=show(target_text))
            return None
        if kind == "lay":
            if ref.is_realm:
                self.problem(path, "slot_effect_on_realm", slot=str(ref))
                return None
            return ref, None
        holder = state.soul_at(ref) if not ref.is_realm else state.realm_at(ref)
        if holder is None:
            self.problem(path, "no_card_on_slot", slot=str(ref))
            return None
        return ref, holder.uid

    def lasting_controller(self, controller: Any, source_player: str | None, path: str) -> str | None:
        """The player controlling a lasting effect: as written, else its source's player."""
        if source_player is not None:
            controller = controller or source_player
        if controller is not None and controller not in PLAYERS:
            self.problem(path, "controller_shape", got=show(controller))
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
                self.problem(path, "no_card_on_slot", slot=str(src_ref))
                return None
            return holder.uid, self.library[holder.name].rank, src_ref.player
        if source is not None:
            card = self.known(source, path)
            return None if card is None else (None, card.rank, None)
        self.problem(path, "missing_source")
        return None

    def used(self, state: State, item: Any, path: str) -> None:
        data = self.c.mapping(item, path)
        if data is None:
            return
        self.c.keys(data, ("card", "effect", "this_turn", "this_game"), path)
        ref = SlotRef.parse(data.get("card"), state.turn_player)
        if ref is None:
            self.problem(f"{path}.card", "used_not_a_slot", got=show(data.get("card")))
            return
        holder = state.soul_at(ref) if not ref.is_realm else state.realm_at(ref)
        if holder is None:
            self.problem(f"{path}.card", "no_card_on_slot", slot=str(ref))
            return
        card = self.library[holder.name]
        effect = data.get("effect")
        used = card.effect(effect) if isinstance(effect, str) else None
        if used is None:
            self.problem(f"{path}.effect", "no_such_effect", card=card.name, effect=effect,
                         effects=[e.label for e in card.effects])
            return
        this_turn = self.c.integer(data.get("this_turn", 0), f"{path}.this_turn", 0) or 0
        this_game = self.c.integer(data.get("this_game", this_turn), f"{path}.this_game", 0) or 0
        if this_game < this_turn:
            self.problem(f"{path}.this_game", "used_game_below_turn", this_turn=this_turn,
                         this_game=this_game)
        state.used[(holder.uid, used.label.lower())] = [this_turn, this_game]

    # --- actions
    # --- consistency of the position as a whole
    def consistency(self, state: State) -> None:
        for ref, idx, slot, path in self._pending_setters:
            soul = state.soul_at(ref)
            if soul is None:
                self.problem(path, "no_soul_on_slot", slot=str(ref))
            else:
                slot.ambushes[idx].setter = soul.uid
        self._pending_setters = []
        for p in PLAYERS:
            ps = state.players[p]
            path = f"state.players.{p}"
            altar = self.field.root
            leader = ps.slots[altar].soul
            if leader is None:
                self.problem(f"{path}.field.{altar}", "empty_altar", player=p, slot=altar)
            else:
                card = self.library[leader.name]
                if not card.leader:
                    self.problem(f"{path}.field.{altar}", "altar_not_leader", card=card.name, player=p,
                                 slot=altar)
            for slot, s in ps.slots.items():
                if s.soul and s.soul.recruited_this_turn and p != state.turn_player:
                    self.problem(f"{path}.field.{slot}.recruited", "recruited_off_turn", player=p, slot=slot,
                                 turn_player=state.turn_player)
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
            self.problem(f"{path}.recruited_this_turn", "recruited_off_turn", player=p,
                         turn_player=state.turn_player)
        missing = Counter(n.lower() for n in marked) - Counter(n.lower() for n in given)
        if missing:
            self.problem(f"{path}.recruited_this_turn", "recruits_left_out", player=p,
                         left_out=sorted(missing))

    def spiral(self, state: State, p: str, path: str) -> None:
        # interpretation/escalation-spiral: in turn t (< spiral_turns) the choice is one slot of rank t-1
        ps = state.players[p]
        t = ps.turns_taken
        if t >= numbers().spiral_turns or not ps.proactive:
            return
        chosen_now = [s for s in ps.proactive if self.field.rank(s) == t - 1]
        for s in ps.proactive:
            if self.field.rank(s) > t - 1:
                if t:
                    self.problem(f"{path}.proactive", "spiral_rank", slot=s, slot_rank=self.field.rank(s),
                                 player=p, turn=t, rank=t - 1)
                else:
                    self.problem(f"{path}.proactive", "spiral_no_turn", slot=s, player=p)
        if len(chosen_now) > 1:
            self.problem(f"{path}.proactive", "spiral_two", slots=chosen_now, player=p, rank=t - 1)

    def hp_check(self, state: State) -> None:
        souls = stats.derive(state).souls   # one derivation for the whole board
        for ref in state.soul_refs():
            view = souls[ref]
            if view.hp.total <= 0:
                soul = state.soul(ref)
                self.problem(f"state.players.{ref.player}.field.{ref.slot}.damage", "zero_hp_active",
                             card=soul.name, player=ref.player, slot=ref.slot, damage=soul.damage,
                             max_hp=view.max_hp.total)


def _blank_state(library: Library) -> State:
    return State(turn_player="A", phase="preparation", turn=9,
                 players={p: PlayerState.empty() for p in PLAYERS}, library=library)
