"""The board picture: both fields as their slot trees, drawn as SVG on the server.

Input is the contract's formats only: a §2 `state` mapping and, when the engine could derive them,
the §5 `derived` values keyed by slot reference ("A:C3"). Every piece of user text goes through
`escape`, so a card named `<script>` is drawn as those characters.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup, escape

from judge.desk.layout import Field, Layout, tree_layout

CELL_W, CELL_H = 140, 124
BOX_W, BOX_H = 132, 116
NAME_CHARS = 12  # a card name longer than this is shortened on the board (whole in its hover text)
REALM_GAP = 24
BAND_H = 34
PLAYERS = ("B", "A")  # top to bottom, as a table seen from A's side


def _attr_name(key: str) -> str:
    return _ATTR_NAMES.get(key) or _ATTR_NAMES.setdefault(key, key.rstrip("_").replace("_", "-"))


_ATTR_NAMES: dict[str, str] = {}


_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&#34;", "'": "&#39;"})


def _escaped(value: Any) -> str:
    """markupsafe's `escape`, the same characters for the same text, without making a Markup per value
    (a board has hundreds: the heaviest permalinks draw 150 boards)."""
    if hasattr(value, "__html__"):
        return str(value.__html__())
    return str(value).translate(_ESCAPES)


def _attrs(attrs: Mapping[str, Any]) -> str:
    return "".join(f' {_attr_name(k)}="{_escaped(v)}"' for k, v in attrs.items() if v is not None)


def _el(tag: str, attrs: Mapping[str, Any], *children: str) -> str:
    return f"<{tag}{_attrs(attrs)}>{''.join(children)}</{tag}>"


def _text(x: float, y: float, content: Any, cls: str, **attrs: Any) -> str:
    return _el("text", {"x": f"{x:g}", "y": f"{y:g}", "class": cls, **attrs}, _escaped(content))


def _clip(value: Any, width: int) -> str:
    text = str(value)
    return text if len(text) <= width else text[: width - 1] + "…"


def abbreviate(name: str, width: int = NAME_CHARS) -> str:
    """A card name that fits `width` characters: whole words first, later words cut to an initial
    ("Stubborn Recruit" → "Stubborn R."); the whole name is in the slot's hover text and label."""
    if len(name) <= width:
        return name
    if " (" in name and len(name.split(" (")[0]) + 4 <= width:  # a variant: "Noah (…)", marked "variant"
        return name.split(" (")[0] + " (…)"
    words = name.split()
    for keep in range(len(words) - 1, 0, -1):
        short = " ".join(words[:keep] + [w[0] + "." for w in words[keep:]])
        if len(short) <= width:
            return short
    return _clip(name, width)


@dataclass(frozen=True)
class CardNote:
    """What the board says of a card beside its values: its rank, and whether it is the scenario's own
    (`custom`) or a variant of a library card (`variant_of`)."""

    rank: int | None
    custom: bool = False
    variant_of: str | None = None

    @property
    def mark(self) -> str:
        return "variant" if self.variant_of else "custom" if self.custom else ""

    @property
    def words(self) -> str:
        if self.variant_of:
            return f"a variant of {self.variant_of}, made for this scenario"
        return "a custom card of this scenario" if self.custom else ""


def card_name(entry: Any) -> str | None:
    """The card of a §2 slot entry: a bare name or `{card: name, …}`."""
    if entry is None:
        return None
    if isinstance(entry, str):
        return entry
    if isinstance(entry, Mapping):
        card = entry.get("card")
        return str(card) if card is not None else None
    return str(entry)


def keyword_label(keyword: Any) -> str:
    """`unyielding` → Unyielding; `{defiance: 10}` → Defiance 10; `{moral: {atk: 5}}` → Moral +5 ATK."""
    if isinstance(keyword, Mapping):
        parts = []
        for name, value in keyword.items():
            label = str(name).replace("_", " ").capitalize()
            if isinstance(value, Mapping):
                bits = [f"+{v} {k.upper()}" for k, v in value.items() if isinstance(v, int) and v]
                parts.append(" ".join([label, *bits]))
            elif isinstance(value, (int, float)) and not isinstance(value, bool):
                parts.append(f"{label} {value:g}")
            else:
                parts.append(label)
        return ", ".join(parts)
    return str(keyword).replace("_", " ").capitalize()


