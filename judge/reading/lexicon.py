"""The words a dispute is read with, each from the table that owns it, and the lexer that finds them.

Card names come from the card library (and the cards a dispute describes inline), slots from the field
data, keywords from the keyword table, verbs from the verb table (each verb's words in a judge's mouth
are listed here against the verb's own name; tests/test_reading.py fails when a verb of the table has
none). What is left is the small closed class of words that hold a sentence together ("on", "is",
"what", "legal"), listed here once, and the filler a person adds that carries no fact ("please", "so").

    toks = lex("Grey Knigth casts Firebolt at B's Harold.", Names.of(library))
    # CARD(Grey Knight, read from "Grey Knigth") CAST CARD(Firebolt) AT PLAYER(B) POSS CARD(Harold) STOP
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from rapidfuzz.distance import DamerauLevenshtein

from judge.engine import KEYWORDS, VERBS, load_field

# --- the verbs, by the verb table's own names --------------------------------------------------------------
# the verb table's own words for each verb as people say it (judge.engine VERBS, `said`)
VERB_WORDS: dict[str, tuple[str, ...]] = {v.name: v.said for v in VERBS.values()}

# --- the closed class: each word's class, a terminal of the grammar ---------------------------------------
CLASSES: dict[str, tuple[str, ...]] = {
    **{v.upper(): ws for v, ws in VERB_WORDS.items()},
    "ANSWER": (
        "answers",
        "answer",
        "answered",
        "responds",
        "respond",
        "responded",
        "responding",
        "replies",
        "counters",
        "reacts",
    ),
    "RETURN": ("return", "returns", "returning", "returned", "bounce", "bounces", "bouncing"),
    "TARGET": ("targeting", "targets", "target", "targeted", "aiming", "aimed", "aims"),
    "DISCARD": ("discarding", "discards", "discard", "discarded"),
    "AT": ("at", "on", "against", "into", "onto", "upon"),
    "TO": ("to",),
    "WITH": ("with", "having"),
    "IN": ("in", "inside", "from"),
    "DURING": ("during", "while"),
    "OF": ("of",),
    "AS": ("as",),
    "BY": ("by",),
    "BE": ("is", "are", "was", "were", "am", "stands", "sits", "lies", "be", "been", "standing", "sitting"),
    "WHEN": ("when", "whenever"),
    "BEHIND": ("behind",),
    "FRONT": ("front",),
    "HAS": ("has", "have", "had", "holds", "controls", "hold", "holding"),
    "HAND": ("hand",),
    "PILE": ("deck", "elysium", "exile", "exiled", "discard pile"),
    "WHERE": ("where",),
    "HOW": ("how",),
    "MANY": ("many",),
    "GO": ("go", "goes", "went", "land", "lands"),
    "SHATTER": ("shatter", "shatters", "shattered"),
    "DAMAGE": ("damage", "damaged", "dmg"),
    "TURN": ("turn",),
    "PHASE": ("phase",),
    "PREPARATION": ("preparation", "main"),
    "COMBAT": ("combat", "battle"),
    "EMPLACEMENT": ("emplacement",),
    "FACE": ("face",),
    "DOWN": ("down", "face-down", "facedown"),
    "EARLIER": ("earlier", "before", "ago", "previously"),
    "LAST": ("last",),
    "THIS": ("this", "current"),
    "WHAT": ("what", "what's", "whats"),
    "WHO": ("who", "who's"),
    "DOES": ("does", "do", "did", "will", "would"),
    "IS": (),
    "CAN": ("can", "may", "could"),
    "LEGAL": ("legal", "allowed", "possible", "valid", "permitted"),
    "RESOLVE": (
        "resolve",
        "resolves",
        "work",
        "works",
        "succeed",
        "succeeds",
        "fizzle",
        "fizzles",
        "fizzled",
        "resolved",
    ),
    "HAPPEN": ("happen", "happens", "happened"),
    "WIN": ("win", "wins", "won", "winner"),
    "CAPTURED": ("captured",),
    "IT": ("it", "that", "this", "he", "she", "they", "them"),
    "ITS": ("its", "his", "her", "their"),
    "ACTION": ("action", "move"),
    "EFFECT": ("effect", "ability"),
    "SOUL": ("soul",),
    "TYPE": ("event", "ambush", "armament", "realm", "trap"),
    "SAYS": ("says", "reads", "reading", "saying", "text"),
    "CALLED": ("called", "named"),
    "RANK": ("rank",),
    "VARIANT": ("variant", "version"),
    "NOT": (
        "not",
        "no",
        "never",
        "isn't",
        "doesn't",
        "don't",
        "can't",
        "cannot",
        "won't",
        "wasn't",
        "didn't",
        "without",
        "unless",
        "except",
        "instead",
        "nor",
        "neither",
    ),
    "AND": ("and", "&", "plus"),
    "THEN": ("then", "afterwards", "after", "next"),
    "STILL": ("still", "even"),
    "AGAIN": ("again",),
    "ARE_YOU": (),
}
WORDS: dict[str, str] = {w: cls for cls, ws in CLASSES.items() for w in ws}

# Filler: words that carry no fact. They are read (the reading counts them), never a reason to decline.
FILLER = frozenset(
    [
        "the",
        "a",
        "an",
        "so",
        "well",
        "ok",
        "okay",
        "please",
        "just",
        "also",
        "here",
        "there",
        "basically",
        "actually",
        "now",
        "one",
        "own",
        "someone",
        "somebody",
        "question",
        "judge",
        "hi",
        "hey",
        "help",
        "say",
        "said",
        "asks",
        "ask",
        "asked",
        "wondering",
        "wonder",
        "want",
        "wants",
        "know",
        "knows",
        "think",
        "thinks",
        "claims",
        "claim",
        "argues",
        "we",
        "us",
        "our",
        "hello",
        "thanks",
        "thank",
        "case",
        "situation",
        "dispute",
        "ruling",
        "supposed",
        "really",
        "exactly",
        "quick",
        "quickly",
        "that",
        "which",
        "who",
        "whether",
        "same",
        "game",
        "duel",
        "card",
        "cards",
        "its",
    ]
)

NUMBER_WORDS: dict[str, int] = {
    w: i
    for i, w in enumerate(
        [
            "zero",
            "one",
            "two",
            "three",
            "four",
            "five",
            "six",
            "seven",
            "eight",
            "nine",
            "ten",
            "eleven",
            "twelve",
            "thirteen",
            "fourteen",
            "fifteen",
            "sixteen",
            "seventeen",
            "eighteen",
            "nineteen",
            "twenty",
        ]
    )
}
NUMBER_WORDS.update(
    {
        "thirty": 30,
        "forty": 40,
        "fifty": 50,
        "sixty": 60,
        "seventy": 70,
        "eighty": 80,
        "ninety": 90,
        "hundred": 100,
        "twenty-five": 25,
        "thirty-five": 35,
        "forty-five": 45,
        "fifteen": 15,
        "once": 1,
        "twice": 2,
    }
)
ORDINALS: dict[str, int] = {
    "first": 1,
    "second": 2,
    "third": 3,
    "fourth": 4,
    "fifth": 5,
    "sixth": 6,
    "seventh": 7,
    "eighth": 8,
    "ninth": 9,
    "tenth": 10,
    "1st": 1,
    "2nd": 2,
    "3rd": 3,
    "4th": 4,
    "5th": 5,
    "6th": 6,
    "7th": 7,
    "8th": 8,
    "9th": 9,
    "10th": 10,
}
# the values a question may ask about (contract §7 `value.of`), by the words people use
STATS: dict[str, str] = {
    "atk": "atk",
    "def": "def",
    "defense": "def",
    "defence": "def",
    "shield": "def",
    "hp": "hp",
    "health": "hp",
    "max hp": "max_hp",
    "maximum hp": "max_hp",
    "keywords": "keywords",
    "line": "line",
}
# after these words a lower-case "a" is player A ("i am a", "player a"), not an article
AS_PLAYER = frozenset(("player", "am", "as", "i'm", "im"))
# who: the speaker's words and the other player's
SPEAKER = frozenset(("my", "i", "me", "mine", "i'm", "im"))
OTHER = frozenset(("your", "you", "opponent", "opponent's", "opponents", "enemy", "enemy's"))

_TOKEN = re.compile(
    r"""[“”"‘’]|'(?=[\s.,;:!?)]|$)|(?<=[\s(])'|^'|[A-Za-z0-9][A-Za-z0-9·.\-:'’]*[A-Za-z0-9]|[A-Za-z0-9]|"""
    r"""[(),;.?!&]"""
)
PUNCTUATION = {
    "?": ("STOP", "?"),
    ".": ("STOP", "."),
    ";": ("STOP", "."),
    "!": ("STOP", "."),
    ",": ("COMMA", ","),
    "(": ("LP", "("),
    ")": ("RP", ")"),
}
_CLOSE = {'"': '"', "“": "”", "‘": "’", "'": "'", "”": "”", "’": "’"}


