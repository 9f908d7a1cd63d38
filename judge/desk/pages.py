"""Context for the ruling pages (saved, library, posted), shared by the HTML pages and their JSON twins."""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Mapping
from datetime import datetime
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml
from markupsafe import Markup

from judge.codex.editions import editions
from judge.desk import hints, runner, words
from judge.desk.board_svg import BoardPainter, CardNote, SlotRow, zones
from judge.desk.cards import card_notes
from judge.desk.layout import load_field
from judge.desk.outcomes import outcome_differences
from judge.engine import OutOfTime, budget
from judge.library import LIBRARY, cites_rule

log = logging.getLogger(__name__)

MAX_STEP_BOARDS = runner.MAX_STEP_BOARDS   # boards drawn: after the first 150 steps and the last
NO_BOARD = Markup(f'<p class="muted no-board">No picture after step {MAX_STEP_BOARDS}; '
                  "the last step shows the final board.</p>")

OUT_OF_TIME_BOARD = Markup('<p class="muted no-board">No picture: drawing this ruling\'s boards ran past the '
                           "time one request may take; the trace and the final board are complete.</p>")

STARTS_FILE = Path(__file__).with_name("starts.yaml")


@lru_cache(maxsize=1)
def starts() -> tuple[dict[str, Any], ...]:
    """The desk's quick starts (starts.yaml): {key, label, scenario}; `default` is a new desk's position."""
    return tuple(yaml.safe_load(STARTS_FILE.read_text(encoding="utf-8")))


def start(key: str = "default") -> dict[str, Any]:
    """A fresh copy of one quick start's scenario."""
    found = next(s for s in starts() if s["key"] == key)
    return json.loads(json.dumps(found["scenario"]))


@lru_cache(maxsize=1)
def painter() -> BoardPainter:
    return BoardPainter(load_field())


def board_figure(state: Mapping[str, Any] | None, cards: list[Any] | None = None,
                 derived: Mapping[str, Any] | None = None, highlight: Any = (),
                 title: str = "The board", words: bool = False) -> dict[str, Any]:
    """The pieces of one board picture: the SVG and each player's piles (past the request's budget,
    a note in place of the picture: a long ruling's boards can't hold a worker)."""
    state = state or {}
    running = budget.CURRENT.get()
    if running is not None and running.expired():
        return {"svg": OUT_OF_TIME_BOARD, "zones": zones(state), "slots": ()}
    if derived is None:
        derived = runner.derive(state, cards)
    refs = [c.get("slot") for c in highlight if isinstance(c, Mapping)] if highlight else []
    notes = {name: [n.rank, n.custom, n.variant_of] for name, n in card_notes(state, cards).items()}
    key = runner.canonical_json([state, derived, [r for r in refs if isinstance(r, str)], title, notes])
    svg, slots = _svg_cached(key)
    return {"svg": Markup(svg), "zones": zones(state), "slots": slots,
            "fields": words_fields(slots) if words else []}


def words_fields(rows: tuple[SlotRow, ...]) -> list[dict[str, Any]]:
    """The board in words (a phone's desk shows it instead of the picture): per player, B first, the
    slots holding a card with their values, then the empty soul slots and realm slots, each a button."""
    field = load_field()
    realms = {d.name for d in field.realm_defs}
    out = []
    for player in ("B", "A"):
        taken = {r.slot: r for r in rows if r.player == player and r.words != ("empty",)}
        out.append({"player": player, "rows": [r for r in rows if r.slot in taken and r.player == player],
                    "kind": {r.slot: "realm" if r.slot in realms else "soul"
                             for r in taken.values()},
                    "empty_souls": [(d.name, d.rank) for d in field.soul_defs if d.name not in taken],
                    "empty_realms": [(d.name, d.rank) for d in field.realm_defs if d.name not in taken]})
    return out


@lru_cache(maxsize=512)
def _svg_cached(key: str) -> tuple[str, tuple[SlotRow, ...]]:
    """Steps that leave the board as it was (windows, passes) draw the same picture: draw it once.
    With it, the compact board's rows (a phone shows those instead of the picture)."""
    state, derived, refs, title, notes = json.loads(key)
    rows: list[SlotRow] = []
    svg = str(painter().render(state, derived, highlight=refs, title=title, rows=rows,
                               notes={name: CardNote(*n) for name, n in notes.items()}))
    return svg, tuple(rows)


