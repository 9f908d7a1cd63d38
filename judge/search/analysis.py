"""Text analysis for the index: tokens, stop words, stemming, and the glossary's aliases as synonyms.

One analyzer serves indexing and querying, so both sides agree on every token:

    RegexTokenizer -> lowercase -> stop words -> Porter stem -> SynonymFilter

The synonym groups come from the glossary data (each entry's term and its "Also:" aliases), never
from code. Each group gets a canonical token (`SYN_PREFIX + slug`):

- when indexing, a span of text that spells any member of a group ("Shield", "Defence") gets the
  canonical token *in addition* to its own tokens, at the position of its first word and with its
  characters (so highlighting marks "Shield" for a search on "DEF");
- when querying, a single word that is a group member is *replaced* by the canonical token, so
  "shield" finds every text that says DEF, Shield, Defence or Defense, and the other way round.

Rule numbers ("11.5.1", "13.6.2") and limits ("1/Turn") stay one token each.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping

from whoosh.analysis import (
    Filter,
    LowercaseFilter,
    RegexTokenizer,
    StemFilter,
    StopFilter,
    Token,
)
from whoosh.analysis.analyzers import CompositeAnalyzer
from whoosh.lang.stopwords import stoplists

SYN_PREFIX = "_syn_"

# A word, a rule number (11.5.1, 11.6.1b) or a limit (1/Turn): word characters joined by "." or "/".
TOKEN_PATTERN = r"\w+(?:[./]\w+)*"
_TOKEN_RE = re.compile(TOKEN_PATTERN)

# English function words plus the words judges wrap their questions in ("who holds priority
# first", "what happens to …", "does defiance hit …"). "not", "no", "first", "before", "after",
# "only" and "all" carry rules meaning and are kept.
_QUESTION_WORDS = """
    who whom whose what which when where why how does do did done doing can could should would shall
    must might may will is are was were be been being am has have had having i me my we our you
    your yours he she it its they them their there here this that these those a an the of to in on
    at by for from with about into onto as if then than so some such also just really
    happen happens happened get gets got s t ll ve re d m
"""
QUESTION_WORDS = frozenset(_QUESTION_WORDS.split())
STOP_WORDS = (frozenset(stoplists["en"]) | QUESTION_WORDS) - {
    "not",
    "no",
    "first",
    "before",
    "after",
    "only",
    "all",
    "each",
    "every",
    "both",
    "same",
    "own",
    "other",
}


def words(text: str) -> list[str]:
    """The lower-cased surface words of a text, as the tokenizer cuts them."""
    return [match.group(0).lower() for match in _TOKEN_RE.finditer(text)]


class SynonymFilter(Filter):
    """Adds (index mode) or substitutes (query mode) the canonical token of a synonym group.

    `keys` maps a tuple of analysed tokens (the stems of one term or alias) to a group slug.
    """

    def __init__(self, keys: Mapping[tuple[str, ...], str]):
        self.keys = dict(keys)
        self.longest = max((len(key) for key in self.keys), default=0)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SynonymFilter) and other.keys == self.keys

    def __call__(self, tokens: Iterable[Token]) -> Iterator[Token]:
        if not self.keys:
            yield from tokens
            return
        buffered = [token.copy() for token in tokens]
        # Stop words kept for highlighting (removestops=False) are skipped when matching spellings.
        live = [i for i, token in enumerate(buffered) if not getattr(token, "stopped", False)]
        texts = [buffered[i].text for i in live]
        # gaps[j]: words were dropped (stop words) between live token j-1 and j. Known from the
        # characters when the caller asked for them, else assumed not.
        gaps = [j > 0 and _apart(buffered[live[j - 1]], buffered[live[j]]) for j in range(len(live))]
        matches = {live[j]: (*self._match(texts, j, gaps), j) for j in range(len(live))}
        for i, token in enumerate(buffered):
            slug, length, j = matches.get(i, (None, 0, 0))
            if slug is None:
                yield token
                continue
            if token.mode == "query":
                if length == 1:
                    token.text = SYN_PREFIX + slug
                yield token
                continue
            yield token
            extra = token.copy()
            extra.text = SYN_PREFIX + slug
            if getattr(token, "chars", False) and length > 1:
                extra.endchar = buffered[live[j + length - 1]].endchar
            yield extra

    def _match(self, texts: list[str], start: int, gaps: list[bool]) -> tuple[str | None, int]:
        for length in range(min(self.longest, len(texts) - start), 0, -1):
            if any(gaps[start + 1:start + length]):
                continue   # "the Soul on the spot" is not "Soul Spot"
            slug = self.keys.get(tuple(texts[start:start + length]))
            if slug is not None:
                return slug, length
        return None, 0


def _apart(before: Token, after: Token) -> bool:
    end, start = getattr(before, "endchar", None), getattr(after, "startchar", None)
    return end is not None and start is not None and start - end > 3   # "Leader's altar" is together


def base_analyzer() -> CompositeAnalyzer:
    """Tokens as the index keeps them, before synonyms: lower-cased stems without stop words."""
    return (
        RegexTokenizer(expression=TOKEN_PATTERN)
        | LowercaseFilter()
        | StopFilter(stoplist=STOP_WORDS, minsize=1)
        | StemFilter(cachesize=-1)
    )


def stems(text: str) -> tuple[str, ...]:
    """The analysed tokens of `text` without synonyms (used for synonym keys and exact-term pins)."""
    return tuple(token.text for token in _BASE(text, mode="query"))


_BASE = base_analyzer()


def synonym_keys(groups: Mapping[str, Iterable[str]]) -> dict[tuple[str, ...], str]:
    """Map each spelling's stems to its group. `groups` is slug -> [term, alias, …], term first.

    A spelling that analyses to nothing (only stop words) is skipped. When two groups claim the same
    stems, a group's own term wins over another's alias ("can't attack", an alias of Restriction,
    analyses to "attack", which stays Attack's); between two aliases the first group keeps it.
    """
    keys: dict[tuple[str, ...], str] = {}
    for slug, spellings in groups.items():
        spellings = list(spellings)
        if spellings:
            key = stems(spellings[0])
            if key:
                keys.setdefault(key, slug)
    for slug, spellings in groups.items():
        for spelling in list(spellings)[1:]:
            key = stems(spelling)
            if key:
                keys.setdefault(key, slug)
    return keys


def analyzer(groups: Mapping[str, Iterable[str]]) -> CompositeAnalyzer:
    """The analyzer for every text field of the index."""
    return base_analyzer() | SynonymFilter(synonym_keys(groups))