def keywords_in_force(values: Mapping[str, Any]) -> list[str]:
    """Labels of the keywords in force, with their values where the engine gives them ("Defiance 5")."""
    sources = [s for s in values.get("keyword_sources") or [] if isinstance(s, Mapping)]
    if sources:
        return list(dict.fromkeys(keyword_label(s.get("label") or s.get("keyword")) for s in sources))
    return list(dict.fromkeys(keyword_label(k) for k in values.get("keywords") or []))


def _mapping(value: Any) -> Mapping[str, Any]:
    """`value` when it is a mapping, else {}: a scenario still being built may hold anything anywhere,
    and its board is drawn while its problems are listed."""
    return value if isinstance(value, Mapping) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _whole(value: Any) -> int:
    try:
        return int(value or 0)
    except (TypeError, ValueError):
        return 0


def _entry(entry: Any) -> Mapping[str, Any]:
    if isinstance(entry, Mapping):
        return entry
    if entry is None:
        return {}
    return {"card": entry}


def _ambush_names(entry: Mapping[str, Any]) -> list[str]:
    names = []
    for ambush in _list(entry.get("ambushes")):
        name = card_name(ambush)
        if name:
            names.append(name)
    return names


class BoardPainter:
    """Draws one board. `field` gives the slots; `layout` where they go."""

    def __init__(self, field: Field, layout: Layout | None = None) -> None:
        self.field = field
        self.layout = layout or tree_layout(field)
        self.half_h = self.layout.depth * CELL_H
        self.realm_x = self.layout.columns * CELL_W + REALM_GAP
        self.width = self.realm_x + CELL_W
        self.height = 2 * self.half_h + 3 * BAND_H
        self._empty: dict[tuple, str] = {}

    # -- geometry -------------------------------------------------------------------------
    def slot_xy(self, player: str, slot: str) -> tuple[float, float]:
        column, depth = self.layout.positions[slot]
        if player == "A":  # altar at the bottom edge, the front towards the middle
            x = column * CELL_W
            y = 2 * BAND_H + self.half_h + (self.layout.depth - 1 - depth) * CELL_H
        else:  # across the table: altar at the top, left and right swapped
            x = (self.layout.columns - 1 - column) * CELL_W + (self.width - self.layout.columns * CELL_W)
            y = BAND_H + depth * CELL_H
        return x, y

    def realm_xy(self, player: str, index: int) -> tuple[float, float]:
        if player == "A":
            return self.realm_x, 2 * BAND_H + self.half_h + index * CELL_H
        return 0, BAND_H + (self.layout.depth - 1 - index) * CELL_H

    # -- drawing --------------------------------------------------------------------------
    def render(self, state: Mapping[str, Any], derived: Mapping[str, Any] | None = None,
               highlight: Iterable[str] = (), title: str = "The board",
               rows: list[SlotRow] | None = None, notes: Mapping[str, CardNote] | None = None) -> Markup:
        """The board as SVG; `rows` (when given) receives one SlotRow per slot holding a card or
        touched by the step, in drawing order (B's first), for the compact board of a phone."""
        state, derived = _mapping(state), derived or {}
        self.notes = notes or {}
        rows = [] if rows is None else rows
        marked = set(highlight)
        players = _mapping(state.get("players"))
        parts: list[str] = [_el("title", {}, str(escape(title)))]
        parts.append(self._bands(state))
        for player in PLAYERS:
            pstate = _mapping(players.get(player))
            field = self._normalized(_mapping(pstate.get("field")))
            proactive = {self.field.normalize(str(s)) for s in _list(pstate.get("proactive"))}
            for spec in self.field.soul_defs:
                ref = f"{player}:{spec.name}"
                parts.append(self._soul_slot(player, spec.name, spec.rank, field.get(spec.name),
                                             derived.get(ref), spec.name in proactive, ref in marked, rows))
            realms = self._normalized(_mapping(pstate.get("realms")))
            for index, spec in enumerate(self.field.realm_defs):
                ref = f"{player}:{spec.name}"
                parts.append(self._realm_slot(player, index, spec.name, spec.rank, realms.get(spec.name),
                                              derived.get(ref), ref in marked, rows))
        svg = _el("svg", {
            "xmlns": "http://www.w3.org/2000/svg",
            "viewBox": f"0 0 {self.width} {self.height}",
            "class": "board-svg",
            "role": "group",
            "aria-label": title,
        }, *parts)
        return Markup(svg)

    def _normalized(self, slots: Mapping[str, Any]) -> dict[str | None, Any]:
        """Entries by canonical slot name (an unknown name falls under None, which no slot reads)."""
        return {self.field.normalize(str(name)): entry for name, entry in slots.items()}

    def _bands(self, state: Mapping[str, Any]) -> str:
        players = _mapping(state.get("players"))
        turn_player = state.get("turn_player", "A")
        phase = str(state.get("phase", "preparation")).capitalize()
        mid_y = BAND_H + self.half_h
        out = []
        for player, y in (("B", 0), ("A", 2 * BAND_H + 2 * self.half_h)):
            taken = _mapping(players.get(player)).get("turns_taken", 5)
            active = " (turn player)" if player == turn_player else ""
            out.append(_text(8, y + 22, f"Player {player}{active} · turns taken {taken}",
                             "band-label" + (" turn-player" if active else "")))
        out.append(_el("rect", {"x": 0, "y": mid_y + 3, "width": self.width, "height": BAND_H - 6,
                                "class": "band", "rx": 6}))
        out.append(_text(self.width / 2, mid_y + BAND_H / 2 + 5,
                         f"Turn {state.get('turn', 9)} · {turn_player}'s turn · {phase} Phase",
                         "band-text", text_anchor="middle"))
        return "".join(out)

    def _soul_slot(self, player: str, slot: str, rank: int, entry: Any, values: Mapping[str, Any] | None,
                   listed_proactive: bool, changed: bool, rows: list[SlotRow]) -> str:
        if entry is None and not values and not changed:  # most slots are empty: draw each kind once
            key = (player, slot, rank, listed_proactive)
            cached = self._empty.get(key)
            if cached is None:
                cached = self._empty[key] = self._draw_soul_slot(player, slot, rank, None, None,
                                                                 listed_proactive, False, [])
            return cached
        return self._draw_soul_slot(player, slot, rank, entry, values, listed_proactive, changed, rows)

    def _draw_soul_slot(self, player: str, slot: str, rank: int, entry: Any, values: Mapping[str, Any] | None,
                        listed_proactive: bool, changed: bool, rows: list[SlotRow]) -> str:
        x, y = self.slot_xy(player, slot)
        data = _entry(entry)
        name = card_name(entry)
        values = values or {}
        captured = bool(data.get("captured") or values.get("captured"))
        proactive = values.get("proactive", listed_proactive or None)
        classes = ["slot", "soul-slot", f"player-{player}"]
        classes.append("empty" if not name else ("captured" if captured else "occupied"))
        if proactive:
            classes.append("proactive")
        if changed:
            classes.append("changed")
        ref = f"{player}:{slot}"
        lines = [f"{ref} (soul slot of rank {rank}{', proactive' if proactive else ''})"]
        line = values.get("line") if name and not captured else None
        body = [
            _el("rect", {"x": 0, "y": 0, "width": BOX_W, "height": BOX_H, "rx": 6, "class": "slot-box"}),
            _text(6, 18, slot, "slot-name"),
        ]
        if line is not None:
            body.append(_text(BOX_W - 6, 18, f"line {line}", "slot-line", text_anchor="end"))
        ambushes = _ambush_names(data)
        note = self.notes.get(name or "") or CardNote(None)
        if name:
            _draw_soul(body, lines, name, data, values, captured, note)
        else:
            body.append(_text(BOX_W / 2, 66, "empty", "empty-label", text_anchor="middle"))
        if ambushes:
            _draw_ambushes(body, lines, ambushes)
        if line is not None:
            lines.append(f"line {line} ({LINE_WORDS.get(line, 'a line further back')})")
        if name or changed:
            rows.append(SlotRow(ref, player, slot, _row_words(name, "captured" if captured else "", values,
                                                              len(ambushes), note), changed))
        return _slot_group(x, y, ref, "soul", classes, lines, body)

    def _realm_slot(self, player: str, index: int, slot: str, rank: int, entry: Any,
                    values: Mapping[str, Any] | None, changed: bool, rows: list[SlotRow]) -> str:
        x, y = self.realm_xy(player, index)
        data = _entry(entry)
        name = card_name(entry)
        values = values or {}
        shattered = bool(data.get("shattered") or values.get("shattered"))
        classes = ["slot", "realm-slot", f"player-{player}",
                   "empty" if not name else ("captured" if shattered else "occupied")]
        if changed:
            classes.append("changed")
        ref = f"{player}:{slot}"
        lines = [f"{ref} (realm slot of rank {rank})"]
        body = [
            _el("rect", {"x": 0, "y": 0, "width": BOX_W, "height": BOX_H, "rx": 14, "class": "slot-box"}),
            _text(6, 18, slot, "slot-name"),
        ]
        note = self.notes.get(name or "") or CardNote(None)
        if name:
            damage = _whole(data.get("damage") or values.get("damage"))
            body.append(_text(6, 37, abbreviate(name), "card-name"))
            lines.append(name)
            _draw_note(body, lines, note)
            if shattered:
                body.append(_text(6, 73, "shattered", "captured-label"))
                lines.append("shattered")
            elif values:
                atk, def_ = values.get("atk", "?"), values.get("def", "?")
                hp, max_hp = values.get("hp", "?"), values.get("max_hp", "?")
                body.append(_text(6, 73, f"ATK {atk}  DEF {def_}", "stats"))
                body.append(_text(6, 91, f"HP {hp}/{max_hp}", "stats"))
                lines.append(f"ATK {atk}, DEF {def_}, HP {hp}/{max_hp}"
                             + (f", damage {damage}" if damage else ""))
            elif damage:
                body.append(_text(6, 73, f"damage {damage}", "stats"))
        else:
            body.append(_text(BOX_W / 2, 66, "realm slot", "empty-label", text_anchor="middle"))
        if name or changed:
            rows.append(SlotRow(ref, player, slot, _row_words(name, "shattered" if shattered else "", values,
                                                              note=note), changed))
        return _slot_group(x, y, ref, "realm", classes, lines, body)


