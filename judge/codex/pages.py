"""Plain, JSON-serialisable page contexts for the Codex pages (the HTML page and its JSON twin
are built from the same dict). Links are ids here; templates turn them into links."""

from __future__ import annotations

from itertools import groupby
from typing import Any

from judge.codex.book import Codex
from judge.codex.model import GlossaryEntry, Interpretation, Reference, Rule
from judge.codex.refs import chapter_of, sort_key


def rule_record(codex: Codex, rule: Rule, deep: bool = False) -> dict[str, Any]:
    """One rule (chapter, section, rule or item) with its sub-items, examples and notes; with
    `deep`, a chapter or section also carries everything under it."""
    record: dict[str, Any] = {"id": rule.id, "kind": rule.kind, "text": rule.text}
    if rule.kind == "chapter" and rule.intro:
        record["intro"] = rule.intro
    if rule.kind in {"chapter", "section"}:
        record["title_given"] = rule.title_given
    if rule.numbering:
        record["numbering"] = rule.numbering
    if rule.numbered_by:
        record["numbered_by"] = rule.numbered_by
    if rule.empty_in_source:
        record["empty_in_source"] = True
    if rule.examples:
        record["examples"] = [{"text": e.text, "cards": list(e.cards)} for e in rule.examples]
    if rule.notes:
        record["notes"] = list(rule.notes)
    if rule.kind == "rule" and rule.children:
        record["items"] = [rule_record(codex, codex.rules[c]) for c in rule.children if c in codex.rules]
    elif deep and rule.kind in {"chapter", "section"}:
        key = "sections" if rule.kind == "chapter" else "rules"
        record[key] = [
            rule_record(codex, codex.rules[c], deep=True) for c in rule.children if c in codex.rules
        ]
    return record


def citer_record(codex: Codex, ref: Reference, target_in_record: bool = False) -> dict[str, Any]:
    record = {"id": ref.source, "short": codex.short(ref.source), "sentence": ref.sentence, "how": ref.how}
    if target_in_record:
        record["cites"] = ref.target
    return record


def rule_page(codex: Codex, rule_id: str) -> dict[str, Any]:
    """A present rule, section or chapter: its text, where it sits, neighbours, cites, cited by."""
    rule = codex.rules[rule_id]
    within = [rule_id] + [r.id for r in codex.descendants(rule_id)]
    cites = [ref for rid in within for ref in codex.cites(rid)]
    cited_by = [ref for rid in within for ref in codex.cited_by(rid) if ref.how != "stands_in_for"]
    previous, following = codex.neighbours(rule_id)
    chapter = codex.chapter(rule.chapter)
    section = codex.rules.get(rule.section or "") if rule.kind in {"rule", "item"} else None
    return {
        "status": "present",
        "rule": rule_record(codex, rule, deep=True),
        "chapter": {"number": chapter.number, "title": chapter.title, "title_given": chapter.title_given}
        if chapter else None,
        "section": {"id": section.id, "title": section.text} if section else None,
        "parent": rule.parent,
        "previous": previous,
        "next": following,
        "cites": [{"id": r.target, "from": r.source, "present": r.present, "short": codex.short(r.target)}
                  for r in dict.fromkeys(cites)],
        "cited_by": [citer_record(codex, r, target_in_record=len(within) > 1) for r in cited_by],
        "interpretations": [interpretation_record(i) for i in codex.interpretations_for(rule_id)],
        "numbering_interpretation": rule.numbered_by,
    }


def absent_page(codex: Codex, rule_id: str) -> dict[str, Any]:
    """A rule cited by our texts (or an absent chapter) whose text we don't have."""
    chapter = codex.chapter(chapter_of(rule_id))
    cited_by = [r for r in codex.cited_by(rule_id) if r.how != "stands_in_for"]
    prefix = rule_id.rsplit(".", 1)[0] + "." if "." in rule_id else rule_id + "."
    nearby = [rid for rid in codex.cited_absent if rid.startswith(prefix) and rid != rule_id]
    return {
        "status": "cited-absent" if rule_id in codex.cited_absent else "absent",
        "rule": {"id": rule_id, "kind": "chapter" if rule_id.isdigit() else "rule", "text": None},
        "chapter": {"number": chapter.number, "title": chapter.title, "present": chapter.present}
        if chapter else None,
        "cited_by": [citer_record(codex, r) for r in cited_by],
        "glossary": codex.subject_entries(rule_id),
        "nearby": nearby,
        "interpretations": [interpretation_record(i) for i in codex.interpretations_for(rule_id)],
    }


def index_page(codex: Codex) -> dict[str, Any]:
    return {
        "version": codex.version,
        "chapters": [
            {
                "number": c.number,
                "title": c.title,
                "title_given": c.title_given,
                "present": c.present,
                "cited": c.id in codex.cited_absent
                or any(chapter_of(i) == c.number for i in codex.cited_absent),
            }
            for c in codex.chapters
        ],
        "glossary": glossary_letters(codex),
        "interpretations": len(codex.interpretations),
        "cited_absent": len(codex.cited_absent),
    }


def glossary_letters(codex: Codex) -> list[dict[str, Any]]:
    entries = sorted(codex.glossary.values(), key=lambda e: e.term.lower())
    return [{"letter": letter, "entries": [{"slug": e.slug, "term": e.term, "aliases": list(e.aliases),
                                            "short": e.short} for e in group]}
            for letter, group in groupby(entries, key=lambda e: e.letter)]


def entry_record(entry: GlossaryEntry) -> dict[str, Any]:
    return {"term": entry.term, "slug": entry.slug, "id": entry.id, "aliases": list(entry.aliases),
            "short": entry.short, "body": list(entry.body), "see_also": list(entry.see_also),
            "rules": list(entry.rules)}


def entry_page(codex: Codex, entry: GlossaryEntry) -> dict[str, Any]:
    see_also = [{"name": name, "slug": found.slug if found else None}
                for name in entry.see_also for found in [codex.entry(name)]]
    return {
        "entry": entry_record(entry),
        "see_also": see_also,
        "rules": [{"id": r, "present": r in codex.rules, "short": codex.short(r)} for r in entry.rules],
        "used_in": [{"id": r, "short": codex.short(r)} for r in codex.used_in(entry.slug)],
        "mentioned_by": codex.mentioned_by(entry.slug),
    }


def interpretation_record(interp: Interpretation) -> dict[str, Any]:
    return {"id": interp.id, "ours": True, "question": interp.question, "reading": interp.reading,
            "why": interp.why, "stands_in_for": sorted(interp.stands_in_for, key=sort_key),
            **({"extra": interp.extra} if interp.extra else {})}
