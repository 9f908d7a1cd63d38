"""Search-as-you-type over the card library, for the desk's slot picker.

The cards offered are the engine's library (`judge.engine.load_library()`), so that every card
the desk offers is one the engine will accept.
"""

from __future__ import annotations

from typing import Any

from judge.engine import CardDef, load_library


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


def search(query: str, kind: str | tuple[str, ...] | None = None, leader: bool | None = None,
           limit: int = 20, keyword: str | None = None) -> list[dict[str, Any]]:
    """Cards whose name starts with `query` first, then names containing it, then texts mentioning it.
    `kind` is a card type or several; `keyword` keeps cards that have it (Berserk, Unyielding, …)."""
    q = query.strip().lower()
    kinds = (kind,) if isinstance(kind, str) else kind
    scored = []
    for card in load_library():
        if kinds and card.type not in kinds:
            continue
        if leader is not None and card.leader != leader:
            continue
        if keyword and not has_keyword(card, keyword):
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
