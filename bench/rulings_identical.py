"""Every library ruling, byte for byte: resolve each scenario under scenarios/ in-process, as
`judge resolve --json` prints it, and compare with a baseline folder (one file per scenario: its path
with / replaced by _, plus .json). With --write, write that baseline folder instead.

    python bench/rulings_identical.py BASELINE_DIR          # exit 1 and a diff when one differs
    python bench/rulings_identical.py --write BASELINE_DIR  # record the rulings of this checkout
    python bench/rulings_identical.py --added answers BASELINE_DIR
        # a change that adds a key to every ruling: each ruling has it, and without it each is identical

Run it before a refactoring (--write) and after every change (compare): a reshaping of the engine
must not change a single ruling.
"""

from __future__ import annotations

import argparse
import difflib
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from judge.commands.resolve import NOT_SCENARIOS, is_scenario_file
from judge.engine import ScenarioError, load_scenario_file
from judge.engine.driver.resolve import resolve


def library_files(root: Path) -> list[Path]:
    """The scenarios `judge check scenarios/` resolves, in its order."""
    scenarios = root / "scenarios"
    return sorted(p for p in scenarios.rglob("*.yaml")
                  if p.is_file() and p.name not in NOT_SCENARIOS and is_scenario_file(p))


def ruling_text(path: Path, without: str | None = None, without_step: str | None = None) -> str:
    """What `judge resolve --json FILE` prints (with its final newline); an invalid file gives its
    error message, so a change there shows too. With `without`, that top-level key is taken out (a
    ruling that lacks it says so)."""
    try:
        scenario = load_scenario_file(path)
    except ScenarioError as exc:
        return f"invalid: {exc.describe()}\n"
    ruling = resolve(scenario)
    if without is not None:
        if without not in ruling:
            return f"no {without!r} key in this ruling\n"
        del ruling[without]
    if without_step is not None:
        for item in (ruling.get("steps") or []) + (ruling.get("answers") or []):
            item.pop(without_step, None)
    return json.dumps(ruling, indent=2, ensure_ascii=False) + "\n"


def baseline_name(path: Path, root: Path) -> str:
    return path.relative_to(root).as_posix().replace("/", "_") + ".json"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("baseline", help="the folder of recorded rulings")
    parser.add_argument("--write", action="store_true", help="record this checkout's rulings into it")
    parser.add_argument("--root", default=str(ROOT), help="the checkout whose scenarios/ to read")
    parser.add_argument("--added", metavar="KEY", help="every ruling gains this top-level key: compare the "
                                                        "rulings without it (and fail where it is missing)")
    parser.add_argument("--added-to-steps", metavar="KEY", help="steps and answers gain this key: compare "
                                                                  "the rulings without it")
    parser.add_argument("--diff-lines", type=int, default=40, help="diff lines shown per differing ruling")
    args = parser.parse_args(argv)
    root = Path(args.root).resolve()
    folder = Path(args.baseline)
    files = library_files(root)
    if args.write:
        folder.mkdir(parents=True, exist_ok=True)
        for path in files:
            (folder / baseline_name(path, root)).write_text(ruling_text(path), encoding="utf-8")
        print(f"wrote {len(files)} rulings to {folder}")
        return 0
    if not folder.is_dir():
        print(f"rulings_identical: {folder} is not a folder", file=sys.stderr)
        return 2
    differ, missing = [], []
    for path in files:
        recorded = folder / baseline_name(path, root)
        if not recorded.is_file():
            missing.append(recorded.name)
            continue
        before = recorded.read_text(encoding="utf-8")
        after = ruling_text(path, args.added, args.added_to_steps)
        if before != after:
            differ.append(recorded.name)
            diff = list(difflib.unified_diff(before.splitlines(), after.splitlines(),
                                             f"before/{recorded.name}", f"after/{recorded.name}",
                                             lineterm=""))
            print("\n".join(diff[:args.diff_lines]))
            if len(diff) > args.diff_lines:
                print(f"... ({len(diff) - args.diff_lines} more diff lines)")
    extra = {p.name for p in folder.glob("*.json")} - {baseline_name(p, root) for p in files}
    for name in sorted(extra):
        print(f"in the baseline only (scenario gone?): {name}")
    for name in missing:
        print(f"not in the baseline (new scenario?): {name}")
    same = len(files) - len(differ) - len(missing)
    added = f" once their {args.added!r} key is taken out (every ruling has one)" if args.added else ""
    print(f"{same} of {len(files)} rulings byte-identical{added}; {len(differ)} differ, {len(missing)} new, "
          f"{len(extra)} gone")
    return 1 if differ or missing or extra else 0


if __name__ == "__main__":
    sys.exit(main())
