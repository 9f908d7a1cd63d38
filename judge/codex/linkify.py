"""Turn Codex text into HTML where every rule number and every glossary term or alias is a link
whose `title` is the target's short text. Everything else is escaped."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from markupsafe import Markup, escape

from judge.codex.refs import REFERENCE, is_rule_id


@dataclass(frozen=True)
class TermMatch:
    start: int
    end: int
    slug: str


class TermMatcher:
    """Finds glossary terms and aliases in text: whole words, case-insensitive, longest first
    ("Soul Spot" before "Soul", "Attack Target" before "Attack")."""

    def __init__(self, names: dict[str, str]):
        self.names = {name.lower(): slug for name, slug in names.items()}
        phrases = sorted(self.names, key=len, reverse=True)
        alternatives = "|".join(re.escape(p).replace(r"\ ", r"\s+") for p in phrases) or r"(?!x)x"
        self.pattern = re.compile(rf"(?<![\w-])(?:{alternatives})(?![\w-])", re.IGNORECASE)

    def finditer(self, text: str) -> Iterator[TermMatch]:
        for m in self.pattern.finditer(text or ""):
            slug = self.names.get(re.sub(r"\s+", " ", m.group(0).lower()))
            if slug:
                yield TermMatch(m.start(), m.end(), slug)

    def slugs_in(self, text: str) -> set[str]:
        return {m.slug for m in self.finditer(text)}


def linkify(text: str, matcher: TermMatcher, knows: Callable[[str], bool], url: Callable[[str], str],
            short: Callable[[str], str], skip: str | None = None) -> Markup:
    """`text` as Markup: rule references and glossary terms become links, the rest is escaped.

    `knows(id)` says whether an id has a page, `url(id)` builds its link, `short(id)` its hover
    text; ids are rule ids or "glossary/<slug>". Links to `skip` (the page being shown) are left out.
    """
    spans: list[tuple[int, int, str, str]] = []
    for m in REFERENCE.finditer(text or ""):
        target = m.group("chapter") or m.group("rule")
        if is_rule_id(target) and knows(target) and target != skip:
            spans.append((m.start(), m.end(), target, "rule-ref"))
    taken = [(s, e) for s, e, _, _ in spans]
    for term in matcher.finditer(text or ""):
        ref = f"glossary/{term.slug}"
        if ref != skip and not any(s < term.end and term.start < e for s, e in taken):
            spans.append((term.start, term.end, ref, "term"))
    spans.sort()
    out: list[str] = []
    at = 0
    for start, end, ref, css in spans:
        out.append(str(escape(text[at:start])))
        out.append(link(ref, text[start:end], url(ref), short(ref), css))
        at = end
    out.append(str(escape((text or "")[at:])))
    return Markup("".join(out))


def link(ref: str, label: str, href: str, title: str, css: str = "rule-ref") -> str:
    return (f'<a class="{escape(css)}" href="{escape(href)}" title="{escape(title)}"'
            f' data-ref="{escape(ref)}">{escape(label)}</a>')
