"""The card library as pages: `/cards` (every card of `codex/cards/*.yaml`, by type) and
`/cards/<slug>` (one card: its printed text, values, keywords, effects in plain words, the Codex
rules a reconstruction rests on, and the library rulings that use it), each with a JSON twin.

Also the app-wide Jinja filter `card_link` (a card name -> a link to its page when it is a library
card, else the name, escaped). Cards a scenario defines inline (`cards:`) are not library cards and
never appear here.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Mapping
from functools import cache, lru_cache
from typing import Any

import yaml
from flask import Blueprint, abort, redirect, request, url_for
from markupsafe import Markup, escape

from judge.engine import (
    CARD_TYPES,
    CARDS_DIR,
    TRIGGER_WORDS,
    CardDef,
    EffectDef,
    Keyword,
    TargetSpec,
    check_card_text,
    load_library,
    load_project_file,
)
from judge.library import LIBRARY, Entry, card_slug
from judge.web.links import rulings
from judge.web.twin import twin

bp = Blueprint("cards", __name__)

TYPE_TITLES = {"soul": "Souls", "event": "Events", "armament": "Armaments", "ambush": "Ambushes",
               "realm": "Realms"}
RECONSTRUCTED = "Reconstructed from the Codex — not official card text."


@lru_cache(maxsize=1)
def _by_slug() -> dict[str, CardDef]:
    return {card_slug(card.name): card for card in load_library()}


@lru_cache(maxsize=1)
def _raw_cards() -> dict[str, dict[str, Any]]:
    """Each library card as written in its file, by lower-cased name. Our own files: read with the
    project's reader (no visitor's clock), once per process at start (`warm_own_data`), never under a
    visitor's budget (a cold worker once answered 422 here)."""
    found: dict[str, dict[str, Any]] = {}
    for path in sorted(CARDS_DIR.glob("**/*.yaml")):
        try:
            data = load_project_file(path.read_text(encoding="utf-8"))
        except (OSError, yaml.YAMLError):
            continue
        items = data.get("cards", [data]) if isinstance(data, Mapping) else data
        for item in items if isinstance(items, list) else []:
            if isinstance(item, Mapping) and isinstance(item.get("name"), str):
                found[item["name"].lower()] = dict(item)
    return found


@lru_cache(maxsize=1)
def _raw_yaml() -> dict[str, str]:
    """Each library card's YAML as written in its file, by lower-cased name (for a <details>)."""
    return {name: yaml.safe_dump(item, sort_keys=False, allow_unicode=True)
            for name, item in _raw_cards().items()}


@cache
def text_check(name: str) -> dict[str, Any] | None:
    """Whether a library card's printed text reads as its data says (issue 28), and the words the
    writer makes of its data."""
    raw = _raw_cards().get(name.lower())
    return check_card_text(raw).to_dict() if raw is not None else None


# --- effects in plain words -----------------------------------------------------------------------

def words(value: Any) -> str:
    """A value of the card schema in plain words: `{discard: 1}` -> "discard 1",
    `{line: {max: 2}}` -> "line: max 2", `end_of_turn` -> "end of turn"."""
    if isinstance(value, Mapping) and "if" in value:
        text = f"if {words(value['if'])}, then {words(value.get('then', []))}"
        return text + (f", else {words(value['else'])}" if value.get("else") else "")
    if isinstance(value, Mapping):
        parts = []
        for key, val in value.items():
            key = str(key).replace("_", " ")
            if val is True:
                parts.append(key)
            elif key == "until" and val == "permanently":
                parts.append("permanently")
            elif val is False:
                parts.append(f"{key}: no")
            elif isinstance(val, (Mapping, list, tuple)):
                parts.append(f"{key}: {words(val)}")
            else:
                parts.append(f"{key} {words(val)}")
        return ", ".join(parts)
    if isinstance(value, (list, tuple)):
        return "; ".join(words(v) for v in value) or "nothing"
    if hasattr(value, "label") and callable(value.label):   # a Keyword
        return value.label().replace("_", " ")
    if isinstance(value, EffectDef):
        return describe_effect(value)["summary"]
    return str(value).replace("_", " ")


def describe_target(spec: TargetSpec) -> str:
    noun = {"soul": "Soul", "spot": "Soul Spot"}.get(spec.what, spec.what.capitalize())
    if spec.what == "soul" and spec.captured:
        noun = "captured Soul"
    text = {"own": f"one of your {noun}s", "opposing": f"an opposing {noun}"}.get(spec.side, f"any {noun}")
    if spec.what == "soul":
        text += " in any Line" if spec.lines == "any" else " in the Front Line"
    elif spec.what == "spot" and spec.naming == "front":
        text += " with an active Soul in the Front Line on it (the target names that Soul)"
    if spec.where:
        text += f", where {words(spec.where)}"
    return text


def describe_effect(effect: EffectDef) -> dict[str, Any]:
    """One effect as labelled plain-word parts, for the page and its JSON twin."""
    kind = effect.kind.capitalize() + " Effect"
    if effect.fast:
        kind += ", Fast"
    parts: list[dict[str, str]] = [{"label": "Kind", "text": kind}]
    if effect.limit is not None:
        parts.append({"label": "Limit", "text": effect.limit.text or words(
            {"per turn": effect.limit.per_turn, "per game": effect.limit.per_game})})
    if effect.trigger:
        trigger = TRIGGER_WORDS.get(effect.trigger, "when it is " + effect.trigger.replace("_", " "))
        parts.append({"label": "Trigger", "text": trigger
                      + (" (mandatory)" if effect.mandatory else " (optional)")})
    if effect.condition:
        parts.append({"label": "Condition", "text": words(effect.condition)})
    if effect.targets:
        parts.append({"label": "Targets", "text": "; ".join(describe_target(t) for t in effect.targets)})
    if effect.cost:
        parts.append({"label": "Cost", "text": words(effect.cost)})
    if effect.do:
        parts.append({"label": "Does", "text": words(effect.do)})
    if effect.gain:
        parts.append({"label": "Gives", "text": words({k: v for k, v in effect.gain.items() if v})})
    if effect.grant is not None:
        parts.append({"label": "Grants", "text": words(effect.grant)})
    if effect.to:
        parts.append({"label": "To", "text": words(effect.to)})
    if effect.negate:
        parts.append({"label": "Negates", "text": f"the effects of {words(effect.negate)}"})
    summary = "; ".join(f"{p['label'].lower()}: {p['text']}" for p in parts)
    name = effect.name or f"Effect {effect.index + 1}"
    return {"name": name, "kind": effect.kind, "parts": parts, "summary": summary}


