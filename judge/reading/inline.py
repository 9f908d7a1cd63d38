"""Cards a dispute describes by their printed text: "an Ambush that says 'When the Ambusher is targeted
by an Effect: return the Caster to its owner's hand'", "a rank 1 Event called Flare that reads '…'".

Each becomes a card of the scenario's `cards:` given by its `text:` (docs/scenario-format.md), read by
the card-text reader (judge.engine.read_card_text); what that reader can't read, the dispute reader
declines with. In the tokens, the description becomes one CARD token, and a later "the Ambush" names it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from judge.engine import read_card_text
from judge.reading.compose import Guess, Problem
from judge.reading.lexicon import Tok

# a printed card's values when the dispute does not say them (each default shown as chosen)
DEFAULT_RANK = 0
SOUL_DEFAULTS = {"attribute": "light", "atk": 10, "def": 5, "hp": 20}
TYPE_WORDS = {
    "event": "event",
    "ambush": "ambush",
    "trap": "ambush",
    "armament": "armament",
    "realm": "realm",
    "soul": "soul",
}


@dataclass
class Inline:
    name: str
    type: str
    rank: int
    text: str

    def card(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "type": self.type, "rank": self.rank, "text": self.text}
        if self.type == "soul":
            out.update(SOUL_DEFAULTS)
        if self.type == "realm":
            out["hp"] = SOUL_DEFAULTS["hp"]
        return out


def _name_for(kind: str, taken: set[str]) -> str:
    base = f"the {kind.capitalize()}"
    name, n = base, 2
    while name.lower() in taken:
        name, n = f"{base} {n}", n + 1
    return name


def _description(toks: list[Tok], i: int) -> tuple[list[str], int] | None:
    """At a type word (toks[i]): the name said ("called Flare") and the index of the quoted text that
    describes the card; None when no text follows (then it is a reference: "the Ambush")."""
    j = i + 1
    name_words: list[str] = []
    if j < len(toks) and toks[j].kind == "CALLED":
        j += 1
        while j < len(toks) and toks[j].kind not in ("IT", "SAYS", "QUOTE", "WITH"):
            name_words.append(toks[j].text)
            j += 1
    while j < len(toks) and toks[j].kind in ("IT", "SAYS", "WITH"):
        j += 1
    return (name_words, j) if j < len(toks) and toks[j].kind == "QUOTE" else None


class _Taker:
    """The cards a dispute describes, read one at a time, and what was chosen for each."""

    def __init__(self, known: set[str]) -> None:
        self.cards: list[Inline] = []
        self.guesses: list[Guess] = []
        self.problems: list[Problem] = []
        self.taken = {k.lower() for k in known}

    def take(self, kind: str, name_words: list[str], quote: Tok, out: list[Tok]) -> str:
        rank, rank_said = DEFAULT_RANK, False
        if len(out) >= 2 and out[-2].kind == "RANK" and out[-1].kind == "NUM":  # "a rank 1 Event …"
            rank, rank_said = int(str(out[-1].value)), True
            del out[-2:]
        name = " ".join(name_words) or _name_for(kind, self.taken)
        self.taken.add(name.lower())
        text = str(quote.value).strip()
        if text and text[-1] not in ".!)":  # the closing quote ends the card's last sentence
            text += "."
        self.problems += [
            Problem("card-text", f"in the text of {name}, “{text}”: {p.to_dict()['text']}", text, quote.start)
            for p in read_card_text(text, kind).problems
        ]
        self.cards.append(Inline(name, kind, rank, text))
        if not rank_said:
            self.guesses.append(Guess(f"{name} is rank {rank}", "no rank was said"))
        if kind == "soul":
            self.guesses.append(
                Guess(
                    f"{name} has ATK {SOUL_DEFAULTS['atk']}, DEF {SOUL_DEFAULTS['def']}, HP "
                    f"{SOUL_DEFAULTS['hp']} and is {SOUL_DEFAULTS['attribute']}",
                    "its values were not said",
                )
            )
        return name

    def fold(self, out: list[Tok]) -> list[Tok]:
        """ "The Ambush" after one Ambush was described is that card."""
        by_type: dict[str, list[Inline]] = {}
        for c in self.cards:
            by_type.setdefault(c.type, []).append(c)
        folded = []
        for t in out:
            kind = _type_of(t)
            one = by_type.get(kind or "", [])
            folded.append(Tok("CARD", one[0].name, t.start, t.end, t.text) if len(one) == 1 else t)
        return folded


def _type_of(t: Tok) -> str | None:
    return TYPE_WORDS.get(str(t.value)) if t.kind in ("TYPE", "SOUL") else None


def take_inline(
    toks: list[Tok], known: set[str]
) -> tuple[list[Tok], list[Inline], list[Guess], list[Problem]]:
    """The tokens with each described card folded into one CARD token, the cards, and what was chosen."""
    taker = _Taker(known)
    out: list[Tok] = []
    i = 0
    while i < len(toks):
        t = toks[i]
        kind = _type_of(t)
        found = _description(toks, i) if kind is not None else None
        if kind is None or found is None:
            out.append(t)
            i += 1
            continue
        name_words, j = found
        name = taker.take(kind, name_words, toks[j], out)
        out.append(Tok("CARD", name, t.start, toks[j].end, f"{t.text} … {toks[j].text}"))
        i = j + 1
    return taker.fold(out), taker.cards, taker.guesses, taker.problems
