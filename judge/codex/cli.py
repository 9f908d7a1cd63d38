"""`judge codex-check` and `judge import-codex`."""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from datetime import date
from pathlib import Path

import yaml

from judge.codex.book import Codex, load_codex
from judge.codex.edition_import import import_edition
from judge.codex.editions import editions
from judge.codex.importer import import_page
from judge.codex.model import Chapter, CodexError


def codex_check(argv: list[str]) -> int:
    """Validate `codex/` and print counts per chapter. 0 ok, 1 problems found, 2 unreadable data."""
    parser = argparse.ArgumentParser(prog="judge codex-check", description=codex_check.__doc__)
    parser.add_argument("--root", type=Path, help="an edition's folder (default: the current edition's)")
    parser.add_argument("--edition", help="check this edition (default: the current one)")
    args = parser.parse_args(argv)
    try:
        codex = Codex(args.root or editions().folder(args.edition))
    except CodexError as exc:
        print(f"codex-check: {exc}", file=sys.stderr)
        return 2
    _print_counts(codex)
    for warning in codex.warnings:
        print(f"warning: {warning['path']}: {warning['message']}")
    for problem in codex.problems:
        print(f"problem: {problem['path']}: {problem['message']}", file=sys.stderr)
    if codex.problems:
        print(f"codex-check: {len(codex.problems)} problem(s)", file=sys.stderr)
        return 1
    print("ok")
    return 0


def _print_counts(codex: Codex) -> None:
    """The table of counts per chapter, then the glossary's, the absent rules' and chapter 11's."""
    present = sum(c.present for c in codex.chapters)
    print(f"Codex {codex.version}: {present} of {len(codex.chapters)} chapters present")
    header = (f"{'chapter':<8} {'sections':>8} {'rules':>6} {'sub-items':>9} {'examples':>8} "
              f"{'refs present':>12} {'cited-absent':>12}")
    print(header)
    for chapter in codex.chapters:
        if chapter.present:
            print(_chapter_row(codex, chapter))
    grefs = [r for r in codex.references if r.source.startswith("glossary/")]
    print(
        f"{'glossary':<8} {len(codex.glossary)} entries, "
        f"{sum(len(e.aliases) for e in codex.glossary.values())} aliases; "
        f"refs present {sum(r.present for r in grefs)}, cited-absent {sum(not r.present for r in grefs)}"
    )
    print(f"cited-but-absent rules: {len(codex.cited_absent)} ({', '.join(codex.cited_absent)})")
    confirmed = [
        r.id
        for r in codex.rules.values()
        if r.chapter == 11 and r.kind == "rule" and r.numbering == "confirmed"
    ]
    print(f"chapter 11 numbering: {len(confirmed)} confirmed ({', '.join(confirmed)}), the rest inferred")
    print(f"interpretations: {len(codex.interpretations)}")


def _chapter_row(codex: Codex, chapter: Chapter) -> str:
    kinds = Counter(r.kind for r in codex.rules.values() if r.chapter == chapter.number)
    examples = sum(len(r.examples) for r in codex.rules.values() if r.chapter == chapter.number)
    refs = [
        r
        for r in codex.references
        if r.source.split(".")[0].rstrip("abcdefghijklmnopqrstuvwxyz") == chapter.id
        and not r.source.startswith(("glossary/", "interpretation/"))
    ]
    return (f"{chapter.number:<8} {kinds['section']:>8} {kinds['rule']:>6} {kinds['item']:>9} {examples:>8} "
            f"{sum(r.present for r in refs):>12} {sum(not r.present for r in refs):>12}")


def import_codex(argv: list[str]) -> int:
    """Turn raw Codex pages into codex YAML: one page to stdout (or -o), or with --edition a whole
    new edition under codex/editions/<version>/. 0 ok, 1 written but something could not be placed,
    2 unreadable input."""
    parser = argparse.ArgumentParser(prog="judge import-codex", description=import_codex.__doc__)
    parser.add_argument("files", type=Path, nargs="+", metavar="file",
                        help="raw pages as copied off the web (with --edition: numbers.yaml, field.yaml)")
    parser.add_argument("-o", "--output", type=Path, help="one page: write here instead of stdout")
    parser.add_argument("--edition", help="write a whole edition with this version (e.g. 0.4.1)")
    parser.add_argument("--from", dest="base", help="the edition to build on (default: the current one)")
    parser.add_argument("--date", default="", help="the edition's date (default: today)")
    parser.add_argument("--current", action="store_true", help="make the new edition the current one")
    args = parser.parse_args(argv)
    if args.edition:
        return _import_edition(args)
    if len(args.files) != 1:
        print("import-codex: give one page, or --edition VERSION with an edition's pages", file=sys.stderr)
        return 2
    path = args.files[0]
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        print(f"import-codex: can't read {path}: {exc}", file=sys.stderr)
        return 2
    try:
        data = import_page(text, known_cards())
    except CodexError as exc:
        print(f"import-codex: {path}: {exc}", file=sys.stderr)
        return 2
    out = f"# From {path.name} by `judge import-codex`.\n" + dump(data)
    if args.output:
        args.output.write_text(out, encoding="utf-8")
    else:
        sys.stdout.write(out)
    return 0


def _import_edition(args: argparse.Namespace) -> int:
    try:
        report = import_edition(args.edition, args.files, base=args.base,
                                date=args.date or date.today().isoformat(), make_current=args.current)
    except CodexError as exc:
        print(f"import-codex: {exc}", file=sys.stderr)
        return 2
    print(f"Codex {report.version} (built on {report.base}) written to {report.folder}"
          + (" and made current" if args.current else ""))
    for name in report.written:
        print(f"  written: {name}")
    for name in report.kept:
        print(f"  kept:    {name}")
    for item in report.unplaced:
        print(f"  could not place: {item['file']}: {item['what']}")
    for problem in report.problems:
        print(f"  problem: {problem['path']}: {problem['message']}")
    if not report.clean:
        print(f"import-codex: {len(report.unplaced)} thing(s) not placed, {len(report.problems)} problem(s) "
              f"in the new edition (see `judge codex-check --edition {report.version}`)", file=sys.stderr)
        return 1
    return 0


def known_cards() -> list[str]:
    """The card names the current edition's codex.yaml lists (`cards_named`); none when it can't be read."""
    try:
        return list(load_codex().cards_named)
    except (OSError, CodexError):
        return []


def dump(data: dict) -> str:
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)
