"""CPU time of `judge check scenarios/`, and of reading the library's YAML alone, per reader.

    .venv/bin/python bench/check_time.py [--runs 5] [--root PATH]

`--root` runs another checkout's code on its own scenarios (an older commit unpacked somewhere, to
compare before and after). CPU time (user + system of the child process) is what the check costs
whatever else the machine does; wall time is printed beside it.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent


def check_once(root: Path) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    code = "import sys; from judge.cli import main; sys.exit(main(['check', 'scenarios/']))"
    done = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(root)})
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"judge check failed:\n{done.stdout[-2000:]}{done.stderr[-2000:]}")
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime, wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--root", type=Path, default=ROOT)
    args = parser.parse_args()
    root = args.root.resolve()
    print(f"load average {Path('/proc/loadavg').read_text().split()[0]}; code and scenarios of {root}")
    runs = [check_once(root) for _ in range(args.runs)]
    cpu = [c for c, _ in runs]
    wall = statistics.median(w for _, w in runs)
    print(f"judge check scenarios/   CPU median {statistics.median(cpu):5.2f} s  (min {min(cpu):.2f}, "
          f"max {max(cpu):.2f})   wall median {wall:5.2f} s   {args.runs} runs")
    texts = [p.read_text(encoding="utf-8") for p in sorted((root / "scenarios").rglob("*.yaml"))]
    for name in ("SafeLoader", "CSafeLoader"):
        loader = getattr(yaml, name, None)
        if loader is None:
            continue
        started = time.process_time()
        for text in texts:
            yaml.load(text, Loader=loader)
        cpu_s = time.process_time() - started
        print(f"reading the {len(texts)} files once with {name:<12} CPU {cpu_s:5.2f} s")


if __name__ == "__main__":
    main()
