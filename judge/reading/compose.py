"""From the parts of a dispute to a scenario (contract §2, §4, §7), every default it takes written down.

The board is built from what was said: each card named is one card (the same name on the same side is
the same card, unless two slots are said), its side from what was said of it ("B's Harold"), else from
its role (an attacker's target is the other player's), its slot from what was said, else the first
free slot the rules allow, nearest the altar. Each such choice is a Guess, shown with the reading. Where
two readings are possible and nothing decides between them, the reader asks (a Problem) instead.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from judge.engine import VERBS, CardDef, Library, load_field
from judge.reading.parts import Mention, Part

PHASES = ("preparation", "combat", "emplacement")
# the verbs a player takes in answer to the other (the verb table's verbs that respond in a window, and
# passing), so their player says nothing of whose turn it is; activating is the turn player's usual move
ANSWERING = frozenset({*(v.name for v in VERBS.values() if v.respond is not None), "pass"} - {"activate"})
# the phase the turn player takes each verb in (the verb table's `phase`)
PHASE_OF_VERB = {v.name: v.phase for v in VERBS.values() if v.phase}
PHASE_WORDS = {
    "preparation": "the Preparation Phase",
    "combat": "the Combat Phase",
    "emplacement": "the Emplacement Phase",
}
LEADERS = {"A": "Queen Sol", "B": "King Umbra"}  # the desk's default position (judge/desk/starts.yaml)
DEFAULT_TURN = 9


@dataclass
class Guess:
    """A default the reader chose: what it chose, why it had to, and the slot it concerns ("B:C3")
    where there is one (the desk marks that slot on the board)."""

    what: str
    why: str
    ref: str | None = None

    def words(self) -> str:
        return f"{self.what}: {self.why}"


@dataclass
class Problem:
    """Words the reader can't turn into a position: which words, where, what they could be."""

    code: str
    message: str
    words: str = ""
    start: int | None = None
    options: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.words:
            out["words"] = self.words
        if self.start is not None:
            out["start"] = self.start
        if self.options:
            out["options"] = self.options
        return out


class Declined(Exception):
    def __init__(self, problems: list[Problem]) -> None:
        super().__init__("; ".join(p.message for p in problems))
        self.problems = problems


@dataclass
class Piece:
    """A card on the board: a Soul on a soul slot or a Realm on a realm slot."""

    name: str
    player: str | None
    slot: str | None = None
    realm: bool = False
    damage: int = 0
    armament: str | None = None
    captured: bool = False
    recruited: str | None = None
    said_where: bool = False
    said_whose: bool = False
    enters: bool = False  # it comes onto the field by a queued action (a recruit, an invocation)
    relative: tuple[str, Piece] | None = None  # said to stand behind / in front of another card


def other(player: str) -> str:
    return "B" if player == "A" else "A"


