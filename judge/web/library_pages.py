"""The scenario library's pages, beside the site's other library pages (the Codex's, the cards'):

    /scenarios                  every library ruling, by chapter, with a search (JSON twin)
    /scenarios/<pid>            one ruling of the library (JSON twin; .yaml the scenario itself)

Rulings anyone saved are the desk's (`/r/<id>`, judge.web.desk); both are drawn by the same ruling
page (`templates/desk/ruling.html`) from `judge.desk.pages`.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, request, url_for

from judge.desk import pages
from judge.library import LIBRARY
from judge.web.desk import keep_links_in_edition, library_entry_or_404, preview_picture, yaml_response
from judge.web.links import titles
from judge.web.twin import twin

bp = Blueprint("library", __name__)


@twin(bp, "/scenarios", reads=("q",))
def scenarios() -> tuple[str, dict[str, Any]]:
    query = request.args.get("q", "")[:200]
    found = titles(LIBRARY.search(query))
    return "desk/scenarios.html", {"q": query, "scenarios": found, "groups": pages.library_groups(found),
                                   "total": len(LIBRARY.entries())}


@twin(bp, "/scenarios/<path:pid>")
def scenario(pid: str) -> tuple[str, dict[str, Any]]:
    entry = library_entry_or_404(pid)
    context = pages.ruling_context(entry.data, entry.path.name)
    pages.compare_with_current(context, entry.data, entry.path.name)
    keep_links_in_edition(context.get("codex"))
    context.update(id=pid, kind="library", yaml_url=url_for("library.scenario_yaml", pid=pid),
                   json_url=url_for("library.scenario_json", pid=pid),
                   page_url=url_for("library.scenario", pid=pid),
                   desk_url=url_for("desk.desk", scenario=pid),
                   preview_image=preview_picture("preview_images.library_png", pid=pid))
    return "desk/ruling.html", context


@bp.get("/scenarios/<path:pid>.yaml")
def scenario_yaml(pid: str) -> Response:
    entry = library_entry_or_404(pid)
    return yaml_response(entry.data, entry.path.name)
