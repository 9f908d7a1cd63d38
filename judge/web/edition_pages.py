"""The Codex editions we hold (`/editions`) and what changed between two of them
(`/changes/<from>...<to>`), each with a JSON twin. The JSON of a change page is exactly
{"from", "to", "rules", "glossary", "rulings", "data"} (judge.changes.rulings); the HTML adds the
word-level diffs through the `word_diff` and `outcome_differences` filters."""

from __future__ import annotations

import time
from typing import Any

from flask import Blueprint, abort, current_app, url_for

from judge.changes.diff import word_diff
from judge.changes.rulings import STATUSES, Pending, cached_changes
from judge.codex import UnknownEdition, editions, load_edition
from judge.desk.outcomes import outcome_differences
from judge.engine import budget
from judge.web import caching
from judge.web.errors import Unavailable
from judge.web.links import scenario_url
from judge.web.twin import twin

bp = Blueprint("editions", __name__)


@twin(bp, "/editions", endpoint="editions")
def editions_page() -> tuple[str, dict[str, Any]]:
    held = editions()
    listed = []
    for edition in held.editions:
        codex = load_edition(edition.version)
        kinds = [r.kind for r in codex.rules.values()]
        previous = held.previous(edition.version)
        listed.append(
            {
                "version": edition.version,
                "date": edition.date,
                "current": edition.version == held.current,
                "url": url_for("codex.index", edition=edition.version),
                "chapters": sum(c.present for c in codex.chapters),
                "of_chapters": len(codex.chapters),
                "rules": kinds.count("rule"),
                "items": kinds.count("item"),
                "glossary": len(codex.glossary),
                "interpretations": len(codex.interpretations),
                "cited_absent": len(codex.cited_absent),
                "changes_url": url_for("editions.changes", old=previous, new=edition.version)
                if previous
                else None,
            }
        )
    return "codex/editions.html", {"current": held.current, "editions": listed}


@twin(bp, "/changes/<old>...<new>")
def changes(old: str, new: str) -> tuple[str, dict[str, Any]]:
    try:
        report = cached_changes(old, new, current_app.extensions["rulings"],  # SQLite or PostgreSQL
                                versions=caching.ruling_versions(), seconds=budget_left())
    except UnknownEdition as exc:
        abort(404, description=f"{exc}; see /editions.")
    except Pending as exc:
        raise Unavailable(f"The report from {old} to {new} is being prepared: {exc}. Each request judges a "
                          "few more; try again in a moment.", retry_after=RETRY_AFTER) from None
    return "codex/changes.html", report.to_dict(ruling_url)


RETRY_AFTER = 2  # seconds, in the 503 of a report still being prepared


def budget_left() -> float | None:
    """Seconds left of this request's budget (None: no deadline)."""
    running = budget.CURRENT.get()
    if running is None or running.seconds is None:
        return None
    return max(0.0, running.seconds - (time.monotonic() - running.started))


def ruling_url(kind: str, rid: str) -> str:
    return scenario_url(rid) if kind == "library" else url_for("desk.saved", rid=rid)


@bp.app_template_filter("word_diff")
def word_diff_filter(change: dict[str, Any]) -> list[dict[str, str]]:
    """A change record's before → after as runs of {"op": same | del | ins, "text"}."""
    before, after = change.get("before"), change.get("after")
    if not isinstance(before, str | None) or not isinstance(after, str | None):
        return [{"op": "del", "text": repr(before)}, {"op": "ins", "text": repr(after)}]
    return [{"op": op, "text": text} for op, text in word_diff(before, after)]


@bp.app_template_filter("outcome_differences")
def outcome_differences_filter(ruling: dict[str, Any]) -> list[str]:
    return outcome_differences(ruling.get("before"), ruling.get("after"))


@bp.app_context_processor
def change_statuses() -> dict[str, Any]:
    return {"ruling_statuses": STATUSES}
