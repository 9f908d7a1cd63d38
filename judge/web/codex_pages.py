"""The Codex library: the chapters, one page per rule (present, cited-but-absent or empty), the
glossary and our interpretations, each with a JSON twin. Also the app-wide Jinja filters
`linkify` and `rule_link` and the template global `codex_version`.

Every page is the current edition's at its plain path (`/rules/11.5.1`) and any edition's under
`/editions/<version>/` (`/editions/0.4.0/rules/11.5.1`). On an edition's page every link to a Codex
page stays in that edition (`url_defaults` adds it to each `url_for`), and a rule or entry that
reads differently in the current edition carries a banner with the difference.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, abort, g, redirect, request, url_for
from markupsafe import Markup, escape

from judge.changes.diff import entry_text, rule_text, word_diff
from judge.codex import Codex, UnknownEdition, editions, load_edition
from judge.codex import pages as ctx
from judge.codex.linkify import link
from judge.codex.linkify import linkify as _linkify
from judge.desk.pages import nearest_rule, rulings_by_directness
from judge.web.links import rulings_citing
from judge.web.twin import twin

bp = Blueprint("codex", __name__)
EDITION = "/editions/<edition>"


@bp.url_value_preprocessor
def pick_edition(endpoint: str | None, values: dict[str, Any] | None) -> None:
    """`/editions/<version>/…`: show that edition (404 for one we don't hold)."""
    version = (values or {}).pop("edition", None)
    if version is None:
        return
    try:
        editions().require(version)
    except UnknownEdition as exc:
        abort(404, description=f"{exc}; see /editions.")
    g.edition = version


@bp.url_defaults
def keep_edition(endpoint: str, values: dict[str, Any]) -> None:
    """On an edition's page, links to Codex pages stay in that edition (every page of this blueprint
    is served under EDITION too)."""
    if "edition" not in values and g.get("edition"):
        values["edition"] = g.edition


def active_codex() -> Codex:
    """The edition this page shows: the one in its path, else the current one."""
    return load_edition(g.get("edition"))


def edition_context() -> dict[str, Any] | None:
    """For a page of an edition other than the current one: which, and which is current."""
    version = g.get("edition")
    current = editions().current
    if version is None or version == current:
        return None
    return {"version": version, "current": current}


def compare_to_current(ours: str | None, theirs: str | None, page: dict[str, Any]) -> None:
    """The banner of an edition's rule or entry: does the current edition read otherwise?"""
    banner = edition_context()
    if banner is None:
        return
    banner["status"] = ("same" if ours == theirs else "absent-now" if theirs is None
                        else "new-here" if ours is None else "changed")
    if banner["status"] == "changed":
        banner["diff"] = [{"op": op, "text": text} for op, text in word_diff(ours, theirs)]
    page["edition"] = banner


def last_edition_with(has: Callable[[Codex], bool]) -> str | None:
    """On a current-edition path, for a rule or entry the current edition no longer has: the latest
    edition that has it, so an old link still lands on its text (with the banner)."""
    if g.get("edition"):
        return None
    held = editions()
    return next((v for v in reversed(held.versions) if v != held.current and has(load_edition(v))), None)


@twin(bp, "/", also=(EDITION + "/",))
def index():
    page = ctx.index_page(active_codex())
    page["edition"] = edition_context()
    return "codex/index.html", page


@twin(bp, "/rules/<rule_id>", also=(EDITION + "/rules/<rule_id>",))
def rule(rule_id: str):
    codex = active_codex()
    if rule_id in codex.rules:
        page = ctx.rule_page(codex, rule_id)
        template = "codex/chapter.html" if page["rule"]["kind"] == "chapter" else "codex/rule.html"
    elif codex.knows(rule_id) and "/" not in rule_id:
        page, template = ctx.absent_page(codex, rule_id), "codex/absent.html"
    elif (older := last_edition_with(lambda c: rule_id in c.rules)) is not None:
        return redirect(url_for(request.endpoint or "codex.rule", rule_id=rule_id, edition=older), 302)
    elif parent := nearest_rule(rule_id, codex.rules):  # "13.6.2b" → 13.6.2, with a notice saying so
        page = ctx.rule_page(codex, parent)
        template = "codex/chapter.html" if page["rule"]["kind"] == "chapter" else "codex/rule.html"
        page["notice"] = f"The Codex has no rule {rule_id}; this is the nearest rule above it, {parent}."
        rule_id = parent
    else:
        abort(
            404,
            description=f"No rule {rule_id!r} in the Codex: rule ids look like 11.5.1, 11.6.1b, 13.6 or 10.",
        )
    page["url"] = url_for("codex.rule", rule_id=rule_id)
    page["rulings"] = rulings_by_directness(rule_id, rulings_citing(rule_id))
    if edition_context():
        now = load_edition().rules.get(rule_id)
        mine = codex.rules.get(rule_id)
        compare_to_current(rule_text(mine) if mine else None, rule_text(now) if now else None, page)
    return template, page


@twin(bp, "/glossary", also=(EDITION + "/glossary",))
def glossary():
    codex = active_codex()
    absent = [{"name": name, "cited_by": citers} for name, citers in sorted(codex.absent_terms.items())]
    return "codex/glossary.html", {"letters": ctx.glossary_letters(codex), "absent_terms": absent,
                                   "edition": edition_context()}


@twin(bp, "/glossary/<slug>", also=(EDITION + "/glossary/<slug>",))
def glossary_entry(slug: str):
    codex = active_codex()
    entry = codex.entry(slug)
    if entry is None and (older := last_edition_with(lambda c: c.entry(slug) is not None)) is not None:
        return redirect(url_for(request.endpoint or "codex.glossary_entry", slug=slug, edition=older), 302)
    if entry is None:
        abort(404, description=f"No glossary entry {slug!r}; see the glossary for every term and alias.")
    if entry.slug != slug:
        endpoint = "codex.glossary_entry_json" if request.path.endswith(".json") else "codex.glossary_entry"
        return redirect(url_for(endpoint, slug=entry.slug), 302)
    page = ctx.entry_page(codex, entry)
    page["url"] = url_for("codex.glossary_entry", slug=slug)
    page["rulings"] = rulings_citing(f"glossary/{slug}")
    if edition_context():
        now = load_edition().glossary.get(slug)
        compare_to_current(entry_text(entry), entry_text(now) if now else None, page)
    return "codex/entry.html", page


@twin(bp, "/interpretations", also=(EDITION + "/interpretations",))
def interpretations():
    codex = active_codex()
    return "codex/interpretations.html", {
        "interpretations": [ctx.interpretation_record(i) for i in codex.interpretations.values()],
        "edition": edition_context()}


@twin(bp, "/interpretations/<interp_id>", also=(EDITION + "/interpretations/<interp_id>",))
def interpretation(interp_id: str):
    found = active_codex().interpretations.get(interp_id)
    if found is None:
        abort(404, description=f"No interpretation {interp_id!r}; see /interpretations for all of ours.")
    page: dict[str, Any] = {"interpretation": ctx.interpretation_record(found)}
    page["url"] = url_for("codex.interpretation", interp_id=interp_id)
    return "codex/interpretation.html", page


# --- app-wide template helpers ------------------------------------------------------------------

def ref_url(ref: str) -> str:
    """The page of a rule id, "glossary/<slug>" or "interpretation/<id>"."""
    if ref.startswith("glossary/"):
        return url_for("codex.glossary_entry", slug=ref.split("/", 1)[1])
    if ref.startswith("interpretation/"):
        return url_for("codex.interpretation", interp_id=ref.split("/", 1)[1])
    return url_for("codex.rule", rule_id=ref)


@bp.app_template_filter("linkify")
def linkify_filter(text: str | None, skip: str | None = None) -> Markup:
    """Text → Markup: rule numbers and glossary terms become links with hover text; all else escaped."""
    codex = active_codex()
    return _linkify(text or "", codex.matcher, codex.knows, ref_url, codex.short, skip=skip)


@bp.app_template_filter("rule_link")
def rule_link(ref: str, label: str | None = None) -> Markup:
    """A rule id, "glossary/<slug>" or "interpretation/<id>" → a link titled with its short text."""
    codex = active_codex()
    ref = str(ref)
    if not codex.knows(ref):
        shown = escape(label or ref)
        return Markup(f'<span class="rule-ref unknown" title="not in the Codex">{shown}</span>')
    if label is None:
        # as a reader finds it: "13.6.7, 3rd point", "11.3.1 (inferred)", a term
        label = codex.label(ref)
    css = ("term" if ref.startswith("glossary/")
           else "ours" if ref.startswith("interpretation/") else "rule-ref")
    return Markup(link(ref, label or ref, ref_url(ref), codex.short(ref), css))


@bp.app_context_processor
def codex_globals() -> dict:
    return {"codex_version": active_codex().version}