class Composer:
    def __init__(self, library: Library, speaker: str | None = None) -> None:
        self.library = library
        self.field = load_field()
        self.speaker = speaker
        self.pieces: list[Piece] = []
        self.hands: dict[str, list[str]] = {"A": [], "B": []}
        self.ambushes: list[dict[str, Any]] = []
        self.actions: list[dict[str, Any]] = []  # each {"verb", "by", ..., refs as Pieces}
        self.asks: list[dict[str, Any]] = []
        self.turn_player: str | None = None
        self.phase: str | None = None
        self.turn: int | None = None
        self.turns_taken: dict[str, int] = {}
        self.guesses: list[Guess] = []
        self.problems: list[Problem] = []
        self.last: Piece | None = None  # what "it" names: the last card named
        self.last_played: str | None = None  # the last Event/Ambush/effect named in an action

    # --- whose turn, before any card is placed: it decides whose the acting cards are
    def infer_turn(self, parts: list[Part]) -> None:
        """The turn player: as said ("in B's turn"); else the player said to take the first action that
        only the turn player takes (or the other one of a player said to answer); else A, a name for the
        player who acts first, chosen and marked."""
        for p in parts:
            if p.kind == "setting" and p.data.get("player"):
                self.turn_player = self.who(p.data["player"], p.words)
                return
        acts = [
            p.data["action"] if p.kind == "ask" and isinstance(p.data.get("action"), Part) else p
            for p in parts
        ]
        for p in acts:
            if p.kind != "action":
                continue
            d = p.data
            said = d.get("by") or next(
                (
                    m.player
                    for m in (d.get("attacker"), d.get("caster"), d.get("card"))
                    if isinstance(m, Mention) and m.player
                ),
                None,
            )
            if said:
                player = self.who(said, p.words)
                if player:
                    fast = p.what in ANSWERING or p.what == "answer"
                    self.turn_player = other(player) if fast else player
                    why = (
                        f"{player} answers, so the other player has the turn"
                        if fast
                        else f"{player} takes “{p.words}”, which only the turn player may"
                    )
                    self.guesses.append(Guess(f"it is {self.turn_player}'s turn", why))
                    return
        if any(p.kind == "action" for p in acts):
            self.turn_player = "A"
            self.guesses.append(Guess("the player who acts first is A", "no player was named"))

    # --- who
    def who(self, player: str | None, words: str = "") -> str | None:
        if player == "speaker" or player == "other":
            if self.speaker is None:
                self.problems.append(
                    Problem(
                        "whose",
                        f"“{words or player}”: whose? Say who is speaking "
                        "(“I am A”) or name the player (A or B)",
                        words,
                        options=["A", "B"],
                    )
                )
                return None
            return self.speaker if player == "speaker" else other(self.speaker)
        return player

    def card(self, name: str) -> CardDef | None:
        return self.library.get(name)

    # --- the board
    def piece(self, m: Mention, role_player: str | None = None, role: str = "") -> Piece | None:
        """The card a mention names, made when it is new. `role_player` is the side its role implies
        (an attack's target is the attacker's opponent), used when nothing was said of its side."""
        if m.pronoun:
            if self.last is None:
                self.problems.append(Problem("it", f"“{m.words}”: no card was named before it", m.words))
            return self.last
        player = self.who(m.player, m.words)
        if m.name is None:  # by slot: "B's C3"
            return self._by_slot(m, self.who(m.slot_player, m.words) if m.slot_player else player)
        card = self.card(m.name)
        if card is None:
            self.problems.append(Problem("unknown-card", f"no card named {m.name}", m.name))
            return None
        p = self._known(m, card.name, player)
        if p is None:
            p = Piece(
                card.name, player or role_player, realm=card.type == "realm", said_whose=player is not None
            )
            self.pieces.append(p)
            if player is None and role_player is not None:
                self.guesses.append(Guess(f"{card.name} is {role_player}'s", role))
        elif p.player is None and (player or role_player):
            p.player, p.said_whose = player or role_player, player is not None
            if player is None:
                self.guesses.append(Guess(f"{card.name} is {role_player}'s", role))
        if m.slot and p.slot is None:
            p.slot, p.said_where = m.slot, True
        if m.relative is not None:
            self._relative(p, m.relative)
        self.last = p
        return p

    def _by_slot(self, m: Mention, player: str | None) -> Piece | None:
        found = self._at(player, m.slot)
        if found is None:
            self.problems.append(
                Problem(
                    "empty-slot",
                    f"“{m.words}”: no card was placed on {m.words}; name the card that stands there",
                    m.words,
                )
            )
        return found

    def _known(self, m: Mention, name: str, player: str | None) -> Piece | None:
        """The card of that name already named on that side (and slot, when one is said); two on different
        sides and no side said: the reader asks which."""
        same = [
            p
            for p in self.pieces
            if p.name == name
            and (player is None or p.player in (None, player))
            and (m.slot is None or p.slot in (None, m.slot))
        ]
        if len(same) > 1 and player is None:
            sides = sorted({p.player or "?" for p in same})
            self.problems.append(
                Problem(
                    "which",
                    f"“{m.words}”: which {name}? There is one on each side; say “A's {name}” or “B's {name}”",
                    m.words,
                    options=[f"{s}'s {name}" for s in sides],
                )
            )
        return same[0] if same else None

    def _relative(self, p: Piece, relative: tuple[str, Mention]) -> None:
        kind, other_mention = relative
        anchor = self.piece(other_mention, p.player, "it stands on the same side")
        if anchor is not None:
            p.relative = (kind, anchor)
            p.said_where = True
            if p.player is None and anchor.player is not None:
                p.player = anchor.player

    def _at(self, player: str | None, slot: str | None) -> Piece | None:
        return next((p for p in self.pieces if p.slot == slot and p.player == player), None)

    def fact(self, part: Part) -> None:
        d = part.data
        if part.what in ("at_slot", "details"):
            where: Mention | None = d.get("where")
            p = self.piece(d["soul"])
            if p is None:
                return
            if where is not None and where.relative is not None:
                self._relative(p, where.relative)
            elif where is not None:
                wp = self.who(where.slot_player, where.words) if where.slot_player else None
                if wp and p.player is None:
                    p.player, p.said_whose = wp, True
                p.slot, p.said_where = where.slot, True
            for key in ("damage", "armament", "captured", "recruited"):
                if key in d:
                    setattr(p, key, d[key])
        elif part.what == "hand":
            player = self.who(d["player"], part.words)
            if player:
                self.hands[player] += [c for c in d["cards"] if c not in self.hands[player]]
        elif part.what == "set":
            self.ambushes.append(
                {"card": d["card"], "where": d.get("where"), "on": d.get("on"), "player": d.get("player")}
            )

    # --- the queue
    def action(self, part: Part) -> int | None:
        """An action said: its cards found or made on the board, its player from what was said, else from
        its cards, else the turn player (Fast answers excepted). One method per verb, below."""
        d = dict(part.data)
        verb = part.what
        by = self.who(d.get("by"), part.words) if d.get("by") else None
        if verb == "answer":  # "answers with X": an Ambush is sprung, an Event cast
            card = self.card(d["card"])
            verb = {"ambush": "spring", "event": "cast"}.get(card.type if card else "", "spring")
        act: dict[str, Any] = {"verb": verb, "by": by, "words": part.words}
        mine = by or (self.turn_player if verb not in ANSWERING else None)
        taking = getattr(self, f"_act_{verb}", None)
        if taking is not None:
            taking(act, d, mine)
        self.actions.append(act)
        return len(self.actions) - 1

    def _act_attack(self, act: dict[str, Any], d: dict[str, Any], mine: str | None) -> None:
        attacker = self.piece(d["attacker"], mine, "it acts in its player's turn")
        act["by"] = act["by"] or (attacker.player if attacker else None)
        target = self.piece(
            d["target"],
            other(act["by"]) if act["by"] else None,
            "the attacker attacks the other player's cards",
        )
        act.update(attacker=attacker, target=target)

    def _act_cast(self, act: dict[str, Any], d: dict[str, Any], mine: str | None) -> None:
        caster = self.piece(d["caster"], mine, "it casts in its player's turn") if d.get("caster") else None
        act["by"] = act["by"] or (caster.player if caster else None) or mine
        act.update(
            card=d["card"], caster=caster, targets=self._targets(d["card"], d.get("targets", []), act["by"])
        )
        self.last_played = d["card"]

    def _act_spring(self, act: dict[str, Any], d: dict[str, Any], mine: str | None) -> None:
        act.update(
            card=d["card"], at=d.get("at"), targets=self._targets(d["card"], d.get("targets", []), act["by"])
        )
        self.last_played = d["card"]

    def _act_recruit(self, act: dict[str, Any], d: dict[str, Any], mine: str | None) -> None:
        """A recruit or an invocation: the card comes onto the field by the queue (placed at its end)."""
        card = self.card(d["card"])
        act.update(card=d["card"], to=d.get("to"))
        if card is None:
            return
        p = Piece(card.name, act["by"], realm=card.type == "realm", enters=True)
        if d.get("to") is not None:
            p.slot, p.said_where = d["to"].slot, True
        self.pieces.append(p)
        act["piece"] = self.last = p

    _act_invoke = _act_recruit

    def _act_equip(self, act: dict[str, Any], d: dict[str, Any], mine: str | None) -> None:
        act.update(
            card=d["card"], to=self.piece(d["to"], act["by"], "an Armament is equipped to its player's Soul")
        )

    def _act_set(self, act: dict[str, Any], d: dict[str, Any], mine: str | None) -> None:
        act.update(card=d["card"], at=d["at"])

    def _act_activate(self, act: dict[str, Any], d: dict[str, Any], mine: str | None) -> None:
        """An effect of a card on the field: activated, or (use) an optional Timing Effect offered now."""
        holder = self.piece(d["card"], mine, "it acts in its player's turn")
        act["by"] = act["by"] or (holder.player if holder else None)
        act.update(
            holder=holder,
            effect_label=self._effect_label(holder, act["verb"], d.get("effect"), act["words"]),
            targets=self._targets(holder.name if holder else "", d.get("targets", []), act["by"]),
        )
        self.last_played = holder.name if holder else None

    _act_use = _act_activate

    def _act_end_phase(self, act: dict[str, Any], d: dict[str, Any], mine: str | None) -> None:
        act["turn"] = d.get("turn", False)

    def _effect_label(self, holder: Piece | None, verb: str, named: str | None, words: str) -> str | None:
        """The effect an `activate` or `use` means: the one named (a keyword that carries one, like
        Reinforcement), else the card's only effect of that kind; two of them: the reader asks which."""
        card = self.card(holder.name) if holder else None
        if card is None:
            return None
        if named:
            return named
        kind = "activated" if verb == "activate" else "timing"
        found = [e.label for e in card.effects if e.kind == kind]
        found += [k.name for k in card.keywords if verb == "use" and k.record.value == "effect"]
        if len(found) > 1:
            self.problems.append(
                Problem(
                    "which-effect",
                    f"“{words}”: which effect of {card.name}? It has {', '.join(found)}",
                    words,
                    options=found,
                )
            )
        if not found:
            self.problems.append(
                Problem("no-effect", f"“{words}”: {card.name} has no {kind} effect to {verb}", words)
            )
            return None
        return found[0]

    def _targets(self, card_name: str, mentions: list[Mention], actor: str | None) -> list[Piece | Mention]:
        card = self.card(card_name)
        specs = []
        if card is not None:
            eff = (
                card.main_effect
                if card.type in ("event", "ambush")
                else next((e for e in card.effects if e.targets), None)
            )
            specs = list(eff.targets) if eff else []
        out: list[Piece | Mention] = []
        for i, m in enumerate(mentions):
            spec = specs[i] if i < len(specs) else (specs[-1] if specs else None)
            if spec is not None and spec.what == "spot" and m.name is None:
                out.append(m)
                continue
            side = spec.side if spec is not None else "any"
            role_player = None
            if actor and side == "opposing":
                role_player, why = other(actor), f"{card_name} targets an opposing card"
            elif actor and side == "own":
                role_player, why = actor, f"{card_name} targets one of its player's own cards"
            else:
                why = ""
            p = self.piece(m, role_player, why)
            if p is not None:
                out.append(p)
        return out

    # --- questions (contract §7): one small function per kind of question
    def ask(self, part: Part) -> None:
        getattr(self, f"_ask_{part.what}")(part)

    def _ask_legal(self, part: Part) -> None:
        d = part.data
        if "action" in d:
            index = self.action(d["action"])
        elif "nth" in d:
            index = self._nth(d["nth"], d.get("verb"), part.words)
        else:
            index = len(self.actions) - 1 if self.actions else None
        if index is None or index < 0:
            self.problems.append(
                Problem(
                    "no-action",
                    f"“{part.words}”: which action? None was said before the question",
                    part.words,
                )
            )
            return
        self.asks.append({"legal": index})

    def _ask_resolves(self, part: Part) -> None:
        d = part.data
        if d.get("card"):
            self.asks.append({"resolves": d["card"]})
        elif d.get("of") is not None:
            p = self.piece(d["of"])
            if p is not None:
                self.asks.append({"resolves": p.name})
        elif self.last_played:
            self.asks.append({"resolves": self.last_played})
        else:
            self.problems.append(
                Problem(
                    "no-effect",
                    f"“{part.words}”: what should resolve? No Event, Ambush "
                    "or effect was played before the question",
                    part.words,
                )
            )

    def _on_piece(self, part: Part, make: Any) -> None:
        p = self.piece(part.data["soul"])
        if p is not None:
            self.asks.append(make(p))

    def _ask_happens_to(self, part: Part) -> None:
        self._on_piece(part, lambda p: {"happens_to": p})

    def _ask_value(self, part: Part) -> None:
        self._on_piece(part, lambda p: {"value": {"slot": p, "of": part.data["of"]}})

    def _ask_can_attack(self, part: Part) -> None:
        self._on_piece(part, lambda p: {"can_attack": p})

    def _ask_where(self, part: Part) -> None:
        self.asks.append({"where": part.data["card"]})

    def _ask_pile(self, part: Part) -> None:
        player = self.who(part.data["player"], part.words)
        if player:
            self.asks.append({"value": {"player": player, "of": part.data["of"]}})

    def _ask_winner(self, part: Part) -> None:
        self.asks.append({"winner": True})

    def _ask_default(self, part: Part) -> None:
        self.asks.append({"default": True})

    def _nth(self, nth: int, verb: str | None, words: str) -> int | None:
        indices = [i for i, a in enumerate(self.actions) if verb is None or a["verb"] == verb]
        if nth == -1 and indices:  # "the attack": the last one said
            return indices[-1]
        if 0 < nth <= len(indices):
            return indices[nth - 1]
        self.problems.append(
            Problem("no-action", f"“{words}”: there is no {nth}th {verb or 'action'} in what was said", words)
        )
        return None

    # --- when
    def setting(self, part: Part) -> None:
        d = part.data
        if part.what == "turn_of":
            self.turn_player = self.who(d["player"], part.words) or self.turn_player
        elif part.what == "phase_of":
            if d.get("player"):
                self.turn_player = self.who(d["player"], part.words) or self.turn_player
            self.phase = d["phase"]
        elif part.what == "turn_nth":
            player = self.who(d["player"], part.words)
            if player:
                self.turn_player = player
                self.turns_taken[player] = d["nth"]
                self.turns_taken[other(player)] = d["nth"] - 1 if player == "A" else d["nth"]
                self.turn = 2 * d["nth"] - (1 if player == "A" else 0)
        elif part.what == "turn_number":
            self.turn = d["turn"]
