"""Why a card text could not be read, as records: a code of `TEXT_PROBLEMS`, the facts (the phrase,
where it starts, what it could be) and the words made from them, so the CLI, the API and the desk
show the same thing and a program can use the facts without parsing the words.

    TextProblem.of("unreadable", phrase="this trunn", offset=31, nearest="this Turn").text
    # "can't read 'this trunn' (at 31); did you mean 'this Turn'?"
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

# code -> words (a format string over the facts). Add a kind of problem here and nowhere else.
TEXT_PROBLEMS: dict[str, str] = {
    "unreadable": "can't read {quoted} (at {offset}){hint}",
    "misplaced": "{quoted} (at {offset}) can't follow {after_quoted}: the Codex doesn't say it there",
    "unfinished": "the text stops in the middle of a phrase: {quoted} (at {offset}) needs more{hint}",
    "ambiguous": "{quoted} (at {offset}) could mean {readings}: say which",
    "not_on_type": "{quoted} (at {offset}): {what} is not something {a_type} has",
    "needs_kind": "{quoted} (at {offset}): say when it is used ('Activated:', 'When …:') or make it "
                  "last while the card is active ('Your other Souls gain …')",
    "needs_action": "{quoted} (at {offset}) says when and how an effect is used but not what it does",
    "no_effect": "{a_type} needs an effect (casting or springing uses its first one)",
    "names_nothing": "{quoted} (at {offset}) names nothing: {why}",
    "wrong_lead": "{quoted} (at {offset}): the Codex says {expected}",
    "contradiction": "{quoted} (at {offset}): {why}",
    "unknown_card": "{quoted} (at {offset}): no card of that name{hint}",
}

# A/An before each card type's name, for the words.
ARTICLE = {"soul": "a Soul", "event": "an Event", "armament": "an Armament", "ambush": "an Ambush",
           "realm": "a Realm"}


@dataclass(frozen=True)
class TextProblem:
    code: str
    facts: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.code not in TEXT_PROBLEMS:
            raise KeyError(f"unknown text problem {self.code!r}; add it to TEXT_PROBLEMS")

    @classmethod
    def of(cls, code: str, **facts: Any) -> TextProblem:
        return cls(code, facts)

    @property
    def offset(self) -> int:
        return int(self.facts.get("offset", 0))

    @property
    def text(self) -> str:
        facts = dict(self.facts)
        facts.setdefault("offset", 0)
        facts["quoted"] = repr(facts.get("phrase", ""))
        facts["after_quoted"] = repr(facts.get("after", ""))
        nearest = facts.get("nearest")
        facts["hint"] = f"; did you mean {nearest!r}?" if nearest else ""
        readings = facts.get("readings") or ()
        facts["readings"] = " or ".join(repr(r) for r in readings)
        facts["a_type"] = ARTICLE.get(str(facts.get("type")), "this card")
        return TEXT_PROBLEMS[self.code].format_map(_Missing(facts))

    def to_dict(self) -> dict[str, Any]:
        return {"problem": self.code, "facts": dict(self.facts), "text": self.text}


class _Missing(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"
