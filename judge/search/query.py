"""From what a judge types to something the index can answer.

`prepare(raw)` cleans the text (control characters, NUL, odd Unicode), refuses what can't be
searched (empty, too long) with a `QueryError`, recognises a rule number typed on its own
("11.5.1", "§13.6.2", "r11.6.1b", "rule 10.4"), pulls out the filters `kind:`, `chapter:` and
`edition:` (which Codex edition to search; the web picks that edition's index), and
balances quotes and parentheses so the parser never sees a broken query. `parse(text, schema)` turns
the rest into a Whoosh query: words, "phrases", AND / OR / NOT and (groups); words are ORed with a
bonus for documents that match more of them, so a question's extra words never sink it.
`correct(words, vocab)` proposes a spelling for words the index does not know.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from whoosh import qparser
from whoosh.fields import Schema
from whoosh.query import AndNot, Not, NullQuery, Query

from judge.search import analysis

MAX_QUERY = 500
FIELDS = ("names", "text")
FILTERS = ("kind", "chapter", "edition")
OPERATORS = ("AND", "OR", "NOT", "ANDNOT", "ANDMAYBE")

# A rule number typed on its own (case-insensitive); the offline search reads the same pattern.
RULE_PATTERN = r"^(?:§+\s*|rule\s*|r(?=\d))?(\d{1,2}(?:\.\d{1,2}){0,2})(?:\.?\(?([a-z])\)?)?\.?$"
_RULE_RE = re.compile(RULE_PATTERN, re.IGNORECASE)
_FILTER_RE = re.compile(r"(?<![\w\"])([A-Za-z_]\w*):(\"[^\"]*\"|[^\s\"()]+)")
_CONTROL_RE = re.compile(r"[\x00-\x1f\x7f-\x9f]")


class QueryError(ValueError):
    """A query that can't be searched at all (empty, or too long). The message says what to do."""


@dataclass(frozen=True)
class Prepared:
    text: str                       # the cleaned query as typed (what the page shows)
    search: str                     # what goes to the parser: filters removed, quotes balanced
    rule_id: str | None = None      # a rule number typed on its own
    kinds: tuple[str, ...] = ()
    chapters: tuple[str, ...] = ()
    notices: tuple[str, ...] = ()
    words: tuple[str, ...] = field(default=())   # the plain words, for spelling and pins
    editions: tuple[str, ...] = ()


def clean(raw: object) -> str:
    """Text with control characters and NULs as spaces, Unicode normalised, spaces collapsed."""
    text = unicodedata.normalize("NFKC", str(raw or ""))
    text = _CONTROL_RE.sub(" ", text)
    text = "".join(ch for ch in text if unicodedata.category(ch) not in ("Cs", "Co", "Cn"))
    return " ".join(text.split())


def rule_number(text: str) -> str | None:
    """The rule id if `text` is only a rule number: "11.5.1", "§13.6.2", "r11.6.1b", "rule 10.4"."""
    match = _RULE_RE.match(text.strip())
    if not match:
        return None
    return match.group(1) + (match.group(2) or "").lower()


def prepare(raw: object) -> Prepared:
    text = clean(raw)
    if not text:
        raise QueryError("Type a rule number (11.5.1), a term (Shield) or a question "
                         "(can a captured Soul be targeted?).")
    if len(text) > MAX_QUERY:
        raise QueryError(f"The query is {len(text)} characters long; keep it under {MAX_QUERY} "
                         "(a few words or a rule number work best).")
    rule_id = rule_number(text)
    notices: list[str] = []
    kinds: list[str] = []
    chapters: list[str] = []
    editions: list[str] = []

    def take_filter(match: re.Match) -> str:
        name, value = match.group(1).lower(), match.group(2).strip('"').lower()
        if name == "kind":   # checked against the kinds the index holds (Searcher.search)
            kinds.append(value)
            return " "
        if name == "chapter":
            chapters.append(value)
            return " "
        if name == "edition":
            editions.append(value)
            return " "
        notices.append(f"{name}: is not a filter (filters are {', '.join(f + ':' for f in FILTERS)}); "
                       f"searched for the words instead.")
        return f" {match.group(1)} {match.group(2)} "

    rest = _FILTER_RE.sub(take_filter, text) if rule_id is None else text
    search = _balance(rest.replace(":", " "))
    words = tuple(w for w in analysis.words(_strip_operators(search)))
    return Prepared(text, search, rule_id, tuple(kinds), tuple(chapters), tuple(notices), words,
                    tuple(editions))


def _strip_operators(text: str) -> str:
    return " ".join(w for w in text.replace('"', " ").replace("(", " ").replace(")", " ").split()
                    if w not in OPERATORS)


