// Rule links in a ruling open beside it: a side panel with the rule's text (from the page's JSON twin,
// /rules/<id>.json) and a link out, so the desk and the trace stay where they are.
// A click with a modifier key, or a middle click, still opens the page as the browser would.
"use strict";

const RULE_PATHS = /^\/(rules|glossary|interpretations)\//;

function ruleSummary(data) {
  if (data.rule) {
    return { title: `${data.rule.id}${data.section ? ` · ${data.section.title || ""}` : ""}`, text: [data.rule.text],
             notice: data.notice || "" };
  }
  if (data.entry) return { title: data.entry.term, text: data.entry.body || [data.entry.short], notice: "" };
  if (data.interpretation) {
    return { title: `Our interpretation: ${data.interpretation.id}`,
             text: [data.interpretation.question, data.interpretation.reading].filter(Boolean), notice: "" };
  }
  return { title: "", text: [data.error || "This page has no summary."], notice: "" };
}

class RulePanel {
  constructor() {
    this.panel = el("aside", { className: "rule-panel", id: "rule-panel", role: "dialog", ariaLabelledby: "rule-panel-title", hidden: true });
    this.heading = el("h2", { id: "rule-panel-title", tabIndex: -1 });
    this.body = el("div", { className: "rule-panel-body", ariaLive: "polite" });
    this.out = el("a", { className: "rule-panel-out", target: "_blank", rel: "noopener" }, "Open the full page in a new tab");
    this.close = el("button", { type: "button", className: "rule-panel-close", ariaLabel: "Close the rule" }, "✕");
    this.panel.append(this.close, this.heading, this.body, this.out);
    document.body.append(this.panel);
    this.close.addEventListener("click", () => this.hide());
    document.addEventListener("click", (e) => this.maybeOpen(e));
    document.addEventListener("keydown", (e) => {
      if (e.key === "Escape" && !this.panel.hidden) { e.stopImmediatePropagation(); this.hide(); }
    }, true);
  }

  maybeOpen(e) {
    const link = e.target.closest("a[href]");
    if (!link || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    if (!link.closest(".trace, .rejected, .step-rules, .queue, .rule-panel-body, .ruling-page")) return;
    const url = new URL(link.href, window.location.href);
    if (url.origin !== window.location.origin || !RULE_PATHS.test(url.pathname) || url.pathname.endsWith(".json")) return;
    e.preventDefault();
    this.show(url, link);
  }

  async show(url, link) {
    this.returnTo = link;
    this.heading.textContent = link.textContent.trim();
    this.body.replaceChildren(el("p", { className: "muted" }, "Loading…"));
    this.out.href = url.href;
    this.panel.hidden = false;
    Layers.push("rule", () => this.hide(false));   // Back closes the rule before it leaves the page
    this.heading.focus();
    let data;
    try {
      const response = await fetch(`${url.pathname.replace(/\/$/, "")}.json`, { headers: { Accept: "application/json" } });
      data = await response.json();
    } catch (err) {
      data = { error: "The rule could not be fetched; the link below opens its page." };
    }
    const summary = ruleSummary(data);
    if (summary.title) this.heading.textContent = summary.title;
    this.body.replaceChildren(...(summary.notice ? [el("p", { className: "notice" }, summary.notice)] : []),
      ...summary.text.map((t) => el("p", {}, t)));
  }

  hide(fromButton = true) {
    if (this.panel.hidden) return;
    this.panel.hidden = true;
    if (fromButton) Layers.drop("rule");
    if (this.returnTo && document.contains(this.returnTo)) this.returnTo.focus();
  }
}

window.codexRulePanel = new RulePanel();
