"""How the library's rulings changed against a recorded baseline, ruling by ruling, step by step.

    python bench/rulings_diff.py BASELINE_DIR            # a block per ruling that changed, then a summary
    python bench/rulings_diff.py BASELINE_DIR --summary  # only the summary
    python bench/rulings_diff.py BASELINE_DIR --json     # the same as data

The baseline is what `bench/rulings_identical.py --write DIR` records. Steps are matched by what they
say (kind, text, rules, changes, and the step they follow from), not by their number, so a step added
in the middle shows as one added step and not as every later step renumbered. A ruling is
- "same": byte-identical;
- "added steps": every baseline step is still there, in order and saying the same (a step may carry
  new data beside its words, e.g. `reasons`: listed with ±), and nothing else in the ruling differs;
- "changed": anything else: a step removed or reworded, a key beside the steps (`rejected`, `final`,
  `winner`, `answers`, …) different. Each such difference is listed, to be reviewed one by one.
The summary gives steps per ruling before and after (median, max) over the rulings both sides hold.
"""

from __future__ import annotations

import argparse
import difflib
import json
import re
import statistics
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.rulings_identical import baseline_name, library_files, ruling_text

STEP_NUMBER = re.compile(r"\b(steps?) (\d+)")


def _step_key(step: dict[str, Any], by_n: dict[int, dict[str, Any]]) -> str:
    """What a step says, independent of its number: the step it follows from ("caused_by", and "step
    N" in its words) by that step's content, not by its number."""
    cause = by_n.get(step.get("caused_by")) if step.get("caused_by") is not None else None
    body = {k: v for k, v in step.items() if k not in ("n", "caused_by")}
    if cause is not None:
        body["caused_by"] = [cause.get("kind"), cause.get("text")]

    def named(match: re.Match[str]) -> str:
        other = by_n.get(int(match.group(2)))
        if other is None:
            return match.group(0)
        return f"{match.group(1)} <{other.get('kind')}: {str(other.get('text'))[:60]}>"

    if isinstance(body.get("text"), str):
        body["text"] = STEP_NUMBER.sub(named, body["text"])
    return json.dumps(body, sort_keys=True, ensure_ascii=False)


def _contains(old: Any, new: Any) -> bool:
    """`new` says all `old` said and only adds keys beside it (a `reasons` key on a step, a `reason`
    on a violation): mappings by key, lists item by item, anything else equal."""
    if isinstance(old, dict) and isinstance(new, dict):
        return all(k in new and _contains(v, new[k]) for k, v in old.items())
    if isinstance(old, list) and isinstance(new, list):
        return len(old) == len(new) and all(_contains(a, b) for a, b in zip(old, new, strict=True))
    return bool(old == new)


def _renumbered(value: Any, renumber: dict[int, int]) -> Any:
    """`value` with its step numbers (a `step` key, "step N" in words) as the steps are numbered now."""
    if isinstance(value, dict):
        return {k: renumber.get(v, v) if k == "step" and isinstance(v, int) else _renumbered(v, renumber)
                for k, v in value.items()}
    if isinstance(value, list):
        return [_renumbered(v, renumber) for v in value]
    if isinstance(value, str):
        return STEP_NUMBER.sub(lambda m: f"{m.group(1)} {renumber.get(int(m.group(2)), int(m.group(2)))}",
                               value)
    return value


def _only_added_keys(old: dict[str, Any], new: dict[str, Any]) -> bool:
    """The new step says all the old one said, and more data beside it (a `reasons` key)."""
    return _contains({k: v for k, v in old.items() if k != "n"}, new)


def _keys(steps: list[dict[str, Any]]) -> list[str]:
    by_n = {s["n"]: s for s in steps if "n" in s}
    return [_step_key(s, by_n) for s in steps]


