"""Checks on the loaded Codex. Problems make `judge codex-check` fail; warnings are listed only.

Problems: duplicate ids or names, malformed ids, a reference into a text we have that lands on
no rule, chapter-11 numbering marks that disagree with the references, interpretations standing
in for unknown rules (they cite what they stand in for), example cards not named in their example.
Warnings: glossary "See also" names our glossary text doesn't have (cited-but-absent terms).
"""

from __future__ import annotations

from typing import Protocol

from judge.codex.importer import slugify
from judge.codex.model import Chapter, GlossaryEntry, Interpretation, Reference, Rule
from judge.codex.refs import chapter_of, is_rule_id


class Codex(Protocol):
    """What the checks read of a loaded `judge.codex.book.Codex` (which calls `run` on itself, so this
    module does not import it)."""

    chapters: list[Chapter]
    rules: dict[str, Rule]
    glossary: dict[str, GlossaryEntry]
    interpretations: dict[str, Interpretation]
    references: list[Reference]
    cited_absent: dict[str, list[str]]
    duplicates: list[str]
    name_clashes: list[tuple[str, str, str]]
    problems: list[dict]
    warnings: list[dict]

    @property
    def absent_terms(self) -> dict[str, list[str]]: ...


def run(codex: Codex) -> None:
    problems = codex.problems
    for dup in codex.duplicates:
        problems.append({"path": dup, "message": f"id {dup} appears more than once"})
    for name, first, second in codex.name_clashes:
        problems.append({"path": f"glossary/{second}", "message":
                         f"the name {name!r} is also a name of glossary/{first}"})
    _check_chapters(codex, problems)
    _check_rules(codex, problems)
    _check_glossary(codex, problems)
    _check_references(codex, problems)
    _check_interpretations(codex, problems)
    _check_numbering(codex, problems)
    for name, citers in sorted(codex.absent_terms.items()):
        codex.warnings.append({"path": ", ".join(f"{c} see also" for c in citers), "message":
                               f"{name!r} is cited but is not an entry of our glossary text"})


def _check_chapters(codex: Codex, problems: list[dict]) -> None:
    numbers = [c.number for c in codex.chapters]
    if sorted(numbers) != list(range(1, 19)):
        problems.append(
            {"path": "codex.yaml: chapters", "message": f"expected chapters 1..18 once each, got {numbers}"}
        )
    for chapter in codex.chapters:
        if chapter.present and not chapter.file:
            problems.append(
                {"path": f"codex.yaml: chapter {chapter.number}", "message": "present but no file"}
            )


def _check_rules(codex: Codex, problems: list[dict]) -> None:
    for rule in codex.rules.values():
        if not is_rule_id(rule.id) or chapter_of(rule.id) != rule.chapter:
            problems.append(
                {"path": rule.id, "message": f"malformed id for a rule of chapter {rule.chapter}"}
            )
        if rule.parent and not rule.id.startswith(rule.parent):
            problems.append(
                {"path": rule.id, "message": f"id does not start with its parent's {rule.parent}"}
            )
        if rule.numbered_by and rule.numbered_by not in codex.interpretations:
            problems.append(
                {
                    "path": rule.id,
                    "message": f"numbered by interpretation {rule.numbered_by!r}, which is missing",
                }
            )
        if rule.kind in {"rule", "item"} and not rule.text and not rule.empty_in_source:
            problems.append(
                {"path": rule.id, "message": "no text (mark empty_in_source if the source has none)"}
            )
        for example in rule.examples:
            for card in example.cards:
                if card not in example.text:
                    problems.append(
                        {"path": f"{rule.id} example", "message": f"card {card!r} not named in it"}
                    )


def _check_glossary(codex: Codex, problems: list[dict]) -> None:
    for slug, entry in codex.glossary.items():
        if slug != slugify(entry.term):
            problems.append({"path": entry.id, "message": f"slug should be {slugify(entry.term)!r}"})
        if not entry.short:
            problems.append({"path": entry.id, "message": "no short definition"})
        for target in entry.rules:
            if not is_rule_id(target):
                problems.append({"path": f"{entry.id} rules", "message": f"{target!r} is not a rule id"})


def _check_references(codex: Codex, problems: list[dict]) -> None:
    for ref in codex.references:
        if ref.present or ref.target in codex.cited_absent:
            continue
        if ref.how == "stands_in_for" and not is_rule_id(ref.target):
            continue  # a glossary entry, or malformed: _check_interpretations says which
        if not is_rule_id(ref.target):
            problems.append({"path": ref.source, "message": f"{ref.target!r} is not a rule id"})
        else:
            problems.append(
                {
                    "path": ref.source,
                    "message": f"cites {ref.target}, which is not in chapter {chapter_of(ref.target)} "
                    "as we have it",
                }
            )


STANDS_IN_FOR_FORM = ('rule ids of the Codex ("9.5.8", cited-but-absent ones too) or glossary entries '
                      '("glossary/leader")')


def _check_interpretations(codex: Codex, problems: list[dict]) -> None:
    """An interpretation says which rules or glossary entries it stands in for: at least one, each a
    rule id or an entry of our glossary."""
    for interp in codex.interpretations.values():
        where = f"{interp.ref}: stands_in_for"
        if not interp.stands_in_for:
            problems.append({"path": where, "message": f"empty: name the {STANDS_IN_FOR_FORM} this reading "
                                                       "stands in for"})
        for i, target in enumerate(interp.stands_in_for):
            if target.startswith("glossary/"):
                if target.removeprefix("glossary/") not in codex.glossary:
                    problems.append({"path": f"{where}[{i}]", "message": f"{target!r} is no entry of our "
                                                                       "glossary (glossary/<slug>)"})
            elif not is_rule_id(target):
                problems.append({"path": f"{where}[{i}]", "message": f"{target!r} is not one of the "
                                                                   f"{STANDS_IN_FOR_FORM}"})


def _check_numbering(codex: Codex, problems: list[dict]) -> None:
    """Chapter 11 (numbered by us): a rule is marked confirmed exactly when a reference from
    another rule or the glossary lands on it."""
    landed = {r.target for r in codex.references if r.how != "stands_in_for" and r.source != r.target}
    for rule in codex.rules.values():
        if rule.chapter != 11 or rule.kind != "rule":
            continue
        if rule.numbering not in {"confirmed", "inferred"}:
            problems.append(
                {"path": rule.id, "message": "chapter 11 rules need numbering: confirmed or inferred"}
            )
        elif (rule.numbering == "confirmed") != (rule.id in landed):
            state = "is cited" if rule.id in landed else "is cited by nothing"
            problems.append({"path": rule.id, "message": f"marked {rule.numbering} but {state}"})

