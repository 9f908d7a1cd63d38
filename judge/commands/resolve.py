"""`judge resolve FILE [--json]` and `judge check DIR` (contract §5, §6).

Exit codes: 0 when every expectation holds (or there is none), 1 when one fails, 2 when a file is
invalid (the message names the key path) or the arguments are wrong.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from judge import engine
from judge.codex import load_codex
from judge.engine import Budget, ScenarioError, budget, load_scenario, load_scenario_file, read_scenario_file
from judge.engine import resolve as resolve_scenario

# Data files the library keeps beside its scenarios (judge coverage reads them).
NOT_SCENARIOS = {"untestable.yaml", "coverage-baseline.yaml"}


def _parser(prog: str, what: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=f"judge {prog}", description=what)
    parser.add_argument("--edition", help="judge under this Codex edition (default: the scenario's codex:, "
                                          "else the current edition)")
    return parser


def _arguments(parser: argparse.ArgumentParser, argv: list[str]) -> argparse.Namespace | int:
    """The parsed arguments, or the exit code: 0 after --help, 2 for bad arguments or an `--edition`
    we don't hold (said on stderr)."""
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return 0 if exc.code == 0 else 2
    version = args.edition
    if version and not engine.known(version):
        print(f"{parser.prog}: --edition: no Codex edition {version!r}; we hold {', '.join(engine.held())}",
              file=sys.stderr)
        return 2
    return args


def resolve(argv: list[str]) -> int:
    parser = _parser("resolve", "Resolve a scenario file into a ruling.")
    parser.add_argument("file", help="a scenario (.yaml)")
    parser.add_argument("--json", action="store_true", help="print the ruling as JSON (contract §5)")
    parser.add_argument("--snapshots", action="store_true", help="with --json: the state after every step")
    parser.add_argument("--budget", type=float, metavar="SECONDS", default=None,
                        help="stop the resolution after this many seconds (a ruling that says where it "
                             "stopped)")
    args = _arguments(parser, argv)
    if isinstance(args, int):
        return args
    try:
        scenario = load_scenario_file(args.file)
    except ScenarioError as exc:
        print(exc.describe(), file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"judge resolve: can't read {args.file}: {exc.strerror}", file=sys.stderr)
        return 2
    if args.budget is not None:
        with budget.limit(Budget(seconds=args.budget, steps=10**9)):
            ruling = resolve_scenario(scenario, snapshots=args.snapshots, edition=args.edition)
    else:
        ruling = resolve_scenario(scenario, snapshots=args.snapshots, edition=args.edition)
    if args.json:
        print(json.dumps(ruling, indent=2, ensure_ascii=False))
    else:
        print(readable(ruling, scenario.title, scenario.question))
    exp = ruling.get("expect")
    return 1 if exp is not None and not exp["passed"] else 0


def shown(rules: list[str]) -> str:
    """Rule ids as a reader finds them in the Codex (codex.label): "13.6.7, 3rd point", "11.3.1
    (inferred)", "our reading: capture timing"; glossary entries keep their "glossary/" address."""
    codex = load_codex()
    return "; ".join(r if r.startswith("glossary/") else codex.label(r) for r in rules)


def readable(ruling: dict[str, Any], title: str = "", question: str = "") -> str:
    """The trace as a judge would read it aloud."""
    lines = [f"{ruling['scenario']}" + (f" — {title}" if title else "") + f"  (Codex {ruling['codex']})"]
    if question:
        lines.append(" ".join(question.split()))
    lines.append("")
    for answer in ruling.get("answers") or []:   # the answers first, verdict first (contract §7)
        asked = "The likeliest question" if answer.get("default") else "Asked"
        lines.append(f"{asked}: {answer['question']}")
        where = f" (step {answer['step']})" if answer.get("step") else ""
        rules = f"  [{shown(answer['rules'])}]" if answer.get("rules") else ""
        lines.append(f"Answer{where}: {answer['text']}{rules}")
        lines.append("")
    for step in ruling["steps"]:
        rules = f"  [{shown(step['rules'])}]" if step["rules"] else ""
        lines.append(f"Step {step['n']} — {step['text']}{rules}")
    lines.append("")
    if ruling.get("rejected"):
        rej = ruling["rejected"]
        lines.append(f"Rejected: action {rej['action']}: {rej['text']}  [{shown(rej['rules'])}]")
    if ruling.get("winner"):
        lines.append(f"Winner: {ruling['winner']}")
    exp = ruling.get("expect")
    if exp is not None:
        if exp["passed"]:
            lines.append("Expectations: all hold.")
        else:
            lines.append("Expectations FAILED:")
            lines += [f"  - {f}" for f in exp["failures"]]
    return "\n".join(lines)


def check(argv: list[str]) -> int:
    parser = _parser("check", "Resolve every scenario under a folder and check its expectations.")
    parser.add_argument("dir", help="a folder of scenarios (searched recursively for .yaml files)")
    args = _arguments(parser, argv)
    if isinstance(args, int):
        return args
    root = Path(args.dir)
    if not root.is_dir():
        print(f"judge check: {args.dir} is not a folder", file=sys.stderr)
        return 2
    files = sorted(p for p in root.rglob("*.yaml") if p.is_file() and p.name not in NOT_SCENARIOS)
    passed = failed = 0
    invalid = False
    for path in files:
        name = path.relative_to(root).as_posix()
        found = check_file(path, args.edition)
        if found is None:
            print(f"SKIP  {name}  (not a scenario: no state: or actions:)")
            continue
        ok, line, bad_file = found
        print(f"{'PASS' if ok else 'FAIL'}  {name}{line}")
        if ok:
            passed += 1
        else:
            failed += 1
            invalid = invalid or bad_file
    print(f"{passed} passed, {failed} failed")
    if invalid:
        return 2
    return 1 if failed else 0


SCENARIO_KEYS = ("state", "actions")


def is_scenario(data: Any) -> bool:
    """Data files that live beside the scenarios (a coverage baseline, a list of untestable rules)
    have neither `state:` nor `actions:` at the top; anything else is checked as a scenario, so a
    broken scenario is never skipped."""
    if isinstance(data, list):
        return False
    return not isinstance(data, dict) or any(k in data for k in SCENARIO_KEYS) or not data


def is_scenario_file(path: Path) -> bool:
    """`is_scenario` of a file's data; a file that can't be read or parsed counts as a scenario."""
    try:
        data = read_scenario_file(path)
    except ScenarioError:
        return True
    return is_scenario(data)


def check_file(path: Path, version: str | None = None) -> tuple[bool, str, bool] | None:
    """(passed, the rest of the report line, whether the file itself is invalid), judged under the
    edition `version` (None: the scenario's own); None for a data file that is not a scenario. The
    file is read and parsed once."""
    try:
        data = read_scenario_file(path)
        if not is_scenario(data):
            return None
        scenario = load_scenario(data, source=str(path))
    except ScenarioError as exc:
        first = exc.problems[0] if exc.problems else {"path": "", "message": str(exc)}
        more = f" (+{len(exc.problems) - 1} more)" if len(exc.problems) > 1 else ""
        return False, f"  invalid: {first.get('path') or '(top)'}: {first['message']}{more}", True
    ruling = resolve_scenario(scenario, edition=version)
    exp = ruling.get("expect")
    if ruling.get("loop"):
        return False, "  stopped: the resolution does not end (step cap)", False
    if exp is None:
        return True, "  (no expectations)", False
    if exp["passed"]:
        return True, "", False
    return False, "  " + "; ".join(exp["failures"]), False
