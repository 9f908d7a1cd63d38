"""The site on a phone without a network: the web app manifest, the service worker, the list of what it
keeps, the offline search's data and pages, and the "Available offline" control.

    /manifest.webmanifest   the web app manifest (name, icons, theme colour, start_url, standalone)
    /sw.js                  the service worker (static/js/sw.js with its version and addresses first),
                            served from the root so its scope is the whole site
    /offline.json           what it keeps for the current edition, built from the Codex, the cards and
                            the library (never a list kept by hand): cache-first and network-first URLs
    /offline                what is kept, its size on this device, keep it now or clear it
    /offline/search         the offline search (the service worker answers /search with it offline)
    /offline/search.json    the documents and aliases the search index holds (judge.search.export)
    /offline/missing        what a page not kept says when the network is gone
    /offline/ping           204: the desk asks whether the server is there (navigator.onLine can't tell)

The version (`version()`) is the current edition and the engine's and site's hashes: a new edition or
release changes `/sw.js`, whose new copy keeps the new pages in the background, then replaces the old.
`JUDGE_OFFLINE` (app config, default on) registers the service worker; the shared browser-test server
turns it off, and the offline tests run their own server with the default.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, abort, current_app, render_template, request, url_for

from judge import ROOT
from judge.codex import load_codex
from judge.codex.editions import codex_root, editions
from judge.engine import load_library
from judge.library import LIBRARY, card_slug
from judge.search import export
from judge.search import store as index_store
from judge.web import caching
from judge.web.links import scenario_url
from judge.web.styles import STYLESHEETS, stylesheet_url

bp = Blueprint("offline", __name__)

THEME = "#2f5bd3"
BACKGROUND = "#fbfbfd"
SW_SOURCE = ROOT / "static" / "js" / "sw.js"
# The kinds of search documents and the page each opens, `__ID__` standing for the part of the id after
# the kind ("glossary/def" -> "def"); an example opens its rule (`parent`).
DOC_ENDPOINTS = {"rule": ("codex.rule", "rule_id"), "section": ("codex.rule", "rule_id"),
                 "example": ("codex.rule", "rule_id"), "glossary": ("codex.glossary_entry", "slug"),
                 "card": ("cards.card", "slug"), "ruling": ("library.scenario", "pid")}
PLACEHOLDER = "__ID__"


def enabled() -> bool:
    return bool(current_app.config.get("JUDGE_OFFLINE", True))


def version() -> dict[str, str]:
    """What the kept pages are valid for: the current edition, the engine, everything else of the site
    (and which codex folder, so a test's copy of the editions is another version)."""
    current = editions().current
    site = hashlib.sha256(f"{caching.site_version()} {codex_root()}".encode()).hexdigest()[:10]
    return {"key": f"{current}-{caching.engine_version()[:8]}-{site}", "codex": current,
            "engine": caching.engine_version()}


def kept_urls() -> dict[str, list[str]]:
    """Every page the service worker keeps, by group. Cache-first groups can't change within a version;
    `network_first` pages are kept too but asked for first (the desk carries the session's token)."""
    codex = load_codex()
    rule_ids = dict.fromkeys([*codex.rules, *codex.cited_absent, *(str(ch.number) for ch in codex.chapters)])
    return {
        "codex": [url_for("codex.index"), *(url_for("codex.rule", rule_id=r) for r in rule_ids)],
        "glossary": [url_for("codex.glossary"),
                     *(url_for("codex.glossary_entry", slug=s) for s in codex.glossary)],
        "interpretations": [url_for("codex.interpretations"),
                            *(url_for("codex.interpretation", interp_id=i) for i in codex.interpretations)],
        "cards": [url_for("cards.cards"),
                  *(url_for("cards.card", slug=card_slug(c.name))
                    for c in sorted(load_library(), key=lambda c: c.name.lower()))],
        "library": [url_for("library.scenarios"),
                    *(scenario_url(e.pid) for e in LIBRARY.entries())],
        "offline": [url_for("offline.page"), url_for("offline.search_page"), url_for("offline.search_data"),
                    url_for("offline.missing"), url_for("offline.manifest")],
        "static": [*(url_for("static", filename=name) for name in static_files()),
                   *(stylesheet_url(name) for name in STYLESHEETS)],
        "network_first": [url_for("desk.desk")],
    }


@lru_cache(maxsize=1)
def static_files() -> tuple[str, ...]:
    folder = ROOT / "static"
    return tuple(sorted(str(p.relative_to(folder)) for p in folder.rglob("*")
                        if p.is_file() and p != SW_SOURCE and not p.name.startswith(".")))


def _json(data: Any, mimetype: str = "application/json", etag: str | None = None) -> Response:
    """A JSON answer the same for everyone, with an ETag (so it may be compressed, judge.web.compress)."""
    text = json.dumps(data, separators=(",", ":"))
    return _public(Response(text, mimetype=mimetype), etag or hashlib.sha256(text.encode()).hexdigest()[:24])


def _public(response: Response, etag: str) -> Response:
    """The same for everyone, with its ETag, asked again each time (the service worker keeps its copy)."""
    response.set_etag(etag)
    response.cache_control.public = True
    response.cache_control.no_cache = True
    response.make_conditional(request)
    return response


@bp.app_context_processor
def offline_globals() -> dict[str, Any]:
    return {"offline_enabled": enabled, "offline_version": version, "theme_colour": THEME}


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    icons = [{"src": url_for("static", filename="icons/icon.svg"), "sizes": "any", "type": "image/svg+xml",
              "purpose": "any"}]
    icons += [{"src": url_for("static", filename=f"icons/icon-{n}.png"), "sizes": f"{n}x{n}",
               "type": "image/png", "purpose": "any maskable"} for n in (192, 512)]
    return _json({
        "name": "Codex Judge", "short_name": "Codex Judge",
        "description": "The Codex's rules, glossary, cards and library rulings, and a desk that resolves "
                       "disputes citing the rules; the Codex stays available offline.",
        "start_url": url_for("codex.index"), "scope": url_for("codex.index"), "id": url_for("codex.index"),
        "display": "standalone", "theme_color": THEME, "background_color": BACKGROUND, "icons": icons,
    }, mimetype="application/manifest+json")


@bp.get("/sw.js")
def service_worker() -> Response:
    config = {"version": version(), "keep": url_for("offline.keep_list"),
              "search": url_for("search.search"), "offline_search": url_for("offline.search_page"),
              "missing": url_for("offline.missing"), "static": url_for("static", filename=""),
              "search_data": url_for("offline.search_data")}
    body = f"const CONFIG = {json.dumps(config)};\n" + SW_SOURCE.read_text(encoding="utf-8")
    response = Response(body, mimetype="text/javascript")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Service-Worker-Allowed"] = url_for("codex.index")
    return response


@bp.get("/offline.json")
def keep_list() -> Response:
    groups = kept_urls()
    cache_first = [u for name, urls in groups.items() if name != "network_first" for u in urls]
    return _json({"version": version(), "groups": {k: len(v) for k, v in groups.items()},
                  "cache_first": cache_first, "network_first": groups["network_first"]})


@bp.get("/offline")
def page() -> str:
    groups = kept_urls()
    return render_template("offline/offline.html", groups={k: len(v) for k, v in groups.items()},
                           pages=sum(len(v) for v in groups.values()))


@bp.get("/offline/search")
def search_page() -> str:
    endpoints = {kind: _url_with_placeholder(*target) for kind, target in DOC_ENDPOINTS.items()}
    return render_template("offline/search.html", doc_urls=json.dumps(endpoints),
                           search_query=request.args.get("q", ""))


def _url_with_placeholder(endpoint: str, arg: str) -> str:
    values: dict[str, Any] = {arg: PLACEHOLDER}
    return url_for(endpoint, **values)


@bp.get("/offline/search.json")
def search_data() -> Response:
    """The current index build's export (written when the index is built)."""
    index_dir = current_app.config["INDEX_DIR"]
    build = index_store.current_build(index_dir)
    if build is None or not (build / export.FILE).is_file():
        abort(503, description="The search index is not built yet; try again in a few seconds.")
    path = Path(build) / export.FILE
    return _public(Response(path.read_bytes(), mimetype="application/json"),
                   index_store.read_meta(build).get("hash", "")[:24] or path.name)


@bp.get("/offline/ping")
def ping() -> Response:
    """Is the server there? The desk asks, offline, to resolve as soon as the network is back."""
    response = Response(status=204)
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/offline/missing")
def missing() -> str:
    return render_template("offline/missing.html")
