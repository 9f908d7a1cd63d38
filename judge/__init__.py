"""Codex Judge: the Codex (game version 0.4.0) as data, search over it, an engine that resolves
positions citing the rules, and shareable rulings."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
"""The project root: `codex/`, `scenarios/`, `templates/` and `static/` live here."""

CODEX_DIR = ROOT / "codex"
SCENARIOS_DIR = ROOT / "scenarios"
