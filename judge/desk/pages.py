"""Context for the ruling pages (saved, library, posted), shared by the HTML pages and their JSON twins."""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from markupsafe import Markup

from judge.desk import engine
from judge.desk.board_svg import BoardPainter, zones
from judge.desk.layout import load_field
from judge.engine.budget import CURRENT as CURRENT_BUDGET
from judge.engine.budget import OutOfTime

log = logging.getLogger(__name__)

# A ruling draws the board after each of its first MAX_STEP_BOARDS steps (and after the last): a
# resolution that loops until the engine's step cap must not cost a picture per step.
MAX_STEP_BOARDS = 150
NO_BOARD = Markup(f'<p class="muted no-board">No picture after step {MAX_STEP_BOARDS}; '
                  "the last step shows the final board.</p>")

OUT_OF_TIME_BOARD = Markup('<p class="muted no-board">No picture: drawing this ruling\'s boards ran past the '
                           "time one request may take; the trace and the final board are complete.</p>")

BLANK = {
    "state": {
        "turn_player": "A",
        "phase": "preparation",
        "turn": 9,
        "players": {
            "A": {"turns_taken": 5, "field": {}, "hand": [], "deck": 20},
            "B": {"turns_taken": 4, "field": {}, "hand": [], "deck": 20},
        },
    },
    "actions": [],
}


@lru_cache(maxsize=1)
def painter() -> BoardPainter:
    return BoardPainter(load_field())


def board_figure(state: Mapping[str, Any] | None, cards: list[Any] | None = None,
                 derived: Mapping[str, Any] | None = None, highlight: Any = (),
                 title: str = "The board") -> dict[str, Any]:
    """The pieces of one board picture: the SVG and each player's piles (past the request's budget,
    a note in place of the picture: a long ruling's boards can't hold a worker)."""
    state = state or {}
    running = CURRENT_BUDGET.get()
    if running is not None and running.expired():
        return {"svg": OUT_OF_TIME_BOARD, "zones": zones(state)}
    if derived is None:
        derived = engine.derive(state, cards)
    refs = [c.get("slot") for c in highlight if isinstance(c, Mapping)] if highlight else []
    key = engine.canonical_json([state, derived, [r for r in refs if isinstance(r, str)], title])
    return {"svg": Markup(_svg_cached(key)), "zones": zones(state)}


@lru_cache(maxsize=512)
def _svg_cached(key: str) -> str:
    """Steps that leave the board as it was (windows, passes) draw the same picture: draw it once."""
    state, derived, refs, title = json.loads(key)
    return str(painter().render(state, derived, highlight=refs, title=title))


def ruling_context(data: Mapping[str, Any], source: str, ruling: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Resolve `data` (unless its `ruling` is given, e.g. kept with a permalink) and describe it for a
    page: the ruling, or the problems that stopped it."""
    context: dict[str, Any] = {
        "title": str(data.get("title") or data.get("id") or "Untitled scenario"),
        "question": str(data.get("question") or "").strip(),
        "scenario": engine.json_safe(data),
        "ruling": None,
        "problems": [],
        "outcome": None,
    }
    try:
        ruling = dict(ruling) if ruling is not None else engine.resolve(data, source=source)
    except engine.DeskInputError as exc:
        context["problems"] = exc.problems
        return context
    except (engine.EngineUnavailable, engine.EngineFailure, OutOfTime):
        raise
    except Exception as exc:  # an engine failure on one scenario is shown, not a 500
        log.exception("the engine failed on %s", source)
        context["problems"] = [{"path": "", "message": f"the engine failed on this scenario ({type(exc).__name__}); "
                                                       "please report it with the scenario's YAML"}]
        return context
    context["ruling"] = ruling
    context["codex"] = ruling.get("codex")
    context["outcome"] = engine.outcome(ruling)
    return context


def compare_saved(context: dict[str, Any], saved_outcome: Mapping[str, Any]) -> None:
    """Mark the page when today's outcome differs from the one saved with the link."""
    context["saved_outcome"] = dict(saved_outcome)
    now = context.get("outcome")
    context["changed"] = now is None or engine.canonical_json(now) != engine.canonical_json(saved_outcome)
    if context["changed"]:
        context["differences"] = differences(saved_outcome, now or {})


def differences(saved: Mapping[str, Any], now: Mapping[str, Any]) -> list[dict[str, Any]]:
    out = []
    for key, label in (("winner", "Winner"), ("rejected", "Rejected action"),
                       ("final", "Final board"), ("derived", "Derived values")):
        if engine.canonical_json(saved.get(key)) != engine.canonical_json(now.get(key)):
            out.append({"what": label, "saved": _summary(key, saved.get(key)), "now": _summary(key, now.get(key))})
    return out


def _summary(key: str, value: Any) -> str:
    if key == "winner":
        return value or "none"
    if key == "rejected":
        if not value:
            return "none"
        return f"action {value.get('action')} ({', '.join(value.get('rules') or [])})"
    return "as drawn below" if value else "none"


def action_label(action: Any) -> str:
    """`{attack: C2, target: "B:L1", by: A}` → `attack C2 · target B:L1 · by A` (for lists of actions)."""
    if not isinstance(action, Mapping):
        return str(action)
    parts = []
    for key, value in action.items():
        if isinstance(value, list):
            value = ", ".join(str(v) for v in value)
        elif isinstance(value, Mapping):
            value = engine.canonical_json(value)
        parts.append(f"{key} {value}" if value is not True else str(key))
    return " · ".join(parts)
