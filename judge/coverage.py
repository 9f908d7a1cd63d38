"""`judge coverage`: which rules of chapters 10, 11 and 13 the library of rulings covers.

A ruling (a scenario file under `scenarios/`) *claims* the rule ids in its `expect.cites` and
its `rules:` list (an extension key). It *covers* a rule when it claims it and, when the engine
is available, its resolved trace cites it too (some step's or the rejection's `rules`).

    judge coverage                 # a table per chapter, then the uncovered rules
    judge coverage --json          # the same as one JSON object
    judge coverage --write-baseline  # store the covered ids in scenarios/coverage-baseline.yaml
    judge coverage --no-engine     # count claims only, without resolving anything

Rules with nothing a position can show are listed, each with its reason, in
`scenarios/untestable.yaml`; they are reported apart and never counted as covered.
The chapters' headings (a chapter or section title) are not rules to cover; every rule and
every sub-item (11.6.1a …) is.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from judge import ROOT, SCENARIOS_DIR, engine
from judge.codex import load_codex
from judge.codex.refs import chapter_of, is_rule_id
from judge.library import BASELINE_FILE, UNTESTABLE_FILE, ruling_files

CHAPTERS = (10, 11, 13)


class CoverageError(ValueError):
    """A file the coverage report reads is malformed; the message names the file and key."""


@dataclass(frozen=True)
class Ruling:
    """One scenario of the library, as far as coverage cares."""

    path: str                      # relative to the repository root
    claims: tuple[str, ...]        # expect.cites + rules, in order, without repeats
    trace: frozenset[str] | None = None   # the rule ids its resolved trace cites; None: not resolved
    error: str | None = None       # why it could not be resolved (the engine's message)

    def covers(self, rule_id: str) -> bool:
        if rule_id not in self.claims:
            return False
        return self.trace is None or rule_id in self.trace

    def unconfirmed(self) -> list[str]:
        """Claimed ids the resolved trace does not cite (empty when not resolved)."""
        if self.trace is None:
            return []
        return [rid for rid in self.claims if rid not in self.trace]


@dataclass
class Coverage:
    engine: bool                                     # were the traces checked?
    rules: dict[str, list[str]]                      # rule id -> paths of rulings covering it
    untestable: dict[str, str]                       # rule id -> reason
    rulings: list[Ruling] = field(default_factory=list)
    unknown: dict[str, list[str]] = field(default_factory=dict)  # ruling path -> unknown ids

    @property
    def covered(self) -> list[str]:
        return [rid for rid, paths in self.rules.items() if paths and rid not in self.untestable]

    @property
    def uncovered(self) -> list[str]:
        return [rid for rid, paths in self.rules.items() if not paths and rid not in self.untestable]

    def chapter(self, number: int) -> dict[str, Any]:
        ids = [rid for rid in self.rules if is_rule_id(rid) and chapter_of(rid) == number]
        untestable = [rid for rid in ids if rid in self.untestable]
        testable = [rid for rid in ids if rid not in self.untestable]
        covered = [rid for rid in testable if self.rules[rid]]
        share = len(covered) / len(testable) if testable else 1.0
        return {"chapter": number, "rules": len(ids), "testable": len(testable),
                "untestable": len(untestable), "covered": len(covered),
                "share": round(share, 4),
                "uncovered": [rid for rid in testable if not self.rules[rid]]}

    def to_dict(self) -> dict[str, Any]:
        return {
            "engine": self.engine,
            "chapters": [self.chapter(n) for n in CHAPTERS],
            "rules": {rid: paths for rid, paths in self.rules.items()},
            "untestable": self.untestable,
            "uncovered": self.uncovered,
            "rulings": len(self.rulings),
            "unresolved": {r.path: r.error for r in self.rulings if r.error},
            "unconfirmed": {r.path: r.unconfirmed() for r in self.rulings if r.unconfirmed()},
            "unknown": self.unknown,
        }


def chapter_rule_ids(codex: Any, chapters: Iterable[int] = CHAPTERS) -> list[str]:
    """Every rule and sub-item of the chapters, in Codex order (headings left out)."""
    wanted = set(chapters)
    return [rid for rid, rule in codex.rules.items()
            if rule.chapter in wanted and not rule.is_heading]


def _rel(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(ROOT.resolve()))
    except ValueError:
        return str(path)


def _id_list(value: Any, where: str) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, str | int | float) for v in value):
        raise CoverageError(f"{where}: expected a list of rule ids, got {value!r}")
    return [str(v) for v in value]


def read_claims(path: Path) -> tuple[str, ...]:
    """The rule ids a scenario file claims: `expect.cites` then `rules`, without repeats."""
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        raise CoverageError(f"{_rel(path)}: not valid YAML ({exc})") from exc
    if not isinstance(data, dict):
        raise CoverageError(f"{_rel(path)}: expected a scenario mapping")
    expect = data.get("expect") or {}
    if not isinstance(expect, dict):
        raise CoverageError(f"{_rel(path)}: expect: expected a mapping")
    ids = _id_list(expect.get("cites"), f"{_rel(path)}: expect.cites")
    ids += _id_list(data.get("rules"), f"{_rel(path)}: rules")
    return tuple(dict.fromkeys(ids))


def scenario_files(root: Path = SCENARIOS_DIR) -> list[Path]:
    return ruling_files(root)


def load_untestable(path: Path = UNTESTABLE_FILE) -> dict[str, str]:
    """`scenarios/untestable.yaml`: a list of {id, reason}."""
    if not path.exists():
        return {}
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or []
    if isinstance(data, dict):
        data = data.get("rules", [])
    out: dict[str, str] = {}
    for i, item in enumerate(data if isinstance(data, list) else [None]):
        if not isinstance(item, dict) or not item.get("id") or not item.get("reason"):
            raise CoverageError(f"{_rel(path)}[{i}]: expected {{id: RULE, reason: TEXT}}")
        out[str(item["id"])] = str(item["reason"]).strip()
    return out


def load_baseline(path: Path = BASELINE_FILE) -> list[str]:
    """The covered rule ids recorded in the baseline."""
    if not path.exists():
        return []
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    return _id_list(data.get("covered") if isinstance(data, dict) else data, _rel(path))


def load_trace_gaps(path: Path = BASELINE_FILE) -> dict[str, list[str]]:
    """The known claims the engine's traces don't cite yet (ruling path -> ids), from the baseline."""
    if not path.exists():
        return {}
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    gaps = data.get("trace_gaps") if isinstance(data, dict) else None
    return {str(k): _id_list(v, f"{_rel(path)}: trace_gaps.{k}") for k, v in (gaps or {}).items()}


def write_baseline(coverage: Coverage, path: Path = BASELINE_FILE) -> None:
    lines = ["# Written by `judge coverage --write-baseline`; tests/test_coverage.py reads it.",
             "# covered: the rule ids the library covers; a test fails when one loses its last ruling.",
             "# trace_gaps: claims (expect.cites / rules) the engine's trace does not cite yet; each is",
             "# an engine gap or an over-claim to look at. A test fails on any claim missing from the",
             "# trace that is not listed here.",
             f"# Written {'with' if coverage.engine else 'without'} the engine's traces.",
             "covered:"]
    lines += [f'  - "{rid}"' for rid in coverage.covered]
    gaps = {r.path: r.unconfirmed() for r in coverage.rulings if r.unconfirmed()}
    lines.append("trace_gaps:" + ("" if gaps else " {}"))
    for rel, ids in gaps.items():
        lines.append(f"  {rel}: [{', '.join(json.dumps(i) for i in ids)}]")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def trace_ids(ruling: dict[str, Any]) -> frozenset[str]:
    """Every rule id a ruling (contract §5) cites: each step's and the rejection's `rules`."""
    ids: set[str] = set()
    for step in ruling.get("steps") or []:
        ids.update(str(r) for r in step.get("rules") or [])
    rejected = ruling.get("rejected")
    if isinstance(rejected, dict):
        ids.update(str(r) for r in rejected.get("rules") or [])
    return frozenset(ids)


def resolve_trace(api: Any, path: Path) -> tuple[frozenset[str] | None, str | None]:
    try:
        scenario = api.load_scenario(path.read_text(encoding="utf-8"), source=_rel(path))
        return trace_ids(api.resolve(scenario)), None
    except Exception as exc:  # noqa: BLE001 - any engine failure is reported, not raised
        return frozenset(), f"{type(exc).__name__}: {exc}"


def compute(root: Path = SCENARIOS_DIR, *, use_engine: bool = True, codex: Any = None,
            untestable: dict[str, str] | None = None) -> Coverage:
    """The coverage of the rules of chapters 10, 11 and 13 by the rulings under `root`."""
    if codex is None:
        codex = load_codex()
    untestable = load_untestable() if untestable is None else untestable
    api = engine if use_engine else None
    rulings = []
    for path in scenario_files(root):
        claims = read_claims(path)
        trace, error = resolve_trace(api, path) if api is not None else (None, None)
        rulings.append(Ruling(_rel(path), claims, trace, error))
    rules: dict[str, list[str]] = {rid: [] for rid in chapter_rule_ids(codex)}
    unknown: dict[str, list[str]] = {}
    for ruling in rulings:
        bad = [rid for rid in ruling.claims if not codex.knows(rid)]
        if bad:
            unknown[ruling.path] = bad
        for rid in ruling.claims:
            if rid in rules and ruling.covers(rid):
                rules[rid].append(ruling.path)
    return Coverage(engine=api is not None, rules=rules, untestable=untestable, rulings=rulings,
                    unknown=unknown)


def render(coverage: Coverage) -> str:
    how = "claims confirmed by the engine's traces" if coverage.engine else "claims only: traces not checked"
    out = [f"Coverage of chapters 10, 11 and 13 by {len(coverage.rulings)} rulings ({how})", ""]
    out.append(f"{'chapter':<8} {'covered':>8} {'testable':>9} {'share':>7} {'untestable':>11}")
    for n in CHAPTERS:
        ch = coverage.chapter(n)
        out.append(
            f"{n:<8} {ch['covered']:>8} {ch['testable']:>9} {ch['share']:>7.0%} {ch['untestable']:>11}"
        )
    if coverage.uncovered:
        out += ["", "Uncovered:"] + [f"  {rid}" for rid in coverage.uncovered]
    if coverage.untestable:
        out += ["", "Untestable (scenarios/untestable.yaml):"]
        out += [f"  {rid}: {reason}" for rid, reason in coverage.untestable.items()]
    for ruling in coverage.rulings:
        if ruling.error:
            out.append(f"unresolved: {ruling.path}: {ruling.error}")
        elif ruling.unconfirmed():
            out.append(f"not in trace: {ruling.path}: {', '.join(ruling.unconfirmed())}")
    for path, ids in coverage.unknown.items():
        out.append(f"unknown ids: {path}: {', '.join(ids)}")
    return "\n".join(out)


def run(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="judge coverage", description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--write-baseline", action="store_true",
                        help=f"store the covered ids in {_rel(BASELINE_FILE)}")
    parser.add_argument("--no-engine", action="store_true", help="count claims only")
    parser.add_argument("--dir", type=Path, default=SCENARIOS_DIR, help="the library (default: scenarios/)")
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return 0 if exc.code == 0 else 2
    if not args.dir.is_dir():
        print(f"judge coverage: no such folder {args.dir}", file=sys.stderr)
        return 2
    try:
        coverage = compute(args.dir, use_engine=not args.no_engine)
    except CoverageError as exc:
        print(f"judge coverage: {exc}", file=sys.stderr)
        return 2
    if args.write_baseline:
        write_baseline(coverage)
    print(json.dumps(coverage.to_dict(), indent=2) if args.json else render(coverage))
    return 1 if coverage.unknown else 0
