"""`judge read "TEXT"` and `judge ask "TEXT"`: a dispute in words, read into a scenario (printed back
with every default marked) and, for `ask`, ruled, the answer first. Exit 2 with the problems when the
reader declines (words it can't read, or two readings it can't choose between)."""

from __future__ import annotations

import argparse
import json
import sys

import yaml

from judge.commands.resolve import readable
from judge.engine import load_scenario
from judge.engine import resolve as resolve_scenario
from judge.reading import Declined, Reading, read_dispute


def _read(prog: str, what: str, argv: list[str]) -> tuple[argparse.Namespace, Reading] | int:
    parser = argparse.ArgumentParser(prog=f"judge {prog}", description=what)
    parser.add_argument(
        "text", nargs="+", help="the dispute in words (quote it, or give it as several words)"
    )
    parser.add_argument(
        "--as", dest="speaker", choices=("A", "B"), help="who is speaking: whose “my” and “your” are"
    )
    parser.add_argument("--json", action="store_true", help="print JSON")
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return 0 if exc.code == 0 else 2
    text = " ".join(args.text)
    try:
        return args, read_dispute(text, speaker=args.speaker)
    except Declined as exc:
        if args.json:
            print(json.dumps({"problems": [p.to_dict() for p in exc.problems]}, indent=2, ensure_ascii=False))
        else:
            print(f"judge {prog}: the dispute can't be read for certain:", file=sys.stderr)
            for p in exc.problems:
                print(f"  - {p.message}", file=sys.stderr)
        return 2


def read(argv: list[str]) -> int:
    got = _read("read", "Read a dispute in words into a scenario and print the reading.", argv)
    if isinstance(got, int):
        return got
    args, reading = got
    if args.json:
        print(json.dumps(reading.to_dict(), indent=2, ensure_ascii=False))
        return 0
    print(reading.reading)
    print()
    print(yaml.safe_dump(reading.scenario, sort_keys=False, allow_unicode=True, width=110).rstrip())
    return 0


def ask(argv: list[str]) -> int:
    got = _read("ask", "Read a dispute in words and rule on it, the answer first.", argv)
    if isinstance(got, int):
        return got
    args, reading = got
    ruling = resolve_scenario(load_scenario(reading.scenario, source="the dispute as read"))
    if args.json:
        print(json.dumps({**reading.to_dict(), "ruling": ruling}, indent=2, ensure_ascii=False))
        return 0
    print(readable(ruling, "", reading.text))
    print("As read:")
    print(reading.reading)
    return 0
