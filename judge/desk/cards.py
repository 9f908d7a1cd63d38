"""Search-as-you-type over the card library, for the desk's slot picker.

The cards offered are the engine's library (`judge.engine.load_library()`), so that every card
the desk offers is one the engine will accept.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from judge.desk.board_svg import CardNote, card_name
from judge.engine import CARDS_DIR, KEYWORDS, CardDef, fix_keys, load_library, load_project_file, matches


def card_summary(card: CardDef) -> dict[str, Any]:
    return {
        "name": card.name, "type": card.type, "rank": card.rank, "attribute": card.attribute,
        "leader": card.leader, "atk": card.atk, "def": card.def_, "hp": card.hp, "text": card.text,
        "keywords": [kw.label() for kw in card.keywords], "reconstructed": card.reconstructed,
    }


def has_keyword(card: CardDef, keyword: str) -> bool:
    return any(kw.label().split()[0].lower() == keyword.lower() for kw in card.keywords)


def keywords() -> list[str]:
    """Every keyword some library card has, for the picker's filter."""
    return sorted({kw.label().split()[0] for card in load_library() for kw in card.keywords})


TYPE_WORDS = {"soul": "soul", "souls": "soul", "event": "event", "events": "event", "ambush": "ambush",
              "ambushes": "ambush", "armament": "armament", "armaments": "armament", "realm": "realm",
              "realms": "realm"}
RANK = re.compile(r"\brank\s*-?\s*(?P<rank>[0-3])\b|\br(?P<short>[0-3])\b")


@dataclass(frozen=True)
class Query:
    """A picker query read as a judge types it: "rank 3", "unyielding", "dark event", or words of a name."""

    words: str
    rank: int | None = None
    kinds: tuple[str, ...] = ()
    attribute: str | None = None
    keywords: tuple[str, ...] = ()
    leader: bool | None = None


def read_query(text: str) -> Query:
    q = " ".join(text.strip().lower().split())
    rank = None
    if match := RANK.search(q):
        rank = int(match["rank"] or match["short"])
        q = (q[:match.start()] + q[match.end():]).strip()
    keyword_names = {k.replace("_", " "): k for k in vocabulary_keywords()}
    kinds, keywords, attribute, leader, rest = [], [], None, None, []
    for phrase, key in sorted(keyword_names.items(), key=lambda kv: -len(kv[0])):
        if re.search(rf"\b{re.escape(phrase)}\b", q):
            keywords.append(key)
            q = re.sub(rf"\b{re.escape(phrase)}\b", " ", q)
    for word in q.split():
        if word in TYPE_WORDS:
            kinds.append(TYPE_WORDS[word])
        elif word in ("light", "dark"):
            attribute = word
        elif word in ("leader", "leaders"):
            leader = True
        else:
            rest.append(word)
    return Query(" ".join(rest), rank, tuple(kinds), attribute, tuple(keywords), leader)


def vocabulary_keywords() -> list[str]:
    """Every keyword's name (the engine's keyword table), as a query may spell it."""
    return sorted(KEYWORDS)


def search(query: str, kind: str | tuple[str, ...] | None = None, leader: bool | None = None,
           limit: int = 20, keyword: str | None = None, max_rank: int | None = None) -> list[dict[str, Any]]:
    """Cards whose name starts with `query` first, then names containing it, then texts mentioning it.
    `kind` is a card type or several; `keyword` keeps cards that have it (Berserk, Unyielding, …). The
    query may also name a rank ("rank 3"), keywords ("unyielding"), a type or an attribute ("dark
    event"); `max_rank` keeps cards of that rank or lower (what a slot of that rank takes)."""
    read = read_query(query)
    q = read.words
    kinds = (kind,) if isinstance(kind, str) else kind
    scored = []
    for card in load_library():
        if kinds and card.type not in kinds:
            continue
        if leader is not None and card.leader != leader:
            continue
        if keyword and not has_keyword(card, keyword):
            continue
        if not fits_query(card, read) or (max_rank is not None and card.rank > max_rank):
            continue
        name = card.name.lower()
        if not q or name.startswith(q):
            score = 0
        elif q in name:
            score = 1
        elif q in card.text.lower():
            score = 2
        else:
            continue
        scored.append((score, name, card))
    scored.sort(key=lambda t: (t[0], t[1]))
    return [card_summary(card) for _, _, card in scored[:limit]]


