"""`judge index [--if-stale] [--dir DIR]`: build the search index into the instance folder."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from judge import ROOT
from judge.search.store import ensure


def default_index_dir() -> Path:
    if os.environ.get("JUDGE_INDEX"):
        return Path(os.environ["JUDGE_INDEX"])
    instance = Path(os.environ.get("JUDGE_INSTANCE", ROOT / "instance"))
    return instance / "index"


def index(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="judge index", description=__doc__)
    parser.add_argument("--if-stale", action="store_true",
                        help="rebuild only when the Codex data changed since the last build")
    parser.add_argument("--dir", type=Path, default=None,
                        help="index folder (default: $JUDGE_INDEX or instance/index)")
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return 0 if exc.code == 0 else 2
    directory = args.dir or default_index_dir()
    try:
        info = ensure(directory, force=not args.if_stale)
    except (OSError, ValueError) as exc:
        print(f"judge index: could not build the index in {directory}: {exc}", file=sys.stderr)
        return 2
    if not info.built:
        print(f"index in {directory} is up to date ({info.documents} documents)")
        return 0
    kinds = ", ".join(f"{n} {kind}" for kind, n in sorted(info.kinds.items()))
    print(f"built {info.documents} documents ({kinds}) into {info.path} in {info.seconds:.2f} s")
    return 0
