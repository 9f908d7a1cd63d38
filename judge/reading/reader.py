"""The reader: text -> tokens -> sentences parsed by the grammar -> parts -> a scenario and its reading."""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedInput
from lark.lexer import Lexer as LarkLexer
from lark.tree import Meta

from judge.engine import Library, ScenarioError, load_library, load_scenario
from judge.reading.assemble import assemble
from judge.reading.compose import Composer, Declined, Guess, Problem
from judge.reading.inline import Inline, take_inline
from judge.reading.lexicon import CLASSES, WORDS, Lexer, Names, Tok
from judge.reading.parts import Part, ToParts
from judge.reading.words import parts_words, reading_words

MAX_TEXT = 4000  # characters: a dispute is a paragraph, not a book

# the words for a terminal the parser expected where it stopped
TERMINAL_WORDS = {
    "CARD": "a card's name",
    "PLAYER": "A or B",
    "SLOT": "a slot (C3, B's L2)",
    "NUM": "a number",
    "ORD": "first, second, …",
    "STAT": "ATK, DEF or HP",
    "POSS": "'s",
    "LP": "(",
    "RP": ")",
    "COMMA": ",",
    "KEYWORD": "a keyword",
}


class _Tokens(LarkLexer):
    def __init__(self, conf: Any) -> None:
        pass

    def lex(self, data: Any) -> Any:  # type: ignore[override]
        for t in data:
            yield Token(t.kind, t.value, start_pos=t.start, end_pos=t.end)


@lru_cache(maxsize=1)
def _parser() -> Lark:
    grammar = (Path(__file__).with_name("dispute.lark")).read_text(encoding="utf-8")
    return Lark(grammar, parser="earley", lexer=_Tokens, ambiguity="explicit", propagate_positions=True)


@dataclass
class Reading:
    """A dispute read: the scenario, the reading in words, the defaults chosen, the words set aside as
    filler (read, carrying no fact)."""

    text: str
    scenario: dict[str, Any]
    reading: str
    guesses: list[Guess] = field(default_factory=list)
    filler: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "scenario": self.scenario,
            "reading": self.reading,
            "guesses": [
                {"what": g.what, "why": g.why, **({"ref": g.ref} if g.ref else {})} for g in self.guesses
            ],
        }


def _sentences(toks: list[Tok]) -> list[list[Tok]]:
    out: list[list[Tok]] = [[]]
    for t in toks:
        if t.kind == "STOP":
            if out[-1]:
                out.append([])
        else:
            out[-1].append(t)
    return [s for s in out if s]


def _known_words() -> list[str]:
    return sorted(WORDS)


def _unread(tok: Tok, library: Library) -> Problem:
    options = difflib.get_close_matches(tok.text.lower(), _known_words(), n=3, cutoff=0.75)
    options += [
        c.name
        for c in library
        if difflib.SequenceMatcher(None, tok.text.lower(), c.name.lower()).ratio() >= 0.75
    ][:3]
    hint = f"; did you mean {' or '.join(options)}?" if options else ""
    return Problem(
        "unread",
        f"“{tok.text}” (at {tok.start}) is not a word the reader knows{hint}",
        tok.text,
        tok.start,
        options,
    )


def _describe_expected(expected: set[str]) -> list[str]:
    out = []
    for term in sorted(expected):
        if term in TERMINAL_WORDS:
            out.append(TERMINAL_WORDS[term])
        elif term in CLASSES and CLASSES[term]:
            out.append(f"“{CLASSES[term][0]}”")
    return out[:6]


@lru_cache(maxsize=512)
def _shape(kinds: tuple[str, ...]) -> Tree[Token]:
    """The parse of a sentence of these token kinds. The grammar reads kinds only (a token's value never
    decides the structure), so one parse serves every sentence of the same shape; its tokens stand by their
    index and `_filled` puts the sentence's own tokens in."""
    return _parser().parse([Tok(kind, i, i, i + 1, "") for i, kind in enumerate(kinds)])


def _filled(tree: Any, toks: list[Tok]) -> Any:
    """A shape's tree with the sentence's tokens (values and positions) in place of their indexes."""
    if isinstance(tree, Token):
        tok = toks[int(tree.value)]
        return Token(tok.kind, tok.value, start_pos=tok.start, end_pos=tok.end)
    meta = Meta()
    if not tree.meta.empty:
        meta.empty = False
        meta.start_pos = toks[tree.meta.start_pos].start
        meta.end_pos = toks[tree.meta.end_pos - 1].end
    return Tree(tree.data, [_filled(c, toks) for c in tree.children], meta)


def _parse(sentence: list[Tok], text: str) -> list[Part]:
    words = text[sentence[0].start : sentence[-1].end]
    try:
        tree = _filled(_shape(tuple(t.kind for t in sentence)), sentence)
    except UnexpectedInput as err:
        index = getattr(getattr(err, "token", None), "start_pos", None)  # a shape token stands by its index
        at = sentence[index] if isinstance(index, int) and 0 <= index < len(sentence) else None
        expected = _describe_expected(set(getattr(err, "expected", set()) or getattr(err, "allowed", set())))
        if at is not None:
            msg = f"“{words}”: the reader can't go on at “{at.text}” (at {at.start})" + (
                f"; it expected {', '.join(expected)}" if expected else ""
            )
            raise Declined([Problem("unparsed", msg, words, at.start, expected)]) from None
        msg = f"“{words}”: the sentence stops before it says what it means" + (
            f"; it could go on with {', '.join(expected)}" if expected else ""
        )
        raise Declined([Problem("unfinished", msg, words, sentence[0].start, expected)]) from None
    readings = _readings(tree, text)
    if len(readings) > 1:
        options = [parts_words(r) for r in readings]
        raise Declined(
            [
                Problem(
                    "ambiguous",
                    f"“{words}” reads two ways: "
                    + " / ".join(f"({i + 1}) {o}" for i, o in enumerate(options))
                    + "; say it so that only one is meant",
                    words,
                    sentence[0].start,
                    options,
                )
            ]
        )
    return readings[0]