def touched(step: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The slots a step touches, to light up on its board: those it changes and the cards its facts name."""
    changes = [c for c in step.get("changes") or [] if isinstance(c, Mapping)]
    facts = step.get("facts") if isinstance(step.get("facts"), Mapping) else {}
    named = [{"slot": c["slot"]} for c in (facts or {}).get("cards") or []
             if isinstance(c, Mapping) and isinstance(c.get("slot"), str)]
    return changes + named


def ruling_context(data: Mapping[str, Any], source: str, ruling: Mapping[str, Any] | None = None,
                   edition: str | None = None) -> dict[str, Any]:
    """Resolve `data` under the Codex `edition` (default: the scenario's `codex:`, else the current
    edition) unless its `ruling` is given (e.g. kept with a permalink), and describe it for a page: the
    ruling, or the problems that stopped it."""
    context: dict[str, Any] = {
        "title": str(data.get("title") or data.get("id") or "A ruling"),
        "question": str(data.get("question") or "").strip(),
        "scenario": runner.json_safe(data),
        "ruling": None,
        "problems": [],
        "outcome": None,
    }
    try:
        ruling = dict(ruling) if ruling is not None else runner.resolve(data, source=source, edition=edition)
    except runner.DeskInputError as exc:
        context["problems"] = hints.explain(exc.problems, data)
        return context
    except (runner.EngineFailure, OutOfTime):
        raise
    except Exception as exc:  # an engine failure on one scenario is shown, not a 500
        log.exception("the engine failed on %s", source)
        context["problems"] = [
            {
                "path": "",
                "message": f"the engine failed on this scenario ({type(exc).__name__}); "
                "please report it with the scenario's YAML",
            }
        ]
        return context
    context["ruling"] = ruling
    context["action_words"] = words.queue_words(data)
    context["deciding_step"] = deciding_step(ruling)
    context["codex"] = ruling.get("codex")
    context["outcome"] = runner.outcome(ruling)
    return context


def compare_with_current(context: dict[str, Any], data: Mapping[str, Any], source: str,
                         ruling: Mapping[str, Any] | None = None) -> None:
    """A ruling judged under an edition that is not the current one: judge it under the current
    edition too (or take that `ruling`, e.g. kept with a permalink) and say whether the outcome
    differs (`context["current_edition"]`)."""
    current = editions().current
    if context.get("ruling") is None or context.get("codex") in (None, current):
        return
    now = ruling_context(data, source, ruling=ruling, edition=current)
    lines = (outcome_differences(context["outcome"], now["outcome"]) if now["outcome"] is not None
             else [f"the scenario can't be judged under {current}: "
                   + "; ".join(p.get("message", "") for p in now["problems"])])
    context["current_edition"] = {"version": current, "differs": bool(lines), "differences": lines,
                                  "winner": (now["outcome"] or {}).get("winner")}


def compare_saved(context: dict[str, Any], saved_outcome: Mapping[str, Any]) -> None:
    """Mark the page when today's outcome differs from the one saved with the link."""
    context["saved_outcome"] = dict(saved_outcome)
    now = context.get("outcome")
    context["changed"] = now is None or runner.canonical_json(now) != runner.canonical_json(saved_outcome)
    if context["changed"]:
        context["differences"] = differences(saved_outcome, now or {})


def differences(saved: Mapping[str, Any], now: Mapping[str, Any]) -> list[dict[str, Any]]:
    out = []
    for key, label in (("winner", "Winner"), ("rejected", "Rejected action"),
                       ("final", "Final board"), ("derived", "Derived values")):
        if runner.canonical_json(saved.get(key)) != runner.canonical_json(now.get(key)):
            out.append(
                {"what": label, "saved": _summary(key, saved.get(key)), "now": _summary(key, now.get(key))}
            )
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
            value = runner.canonical_json(value)
        parts.append(f"{key} {value}" if value is not True else str(key))
    return " · ".join(parts)


def deciding_step(ruling: Mapping[str, Any]) -> int | None:
    """The step the ruling's (first) answer rests on (contract §7): the one the pages mark and link to."""
    answers = ruling.get("answers") or []
    return answers[0].get("step") if answers and isinstance(answers[0], Mapping) else None


MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December")


def human_date(value: Any) -> str:
    """"2026-12-01T03:12:20+00:00" → "1 December 2026, 03:12 UTC"; anything else as it is."""
    try:
        when = datetime.fromisoformat(str(value))
    except ValueError:
        return str(value)
    zone = " UTC" if when.utcoffset() is not None and not when.utcoffset() else ""
    return f"{when.day} {MONTHS[when.month - 1]} {when.year}, {when:%H:%M}{zone}"


RULE_TAIL = re.compile(r"(?:[a-z]+|\.\d+)$")


def nearest_rule(rule_id: str, known: Mapping[str, Any]) -> str | None:
    """The nearest existing rule or section above `rule_id`: "13.6.2b" → "13.6.2", "11.4.9.3" → "11.4.9"
    or "11.4". A whole chapter is too far to be of help: None then."""
    candidate = rule_id.strip().lower()
    if not re.fullmatch(r"\d+(?:\.\d+)*[a-z]*", candidate):
        return None
    while (shorter := RULE_TAIL.sub("", candidate)) != candidate and "." in shorter:
        candidate = shorter
        if candidate in known:
            return candidate
    return None


def directness(rule_id: str, pid: str, entries: Mapping[str, Any] | None = None) -> tuple[int, int]:
    """How directly a library ruling shows `rule_id`, smaller first: its expectation names the rule
    (the ruling was written to decide on it), its `rules:` name it, either names a rule under it, or its
    trace merely passes through it; then the fewer rules it is about, the more it is about this one.
    `entries` (pid -> library entry), when given, saves a look at the scenario folder per ruling."""
    entry = entries.get(pid) if entries is not None else LIBRARY.get(pid)
    data = entry.data if entry is not None else {}
    expected = [str(r) for r in entry.expected_cites] if entry is not None else []
    about = [str(r) for r in data.get("rules") or []] if isinstance(data.get("rules"), list) else []
    if rule_id in expected:
        rank = 0
    elif rule_id in about:
        rank = 1
    elif any(cites_rule(r, rule_id) for r in expected + about):
        rank = 2
    else:
        rank = 3
    return rank, len(set(expected + about))


def rulings_by_directness(rule_id: str, rulings: list[dict[str, Any]]) -> list[dict[str, Any]]:
    entries = {e.pid: e for e in LIBRARY.entries()}   # one look at the folder for the whole list
    return sorted(rulings, key=lambda r: (*directness(rule_id, r["id"], entries), r["title"]))


def library_groups(rulings: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Library rulings grouped by their folder: "10-card-types/…" under "Chapter 10: card types"."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for ruling in rulings:
        folder = ruling["id"].split("/", 1)[0] if "/" in ruling["id"] else ""
        groups.setdefault(folder, []).append(ruling)
    return [{"key": folder or "other", "title": folder_title(folder), "rulings": items}
            for folder, items in sorted(groups.items())]


def folder_title(folder: str) -> str:
    number, _, words = folder.partition("-")
    if number.isdigit():
        return f"Chapter {number}: {words.replace('-', ' ')}"
    return folder.replace("-", " ").capitalize() or "Other rulings"


def reason_words(rejected: Mapping[str, Any] | None) -> str:
    """Why an action is refused, from the ruling's `rejected.violations` (each refusal in its own words),
    without the engine's copy of the action as data in front: the desk names the action in words."""
    violations = [v for v in (rejected or {}).get("violations") or [] if isinstance(v, Mapping)]
    if not violations:
        return str((rejected or {}).get("text") or "")
    return "; ".join(str(v.get("text") or "") for v in violations) + "."


def step_words(step: Mapping[str, Any], action_words: list[str] | None) -> str:
    """A trace step in the desk's words: a refused action (its `facts`: `action` from 0, `player`, `because`)
    is numbered from 1, as the desk's queue numbers it, and named as the queue names it; any other step in
    the engine's words."""
    facts = step.get("facts") if isinstance(step.get("facts"), Mapping) else None
    if not facts or facts.get("what") != "action_refused" or not isinstance(facts.get("action"), int):
        return str(step.get("text") or "")
    n = facts["action"]
    said = action_words[n] if action_words and n < len(action_words) and action_words[n] else None
    named = f"“{said}”" if said else f"{facts.get('player')}'s action"
    return f"Action {n + 1}, {named}, is not legal: {'; '.join(facts.get('because') or [])}."
