"""One stylesheet per page: the CSS files a kind of page needs, joined in cascade order and served as one
file, so a page waits for a single stylesheet (one round trip on a slow link) before it paints.

`STYLESHEETS` is the table: a sheet's name -> its files under `static/css`, in order. A page names its
sheet in its template (`{% block stylesheet %}codex{% endblock %}`; the default is "site"), and base.html
links `stylesheet_url(name)`: `/styles/<name>.css?v=<hash of the content>`, so a browser keeps it for a
year and a change to any of its files is a new address. The print rules (`print.css`) are part of every
sheet, inside `@media print`. The source files stay separate, each edited on its own: the desk's
`desk.css` is on the desk only; what a ruling's page shares with the desk (the board, the trace, the
answers) is `ruling.css`.
"""

from __future__ import annotations

import hashlib
import threading

from flask import Blueprint, Response, abort, request, url_for

from judge import ROOT

CSS = ROOT / "static" / "css"
PRINT = "print.css"
COMMON = ("offline.css", "site.css")   # every page: the site, and the "Available offline" control
LAST = ("search.css",)                 # the search box's suggestions, over everything else

STYLESHEETS: dict[str, tuple[str, ...]] = {
    "site": (*COMMON, *LAST),
    "codex": (*COMMON, "codex.css", *LAST),
    "cards": (*COMMON, "codex.css", "cards.css", *LAST),
    "ruling": (*COMMON, "ruling.css", *LAST),
    "desk": (*COMMON, "ruling.css", "desk.css", *LAST),
}
MAX_AGE = 365 * 24 * 3600   # seconds: the address changes with the content

bp = Blueprint("styles", __name__)
_lock = threading.Lock()
_joined: dict[str, tuple[tuple[int, ...], str, str]] = {}   # name -> (mtimes, text, hash)


def sheet(name: str) -> tuple[str, str]:
    """(the joined CSS, its hash) of the sheet `name`; joined again when one of its files changed."""
    files = [CSS / f for f in STYLESHEETS[name]] + [CSS / PRINT]
    stamp = tuple(path.stat().st_mtime_ns for path in files)
    with _lock:
        found = _joined.get(name)
        if found is not None and found[0] == stamp:
            return found[1], found[2]
    parts = [f"/* {path.name} */\n{path.read_text(encoding='utf-8')}" for path in files[:-1]]
    parts.append(f"/* {PRINT} */\n@media print {{\n{files[-1].read_text(encoding='utf-8')}}}\n")
    text = "\n".join(parts)
    digest = hashlib.sha256(text.encode()).hexdigest()[:12]
    with _lock:
        _joined[name] = (stamp, text, digest)
    return text, digest


def stylesheet_url(name: str) -> str:
    """The address of the sheet `name`, with its content's hash."""
    return url_for("styles.stylesheet", name=name, v=sheet(name)[1])


@bp.app_context_processor
def style_globals() -> dict[str, object]:
    return {"stylesheet_url": stylesheet_url}


@bp.get("/styles/<name>.css")
def stylesheet(name: str) -> Response:
    if name not in STYLESHEETS:
        abort(404, description=f"No stylesheet is called {name!r}; there are {', '.join(STYLESHEETS)}.")
    text, digest = sheet(name)
    response = Response(text, mimetype="text/css")
    response.set_etag(digest)
    if request.args.get("v") == digest:   # this content's own address: keep it
        response.headers["Cache-Control"] = f"public, max-age={MAX_AGE}, immutable"
    else:                                  # an old or bare address: ask again each time
        response.headers["Cache-Control"] = "public, no-cache"
    response.make_conditional(request)
    return response