LINE_WORDS = {1: "the Front Line", 2: "the Second Line", 3: "the Third Line"}


def _draw_note(body: list[str], lines: list[str], note: CardNote) -> None:
    """The card's rank, and "variant" or "custom" beside it, under its name."""
    if note.rank is not None:
        body.append(_text(6, 55, f"rank {note.rank}", "card-rank"))
        lines.append(f"rank {note.rank}")
    if note.mark:
        body.append(_text(BOX_W - 6, 55, note.mark, f"card-mark mark-{note.mark}", text_anchor="end"))
        lines.append(note.words)


@dataclass(frozen=True)
class SlotRow:
    """One line of the compact board: a slot that holds a card (or that the step touched), in words."""

    ref: str
    player: str
    slot: str
    words: tuple[str, ...]   # the slot's hover text after its name: card, values, keywords, marks
    changed: bool


def _row_words(name: str | None, out: str, values: Mapping[str, Any], ambushes: int = 0,
               note: CardNote | None = None) -> tuple[str, ...]:
    """A compact board row: the card, its values and keywords in force (or why it has none: `out`)."""
    if not name:
        return ("empty",)
    if out:
        return (f"{name} ({out})",)
    words = [name]
    if note is not None and note.rank is not None:
        words.append(f"rank {note.rank}" + (f" ({note.mark})" if note.mark else ""))
    if values:
        words.append(f"ATK {values.get('atk', '?')} DEF {values.get('def', '?')} "
                     f"HP {values.get('hp', '?')}/{values.get('max_hp', '?')}")
        if values.get("line") is not None:
            words.append(f"line {values['line']}")
        words += keywords_in_force(values)
    if ambushes:
        words.append(f"{ambushes} Ambush{'es' if ambushes > 1 else ''} set")
    return tuple(words)


