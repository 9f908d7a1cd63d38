"""The shapes the issue-22 probe sent, as requests any client can replay (the suite's fuzz test and
`bench/fuzz.py` share them): every route of the app with odd query names and values, scenarios with a
null or a wrong type at every key, and nesting far past what a scenario needs.

    requests_for(app, saved_id, seed)   # (method, path, body or None, content type or None), ~1,300
"""

from __future__ import annotations

import copy
import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

from judge import SCENARIOS_DIR
from judge.engine import load_project_file

ODD_NAMES = ["endpoint", "_", "__class__", "values", "_external", "_anchor", "_method", "_scheme", "rid",
             "slug", "rule_id", "q", "page", "after", "snapshots", "edition", "r", "scenario", "type",
             "leader", "keyword", "limit", "format", "__proto__", "constructor", "self", "app", "g"]
ODD_VALUES = ["", "x", "0", "-1", "99999999999999999999", "1e309", "nan", "true", "null", "[]", "{}",
              "%00", "\u202e", "ÿ" * 300, "../../etc/passwd", "<script>", "'\"", "13.6", "0.4.0",
              "desk.desk", "a" * 2000]
WRONG = [None, 7, -1, 1.5, True, "", "x" * 300, [], {}, [None], {"a": None}, [[[]]]]

# a value for each URL parameter, so every route is reached (and a few that find nothing)
PARAMS = {"rule_id": ["13.6", "11.4.6", "9.9.9", "x"], "slug": ["noah", "taunt", "nope"],
          "interp_id": ["x"], "edition": ["0.4.0", "9.9"], "old": ["0.4.0"], "new": ["0.4.0"],
          "pid": ["10/none", "x"], "filename": ["css/site.css", "nope.css"]}

POSTS = ["/api/position", "/api/resolve", "/api/legal", "/api/v1/position", "/api/v1/resolve",
         "/api/v1/legal", "/api/v1/rulings", "/desk/board.json", "/desk/legal.json", "/desk/parse.json",
         "/desk/resolve.json"]


def library() -> list[Path]:
    return sorted(p for p in Path(SCENARIOS_DIR).rglob("*.yaml")
                  if p.name not in ("untestable.yaml", "coverage-baseline.yaml"))


def key_paths(data: Any, prefix: tuple = ()) -> list[tuple]:
    """Every key path in `data` (a mapping key or a list index at each step)."""
    out = []
    items = data.items() if isinstance(data, dict) else enumerate(data) if isinstance(data, list) else ()
    for key, value in items:
        out.append((*prefix, key))
        out += key_paths(value, (*prefix, key))
    return out


def replaced(data: Any, path: tuple, value: Any) -> Any:
    out = copy.deepcopy(data)
    node = out
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return out


def routes(app) -> list[tuple[str, str]]:
    """(method, path) for every rule of the app, its parameters filled in."""
    out = []
    for rule in app.url_map.iter_rules():
        methods = sorted(rule.methods - {"HEAD", "OPTIONS"})
        names = re.findall(r"<(?:[a-z]+:)?([a-z_]+)>", rule.rule)
        choices = [PARAMS.get(name, ["x"]) for name in names]
        for i in range(max((len(c) for c in choices), default=1)):
            path = rule.rule
            for name, values in zip(names, choices, strict=True):
                path = re.sub(rf"<(?:[a-z]+:)?{name}>", quote(values[i % len(values)], safe="/"), path)
            out += [(method, path) for method in methods if method == "GET"]
    return sorted(set(out))


Request = tuple[str, str, bytes | None, str | None]  # method, path with query, body, content type


def _body(path: str, scenario: Any) -> tuple[bytes, str]:
    if path.startswith("/desk"):
        return json.dumps({"scenario": scenario}).encode(), "application/json"
    return json.dumps(scenario).encode(), "application/json"


def requests_for(app, saved_id: str | None = None, seed: int = 0) -> Iterator[Request]:
    """Every shape, once each (about 1,300 requests), in an order set by `seed`."""
    rng = random.Random(seed)
    yield from query_shapes(app, saved_id, rng)
    yield from scenario_shapes(rng)
    yield from desk_shapes()
    yield from nesting_shapes()
    yield from non_scenarios()