def _balance(text: str) -> str:
    """Drop an unpaired quote and unmatched parentheses, so the parser sees well-formed groups."""
    if text.count('"') % 2:
        cut = text.rfind('"')
        text = text[:cut] + " " + text[cut + 1:]
    out: list[str] = []
    depth = 0
    in_phrase = False
    for ch in text:
        if ch == '"':
            in_phrase = not in_phrase
        elif not in_phrase and ch == "(":
            depth += 1
        elif not in_phrase and ch == ")":
            if depth == 0:
                out.append(" ")
                continue
            depth -= 1
        out.append(ch)
    text = "".join(out) + ")" * depth
    # Operators left dangling ("NOT", "a AND", "OR b") are words no one meant to search for.
    tokens = text.split()
    while tokens and tokens[-1] in OPERATORS:
        tokens.pop()
    while tokens and tokens[0] in OPERATORS and tokens[0] != "NOT":
        tokens.pop(0)
    if tokens == ["NOT"]:
        tokens = []
    return " ".join(tokens)


def parser(schema: Schema, boolean: bool = False) -> qparser.MultifieldParser:
    """Words, phrases, groups and operators only: no wildcards, ranges, boosts or field syntax.

    Plain words are ORed (the searcher weighs documents by the share of words they match; Whoosh's
    own coordination bonus zeroes one-term queries); once the query uses AND, OR or NOT,
    words next to each other are ANDed, so "armament NOT elysium" means armament without Elysium.
    """
    return qparser.MultifieldParser(
        list(FIELDS), schema, group=qparser.AndGroup if boolean else qparser.OrGroup,
        plugins=[qparser.PhrasePlugin(), qparser.GroupPlugin(), qparser.OperatorsPlugin()],
    )


def is_boolean(search: str) -> bool:
    """True when the query uses AND, OR or NOT outside quotes."""
    outside = re.sub(r'"[^"]*"', " ", search)
    return any(word.strip("()") in OPERATORS for word in outside.split())


def positive_terms(q: Query) -> set[tuple[str, str]]:
    """The (field, text) terms a document matches by having, not those under a NOT."""
    if isinstance(q, Not):
        return set()
    if isinstance(q, AndNot):
        return positive_terms(q.a)
    children = q.children() if q.is_leaf() is False else []
    if not children:
        return {(f, t.decode("utf-8") if isinstance(t, bytes) else t) for f, t in q.iter_all_terms()}
    found: set[tuple[str, str]] = set()
    for child in children:
        found |= positive_terms(child)
    return found


def parse(search: str, p: qparser.QueryParser) -> Query | None:
    """The Whoosh query for a prepared search string, or None when nothing searchable is left."""
    if not search.strip():
        return None
    try:
        q = p.parse(search).normalize()
    except Exception:  # noqa: BLE001 - Whoosh's parser trips on some operator tangles
        # ("NOT AND (" raises IndexError, '"" ANDNOT ANDNOT (' an AssertionError): drop the syntax.
        plain = _strip_operators(search)
        try:
            q = p.parse(plain).normalize() if plain.strip() else NullQuery
        except Exception:  # noqa: BLE001 - plain words that still fail find nothing
            q = NullQuery
    return None if q is NullQuery else q


def osa_distance(a: str, b: str, limit: int) -> int:
    """Edit distance counting an adjacent transposition as one edit; stops early past `limit`."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        if min(cur) > limit:
            return limit + 1
        prev2, prev = prev, cur
    return prev[-1]


def is_known(word: str, vocab: Mapping[str, int], stems: Iterable[str] | set[str]) -> bool:
    """True for words the index has (as typed or by stem), stop words, numbers and short words."""
    if word in vocab or len(word) < 3 or not word.isalpha() or word in analysis.STOP_WORDS:
        return True
    key = analysis.stems(word)
    return not key or all(k in stems for k in key)


def correct(word: str, vocab: Mapping[str, int], limit: int | None = None) -> str | None:
    """The most frequent index word within one edit (two for words of 7+ letters), or None.

    Candidates share the first letter, or the first two letters swapped ("nuyielding")."""
    if limit is None:
        limit = 1 if len(word) < 7 else 2
    best: tuple[int, int, str] | None = None
    for candidate, freq in _by_initial(vocab).get(word[0], ()) + _by_initial(vocab).get(word[1:2], ()):
        if abs(len(candidate) - len(word)) > limit:
            continue
        if candidate[0] != word[0] and candidate[:2] != word[1::-1]:
            continue
        d = osa_distance(word, candidate, limit)
        if d <= limit and (best is None or (d, -freq) < best[:2]):
            best = (d, -freq, candidate)
    return best[2] if best else None


_initials: dict[int, tuple[Mapping[str, int], dict[str, tuple[tuple[str, int], ...]]]] = {}


def _by_initial(vocab: Mapping[str, int]) -> dict[str, tuple[tuple[str, int], ...]]:
    """The vocabulary bucketed by first letter (computed once per vocabulary)."""
    cached = _initials.get(id(vocab))
    if cached is None or cached[0] is not vocab:
        buckets: dict[str, list[tuple[str, int]]] = {}
        for candidate, freq in vocab.items():
            buckets.setdefault(candidate[:1], []).append((candidate, freq))
        cached = (vocab, {k: tuple(v) for k, v in buckets.items()})
        _initials[id(vocab)] = cached
    return cached[1]