def fits_query(card: CardDef, read: Query) -> bool:
    return ((read.rank is None or card.rank == read.rank)
            and (not read.kinds or card.type in read.kinds)
            and (read.attribute is None or card.attribute == read.attribute)
            and (read.leader is None or card.leader == read.leader)
            and all(has_keyword(card, k) for k in read.keywords))


def did_you_mean(query: str, kind: str | tuple[str, ...] | None = None, leader: bool | None = None,
                 max_rank: int | None = None) -> str | None:
    """The card name closest to a query that found nothing (the YAML box's "did you mean", looser),
    among the cards that fit where the card goes."""
    kinds = (kind,) if isinstance(kind, str) else kind
    names = [c.name for c in load_library() if (not kinds or c.type in kinds)
             and (leader is None or c.leader == leader) and (max_rank is None or c.rank <= max_rank)]
    found = matches(query, names, n=1, cutoff=0.6)
    return found[0] if found else None


VARIANT_ORIGIN = re.compile(r"^variant of (?P<name>.+)$")


def variant_of(card: Mapping[str, Any]) -> str | None:
    """The library card a scenario's card varies (its `origin: variant of Noah`), or None."""
    match = VARIANT_ORIGIN.match(str(card.get("origin") or ""))
    return match["name"] if match else None


def card_notes(state: Mapping[str, Any] | None, cards: list[Any] | None) -> dict[str, CardNote]:
    """For each card name on the board: its rank, and whether it is the scenario's own or a variant."""
    own = {c["name"]: c for c in (cards if isinstance(cards, list) else [])
           if isinstance(c, Mapping) and isinstance(c.get("name"), str)}
    library = {card.name: card for card in load_library()}
    notes: dict[str, CardNote] = {}
    for name in board_names(state):
        if name in own:
            rank = own[name].get("rank")
            notes[name] = CardNote(rank if isinstance(rank, int) and not isinstance(rank, bool) else None,
                                   custom=True, variant_of=variant_of(own[name]))
        elif name in library:
            notes[name] = CardNote(library[name].rank)
    return notes


def board_names(state: Mapping[str, Any] | None) -> set[str]:
    players = state.get("players") if isinstance(state, Mapping) else None
    names: set[str] = set()
    for pstate in (players or {}).values() if isinstance(players, Mapping) else ():
        for zone in ("field", "realms"):
            entries = pstate.get(zone) if isinstance(pstate, Mapping) else None
            for entry in (entries or {}).values() if isinstance(entries, Mapping) else ():
                name = card_name(entry)
                if name:
                    names.add(name)
    return names


def full_card(name: str, cards: list[Any] | None = None) -> dict[str, Any] | None:
    """A card as a scenario's `cards:` entry would write it (for varying it in the desk's form)."""
    for card in cards if isinstance(cards, list) else []:
        if isinstance(card, Mapping) and card.get("name") == name:
            return dict(card)
    for card in load_library():
        if card.name == name:
            return dict(library_records().get(card.name) or {"name": card.name, "type": card.type})
    return None


# the keys a variant keeps from its library card: what the card is, not where it came from
VARIANT_KEYS = ("name", "type", "rank", "attribute", "leader", "atk", "def", "hp", "text", "keywords",
                "effects", "caster", "ambusher")


@lru_cache(maxsize=1)
def library_records() -> dict[str, dict[str, Any]]:
    """Each library card as its file writes it (codex/cards/*.yaml), by name, for the desk's variants."""
    records: dict[str, dict[str, Any]] = {}
    for path in sorted(CARDS_DIR.glob("**/*.yaml")):
        data = fix_keys(load_project_file(path.read_text(encoding="utf-8")))
        items = data.get("cards", [data]) if isinstance(data, Mapping) else data
        for item in items or []:
            if isinstance(item, Mapping) and isinstance(item.get("name"), str):
                records[item["name"]] = {k: item[k] for k in VARIANT_KEYS if k in item}
    return records


# The desk's words for the references and durations of the engine's vocabulary (its form offers them).
REFERENCE_WORDS = {
    "target": "its target", "self": "this card itself", "caster": "the Caster", "ambusher": "the Ambusher",
    "wielder": "the Wielder (the Soul carrying it)", "attacker": "the attacker",
    "attacked": "the Soul attacked",
    "triggering_effect": "the effect that triggered it", "all_opposing_souls": "every opposing Soul",
    "all_own_souls": "every one of your Souls", "other_own_souls": "your other Souls",
    "underlings": "its Underlings",
}
DURATION_WORDS = {"end_of_turn": "the end of the turn", "end_of_opponents_next_turn":
                  "the end of the opponent's next turn", "permanently": "for good (permanently)"}
