"""The Codex library: the chapters, one page per rule (present, cited-but-absent or empty), the
glossary and our interpretations, each with a JSON twin. Also the app-wide Jinja filters
`linkify` and `rule_link` and the template global `codex_version`."""

from __future__ import annotations

from flask import Blueprint, abort, redirect, request, url_for
from markupsafe import Markup, escape

from judge.codex import load_codex
from judge.codex import pages as ctx
from judge.codex.linkify import link
from judge.codex.linkify import linkify as _linkify
from judge.desk.library import rulings_citing
from judge.web.twin import twin

bp = Blueprint("codex", __name__)


@twin(bp, "/")
def index():
    return "codex/index.html", ctx.index_page(load_codex())


@twin(bp, "/rules/<rule_id>")
def rule(rule_id: str):
    codex = load_codex()
    if rule_id in codex.rules:
        page = ctx.rule_page(codex, rule_id)
        template = "codex/chapter.html" if page["rule"]["kind"] == "chapter" else "codex/rule.html"
    elif codex.knows(rule_id) and "/" not in rule_id:
        page, template = ctx.absent_page(codex, rule_id), "codex/absent.html"
    else:
        abort(404, description=f"No rule {rule_id!r} in the Codex: rule ids look like 11.5.1, 11.6.1b, 13.6 or 10.")
    page["url"] = url_for("codex.rule", rule_id=rule_id)
    page["rulings"] = rulings_citing(rule_id)
    return template, page


@twin(bp, "/glossary")
def glossary():
    codex = load_codex()
    absent = [{"name": name, "cited_by": citers} for name, citers in sorted(codex.absent_terms.items())]
    return "codex/glossary.html", {"letters": ctx.glossary_letters(codex), "absent_terms": absent}


@twin(bp, "/glossary/<slug>")
def glossary_entry(slug: str):
    codex = load_codex()
    entry = codex.entry(slug)
    if entry is None:
        abort(404, description=f"No glossary entry {slug!r}; see the glossary for every term and alias.")
    if entry.slug != slug:
        endpoint = "codex.glossary_entry_json" if request.path.endswith(".json") else "codex.glossary_entry"
        return redirect(url_for(endpoint, slug=entry.slug), 302)
    page = ctx.entry_page(codex, entry)
    page["url"] = url_for("codex.glossary_entry", slug=slug)
    page["rulings"] = rulings_citing(f"glossary/{slug}")
    return "codex/entry.html", page


@twin(bp, "/interpretations")
def interpretations():
    codex = load_codex()
    return "codex/interpretations.html", {
        "interpretations": [ctx.interpretation_record(i) for i in codex.interpretations.values()]}


@twin(bp, "/interpretations/<interp_id>")
def interpretation(interp_id: str):
    found = load_codex().interpretations.get(interp_id)
    if found is None:
        abort(404, description=f"No interpretation {interp_id!r}; see /interpretations for all of ours.")
    page = {"interpretation": ctx.interpretation_record(found)}
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
    codex = load_codex()
    return _linkify(text or "", codex.matcher, codex.knows, ref_url, codex.short, skip=skip)


@bp.app_template_filter("rule_link")
def rule_link(ref: str, label: str | None = None) -> Markup:
    """A rule id, "glossary/<slug>" or "interpretation/<id>" → a link titled with its short text."""
    codex = load_codex()
    ref = str(ref)
    if not codex.knows(ref):
        return Markup(f'<span class="rule-ref unknown" title="not in the Codex">{escape(label or ref)}</span>')
    if label is None:
        label = codex.label(ref)   # as a reader finds it: "13.6.7, 3rd point", "11.3.1 (inferred)", a term
    css = "term" if ref.startswith("glossary/") else "ours" if ref.startswith("interpretation/") else "rule-ref"
    return Markup(link(ref, label or ref, ref_url(ref), codex.short(ref), css))


@bp.app_context_processor
def codex_globals() -> dict:
    return {"codex_version": load_codex().version}