def compare(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """The difference between two rulings of one scenario."""
    b_steps, a_steps = before.get("steps", []), after.get("steps", [])
    b_keys, a_keys = _keys(b_steps), _keys(a_steps)
    added, removed, reworded = [], [], []
    renumber: dict[int, int] = {}   # a baseline step's n -> the same step's n now
    matcher = difflib.SequenceMatcher(a=b_keys, b=a_keys, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op in ("equal", "replace"):
            pairs = zip(range(i1, i2), range(j1, j2), strict=False)
            renumber.update({b_steps[i]["n"]: a_steps[j]["n"] for i, j in pairs
                             if "n" in b_steps[i] and "n" in a_steps[j]})
        if op == "equal":
            continue
        if op == "insert":
            added += [a_steps[j] for j in range(j1, j2)]
        elif op == "delete":
            removed += [b_steps[i] for i in range(i1, i2)]
        else:
            reworded += list(zip(b_steps[i1:i2], a_steps[j1:j2], strict=False))
            removed += b_steps[i1 + (j2 - j1):i2]
            added += a_steps[j1 + (i2 - i1):j2]
    keyed = [(old, new) for old, new in reworded if _only_added_keys(old, new)]
    reworded = [pair for pair in reworded if pair not in keyed]
    other = sorted(k for k in set(before) | set(after) if k != "steps" and before.get(k) != after.get(k))
    # a key beside the steps that only names steps by number (an answer's deciding `step`, "before step
    # N") and says the same once they are renumbered, or gains data beside what it said
    grown = [k for k in other if k in before and _contains(_renumbered(before[k], renumber), after.get(k))]
    other = [k for k in other if k not in grown]
    kind = "same" if before == after else (
        "added steps" if not removed and not reworded and not other else "changed")
    return {"kind": kind, "steps_before": len(b_steps), "steps_after": len(a_steps), "added": added,
            "removed": removed, "reworded": reworded, "keys_added": keyed, "grown": grown, "other": other}


def _line(step: dict[str, Any]) -> str:
    return f"[{step.get('kind')}] {step.get('text')}  ({'; '.join(step.get('rules', []))})"


def report(name: str, diff: dict[str, Any], before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    out = [f"== {name}: {diff['kind']} (steps {diff['steps_before']} -> {diff['steps_after']})"]
    out += [f"  + step {s.get('n')}: {_line(s)}" for s in diff["added"]]
    out += [f"  - step {s.get('n')}: {_line(s)}" for s in diff["removed"]]
    for old, new in diff.get("keys_added", []):
        extra = sorted(set(new) - set(old))
        out.append(f"  ± step {old.get('n')}: same words, adds {', '.join(extra)}: "
                   + "; ".join(json.dumps(new[k], ensure_ascii=False)[:200] for k in extra))
    for old, new in diff["reworded"]:
        out += [f"  ~ step {old.get('n')}: {_line(old)}", f"    now {new.get('n')}: {_line(new)}"]
    out += [f"  ± {key}: the same once its steps are renumbered, or with data added beside it"
            for key in diff.get("grown", [])]
    for key in diff["other"]:
        out.append(f"  * {key}: {json.dumps(before.get(key), ensure_ascii=False)[:300]}")
        out.append(f"    now: {json.dumps(after.get(key), ensure_ascii=False)[:300]}")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("baseline", help="a folder written by bench/rulings_identical.py --write")
    parser.add_argument("--root", default=str(ROOT), help="the checkout whose scenarios/ to read")
    parser.add_argument("--summary", action="store_true", help="print only the summary")
    parser.add_argument("--json", action="store_true", help="print the differences as JSON")
    args = parser.parse_args(argv)
    root, folder = Path(args.root).resolve(), Path(args.baseline)
    if not folder.is_dir():
        print(f"rulings_diff: {folder} is not a folder", file=sys.stderr)
        return 2
    results: dict[str, dict[str, Any]] = {}
    lines: list[str] = []
    before_counts, after_counts = [], []
    for path in library_files(root):
        name = baseline_name(path, root)
        recorded = folder / name
        text = ruling_text(path)
        if not recorded.is_file():
            results[name] = {"kind": "new"}
            continue
        old_text = recorded.read_text(encoding="utf-8")
        if old_text.startswith("invalid:") or text.startswith("invalid:"):
            results[name] = {"kind": "same" if old_text == text else "changed", "other": ["invalid"]}
            continue
        before, after = json.loads(old_text), json.loads(text)
        diff = compare(before, after)
        results[name] = diff
        before_counts.append(diff["steps_before"])
        after_counts.append(diff["steps_after"])
        if diff["kind"] != "same":
            lines += report(name, diff, before, after)
    kinds: dict[str, int] = {}
    for diff in results.values():
        kinds[diff["kind"]] = kinds.get(diff["kind"], 0) + 1
    summary = {
        "rulings": len(results), "by_kind": kinds,
        "steps_before": {"median": statistics.median(before_counts) if before_counts else 0,
                         "max": max(before_counts, default=0), "total": sum(before_counts)},
        "steps_after": {"median": statistics.median(after_counts) if after_counts else 0,
                        "max": max(after_counts, default=0), "total": sum(after_counts)},
        "steps_added": sum(len(d.get("added", [])) for d in results.values()),
        "new": sorted(n for n, d in results.items() if d["kind"] == "new"),
    }
    if args.json:
        print(json.dumps({"summary": summary, "rulings": {n: d for n, d in results.items()
                                                          if d["kind"] != "same"}},
                         indent=2, ensure_ascii=False))
        return 0
    if not args.summary:
        print("\n".join(lines))
    by_kind = ", ".join(f"{n} {k}" for k, n in sorted(kinds.items()))
    print(f"{summary['rulings']} rulings: {by_kind}; {summary['steps_added']} steps added in all")
    sb, sa = summary["steps_before"], summary["steps_after"]
    print(f"steps per ruling (rulings in both): median {sb['median']} -> {sa['median']}, "
          f"max {sb['max']} -> {sa['max']}, total {sb['total']} -> {sa['total']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
