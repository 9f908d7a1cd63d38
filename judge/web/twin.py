"""Every HTML page has a JSON twin at the same path + `.json`, built from the same context dict.

    @twin(bp, "/rules/<rule_id>")
    def rule(rule_id):
        return "codex/rule.html", {...plain, JSON-serialisable context...}

registers `/rules/<rule_id>` (endpoint `rule`, HTML, with a `Link: rel="alternate"` header) and
`/rules/<rule_id>.json` (endpoint `rule_json`). A view may also return a Response (a redirect, say),
which is passed through unchanged, or a 3-tuple (template, context, status). `also=(path, …)`
serves the same view (and its twin) at more paths, e.g. a page of another Codex edition. `reads=(name,
…)` names the query parameters the page reads (its cache key and its JSON link carry them, no other).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import wraps
from typing import Any
from urllib.parse import urlencode

from flask import Blueprint, Response, jsonify, make_response, render_template, request, url_for

READS: dict[str, tuple[str, ...]] = {}  # endpoint -> the query parameters its page reads (`reads=`)


def twin(bp: Blueprint, rule: str, **options: Any) -> Callable:
    def decorator(view: Callable) -> Callable:
        endpoint = options.pop("endpoint", view.__name__)
        also = options.pop("also", ())
        reads = tuple(options.pop("reads", ()))
        READS[f"{bp.name}.{endpoint}"] = READS[f"{bp.name}.{endpoint}_json"] = reads

        def respond(as_json: bool, kwargs: dict[str, Any]) -> Response:
            result = view(**kwargs)
            if isinstance(result, Response):
                return result
            template, context, status = (*result, 200)[:3] if len(result) == 2 else result
            if as_json:
                return make_response(jsonify(context), status)
            response = make_response(render_template(template, **context), status)
            json_url = url_for(f"{bp.name}.{endpoint}_json", **kwargs)
            if args := read_args(reads):
                json_url += f"?{urlencode(args)}"
            return announce_json(response, json_url)

        @wraps(view)
        def html_view(**kwargs: Any) -> Response:
            return respond(False, kwargs)

        def json_view(**kwargs: Any) -> Response:
            return respond(True, kwargs)

        for path in (rule, *also):
            suffix_rule = path + "index.json" if path.endswith("/") else path + ".json"
            bp.add_url_rule(path, endpoint, html_view, **options)
            bp.add_url_rule(suffix_rule, endpoint + "_json", json_view, **options)
        return html_view

    return decorator


def read_args(reads: tuple[str, ...]) -> list[tuple[str, str]]:
    """The query parameters among `reads` this request has, in `reads`' order: all a page depends on
    (any other parameter is ignored: it changes neither the page nor its cache key)."""
    return selected_args(reads, request.args.items(multi=True))


def selected_args(reads: tuple[str, ...], pairs: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    """read_args, from a query's (name, value) pairs (also before Flask: judge.web.fast_reads)."""
    given = list(pairs)
    return [(name, value) for name in reads for key, value in given if key == name]


def query_args(*drop: str) -> dict[str, str]:
    """This request's query arguments, to carry over to another page: without `drop` (the route's own
    values, which would clash) and without names that start with "_"."""
    return {k: v for k, v in request.args.items() if k not in drop and not k.startswith("_")}


def with_query(url: str, *drop: str, **extra: Any) -> str:
    """`url` (from url_for, without a query) with this request's query arguments carried over (see
    `query_args`) and `extra` set. The query is encoded here, never passed to url_for as keywords, so no
    query name (`endpoint`, `values`, `_external`…) can reach url_for's own parameters."""
    args = {**query_args(*drop, *extra), **{k: str(v) for k, v in extra.items()}}
    return f"{url}?{urlencode(args)}" if args else url


def announce_json(response: Response, json_url: str) -> Response:
    """Point an HTML page at its JSON twin: `Link: <json_url>; rel="alternate"`."""
    response.headers["Link"] = f'<{json_url}>; rel="alternate"; type="application/json"'
    return response


def wants_json() -> bool:
    """True for `.json` paths and `/api/` paths: they get JSON errors."""
    path = request.path
    return path.endswith(".json") or path.startswith(("/api/", "/search/suggest"))