def _slot_group(x: float, y: float, ref: str, kind: str, classes: list[str], lines: list[str],
                body: list[str]) -> str:
    """One slot's <g>: focusable, its hover text (<title>) and aria-label the same `lines`."""
    return _el("g", {
        "class": " ".join(classes), "transform": f"translate({x:g},{y:g})",
        "data-ref": ref, "data-kind": kind, "tabindex": "0", "role": "button",
        "aria-label": "; ".join(lines),
    }, _el("title", {}, str(escape("\n".join(lines)))), *body)


def zones(state: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Hand, deck, Elysium, Exile and turn counts per player (B first, as drawn), for the HTML beside the
    SVG."""
    out = []
    state = _mapping(state)
    players = _mapping(state.get("players"))
    for player in PLAYERS:
        pstate = _mapping(players.get(player))
        out.append({
            "player": player,
            "turn_player": state.get("turn_player", "A") == player,
            "turns_taken": pstate.get("turns_taken", 5),
            "hand": _pile(pstate.get("hand")),
            "deck": _pile(pstate.get("deck")),
            "elysium": _pile(pstate.get("elysium")),
            "exile": _pile(pstate.get("exile")),
            "decked_out_turns": pstate.get("decked_out_turns"),
        })
    return out



def _draw_values(body: list[str], lines: list[str], values: Mapping[str, Any], damage: Any) -> None:
    """An active Soul's derived values and keywords in the box, with their sources in the hover text."""
    atk, def_ = values.get("atk", "?"), values.get("def", "?")
    hp, max_hp = values.get("hp", "?"), values.get("max_hp", "?")
    body.append(_text(6, 73, f"ATK {atk}  DEF {def_}", "stats"))
    body.append(_text(6, 91, f"HP {hp}/{max_hp}", "stats"))
    lines.append(f"ATK {atk}, DEF {def_}, HP {hp}/{max_hp}, damage {damage}")
    keywords = keywords_in_force(values)
    if keywords:
        body.append(_text(6, 109, _clip(", ".join(keywords), 16), "keywords"))
        lines.append("Keywords: " + ", ".join(keywords))
    for source in values.get("keyword_sources") or []:
        if isinstance(source, Mapping) and source.get("kind") != "printed":
            lines.append(f"  {keyword_label(source.get('label') or source.get('keyword'))} "
                         f"from {source.get('from')} ({source.get('kind')})")


def _draw_marks(body: list[str], lines: list[str], data: Mapping[str, Any]) -> None:
    """A Soul's Armament, and whether it was recruited this turn or has attacked (in the hover text; the
    box shows "+ Armament" or the marks right of HP when there is room)."""
    armament = card_name(data.get("armament"))
    marks: list[str] = []
    if armament:
        marks.append("⚔")
        lines.append(f"Armament: {armament}")
    if data.get("recruited") == "this_turn":
        marks.append("new")
        lines.append("recruited this turn")
    if data.get("attacks_made"):
        marks.append(f"✓{data['attacks_made']}")
        lines.append(f"attacks made: {data['attacks_made']}")
    if marks:
        body.append(_text(BOX_W - 6, 91, " ".join(marks), "marks", text_anchor="end"))


def _pile(value: Any) -> dict[str, Any]:
    """A §2 pile is a count of unnamed cards or a list of names."""
    if value is None:
        return {"count": 0, "names": []}
    if isinstance(value, bool):
        return {"count": 0, "names": []}
    if isinstance(value, int):
        return {"count": value, "names": []}
    if isinstance(value, list):
        names = [card_name(v) or "?" for v in value]
        return {"count": len(names), "names": names}
    if isinstance(value, Mapping):  # {cards: [...], unnamed: N}: named cards and a count of others
        names = [card_name(v) or "?" for v in _list(value.get("cards"))]
        unnamed = value["unnamed"] if isinstance(value.get("unnamed"), int) else 0
        return {"count": len(names) + unnamed, "names": names}
    return {"count": 0, "names": [str(value)]}


def _draw_soul(body: list[str], lines: list[str], name: str, data: Mapping[str, Any],
               values: Mapping[str, Any], captured: bool, note: CardNote) -> None:
    """A Soul on its slot: name, note, then face down if captured, else its values or its damage."""
    damage = _whole(data.get("damage") or values.get("damage"))
    body.append(_text(6, 37, abbreviate(name), "card-name"))
    lines.append(name + (" — captured (face down)" if captured else ""))
    _draw_note(body, lines, note)
    if captured:
        body.append(_text(6, 73, "captured", "captured-label"))
        body.append(_text(6, 91, "face down", "captured-label"))
    if values and not captured:
        _draw_values(body, lines, values, damage)
    elif not captured and damage:
        body.append(_text(6, 73, f"damage {damage}", "stats"))
        lines.append(f"damage {damage}")
    _draw_marks(body, lines, data)


def _draw_ambushes(body: list[str], lines: list[str], ambushes: list[str]) -> None:
    """Ambushes face down at the slot (10.4.4); the judge sees what they are in the hover text."""
    body.append(_el("rect", {"x": BOX_W - 22, "y": 28, "width": 16, "height": 22, "rx": 2,
                             "class": "ambush-card"}))
    body.append(_text(BOX_W - 14, 44, len(ambushes), "ambush-count", text_anchor="middle"))
    lines.append("Ambushes set here (face down): " + ", ".join(ambushes))