def query_shapes(app, saved_id: str | None, rng: random.Random) -> Iterator[Request]:
    """Every route with odd query names (and values): the names the probe found url_for taking."""
    gets = routes(app)
    if saved_id:
        gets += [("GET", f"/r/{saved_id}"), ("GET", f"/r/{saved_id}.json"), ("GET", f"/desk?r={saved_id}")]
    for i, (method, path) in enumerate(gets):
        joiner = "&" if "?" in path else "?"
        for name in [*rng.sample(ODD_NAMES, 3), "endpoint"]:
            value = ODD_VALUES[(i + len(name)) % len(ODD_VALUES)]
            yield method, f"{path}{joiner}{quote(name)}={quote(value)}", None, None
        yield method, f"{path}{joiner}endpoint=x&_=1&__class__=y&values=z", None, None


def scenario_shapes(rng: random.Random) -> Iterator[Request]:
    """A null or a wrong type at every key path of three library scenarios, spread over the POST routes."""
    scenarios = library()
    n = 0
    for source in [scenarios[j] for j in sorted(rng.sample(range(len(scenarios)), 3))]:
        data = load_project_file(source.read_text(encoding="utf-8"))
        variants = [replaced(data, path, WRONG[i % len(WRONG)]) for i, path in enumerate(key_paths(data))]
        variants += [{**data, key: value} for key in ("state", "actions", "cards", "expect")
                     for value in WRONG]
        for variant in variants:
            post = POSTS[n % len(POSTS)]
            yield ("POST", post, *_body(post, variant))
            n += 1


def desk_shapes() -> Iterator[Request]:
    """The desk's redraw as a board is typed: players or field null or mistyped with a recruit queued,
    and cards of the wrong type beside an unknown card name."""
    for value in WRONG:
        for state in ({"players": value}, {"players": {"A": value}}, {"players": {"A": {"field": value}}}):
            for actions in ([{"recruit": "Noah", "to": "C3"}], value):
                for post in ("/desk/board.json", "/desk/legal.json", "/api/v1/legal"):
                    yield ("POST", post, *_body(post, {"state": state, "actions": actions}))
        unknown = {"cards": value, "state": {"players": {"A": {"hand": ["Nope Card"]}}},
                   "actions": [{"cast": "Nope Card"}]}
        for post in POSTS:
            yield ("POST", post, *_body(post, unknown))


def nesting_shapes() -> Iterator[Request]:
    """Deep JSON (the probe's ~330 levels in 700 bytes, and far more), deep YAML."""
    for depth in (50, 330, 900, 5000):
        for kind in ("list", "dict"):
            if kind == "list":
                text = '{"state": ' + "[" * depth + "]" * depth + "}"
            else:
                text = '{"state": ' + '{"a": ' * depth + "null" + "}" * depth + "}"
            for post in POSTS:
                body = f'{{"scenario": {text}}}' if post.startswith("/desk") else text
                yield "POST", post, body.encode(), "application/json"
    for depth in (330, 3000):
        yield "POST", "/api/v1/resolve", ("state: " + "[" * depth + "]" * depth).encode(), "application/yaml"
        indented = "a:\n" + "".join(" " * i + "- \n" for i in range(1, min(depth, 400)))
        yield "POST", "/api/v1/resolve", indented.encode(), "application/yaml"


def non_scenarios() -> Iterator[Request]:
    """Bodies that are not scenarios at all, to every POST route."""
    bodies = ((b"", "application/json"), (b"null", "application/json"), (b"[1]", "application/json"),
              (b"\xff\xfe", "application/json"), (b"{", "application/json"),
              (b"- a\n- b", "application/yaml"),
              (b"a: [", "application/yaml"), (b'{"state": {}}', "text/plain"),
              (b"x=1", "application/x-www-form-urlencoded"))
    for raw, mimetype in bodies:
        for post in POSTS:
            yield "POST", post, raw, mimetype
