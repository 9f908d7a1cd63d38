"""`judge position FILE [--json]`: the derived values of a position and the legality of each queued
action in it (contract §6). Exit 0, or 2 when the file is malformed or inconsistent."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from judge import engine
from judge.engine import ScenarioError, load_scenario_file


def position(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="judge position", description=__doc__)
    parser.add_argument("file", help="a scenario file (YAML)")
    parser.add_argument("--json", action="store_true", help="print the §6 JSON instead of a readable board")
    parser.add_argument("--legal", action="store_true",
                        help="also list every legal action of the player who may act in the starting "
                             "position")
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return 2 if exc.code else 0
    try:
        scenario = load_scenario_file(args.file)
    except ScenarioError as exc:
        if args.json:
            print(json.dumps({"ok": False, "error": "invalid scenario", "file": args.file,
                              "problems": exc.problems}, ensure_ascii=False, indent=2))
        print(exc.describe(), file=sys.stderr)
        return 2
    result = engine.position(scenario)
    if args.legal:
        result["legal_actions"] = engine.legal_actions(scenario, after=0)
    if args.json:
        print(json.dumps(result, ensure_ascii=False, indent=2))
    else:
        print(render(result, scenario.state.players))
    return 0


def _value_line(name: str, data: dict[str, Any], key: str) -> str:
    parts = data.get("contributions", {}).get(key, [])
    terms = " ".join(f"{'+' if p['amount'] >= 0 else '-'} {abs(p['amount'])} {p['from']}" for p in parts)
    return f"{name} {data[key]} = {terms.lstrip('+ ')}"


def _moment(result: dict[str, Any]) -> str:
    if result["phase"] == "setup":
        return (f"Setup, before the first turn: {result['turn_player']}'s recruiting round "
                f"{result.get('round', 1)}")
    return f"{result['turn_player']}'s turn, {result['phase'].capitalize()} Phase"


def _slot_lines(slot: str, data: dict[str, Any]) -> list[str]:
    """One slot of the readable board: its card and values, then where each value and keyword comes from."""
    lines = []
    status = []
    if data.get("captured"):
        status.append("captured")
    if data.get("shattered"):
        status.append("shattered")
    if data.get("negated"):
        status.append("effects negated")
    head = f"  {slot:<7}{data['card']}"
    if "line" in data:
        head += f"  line {data['line']}" if data["line"] else ""
    head += f"  ATK {data['atk']}  DEF {data['def']}  HP {data['hp']}/{data['max_hp']}"
    if "line" in data:
        head += "  proactive" if data["proactive"] else "  not proactive"
    if data.get("armament"):
        head += f"  [Armament: {data['armament']}]"
    if status:
        head += "  (" + ", ".join(status) + ")"
    lines.append(head)
    for name, key in (("ATK", "atk"), ("DEF", "def"), ("max HP", "max_hp"), ("HP", "hp")):
        if len(data.get("contributions", {}).get(key, [])) > 1:
            lines.append(f"           {_value_line(name, data, key)}")
    for ks in data.get("keyword_sources", []):
        lines.append(f"           {ks['label']}: {ks['from']}"
                     + (f" (rank {ks['source_rank']})" if ks["kind"] != "printed" else ""))
    for blocked in data.get("unyielding_blocks", []):
        lines.append(f"           Unyielding: unaffected by {blocked['what']} from "
                     f"{blocked['source']} (rank {blocked['source_rank']}, 13.6.1)")
    return lines


def render(result: dict[str, Any], players: dict[str, Any] | None = None) -> str:
    """The readable board: per slot its card, line, values with sources, keywords, proactive."""
    lines = [f"{result['scenario']}" + (f" — {result['title']}" if result.get("title") else ""),
             f"{_moment(result)} (Codex {result['codex']})", ""]
    for player in ("A", "B"):
        header = f"Player {player}"
        if players:
            ps = players[player]
            header += f" (turns taken {ps.turns_taken}; hand {ps.hand_count}, deck {ps.deck_count})"
        lines.append(header)
        for ref, data in result["derived"].items():
            if not ref.startswith(player + ":"):
                continue
            lines += _slot_lines(ref.split(":", 1)[1], data)
        lines.append("")
    if "legal_actions" in result:
        lines.append(f"Legal actions now ({len(result['legal_actions'])})")
        for action in result["legal_actions"]:
            lines.append("  {" + ", ".join(f"{k}: {v}" for k, v in action.items()) + "}")
        lines.append("")
    if result["checks"]:
        lines.append("Checks (each action against the starting position)")
        for check in result["checks"]:
            action = ", ".join(f"{k}: {v}" for k, v in check["do"].items())
            lines.append(f"  {check['action']}. {{{action}}}: {'legal' if check['legal'] else 'NOT legal'}")
            for v in check["violations"]:
                lines.append(f"       - {v['text']} [{', '.join(v['rules'])}]")
    return "\n".join(lines).rstrip() + "\n"
