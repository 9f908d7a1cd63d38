// The desk's "What do you want to know?" (contract §7): the questions the position and the queue allow, in the
// engine's words, one click each. The likeliest is chosen until the judge clicks another; the choice is the
// scenario's `ask:` (so the ruling answers it first, and the shared link keeps it), and the share dialog's
// question starts from it. Hooks into the desk: it listens for "desk:refreshed" on the desk's root and calls
// desk.changed() after a choice; the desk asks `askControl.words()` for the share dialog. The answer's link
// to its deciding step steps the desk there.
"use strict";

class AskControl {
  constructor(desk, box) {
    this.desk = desk;
    this.box = box;
    this.list = $("#ask-list", box);
    this.url = box.dataset.questionsUrl;
    this.offered = [];
    this.seq = 0;
    desk.root.addEventListener("desk:refreshed", () => this.update());
    // The answer's link goes to its deciding step: the desk steps there (its address holds the desk).
    $("#ruling-out").addEventListener("click", (e) => {
      const link = e.target.closest("a.to-deciding");
      const li = link && $(link.getAttribute("href"), $("#ruling-out"));
      if (!li) return;
      e.preventDefault();
      desk.goStep(Number(li.dataset.step));
      li.scrollIntoView({ block: "center" });
    });
  }

  asked() {
    const ask = this.desk.scenario.ask;
    return Array.isArray(ask) && ask.length ? ask[0] : null;
  }

  async update() {
    const seq = ++this.seq;
    const data = await postJSON(this.url, { scenario: this.desk.scenario });
    if (seq !== this.seq) return;   // a newer position is on its way
    if (!data.ok) { this.box.hidden = true; return; }
    this.offered = data.questions || [];
    const asked = this.asked();
    // a question that no longer fits the queue (its action was removed) gives way to the likeliest one
    if (asked && !this.offered.some((q) => same(q.ask, asked))) {
      delete this.desk.scenario.ask;
      this.desk.changed();
      return;
    }
    this.render();
  }

  render() {
    this.box.hidden = !this.offered.length;
    this.list.replaceChildren();
    const asked = this.asked();
    const chosen = asked ? this.offered.find((q) => same(q.ask, asked)) : this.offered.find((q) => q.likely);
    for (const [i, q] of this.offered.entries()) {
      const input = el("input", { type: "radio", name: "ask", id: `ask-${i}`, checked: q === chosen });
      input.addEventListener("change", () => this.choose(q));
      const label = el("label", { htmlFor: `ask-${i}` }, q.question);
      if (q.likely) label.append(" ", el("span", { className: "muted" }, "(the likeliest)"));
      this.list.append(el("li", { className: q === chosen ? "chosen" : "" }, input, " ", label));
    }
  }

  choose(q) {
    this.desk.scenario.ask = [q.ask];
    this.desk.changed();
  }

  // the question the list shows chosen: the one asked, else the likeliest (preselected)
  chosen() {
    const asked = this.asked();
    return asked ? this.offered.find((o) => same(o.ask, asked)) : this.offered.find((o) => o.likely);
  }

  // the chosen question in words, for the share dialog
  words() {
    const q = this.chosen();
    return q ? q.question : "";
  }

  // The scenario as resolved: the question the list shows chosen is asked, the preselected one too (a
  // judge who leaves "(the likeliest)" as it is asked it).
  withAsk(scenario) {
    const q = this.chosen();
    return q && !this.asked() ? { ...scenario, ask: [q.ask] } : scenario;
  }

  // Before sharing: the chosen question becomes the scenario's own `ask:` (the link keeps it).
  settle() {
    const q = this.chosen();
    if (q && !this.asked()) this.desk.scenario.ask = [q.ask];
  }
}

function same(a, b) { return JSON.stringify(a) === JSON.stringify(b); }

const askBox = document.getElementById("ask-panel");
if (askBox && window.codexDesk) window.codexDesk.askControl = new AskControl(window.codexDesk, askBox);