@dataclass
class Tok:
    """One token: its class (a grammar terminal), its value, where it stands, and how it was read when
    not as written ("Grey Knigth" read as Grey Knight)."""

    kind: str
    value: object
    start: int
    end: int
    text: str
    note: str = ""
    alternatives: tuple[str, ...] = field(default_factory=tuple)


@dataclass(frozen=True)
class Names:
    """The names a dispute may use: cards (name -> type), the field's soul and realm slots."""

    cards: Mapping[str, str]
    slots: tuple[str, ...]
    realm_slots: tuple[str, ...]

    @classmethod
    def of(cls, cards: Mapping[str, str]) -> Names:
        f = load_field()
        return cls(dict(cards), tuple(f.slots), tuple(f.realm_slots))


def keyword_words() -> dict[str, str]:
    """ "dual wielding" -> "dual_wielding": each keyword of the table by the words it is printed with."""
    return {k.replace("_", " "): k for k in KEYWORDS}


def _one_typo(typed: str, name: str) -> bool:
    return len(name) >= 5 and DamerauLevenshtein.distance(typed, name, score_cutoff=1) <= 1


class Lexer:
    """Text to tokens. Multi-word names are found first (longest match), then single words."""

    def __init__(self, names: Names) -> None:
        self.names = names
        self.cards = {n.lower(): n for n in names.cards}
        self.longest = max((len(n.split()) for n in self.cards), default=1)
        slots = {s.lower(): s for s in (*names.slots, *names.realm_slots)}
        for s in names.slots:
            if "·" in s:
                for sep in (".", "-"):
                    slots[s.lower().replace("·", sep)] = s
        self.slots = slots
        self.keywords = keyword_words()
        # one word of a card name that names one card only ("the Knight" is Grey Knight when no other card
        # has "Knight" in its name): the word, lower case -> the card names that have it
        self.parts: dict[str, list[str]] = {}
        for n in names.cards:
            for w in n.lower().split():
                if w not in WORDS and w not in FILLER and len(w) > 2:
                    self.parts.setdefault(w, []).append(n)

    def lex(self, text: str) -> list[Tok]:
        raw = [(m.group(0), m.start(), m.end()) for m in _TOKEN.finditer(text)]
        out: list[Tok] = []
        i = 0
        while i < len(raw):
            word, start, end = raw[i]
            if word in _CLOSE:
                close = _CLOSE[word]
                j = i + 1
                while j < len(raw) and raw[j][0] not in (close, "”", "’"):
                    j += 1
                if j < len(raw) and j > i + 1:
                    out.append(
                        Tok("QUOTE", text[end : raw[j][1]].strip(), start, raw[j][2], text[start : raw[j][2]])
                    )
                    i = j + 1
                    continue
                i += 1
                continue
            took = self._multi(raw, i, text)
            if took:
                toks, i = took
                out.extend(toks)
                continue
            out.extend(self._single(raw, i, text))
            i += 1
        return out

    def _multi(self, raw: list[tuple[str, int, int]], i: int, text: str) -> tuple[list[Tok], int] | None:
        """A card name, a keyword or a value of several words, longest first; a card name may carry one
        typo in all (Damerau-Levenshtein 1) and a possessive "'s" on its last word."""
        for n in range(min(self.longest, len(raw) - i), 0, -1):
            span = raw[i : i + n]
            words = [w for w, _, _ in span]
            if any(not re.match(r"[A-Za-z0-9]", w) for w in words):
                continue
            poss = words[-1].lower().endswith(("'s", "’s"))
            joined = " ".join(words).lower()[: -2 if poss else None]
            start, end = span[0][1], span[-1][2]
            typed = text[start:end]
            tok = self._card(joined, n, start, end, typed) or self._named(joined, n, start, end, text)
            if tok is not None:
                return [tok, *([Tok("POSS", "'s", end - 2, end, "'s")] if poss else [])], i + n
        return None

    def _card(self, joined: str, n: int, start: int, end: int, typed: str) -> Tok | None:
        """A card's name as written, or with one typo when one name only is that close (two: both kept,
        for the reader to ask which)."""
        if joined in self.cards:
            return Tok("CARD", self.cards[joined], start, end, typed)
        if n == 1 and len(joined) < 5 or joined in WORDS or joined in FILLER:
            return None
        close = [c for low, c in self.cards.items() if len(low.split()) == n and _one_typo(joined, low)]
        if len(close) == 1:
            return Tok("CARD", close[0], start, end, typed, note=f"“{typed}” read as {close[0]}")
        if len(close) > 1:
            return Tok("CARD", close[0], start, end, typed, alternatives=tuple(close))
        return None

    def _named(self, joined: str, n: int, start: int, end: int, text: str) -> Tok | None:
        """A keyword or a value of several words ("dual wielding", "max hp")."""
        if n > 1 and joined in self.keywords:
            return Tok("KEYWORD", self.keywords[joined], start, end, text[start:end])
        if n > 1 and joined in STATS:
            return Tok("STAT", STATS[joined], start, end, text[start:end])
        return None

    def _single(self, raw: list[tuple[str, int, int]], i: int, text: str) -> list[Tok]:
        word, start, end = raw[i]
        low = word.lower().replace("’", "'")
        if low in PUNCTUATION:
            kind, value = PUNCTUATION[low]
            return [Tok(kind, value, start, end, word)]
        poss = low.endswith("'s") and len(low) > 2
        base = low[:-2] if poss else low
        tail = [Tok("POSS", "'s", end - 2, end, "'s")] if poss else []
        m = re.fullmatch(r"([ab]):(.+)", base)
        if m and m.group(2) in self.slots:  # "B:C3"
            return [
                Tok("PLAYER", m.group(1).upper(), start, start + 1, word[0]),
                Tok("SLOT", self.slots[m.group(2)], start + 2, end, word[2:]),
                *tail,
            ]
        previous = raw[i - 1][0].lower() if i > 0 else ""
        # a lower-case "a" is an article; "A", "a's", "player a" and any "b" are players
        if base in ("a", "b") and (poss or word[0].isupper() or base == "b" or previous in AS_PLAYER):
            return [Tok("PLAYER", base.upper(), start, end, word), *tail]
        found = self._lookup(base)
        if found is not None:
            return [Tok(found[0], found[1], start, end, word), *tail]
        if base in self.parts and (word[0].isupper() or previous == "the"):
            cards = self.parts[base]
            if len(cards) == 1:
                return [Tok("CARD", cards[0], start, end, word, note=f"“{word}” read as {cards[0]}"), *tail]
            return [Tok("CARD", cards[0], start, end, word, alternatives=tuple(cards)), *tail]
        if base in FILLER or base == "player":
            return [Tok("FILLER", base, start, end, word)]
        return [Tok("UNKNOWN", word, start, end, word)]

    def _lookup(self, base: str) -> tuple[str, object] | None:
        """A single word's class and value from the tables, in order: slots, who, numbers, keywords,
        values, the closed class."""
        if base in self.slots:
            return "SLOT", self.slots[base]
        if base in SPEAKER:
            return "PLAYER", "speaker"
        if base in OTHER:
            return "PLAYER", "other"
        if base.isdigit():
            return "NUM", int(base)
        for table, kind in (
            (ORDINALS, "ORD"),
            (NUMBER_WORDS, "NUM"),
            (self.keywords, "KEYWORD"),
            (STATS, "STAT"),
            (WORDS, None),
        ):
            if base in table:
                value = table[base]
                return (kind, value) if kind else (str(value), base)
        return None
