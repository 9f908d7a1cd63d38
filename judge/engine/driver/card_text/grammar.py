"""The grammar of card text (lark, LALR: a card reads in well under a millisecond) and its lexer. The
phrases of the engine's vocabulary (durations, triggers, references, keyword titles: phrases.py) are
generated into the grammar, the rest of the Codex's sentence shapes are written out below. The lexer
cuts text into words, lower-cased (so that "a" never matches the start of "attacked"), forgives one
typo in a word it knows (one letter changed, added, dropped or two swapped: the correction is kept),
reads numbers written as words, slot names and a card's name after "named", and marks a "," or "and"
before a number (joining values: "10 ATK and 5 DEF", not actions). Where LALR meets a choice it
shifts: "If it is damaged, capture it and draw 1 card" draws only if damaged.

    tokens, corrections = words_of("Activated, 1/Turn: Heal 10 damage from one of your Souls.")
    tree = parse_tokens(tokens)
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from lark import Lark, Token, Tree
from lark.lexer import Lexer
from rapidfuzz.distance import OSA

from judge.engine.data.field import load_field
from judge.engine.data.keywords import KEYWORDS
from judge.engine.driver.card_text import phrases


def _words(phrase: str) -> str:
    """A phrase as a sequence of grammar literals: "this Turn" -> '"this" "turn"'."""
    return " ".join(f'"{w}"' for w in _split(phrase.lower()))


def _split(text: str) -> list[str]:
    return [m.group(0) for m in _TOKEN.finditer(text)]


def _alternatives(rule: str, table: dict[str, tuple[str, ...]], prefix: str) -> str:
    lines = [f"{_words(p)} -> {prefix}__{key}" for key, ps in table.items() for p in ps]
    return f"{rule}: " + "\n    | ".join(lines) + "\n"


# the grammar after a keyword's name, by the kind of its value; and whether what it does follows a colon
_KEYWORD_FORMS = {"none": ("", False), "radius": (" radius?", False), "amount": (' ":"? num', False),
                  "stats": (' ":"? stats', False), "actions": (' ":" actions', True),
                  "effect": (' ":" core', True)}


def _keyword_rules() -> str:
    """Keywords by kind of value (the engine's keyword table): a keyword that says what it does after
    a colon (Berserk's actions, Reinforcement's effect) is granted with it (`effect_kw`), the others
    by name and value (`grant_kw`)."""
    bare: list[str] = []
    grantable: list[str] = []
    with_effect: list[str] = []
    for name, record in KEYWORDS.items():
        words = _words(record.title)
        line, after = _KEYWORD_FORMS[record.value]
        (bare if record.value in ("none", "radius") else grantable if not after else with_effect).append(
            f"{words}{line} -> kw__{name}")
    valued = [*grantable, *with_effect]
    grantable = [*bare, *grantable]
    named = [f"{_words(record.title)} -> kw__{name}" for name, record in KEYWORDS.items()]
    return ("keyword: " + "\n    | ".join(bare + valued) + "\n"
            + "kw_name: " + "\n    | ".join(named) + "\n"
            + "grant_kw: " + "\n    | ".join(grantable) + "\n"
            + "effect_kw: " + "\n    | ".join(with_effect) + "\n")


_STRUCTURE = r'''
start: piece*

?piece: header_piece | trigger_piece | cond_piece | cost_piece | body_piece | target_piece
      | kw_piece | has_piece | req_piece | values_piece | note_piece | counts_piece | moment_piece

header_piece: head_word ("," head_word)* ":"
head_word: "activated" -> h_activated
    | "fast" -> h_fast
    | "instant" -> h_instant
    | LIMIT -> h_limit
    | times "per" per_what -> h_times
times: "once" -> once
    | "twice" -> twice
per_what: "turn" -> per_turn
    | "game" -> per_game

trigger_piece: lead trig_subject trig_event (":" | ",")
moment_piece: subject trig_event ":"
lead: "when" -> lead_when
    | "whenever" -> lead_when
    | "after" -> lead_after
trig_subject: "this" "soul" -> ts_self
    | "it" -> ts_self
    | "the" "ambusher" -> ts_ambusher
    | "the" "ambusher" "," "or" "a" "soul" "spot" "whose" "target" "names" "the" "ambusher" "," -> ts_ambusher
    | "the" "equipped" "soul" -> ts_self

cond_piece: cond_lead cond_subject conds ","
cond_lead: "while" | "as" "long" "as"
cond_subject: "this" "soul" | "it" | "the" "equipped" "soul" | "this" "card" | "this" "realm"

conds: cond ("and" cond)*
cond: ("is" | "stands") "active" -> c_active
    | "is" "damaged" -> c_damaged
    | "is" "not" "damaged" -> c_undamaged
    | "is" "undamaged" -> c_undamaged
    | "has" "no" "damage" -> c_undamaged
    | "has" "half" "its" "hp" "or" "less" -> c_half
    | "has" "more" "than" "half" "its" "hp" -> c_more_than_half
    | ("is" | "stands") "in" "the" line_name "line" bound? -> c_line
    | ("is" | "stands") "not" "in" "the" "front" "line" -> c_not_front
    | ("is" | "stands") "in" "line" num bound? -> c_line_number
    | "is" "a" "leader" -> c_leader
    | "is" ("your" | "the") "leader" -> c_leader
    | "is" "not" "a" "leader" -> c_not_leader
    | "is" attribute -> c_attribute
    | "is" "a" attribute "soul" -> c_attribute
    | "is" "captured" -> c_captured
    | "is" "not" "captured" -> c_not_captured
    | "has" kw_name -> c_keyword
    | "is" "of" "rank" num bound? -> c_rank
line_name: "front" -> line_1
    | "first" -> line_1
    | "second" -> line_2
    | "third" -> line_3
    | "fourth" -> line_4
    | "fifth" -> line_5
bound: "or" "lower" -> b_lower
    | "or" "higher" -> b_higher
    | "or" "less" -> b_lower
    | "or" "more" -> b_higher
attribute: "dark" -> attr_dark
    | "nefarious" -> attr_dark
    | "light" -> attr_light
    | "ethereal" -> attr_light

cost_piece: "cost" ":" cost_item (("and" | ",") cost_item)* "."
cost_item: "discard" count card_word from_hand? -> cost_discard
    | payer ("pays" | "pay") num "hp" -> cost_pay
    | payer ("takes" | "take") num "damage" -> cost_pay
from_hand: "from" "your" "hand"
payer: "this" "soul" -> payer__self
    | "the" "caster" -> payer__caster
    | "the" "ambusher" -> payer__ambusher
    | "you" -> payer__self
card_word: "card" | "cards"

req_piece: req_who ":" ("any" | "a" | "an") req_adj* req_noun req_tail* "."
req_who: "caster" -> rq_caster
    | "ambusher" -> rq_ambusher
req_adj: attribute -> rqa_attribute
    | "damaged" -> rqa_damaged
req_noun: "soul" -> rqn_soul
    | "leader" -> rqn_leader
req_tail: "of" "rank" num bound? -> rqt_rank
    | "with" kw_name -> rqt_keyword
    | "in" "the" "front" "line" -> rqt_front

values_piece: signed_stats "."
signed_stats: signed_stat ((COMMA_NUM | AND_NUM | COMMA_NUM AND_NUM) signed_stat)*
signed_stat: SIGNED stat

note_piece: "(" "this" "effect" "is" "mandatory" "." ")" "."?
counts_piece: "this" "battle" "counts" "as" "an" "attack" "."

kw_piece: keyword (("," | "and" | "," "and") keyword)* "."
has_piece: ("the" "equipped" "soul" | "the" "wielder") ("has" | "gains") keyword (("and" | ",") keyword)* "."
radius: "(" taunt_radius ")"

target_piece: "target" sel_list ":" actions "."
    | "target" sel_list "."
sel_list: selector (("and" | ",") selector)*
    | multi
core: target_clause? actions
    | cost_clause target_clause? actions
target_clause: "target" sel_list ":"
cost_clause: "cost" ":" cost_item (("and" | ",") cost_item)* "."

body_piece: actions "."
    | actions cond_lead cond_subject conds "." -> lasting_piece

actions: action (sep action)*
sep: "," | "and" | "," "and" | "," "then" | "then" | "and" "then" | ";"

?action: plain | if_action | may_action
may_action: "you" "may" plain
if_action: "if" subject conds "," plain_list else_part?
else_part: ";" "otherwise" ","? plain_list -> else_do
    | ";" "if" subject conds "," "it" "stays" -> else_stays
    | ";" "otherwise" ","? "it" "stays" -> else_stays
plain_list: plain ((("," | "and" | "," "and" | "," "then") plain))*

plain: "deal" num "damage" "to" object -> a_damage
    | subject "deals" num "damage" "to" object -> a_deals
    | subject "takes" num "damage" -> a_takes
    | "freeze" object duration? -> a_freeze
    | "heal" num "damage" ("from" | "of" | "on" | "to") object -> a_heal
    | "capture" object -> a_capture
    | "return" object "to" return_place -> a_return
    | "exile" object -> a_exile
    | "teleport" object "to" destination -> a_teleport
    | subject gain_verb stats duration? -> a_gain
    | subject lose_verb stats duration? -> a_lose
    | subject gain_verb grant_kw duration? -> a_grant
    | subject gain_verb effect_kw -> a_grant
    | subject be "frozen" duration? -> a_frozen
    | subject ("cannot" | "can't") "attack" duration? -> a_cannot_attack
    | article "soul" "on" spot_ref gain_verb stats duration? -> a_lay_gain
    | article "soul" "on" spot_ref lose_verb stats duration? -> a_lay_lose
    | article "soul" "on" spot_ref gain_verb grant_kw duration? -> a_lay_grant
    | article "soul" "on" spot_ref be "frozen" duration? -> a_lay_frozen
    | article "soul" "on" spot_ref ("cannot" | "can't") "attack" duration? -> a_lay_cannot_attack
    | "negate" object -> a_negate
    | "negate" "the" "effects" "of" object -> a_negate
    | "the" "effects" "of" object be "negated" -> a_negate
    | "you"? "draw" count card_word -> a_draw
    | "you"? "discard" count card_word from_hand? -> a_discard_self
    | "your" "opponent" "discards" count card_word -> a_discard_opponent
    | "enlist" enlist_what -> a_enlist
    | subject "battles" object -> a_battle
    | subject "battles" "itself" -> a_battle_itself

gain_verb: "gains" | "gain" | "has" | "have" | "get" | "gets"
lose_verb: "loses" | "lose"
be: "is" | "are" | "becomes" | "become"
return_place: "its" "owner's" "hand" | "your" "hand" | "their" "owner's" "hand" | "its" "owners'" "hand"
    | "the" "hand"
spot_ref: "the" "targeted" "spot" | "that" "spot" | "the" "targeted" "soul" "spot"
enlist_what: ("a" | "an") attribute? card_kind enlist_rank? -> enlist_kind
    | ("a" | "an") "card" "named" NAME -> enlist_name
    | NAME -> enlist_name
enlist_rank: "of" "rank" num
card_kind: "soul" -> ck_soul
    | "event" -> ck_event
    | "armament" -> ck_armament
    | "ambush" -> ck_ambush
    | "realm" -> ck_realm
    | "card" -> ck_card

stats: stat_amount ((COMMA_NUM | AND_NUM | COMMA_NUM AND_NUM) stat_amount)*
stat_amount: num stat
    | SIGNED stat

subject: ref | selector | pronoun
object: ref | selector | multi | pronoun
destination: selector | SLOT -> dest_slot | pronoun

pronoun: "it" -> pr_it
    | "them" -> pr_them
    | "they" -> pr_them
    | "that" "soul" -> pr_that
    | "the" "targeted" "soul" -> pr_that
    | "the" "target" -> pr_that
    | "the" "first" "soul"? -> pr_first
    | "the" "second" "soul"? -> pr_second
    | "the" "third" "soul"? -> pr_third
    | "the" "first" "target" -> pr_first
    | "the" "second" "target" -> pr_second

selector: article side? adj* "soul" lines? rank_tail? soul_tail? -> sel_soul
    | article pre_adj side adj* "soul" lines? rank_tail? soul_tail? -> sel_soul
    | article side? adj* leader lines? rank_tail? soul_tail? -> sel_soul
    | num "of" "your" adj* "souls" lines? rank_tail? soul_tail? -> sel_own_soul
    | article side? empty? "soul" "spot" naming? -> sel_spot
    | article empty side "soul" "spot" naming? -> sel_spot
    | num "of" "your" empty? "soul" "spots" -> sel_own_spot
    | article side? "realm" -> sel_realm
    | num "of" "your" "realms" -> sel_own_realm
leader: "leader"
soul_tail: "with" kw_name -> tail_keyword
    | "with" "half" "its" "hp" "or" "less" -> tail_half
multi: "each" "of" num side? adj* "souls" lines? rank_tail? -> multi_soul
    | "each" "of" num pre_adj side adj* "souls" lines? rank_tail? -> multi_soul
    | num side? adj* "souls" lines? rank_tail? -> multi_soul
    | num pre_adj side adj* "souls" lines? rank_tail? -> multi_soul
empty: "empty"
article: "a" -> art_a
    | "an" -> art_a
    | "any" -> art_any
side: "opposing" -> side_opposing
    | "enemy" -> side_opposing
pre_adj: "captured" -> adj_captured
    | "damaged" -> adj_damaged
    | attribute -> adj_attribute
adj: "captured" -> adj_captured
    | "damaged" -> adj_damaged
    | attribute -> adj_attribute
    | "active" -> adj_active
lines: "in" "the" "front" "line" -> lines_front
    | "in" "any" "line" -> lines_any
rank_tail: "of" "rank" num bound? -> rank_tail
naming: "with" "an" "active" "soul" "in" "the" "front" "line" "on" "it" -> naming_front
    | "with" "an" "active" "soul" "on" "it" -> naming_any

num: INT -> num_int
    | NUMWORD -> num_word
count: num
    | "a" -> num_one
    | "an" -> num_one

%declare INT SIGNED NUMWORD LIMIT SLOT NAME UNKNOWN COMMA_NUM AND_NUM
'''


@lru_cache(maxsize=1)
def grammar_text() -> str:
    return "\n".join((
        _STRUCTURE,
        _alternatives("duration", phrases.DURATIONS, "dur"),
        _alternatives("ref", phrases.REFS, "ref"),
        _alternatives("taunt_radius", phrases.TAUNT_RADII, "radius"),
        _alternatives("stat", phrases.STAT_WORDS, "stat"),
        "trig_event: " + "\n    | ".join(f"{_words(p)} -> trig__{key}"
                                         for key, (_, ps) in phrases.TRIGGER_PHRASES.items()
                                         for p in ps) + "\n",
        _keyword_rules(),
    ))


# --- the lexer ------------------------------------------------------------------------------------

_TOKEN = re.compile(r"[+-]\d+|\d+\s*/\s*(?:turn|game)\b|\d+|[a-z][a-z0-9'·-]*[a-z0-9]|[a-z]|[.,:;()]|\S",
                    re.IGNORECASE)   # the last: any other mark, so that nothing is skipped unread


# "," and "and" before a number join values ("10 ATK and 5 DEF"), not actions: one token of lookahead.
_NUMBER = re.compile(r"[+-]?\d+", re.IGNORECASE)


@dataclass(frozen=True)
class Correction:
    """A word read as a word the grammar knows, one letter apart (or a card name matched)."""

    offset: int
    written: str
    read_as: str


@dataclass
class Lexed:
    tokens: list[Token]
    corrections: list[Correction]


def _typo(word: str, vocabulary: frozenset[str]) -> str | None:
    """The one known word one edit away from `word` (words of 4 letters or more), or None."""
    if len(word) < 4:
        return None
    hits = [w for w in vocabulary if abs(len(w) - len(word)) <= 1 and OSA.distance(w, word) <= 1]
    if len(hits) == 1:
        return hits[0]
    transposed = [w for w in hits if sorted(w) == sorted(word)]
    return transposed[0] if len(transposed) == 1 else None


class CardLexer(Lexer):
    """Words to the grammar's terminals (the parser is built with it; `lex` gets lower-cased text)."""

    def __init__(self, conf: Any) -> None:
        self.literals: dict[str, str] = {t.pattern.value: t.name for t in conf.terminals
                                         if t.pattern.type == "str"}
        self.vocabulary = frozenset(w for w in self.literals if w[0].isalpha())
        self.slots = {s.lower(): s for s in (*load_field().slots, *load_field().realm_slots)}

    def lex(self, data: Any, *_: Any) -> Iterator[Token]:
        data = getattr(data, "text", data)
        if isinstance(data, list):   # already lexed (parse_tokens)
            yield from data
        else:
            yield from self.tokens(str(data), []).tokens

    def tokens(self, text: str, corrections: list[Correction]) -> Lexed:
        out: list[Token] = []
        matches = list(_TOKEN.finditer(text))
        i = 0
        while i < len(matches):
            m = matches[i]
            word, pos = m.group(0).lower(), m.start()
            if out and out[-1].type == self.literals.get("named"):
                end = i
                while end < len(matches) and matches[end].group(0) not in ".,;:()":
                    end += 1
                stop = matches[end - 1].end() if end > i else m.end()
                out.append(Token("NAME", text[pos:stop], start_pos=pos, end_pos=stop))
                i = max(end, i + 1)
                continue
            token = self.token(word, pos, corrections)
            if word in (",", "and") and i + 1 < len(matches) and _NUMBER.fullmatch(matches[i + 1].group(0)):
                token = Token("COMMA_NUM" if word == "," else "AND_NUM", word, start_pos=pos,
                              end_pos=token.end_pos)
            out.append(token)
            i += 1
        return Lexed(out, corrections)

    def token(self, word: str, pos: int, corrections: list[Correction]) -> Token:
        end = pos + len(word)
        if word in self.literals:
            return Token(self.literals[word], word, start_pos=pos, end_pos=end)
        if word[0] in "+-":
            return Token("SIGNED", int(word), start_pos=pos, end_pos=end)
        if word[0].isdigit():
            if "/" in word:
                return Token("LIMIT", word, start_pos=pos, end_pos=end)
            return Token("INT", int(word), start_pos=pos, end_pos=end)
        if word in phrases.NUMBER_WORDS:
            return Token("NUMWORD", phrases.NUMBER_WORDS[word], start_pos=pos, end_pos=end)
        if word in self.slots:
            return Token("SLOT", self.slots[word], start_pos=pos, end_pos=end)
        fixed = _typo(word, self.vocabulary)
        if fixed is not None:
            corrections.append(Correction(pos, word, fixed))
            return Token(self.literals[fixed], fixed, start_pos=pos, end_pos=end)
        return Token("UNKNOWN", word, start_pos=pos, end_pos=end)


@lru_cache(maxsize=1)
def parser() -> Lark:
    return Lark(grammar_text(), parser="lalr", lexer=CardLexer, propagate_positions=True)


@lru_cache(maxsize=1)
def lexer() -> CardLexer:
    return CardLexer(parser().lexer_conf)


def words_of(text: str) -> tuple[list[Token], list[Correction]]:
    """`text` cut into the grammar's tokens (offsets kept), with the typos it forgave."""
    lexed = lexer().tokens(text.replace("\u2019", "'"), [])
    return lexed.tokens, lexed.corrections


def parse_tokens(tokens: list[Token]) -> Tree[Token]:
    """Parse already-lexed tokens (so corrections are made once)."""
    return parser().parse(tokens)   # type: ignore[arg-type,unused-ignore]
