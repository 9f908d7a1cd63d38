"""`judge read-card TEXT [--type soul|event|armament|ambush|realm] [--json]`: a card's printed text read
into its `keywords` and `effects` (contract §3), printed as YAML (or JSON) with the writer's words for
what was read. Exit 0, or 2 with the problems when the text can't be read."""

from __future__ import annotations

import argparse
import json
import sys

import yaml

from judge.engine import read_card_text, write_card_text

TYPES = ("soul", "event", "armament", "ambush", "realm")


def read_card(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="judge read-card", description=__doc__)
    parser.add_argument("text", help="the card's text as printed, in quotes")
    parser.add_argument("--type", choices=TYPES, default="soul", help="the card's type (default: soul)")
    parser.add_argument("--json", action="store_true", help='print {"keywords": [...], "effects": [...]}')
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return 2 if exc.code else 0
    reading = read_card_text(args.text, args.type)
    if reading.problems:
        if args.json:
            print(json.dumps({"ok": False, "problems": [p.to_dict() for p in reading.problems]},
                             ensure_ascii=False, indent=2))
        for problem in reading.problems:
            print(f"judge read-card: {problem.text}", file=sys.stderr)
        return 2
    data = reading.card_data()
    if reading.values:
        data["values"] = reading.values
    if args.json:
        print(json.dumps(data, ensure_ascii=False, indent=2))
        return 0
    print(yaml.safe_dump(data, sort_keys=False, allow_unicode=True).rstrip())
    words = write_card_text(reading.keywords, reading.effects, args.type, reading.caster, reading.ambusher,
                            reading.values)
    print(f"# reads as: {words}")
    for fix in reading.corrections:
        print(f"# read {fix.written!r} (at {fix.offset}) as {fix.read_as!r}")
    return 0
