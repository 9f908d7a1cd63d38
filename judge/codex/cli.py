"""`judge codex-check` and `judge import-codex`."""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

import yaml

from judge import CODEX_DIR
from judge.codex.book import Codex
from judge.codex.importer import import_page
from judge.codex.loader import read_yaml
from judge.codex.model import CodexError


def codex_check(argv: list[str]) -> int:
    """Validate `codex/` and print counts per chapter. 0 ok, 1 problems found, 2 unreadable data."""
    parser = argparse.ArgumentParser(prog="judge codex-check", description=codex_check.__doc__)
    parser.add_argument(
        "--root", type=Path, default=CODEX_DIR, help="the codex folder (default: %(default)s)"
    )
    args = parser.parse_args(argv)
    try:
        codex = Codex(args.root)
    except CodexError as exc:
        print(f"codex-check: {exc}", file=sys.stderr)
        return 2
    present = sum(c.present for c in codex.chapters)
    print(f"Codex {codex.version}: {present} of {len(codex.chapters)} chapters present")
    header = (f"{'chapter':<8} {'sections':>8} {'rules':>6} {'sub-items':>9} {'examples':>8} "
              f"{'refs present':>12} {'cited-absent':>12}")
    print(header)
    for chapter in codex.chapters:
        if not chapter.present:
            continue
        kinds = Counter(r.kind for r in codex.rules.values() if r.chapter == chapter.number)
        examples = sum(len(r.examples) for r in codex.rules.values() if r.chapter == chapter.number)
        refs = [
            r
            for r in codex.references
            if r.source.split(".")[0].rstrip("abcdefghijklmnopqrstuvwxyz") == chapter.id
            and not r.source.startswith(("glossary/", "interpretation/"))
        ]
        print(
            f"{chapter.number:<8} {kinds['section']:>8} {kinds['rule']:>6} {kinds['item']:>9} {examples:>8} "
            f"{sum(r.present for r in refs):>12} {sum(not r.present for r in refs):>12}"
        )
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
    for warning in codex.warnings:
        print(f"warning: {warning['path']}: {warning['message']}")
    for problem in codex.problems:
        print(f"problem: {problem['path']}: {problem['message']}", file=sys.stderr)
    if codex.problems:
        print(f"codex-check: {len(codex.problems)} problem(s)", file=sys.stderr)
        return 1
    print("ok")
    return 0


def import_codex(argv: list[str]) -> int:
    """Turn a raw numbered chapter page (or the glossary page) into codex YAML."""
    parser = argparse.ArgumentParser(prog="judge import-codex", description=import_codex.__doc__)
    parser.add_argument("file", type=Path, help="the raw page, as copied off the web")
    parser.add_argument("-o", "--output", type=Path, help="write here instead of stdout")
    args = parser.parse_args(argv)

    try:
        text = args.file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        print(f"import-codex: can't read {args.file}: {exc}", file=sys.stderr)
        return 2
    try:
        data = import_page(text, known_cards())
    except CodexError as exc:
        print(f"import-codex: {args.file}: {exc}", file=sys.stderr)
        return 2
    out = f"# From {args.file.name} by `judge import-codex`.\n" + dump(data)
    if args.output:
        args.output.write_text(out, encoding="utf-8")
    else:
        sys.stdout.write(out)
    return 0


def known_cards() -> list[str]:
    """The card names codex/codex.yaml lists (`cards_named`); none when it can't be read."""
    try:
        data = read_yaml(CODEX_DIR / "codex.yaml")
    except (OSError, CodexError):
        return []
    return list((data if isinstance(data, dict) else {}).get("cards_named") or [])


def dump(data: dict) -> str:
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)
