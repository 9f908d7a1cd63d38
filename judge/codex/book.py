"""The Codex in memory: rules by id, the glossary, interpretations, and every cross-reference."""

from __future__ import annotations

from collections import defaultdict
from functools import cached_property, lru_cache
from pathlib import Path

from judge.codex import loader, validate
from judge.codex.editions import editions
from judge.codex.importer import slugify
from judge.codex.linkify import TermMatcher
from judge.codex.model import Chapter, GlossaryEntry, Interpretation, Reference, Rule
from judge.codex.refs import chapter_of, find_references, is_rule_id, sentence_at, sort_key

SHORT_LENGTH = 200


class Codex:
    """Everything under `codex/`, loaded once. See docs/DEVELOPING.md for the public interface."""

    def __init__(self, root: Path | None = None):
        self.root = Path(root) if root else editions().folder()
        book, self.chapters = loader.read_book(self.root)
        self.version: str = book["version"]
        self.cards_named: tuple[str, ...] = tuple(book.get("cards_named") or ())
        self.rules: dict[str, Rule] = {}
        self.problems: list[dict] = []
        self.warnings: list[dict] = []
        self.duplicates: list[str] = []
        for chapter in sorted(self.chapters, key=lambda c: c.number):
            if chapter.present and chapter.file:
                for rule in loader.read_chapter(self.root / chapter.file, chapter):
                    if rule.id in self.rules:
                        self.duplicates.append(rule.id)
                    self.rules.setdefault(rule.id, rule)
        entries = loader.read_glossary(self.root / book.get("glossary", "glossary.yaml"))
        self.glossary: dict[str, GlossaryEntry] = {}
        for entry in entries:
            if entry.slug in self.glossary:
                self.duplicates.append(entry.id)
            self.glossary.setdefault(entry.slug, entry)
        found, problems = loader.read_interpretations(self.root / "interpretations")
        self.interpretations: dict[str, Interpretation] = {i.id: i for i in found}
        self.problems.extend(problems)
        self._names = self._build_names()
        self.references: list[Reference] = self._extract_references()
        self.cited_absent: dict[str, list[str]] = self._cited_absent()
        validate.run(self)

    # --- the public interface -------------------------------------------------------------------

    def get(self, rule_id: str) -> Rule | None:
        return self.rules.get(rule_id)

    def chapter(self, number: int) -> Chapter | None:
        return next((c for c in self.chapters if c.number == number), None)

    def entry(self, term_or_alias: str) -> GlossaryEntry | None:
        key = (term_or_alias or "").strip().lower()
        key = key.removeprefix("glossary/")
        slug = self._names.get(key) or self._names_by_slug.get(slugify(key))
        return self.glossary.get(slug or key)

    def knows(self, rule_id: str) -> bool:
        if rule_id.startswith("glossary/"):
            return rule_id[len("glossary/"):] in self.glossary
        if rule_id.startswith("interpretation/"):
            return rule_id[len("interpretation/"):] in self.interpretations
        return rule_id in self.rules or rule_id in self.cited_absent or self.is_chapter(rule_id)

    def is_chapter(self, rule_id: str) -> bool:
        return rule_id.isdigit() and self.chapter(int(rule_id)) is not None

    def label(self, rule_id: str) -> str:
        """A rule id as a reader finds it in the Codex: a bulleted sub-item as "13.6.7, 3rd point", a
        numbered one as "10.4.5, point 2"; a chapter-11 number that is ours marked "(inferred)"; a glossary
        entry by its term; an interpretation in words ("our reading: capture timing"). The id itself
        stays the stable key of links and JSON."""
        if rule_id.startswith("glossary/"):
            entry = self.entry(rule_id)
            return entry.term if entry else rule_id
        if rule_id.startswith("interpretation/"):
            return f"our reading: {rule_id.split('/', 1)[1].replace('-', ' ')}"
        rule = self.rules.get(rule_id)
        if rule is None:
            return rule_id
        shown = rule.id
        parent = self.rules.get(rule.parent or "") if rule.kind == "item" else None
        if parent is not None and rule.item_marker in ("bullet", "number"):
            k = parent.children.index(rule.id) + 1
            bullet = rule.item_marker == "bullet"
            shown = f"{parent.id}, {ordinal(k)} point" if bullet else f"{parent.id}, point {k}"
        return f"{shown} (inferred)" if rule.numbering == "inferred" else shown

    def short(self, rule_id: str) -> str:
        """One line for hovers and trace links (without the id itself)."""
        if rule_id.startswith("glossary/"):
            entry = self.entry(rule_id)
            return f"{entry.term}: {entry.short}" if entry else f"{rule_id}: no such glossary entry"
        if rule_id.startswith("interpretation/"):
            found = self.interpretations.get(rule_id.split("/", 1)[1])
            return f"Our interpretation: {found.question}" if found else f"{rule_id}: no such interpretation"
        rule = self.rules.get(rule_id)
        if rule is None:
            if self.is_chapter(rule_id):
                chapter = self.chapter(int(rule_id))
                if chapter is not None:
                    return f"Chapter {rule_id}" + (f": {chapter.title}" if chapter.title else "") + (
                        "" if chapter.present else " (not in this edition)")
            if rule_id in self.cited_absent:
                return f"Rule {rule_id}: its text is not in this edition of our Codex texts."
            return f"{rule_id}: not a rule of the Codex texts we have"
        if rule.kind == "chapter":
            return f"Chapter {rule.id}: {rule.text}" if rule.text else f"Chapter {rule.id}"
        if rule.kind == "section":
            return f"{rule.text} (section {rule.id})"
        if rule.empty_in_source:
            return "Present in the Codex, but without text in our source."
        return clip(rule.text)

    # --- relations --------------------------------------------------------------------------------

    @cached_property
    def _by_target(self) -> dict[str, list[Reference]]:
        index: dict[str, list[Reference]] = defaultdict(list)
        for ref in self.references:
            index[ref.target].append(ref)
        return index

    def cited_by(self, rule_id: str) -> list[Reference]:
        """References to exactly `rule_id`, one per citing source, in Codex order."""
        seen: dict[str, Reference] = {}
        for ref in self._by_target.get(rule_id, []):
            seen.setdefault(ref.source, ref)
        return sorted(seen.values(), key=lambda r: sort_key(r.source))

    def cites(self, source: str) -> list[Reference]:
        seen: dict[str, Reference] = {}
        for ref in self.references:
            if ref.source == source:
                seen.setdefault(ref.target, ref)
        return list(seen.values())

    def interpretations_for(self, rule_id: str) -> list[Interpretation]:
        return [i for i in self.interpretations.values() if rule_id in i.stands_in_for]

    def neighbours(self, rule_id: str) -> tuple[str | None, str | None]:
        """The previous and next id of the same kind in Codex order (rule → rule, section → section)."""
        rule = self.rules.get(rule_id)
        if rule is None:
            return None, None
        same = [r.id for r in self.rules.values() if r.kind == rule.kind]
        at = same.index(rule_id)
        return (same[at - 1] if at > 0 else None), (same[at + 1] if at + 1 < len(same) else None)

    def descendants(self, rule_id: str) -> list[Rule]:
        out: list[Rule] = []
        for child in self.rules[rule_id].children:
            if child in self.rules:
                out.append(self.rules[child])
                out.extend(self.descendants(child))
        return out

    @cached_property
    def matcher(self) -> TermMatcher:
        return TermMatcher(self._names)

    @cached_property
    def _usage(self) -> dict[str, list[str]]:
        usage: dict[str, list[str]] = defaultdict(list)
        for rule in self.rules.values():
            if rule.kind in {"rule", "item"}:
                for slug in sorted(self.matcher.slugs_in(rule.all_text())):
                    usage[slug].append(rule.id)
        return usage

    def used_in(self, slug: str) -> list[str]:
        """Rule ids whose text uses the entry's term or one of its aliases (whole word, any case)."""
        return list(self._usage.get(slug, []))

    @cached_property
    def _mentions(self) -> dict[str, list[str]]:
        mentions: dict[str, list[str]] = defaultdict(list)
        for entry in self.glossary.values():
            for slug in self.matcher.slugs_in(entry.all_text()):
                if slug != entry.slug:
                    mentions[slug].append(entry.slug)
        return mentions

    def mentioned_by(self, slug: str) -> list[str]:
        """Slugs of the other glossary entries whose text uses the entry's term or an alias, in glossary
        order."""
        return list(self._mentions.get(slug, []))

    def subject_entries(self, rule_id: str) -> dict[str, list[str]]:
        """For a cited-but-absent rule: glossary entries on the same subject, as slugs.
        "cite": entries whose Rules list or text cites it; "named": entries named in the citing
        sentences or listed under "See also" by a citing entry."""
        citing = {r.source for r in self._by_target.get(rule_id, [])}
        cite = [e.slug for e in self.glossary.values() if e.id in citing]
        named: list[str] = []
        for ref in self._by_target.get(rule_id, []):
            named.extend(sorted(self.matcher.slugs_in(ref.sentence)))
            if ref.source.startswith("glossary/"):
                for name in self.glossary[ref.source.split("/", 1)[1]].see_also:
                    entry = self.entry(name)
                    if entry:
                        named.append(entry.slug)
        return {"cite": cite, "named": [s for s in dict.fromkeys(named) if s not in cite]}

    @cached_property
    def absent_terms(self) -> dict[str, list[str]]:
        """Glossary names cited under "See also" that our glossary text doesn't have: name -> citers."""
        absent: dict[str, list[str]] = defaultdict(list)
        for entry in self.glossary.values():
            for name in entry.see_also:
                if self.entry(name) is None:
                    absent[name].append(entry.id)
        return dict(absent)

    # --- building -----------------------------------------------------------------------------

    def _build_names(self) -> dict[str, str]:
        names: dict[str, str] = {}
        self.name_clashes: list[tuple[str, str, str]] = []
        for entry in self.glossary.values():
            for name in (entry.term, *entry.aliases):
                key = name.lower()
                if key in names and names[key] != entry.slug:
                    self.name_clashes.append((name, names[key], entry.slug))
                    continue
                names[key] = entry.slug
        self._names_by_slug = {slugify(name): slug for name, slug in reversed(names.items())}
        return names

    def _texts(self):
        """(source id, text) for every text that may cite a rule."""
        for rule in self.rules.values():
            for text in (rule.text, rule.intro, *(e.text for e in rule.examples), *rule.notes):
                if text:
                    yield rule.id, text
        for entry in self.glossary.values():
            for text in (entry.short, *entry.body):
                yield entry.id, text

    def _extract_references(self) -> list[Reference]:
        refs: list[Reference] = []
        for source, text in self._texts():
            for found in find_references(text):
                refs.append(Reference(source, found.target, self._present(found.target),
                                      sentence_at(text, found.start)))
        for entry in self.glossary.values():
            for target in entry.rules:
                refs.append(Reference(entry.id, target, self._present(target), "", how="rules"))
        for interp in self.interpretations.values():
            for target in interp.stands_in_for:
                refs.append(Reference(interp.ref, target, self._present(target), "", how="stands_in_for"))
        return refs

    def _present(self, target: str) -> bool:
        return target in self.rules

    def _cited_absent(self) -> dict[str, list[str]]:
        absent: dict[str, list[str]] = {}
        for ref in self.references:
            if ref.present or not is_rule_id(ref.target):
                continue
            chapter = self.chapter(chapter_of(ref.target))
            if chapter is not None and chapter.present:
                continue  # a wrong reference into a text we have: a problem, not an absent rule
            citers = absent.setdefault(ref.target, [])
            if ref.source not in citers:
                citers.append(ref.source)
        return dict(sorted(absent.items(), key=lambda kv: sort_key(kv[0])))


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, … (11th, 12th, 13th)."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def clip(text: str, length: int = SHORT_LENGTH) -> str:
    text = " ".join(text.split())
    if len(text) <= length:
        return text
    return text[: length - 1].rsplit(" ", 1)[0] + "…"


def load_codex(root: Path | str | None = None) -> Codex:
    """The Codex under `root` (an edition's folder; default: the current edition), loaded once and cached."""
    return _load(Path(root) if root else editions().folder())


def load_edition(version: str | None = None) -> Codex:
    """The edition `version` (default: the current one), loaded once and cached; UnknownEdition
    (a CodexError) for a version we don't hold."""
    return _load(editions().folder(version))


@lru_cache(maxsize=8)
def _load(root: Path) -> Codex:
    return Codex(root)
