"""Reading card text: lex, parse, assemble; a phrase the grammar can't read becomes a problem with
the nearest phrasing the grammar knows, and the rest of the text is still read (sentence by sentence)
so that every unreadable sentence is named, never silently dropped.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from lark import Token
from lark.exceptions import UnexpectedEOF, UnexpectedInput
from rapidfuzz import fuzz

from judge.engine.data.cards import load_library
from judge.engine.driver.card_text import grammar
from judge.engine.driver.card_text.assemble import Assembler
from judge.engine.driver.card_text.pieces import Piece, pieces_of
from judge.engine.driver.card_text.problems import TextProblem
from judge.engine.driver.card_text.write import sample_phrases

CARD_TYPES = ("soul", "event", "armament", "ambush", "realm")
MAX_TEXT = 2000   # characters; a card's text is a few sentences


@dataclass(frozen=True)
class Reading:
    """What a card text says, in the contract's shapes, and what could not be read."""

    type: str
    keywords: list[Any] = field(default_factory=list)
    effects: list[dict[str, Any]] = field(default_factory=list)
    caster: dict[str, Any] | None = None
    ambusher: dict[str, Any] | None = None
    values: dict[str, int] = field(default_factory=dict)     # an Armament's bonus ("+10 ATK")
    problems: tuple[TextProblem, ...] = ()
    corrections: tuple[grammar.Correction, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.problems

    def card_data(self) -> dict[str, Any]:
        """The keys a card takes from its text (contract §3): keywords, effects, caster/ambusher."""
        out: dict[str, Any] = {"keywords": self.keywords, "effects": self.effects}
        if self.caster is not None:
            out["caster"] = self.caster
        if self.ambusher is not None:
            out["ambusher"] = self.ambusher
        return out

    def to_dict(self) -> dict[str, Any]:
        out = {"type": self.type, **self.card_data()}
        if self.values:
            out["values"] = self.values
        out["problems"] = [p.to_dict() for p in self.problems]
        out["corrections"] = [{"offset": c.offset, "written": c.written, "read_as": c.read_as}
                              for c in self.corrections]
        return out


def read_card_text(text: str, card_type: str = "soul", names: Iterable[str] | None = None) -> Reading:
    """The keywords and effects `text` prints for a card of `card_type` (soul, event, armament, ambush,
    realm); a card it names ("enlist a card named …") is matched among `names` (default: the card
    library) forgiving case and one typo. Never raises on bad text: what it can't read is in
    `.problems`."""
    card_type = card_type.lower() if isinstance(card_type, str) else "soul"
    text = (text or "").replace("\u2019", "'")
    if card_type not in CARD_TYPES:
        raise ValueError(f"unknown card type {card_type!r}; expected one of {', '.join(CARD_TYPES)}")
    if len(text) > MAX_TEXT:
        problem = TextProblem.of("unreadable", phrase=text[MAX_TEXT:MAX_TEXT + 20], offset=MAX_TEXT,
                                 nearest=None)
        return Reading(card_type, problems=(problem,))
    tokens, corrections = grammar.words_of(text)
    pieces, problems = _parse(text, tokens)
    reader = Assembler(text, card_type, tuple(names) if names is not None else _library_names())
    reader.run(pieces)
    effects = reader.finish(problems)
    return Reading(card_type, reader.keywords, effects, reader.caster, reader.ambusher, reader.values,
                   tuple(problems + reader.problems), tuple(corrections + reader.corrections))


@lru_cache(maxsize=1)
def _library_names() -> tuple[str, ...]:
    return tuple(card.name for card in load_library())


def _parse(text: str, tokens: list[Token]) -> tuple[list[Piece], list[TextProblem]]:
    """Parse; on an error, name it, keep what the sentences before it say, and go on from the next
    sentence, so that every unreadable sentence is named."""
    pieces: list[Piece] = []
    problems: list[TextProblem] = []
    while tokens:
        try:
            pieces.extend(pieces_of(grammar.parse_tokens(tokens)))
            break
        except UnexpectedInput as exc:
            bad = _bad_index(exc, tokens)
            problems.append(_unreadable(text, tokens, bad, exc))
            head = tokens[:min(_sentence_start(tokens, bad), bad)]
            if head:
                try:
                    pieces.extend(pieces_of(grammar.parse_tokens(head)))
                except UnexpectedInput as again:   # never silently: the sentences before it are named too
                    problems.insert(-1, _unreadable(text, head, _bad_index(again, head), again))
            tokens = tokens[max(_sentence_end(tokens, bad), 1):]
    return pieces, problems


def _bad_index(exc: UnexpectedInput, tokens: list[Token]) -> int:
    if isinstance(exc, UnexpectedEOF):
        return len(tokens)
    token = getattr(exc, "token", None)
    if token is None or token.type == "$END":
        return len(tokens)
    for i, t in enumerate(tokens):
        if t is token or (token is not None and t.start_pos == token.start_pos):
            return i
    return len(tokens)


def _sentence_start(tokens: list[Token], bad: int) -> int:
    """The index where the sentence holding `bad` starts (after the last "." or ":" piece end)."""
    i = min(bad, len(tokens)) - 1
    while i >= 0 and tokens[i].value not in (".", ")"):
        i -= 1
    return i + 1


def _sentence_end(tokens: list[Token], bad: int) -> int:
    i = bad
    while i < len(tokens) and tokens[i].value != ".":
        i += 1
    return i + 1


def _unreadable(text: str, tokens: list[Token], bad: int, exc: UnexpectedInput) -> TextProblem:
    if bad >= len(tokens):
        start = _sentence_start(tokens, len(tokens))
        begin = tokens[start].start_pos if start < len(tokens) else len(text)
        phrase = " ".join(text[begin:].split())
        return TextProblem.of("unfinished", phrase=phrase, offset=begin, nearest=_nearest(phrase))
    token = tokens[bad]
    stop = tokens[min(_sentence_end(tokens, bad), len(tokens)) - 1]
    phrase = " ".join(text[token.start_pos:stop.end_pos].split()).rstrip(".")
    expected = getattr(exc, "expected", None) or getattr(exc, "allowed", None) or set()
    lead = " ".join(text[tokens[_sentence_start(tokens, bad)].start_pos:token.start_pos].split())
    if not phrase and lead:    # the sentence ends too early ("… gain Reinforcement."): say what is missing
        begin = tokens[_sentence_start(tokens, bad)].start_pos
        return TextProblem.of("unfinished", phrase=lead, offset=begin, nearest=_next_words(lead, expected))
    nearest = _nearest(phrase, expected, lead)
    if nearest and lead and phrase.lower().startswith(nearest.lower()):   # known words, in the wrong place
        return TextProblem.of("misplaced", phrase=phrase, offset=token.start_pos, after=lead)
    return TextProblem.of("unreadable", phrase=phrase, offset=token.start_pos, nearest=nearest,
                          unknown=token.type == "UNKNOWN")


def _next_words(lead: str, expected: Any) -> str | None:
    """"Reinforcement: …" for a sentence that stops where one mark or word must come next."""
    words = [w for w, name in grammar.lexer().literals.items() if name in expected]
    if len(words) != 1 or not lead:
        return None
    last = lead.split()[-1]
    return f"{last}{words[0]} …" if words[0] in ".,:;" else f"{last} {words[0]} …"


@lru_cache(maxsize=1)
def _samples() -> tuple[str, ...]:
    return tuple(dict.fromkeys(sample_phrases()))


def _nearest(phrase: str, expected: Any = (), lead: str = "") -> str | None:
    """The phrasing the grammar knows that is closest to `phrase` (its first words); one that may come
    next (its first word is an expected terminal) wins a near tie."""
    typed = phrase.split()
    if not typed:
        return None
    before = lead.split()[-1:] if lead else []
    words = {w for w, name in grammar.lexer().literals.items() if name in expected} if expected else set()
    best: tuple[float, str] | None = None
    for sample in _samples():
        size = len(sample.split())
        for start in (typed, before + typed) if before else (typed,):
            probe = " ".join(start[:size]).lower()
            score = fuzz.ratio(probe, sample.lower()) + (5 if sample.split()[0].lower() in words else 0)
            if best is None or score > best[0]:
                best = (score, sample)
    return best[1] if best and best[0] >= 60 else None


def cards_with_text_read(cards: Any, path: str, problems: Any) -> tuple[Any, set[str]]:
    """A scenario's `cards:` with each card that gives `text:` but neither `effects:` nor `keywords:`
    read from its text (our addition to contract §3), and the lower-cased names of those whose text
    could not be read: their problems go to `problems` at `cards[i].text` and they are left out (one
    mistake, one message). Anything else is returned as it is, for the card reader to check."""
    if not isinstance(cards, list):
        return cards, set()
    out, refused = [], set()
    for i, card in enumerate(cards):
        if isinstance(card, dict) and isinstance(card.get("text"), str) and card["text"].strip() \
                and "effects" not in card and "keywords" not in card:
            card = _with_reading(card, f"{path}[{i}].text", problems)
            if card is None:
                refused.add(str(cards[i].get("name", "")).strip().lower())
                continue
        out.append(card)
    return out, refused


def _with_reading(card: dict[str, Any], path: str, problems: Any) -> dict[str, Any] | None:
    card_type = str(card.get("type", "soul")).lower()
    if card_type not in CARD_TYPES:
        return card    # the card reader says what is wrong with the type
    reading = read_card_text(card["text"], card_type)
    for problem in reading.problems:
        problems.problem(path, "card_text", said=problem.text, text_problem=problem.to_dict())
    if reading.problems:
        return None
    read = dict(card)
    read.update(reading.card_data())
    for key, value in reading.values.items():
        read.setdefault(key, value)
    return read