def _readings(tree: Tree[Token], text: str) -> list[list[Part]]:
    """Each distinct reading of an ambiguous tree (joiner variants and the like count as one)."""
    trees = _expand(tree)
    seen: dict[str, list[Part]] = {}
    for t in trees[:16]:
        parts = ToParts(text).transform(t)
        key = repr([(p.kind, p.what, sorted((k, repr(v)) for k, v in p.data.items())) for p in parts])
        seen.setdefault(key, parts)
    return list(seen.values())


def _expand(tree: Any) -> list[Any]:
    if not isinstance(tree, Tree):
        return [tree]
    if tree.data == "_ambig":
        out = []
        for child in tree.children:
            out.extend(_expand(child))
        return out
    variants: list[list[Any]] = [[]]
    for child in tree.children:
        options = _expand(child)
        variants = [v + [o] for v in variants for o in options][:16]
    return [Tree(tree.data, v, tree.meta) for v in variants]


def _with_inline(library: Library, inline: list[Inline]) -> Library:
    """The library and the cards the dispute describes, read as the engine reads a scenario's cards."""
    stub = {
        "cards": [card.card() for card in inline],
        "state": {
            "players": {"A": {"field": {"altar": "Queen Sol"}}, "B": {"field": {"altar": "King Umbra"}}}
        },
    }
    try:
        return load_scenario(stub, source="the cards the dispute describes").library
    except ScenarioError as err:
        raise Declined(
            [Problem("card", f"{p['path']}: {p['message']}", p["path"]) for p in err.problems]
        ) from None


def _word_problems(toks: list[Tok], library: Library) -> list[Problem]:
    """Words it can't read, words of not happening, and names that could be two cards."""
    problems = [_unread(t, library) for t in toks if t.kind == "UNKNOWN"]
    problems += [
        Problem(
            "negation",
            f"“{t.text}” (at {t.start}): the reader does not read what does not "
            "happen; say what happens, and ask whether it is legal",
            t.text,
            t.start,
        )
        for t in toks
        if t.kind == "NOT"
    ]
    problems += [
        Problem(
            "which-card",
            f"“{t.text}” (at {t.start}) could be {' or '.join(t.alternatives)}; say which",
            t.text,
            t.start,
            list(t.alternatives),
        )
        for t in toks
        if t.alternatives
    ]
    return problems


def _compose(parts: list[Part], library: Library, speaker: str | None, guesses: list[Guess]) -> Composer:
    c = Composer(library, speaker)
    c.guesses += guesses
    for p in parts:
        if p.kind == "speaker" and c.speaker is None:
            c.speaker = str(p.data["player"])
    c.infer_turn(parts)
    take = {"fact": c.fact, "action": c.action, "ask": c.ask, "setting": c.setting}
    for p in parts:
        if p.kind in take:
            take[p.kind](p)
    if not any(p.kind in ("action", "ask", "fact") for p in parts):
        c.problems.append(Problem("nothing", "no card, action or question was read; say who does what"))
    return c


def _checked(text: Any) -> str:
    if not isinstance(text, str) or not text.strip():
        raise Declined([Problem("empty", "nothing to read: describe the dispute in words")])
    if len(text) > MAX_TEXT:
        raise Declined(
            [Problem("too-long", f"the text has {len(text)} characters; a dispute is read up to {MAX_TEXT}")]
        )
    return text


def _tokens(text: str, library: Library) -> tuple[list[Tok], list[Inline], list[Guess], Library, list[str]]:
    """The text's tokens (filler set aside), the cards it describes, their defaults, the library with them,
    the filler; Declined with every word it can't read."""
    lexer = Lexer(Names.of({c.name: c.type for c in library}))
    toks, inline, guesses, problems = take_inline(lexer.lex(text), {c.name for c in library})
    if problems:
        raise Declined(problems)
    if inline:
        library = _with_inline(library, inline)
    filler = [t.text for t in toks if t.kind == "FILLER"]
    toks = [t for t in toks if t.kind != "FILLER"]
    problems = _word_problems(toks, library)
    if problems:
        raise Declined(problems)
    return toks, inline, guesses, library, filler


def read_dispute(text: str, speaker: str | None = None, library: Library | None = None) -> Reading:
    """Read a dispute; raise Declined with its problems when it can't be read for certain."""
    text = _checked(text)
    toks, inline, inline_guesses, library, filler = _tokens(text, library or load_library())
    parts: list[Part] = []
    for sentence in _sentences(toks):
        parts += _parse(sentence, text)
    c = _compose(parts, library, speaker, inline_guesses)
    scenario = assemble(c) if not c.problems else {}
    if c.problems:
        raise Declined(c.problems)
    scenario["question"] = text.strip()
    if inline:
        scenario = {"cards": [card.card() for card in inline], **scenario}
    try:
        load_scenario(scenario, source="the dispute as read")
    except ScenarioError as err:
        raise Declined(
            [Problem("position", f"as read, {p['path']}: {p['message']}", p["path"]) for p in err.problems]
        ) from None
    c.guesses[:0] = [Guess(t.note, "the nearest name") for t in toks if t.note]
    return Reading(text, scenario, reading_words(scenario, c.guesses), c.guesses, filler)