# --- which library rulings use a card --------------------------------------------------------------

_uses_lock = threading.Lock()
_uses: dict[str, Any] = {"key": None, "entries": None, "by_card": {}}


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for key, val in value.items():
            if isinstance(key, str):
                yield key
            yield from _strings(val)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _names_in(entry: Entry, known: set[str]) -> set[str]:
    """The library card names (lower case) a scenario's state, actions or cards name."""
    data = entry.data
    found: set[str] = set()
    for key in ("state", "actions", "cards"):
        for text in _strings(data.get(key)):
            name = text.strip().lower()
            if name in known:
                found.add(name)
    return found


def rulings_using(card: CardDef) -> list[dict[str, str]]:
    """The library scenarios that name `card`: [{id, title, url}], worked out once per change of the
    scenario files (the entries are re-read then, so their identity is the cache key)."""
    entries = LIBRARY.entries()
    key = tuple((e.pid, id(e.data)) for e in entries)
    with _uses_lock:
        if _uses["key"] != key:
            known = {c.name.lower() for c in load_library()}
            by_card: dict[str, list[Entry]] = {}
            for entry in entries:
                for name in _names_in(entry, known):
                    by_card.setdefault(name, []).append(entry)
            _uses.update(key=key, entries=entries, by_card=by_card)
        found = list(_uses["by_card"].get(card.name.lower(), []))
    return rulings(found)


# --- records and views ----------------------------------------------------------------------------

def carried_effect(keyword: Keyword) -> dict[str, Any]:
    """The Timing Effect a keyword carries (Reinforcement), shown among the effects under the
    keyword's title, with the effect's own name when it has one."""
    effect, title = keyword.value, keyword.record.title
    own = effect.name if effect.name and effect.name.lower() != title.lower() else None
    return {**describe_effect(effect), "name": f"{title} ({own})" if own else title}


def keyword_words(keyword: Any) -> str:
    """"defiance 10", "moral +5 ATK", "berserk: damage 10, to …" (Berserk's actions spelled out)."""
    label = keyword.label().replace("_", " ")
    if keyword.record.value == "actions" and keyword.value:   # Berserk's actions
        return f"{label}: {words(keyword.value)}"
    return label


def card_summary(card: CardDef) -> dict[str, Any]:
    return {"name": card.name, "slug": card_slug(card.name),
            "url": url_for("cards.card", slug=card_slug(card.name)),
            "type": card.type, "rank": card.rank, "attribute": card.attribute, "leader": card.leader,
            "reconstructed": card.reconstructed}


def card_record(card: CardDef) -> dict[str, Any]:
    record = card_summary(card)
    stats = {"atk": card.atk, "def": card.def_, "hp": card.hp}
    record.update({
        "text": card.text,
        "stats": stats if card.type in ("soul", "realm") or any(stats.values()) else None,
        "keywords": [keyword_words(kw) for kw in card.keywords],
        "effects": [describe_effect(e) for e in card.effects]
        + [carried_effect(kw) for kw in card.keywords if isinstance(kw.value, EffectDef)],
        "caster": words(card.caster) if card.caster else None,
        "ambusher": words(card.ambusher) if card.ambusher else None,
        "notes": card.notes,
        "sources": list(card.sources),
        "notice": RECONSTRUCTED if card.reconstructed else None,
        "text_check": text_check(card.name) if card.text else None,
    })
    return record


@twin(bp, "/cards")
def cards():
    library = sorted(load_library(), key=lambda c: (c.rank, c.name.lower()))
    groups = [{"type": kind, "title": TYPE_TITLES.get(kind, kind.capitalize()),
               "cards": [card_summary(c) for c in library if c.type == kind]}
              for kind in CARD_TYPES]
    return "cards/index.html", {"groups": [g for g in groups if g["cards"]], "total": len(library),
                                "reconstructed_notice": RECONSTRUCTED}


@twin(bp, "/cards/<slug>")
def card(slug: str):
    found = _by_slug().get(slug)
    if found is None:
        named = load_library().get(slug)
        if named is None:
            abort(404, description=f"No card {slug!r} in the card library; see /cards for every card.")
        endpoint = "cards.card_json" if request.path.endswith(".json") else "cards.card"
        return redirect(url_for(endpoint, slug=card_slug(named.name)), 302)
    page: dict[str, Any] = {"card": card_record(found), "rulings": rulings_using(found),
            "yaml": _raw_yaml().get(found.name.lower(), "")}
    page["url"] = page["card"]["url"]
    return "cards/card.html", page


@bp.app_template_filter("card_link")
def card_link(name: str) -> Markup:
    """A library card's name -> a link to its page; any other name, escaped."""
    found = load_library().get(name)
    if found is None:
        return Markup(escape(name))
    return Markup(f'<a class="card-link" href="{escape(url_for("cards.card", slug=card_slug(found.name)))}">'
                  f"{escape(name)}</a>")
