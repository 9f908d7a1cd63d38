"""Search pages: `/search?q=…` (HTML, the shareable link), its twin `/search.json?q=…`, and
`/search/suggest?q=…` for search-as-you-type.

The index is built when the blueprint is registered if it is missing or stale (and again on the
first request if that failed), into the app's `INDEX_DIR`.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from flask import (
    Blueprint,
    Response,
    current_app,
    g,
    jsonify,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue

from judge import search as searching
from judge.codex import editions
from judge.library import LIBRARY
from judge.search.query import MAX_QUERY, QueryError, prepare
from judge.web.errors import BadInput
from judge.web.links import answer, doc_url
from judge.web.twin import READS, announce_json, read_args

log = logging.getLogger(__name__)

bp = Blueprint("search", __name__)

# the query parameters a search answer reads: they select its cached body and ETag (judge.web.caching),
# and its links carry them and no other (a kept page never repeats what one visitor added to a URL)
READS["search.search"] = READS["search.search_json"] = ("q", "page")
READS["search.suggest"] = ("q",)

KIND_LABELS = {"rule": "Rule", "example": "Example", "section": "Section", "glossary": "Glossary",
               "card": "Card", "ruling": "Library ruling"}


@bp.record_once
def build_index(state: Any) -> None:
    """Build the index at start when it is missing or older than the Codex data."""
    try:
        searching.ensure_index(state.app.config["INDEX_DIR"])
        searching.searcher(state.app.config["INDEX_DIR"])   # open it now, not on the first search
    except Exception:  # the first search tries again and reports what went wrong
        log.exception("could not build the search index at start")


def _searcher() -> searching.Searcher:
    index_dir = current_app.config["INDEX_DIR"]
    try:
        return searching.searcher(index_dir)
    except Exception as exc:  # noqa: BLE001 - missing, partial or corrupt: rebuild (atomically), then open
        log.warning("the search index could not be opened (%s); rebuilding it", exc)
        searching.ensure_index(index_dir)
        return searching.searcher(index_dir)


_VERIFIED: set[Path] = set()   # the edition indexes this process has checked against their data


def _searcher_for(q: str) -> searching.Searcher:
    """The current edition's searcher, or with `edition:<v>` in the query that edition's own index
    (built on first use beside the main one); its hits then link to that edition's pages."""
    wanted = prepare(q).editions
    held = editions()
    if not wanted or wanted[-1] == held.current:
        return _searcher()
    version = wanted[-1]
    if held.get(version) is None:
        raise BadInput(f"edition:{version} is not an edition we hold; "
                       f"editions are {', '.join(held.versions)}.")
    g.edition = version
    index_dir = Path(current_app.config["INDEX_DIR"] + "-editions") / version
    if index_dir not in _VERIFIED:   # built or verified once per process, as the main index is at start
        searching.ensure_index(index_dir, sources=searching.edition_sources(version))
        _VERIFIED.add(index_dir)
    return searching.searcher(index_dir)


def _page_number() -> int:
    raw = request.args.get("page", "1").strip() or "1"
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 6:  # "²".isdigit() is True
        raise BadInput(f"page={raw[:40]!r} is not a page number; use page=1, page=2, …")
    return max(1, int(raw))


def _no_results(q: str) -> dict[str, Any]:
    return {"query": q[:MAX_QUERY], "redirect": None, "suggestion": None, "total": 0, "results": []}


def _refused(q: str, exc: QueryError | BadInput, as_json: bool) -> Response:
    """A query that can't run: a 400 in the one error shape for JSON; for HTML the search page with
    the message (a 200 for an empty search box, which is no mistake)."""
    message = str(exc) if isinstance(exc, QueryError) else exc.description or "bad input"
    if as_json:
        raise BadInput(message) from None
    empty = isinstance(exc, QueryError) and not q.strip()
    html = render_template("search/results.html", search_query=q[:MAX_QUERY], error=message,
                           empty=empty, **_no_results(q), page=1, pages=0, notices=[])
    return make_response(html, 200 if empty else 400)


def _search(q: str, page: int) -> searching.SearchResult:
    """Search; an index found broken while searching is verified, rebuilt when corrupt, and asked again."""
    try:
        return _searcher_for(q).search(q, page=page)
    except (QueryError, BadInput):
        raise
    except Exception as exc:  # noqa: BLE001 - a damaged index heals instead of failing every search
        log.warning("search failed (%s); verifying the index", exc)
        searching.ensure_index(current_app.config["INDEX_DIR"])
        return _searcher_for(q).search(q, page=page)


def _run(as_json: bool) -> ResponseReturnValue:
    q = request.args.get("q", "")
    try:
        page = _page_number()
        result = _search(q, page)
    except (QueryError, BadInput) as exc:
        return _refused(q, exc, as_json)

    if result.redirect:
        target = url_for("codex.rule", rule_id=result.redirect)
        if as_json:
            return jsonify({**_no_results(q), "query": result.query, "redirect": target})
        return redirect(target, 302)

    results = [{"id": hit.id, "kind": hit.kind, "url": doc_url(hit.kind, hit.id, hit.parent),
                "title": hit.title, "snippet": hit.snippet, "text": hit.text, **ruling_answer(hit)}
               for hit in result.hits]
    body = {"query": result.query, "redirect": None, "suggestion": result.suggestion,
            "total": result.total, "results": results, "page": result.page, "pages": result.pages}
    if as_json:
        return jsonify(body)
    sections = {hit.id: hit.section for hit in result.hits}
    html = render_template("search/results.html", search_query=result.query, **body,
                           searched=result.searched, notices=list(result.notices), sections=sections,
                           kind_labels=KIND_LABELS, pager=_pager(result), error=None, empty=False)
    return announce_json(make_response(html), _with_read(url_for("search.search_json")))


def ruling_answer(hit: Any) -> dict[str, Any]:
    """A library ruling's hit also carries its question and its answer (verdict first)."""
    entry = LIBRARY.get(hit.id.split("/", 1)[1]) if hit.kind == "ruling" else None
    return {"question": entry.question, "answer": answer(entry)} if entry is not None else {}


def _with_read(url: str, **extra: str) -> str:
    """`url` with the parameters this search reads (READS), `extra` set."""
    args = [(k, v) for k, v in read_args(READS["search.search"]) if k not in extra] + list(extra.items())
    return f"{url}?{urlencode(args)}" if args else url


def _pager(result: searching.SearchResult) -> dict[str, str | None]:
    def at(n: int) -> str:
        return _with_read(url_for("search.search"), page=str(n))

    return {"prev": at(result.page - 1) if result.page > 1 else None,
            "next": at(result.page + 1) if result.page < result.pages else None}


@bp.get("/search")
def search() -> ResponseReturnValue:
    return _run(as_json=False)


@bp.get("/search.json")
def search_json() -> ResponseReturnValue:
    return _run(as_json=True)


@bp.get("/search/suggest")
def suggest() -> Response:
    """At most 8 entries {id, title, url, kind} whose number, term or alias starts with `q`; with
    `edition:<v>` in `q`, of that edition (and linking to its pages). Never an error: while a query
    is being typed, one that can't run yet suggests nothing."""
    q = request.args.get("q", "")
    try:
        searcher = _searcher_for(q) if "edition:" in q.lower() else _searcher()
    except (QueryError, BadInput):
        return jsonify([])
    typed = " ".join(w for w in q.split() if not w.lower().startswith("edition:"))
    found = searcher.suggest(typed)
    return jsonify([{"id": e["id"], "title": e["title"], "url": doc_url(e["kind"], e["id"], e["parent"]),
                     "kind": e["kind"]} for e in found])
