"""The `judge` command. Each subcommand lives in the module of its area and is imported only
when it runs, so a slow or broken area never slows or breaks the others.

Each target is a function `run(argv: list[str]) -> int` that parses its own arguments.
Exit codes: 0 ok, 1 an expectation or check failed, 2 invalid input or usage.
"""

from __future__ import annotations

import importlib
import sys

COMMANDS: dict[str, tuple[str, str]] = {
    "codex-check": ("judge.codex.cli:codex_check", "validate the Codex data and print counts per chapter"),
    "import-codex": ("judge.codex.cli:import_codex", "raw Codex pages into codex YAML, or a new edition"),
    "index": ("judge.search.cli:index", "build the search index into the instance folder"),
    "position": ("judge.commands.position:position", "derived values and legality checks for a scenario"),
    "resolve": ("judge.commands.resolve:resolve", "resolve a scenario into a ruling"),
    "check": (
        "judge.commands.resolve:check",
        "resolve every scenario under a folder and check its expectations",
    ),
    "read-card": ("judge.commands.read_card:read_card",
                  "read a card's printed text into its keywords and effects"),
    "read": ("judge.commands.ask:read", "read a dispute in words into a scenario, and print the reading"),
    "ask": ("judge.commands.ask:ask", "read a dispute in words and rule on it, the answer first"),
    "coverage": ("judge.coverage:run", "which rules the scenario library covers"),
    "changes": ("judge.changes.cli:run", "what changed between two Codex editions, for every ruling"),
    "init-db": ("judge.rulings.cli:init_db", "make (or make again, empty) the saved-rulings database"),
}


def _usage() -> str:
    width = max(len(name) for name in COMMANDS)
    lines = ["usage: judge COMMAND [ARGS...]", "", "commands:"]
    lines += [f"  {name.ljust(width)}  {help_}" for name, (_, help_) in COMMANDS.items()]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in {"-h", "--help", "help"}:
        print(_usage())
        return 0 if argv else 2
    name, rest = argv[0], argv[1:]
    if name not in COMMANDS:
        print(f"judge: unknown command {name!r}\n\n{_usage()}", file=sys.stderr)
        return 2
    module_name, func_name = COMMANDS[name][0].split(":")
    func = getattr(importlib.import_module(module_name), func_name)
    return int(func(rest) or 0)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
