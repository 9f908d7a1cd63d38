// "Describe the dispute" (templates/desk/_describe.html): the text goes to /api/v1/read; its reading becomes the
// desk's scenario (board, queue and question, the text kept as the scenario's question), what the reader chose is
// listed and marked on the board (a click on a marked slot corrects it, as any slot), and one click resolves.
// A text it can't read for certain comes back with the words named and what they could be; nothing is loaded.
"use strict";

class DescribeDispute {
  constructor(desk, panel) {
    this.desk = desk;
    this.panel = panel;
    this.url = panel.dataset.readUrl;
    this.out = $("#describe-out", panel);
    this.marked = [];           // [{ref, card, why}] the slots the reader chose, while they hold that card
    $("#describe-form", panel).addEventListener("submit", (e) => { e.preventDefault(); this.read(); });
    $("#describe-resolve", panel).addEventListener("click", () => this.desk.resolve());
    desk.root.addEventListener("desk:refreshed", () => this.mark());
  }

  async read() {
    const text = $("#describe-text", this.panel).value.trim();
    if (!text) return;
    const body = { text };
    const speaker = $("#describe-as", this.panel).value;
    if (speaker) body.as = speaker;
    let res, data;
    try {
      res = await fetch(this.url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
      data = await res.json();
    } catch (err) {
      this.say([el("p", { className: "problem" }, "The reader can't be reached; check the connection and try again.")]);
      return;
    }
    if (!res.ok) return this.declined(data);
    this.desk.scenario = data.scenario;
    this.desk.insertAt = null;
    this.desk.yamlDirty = false;
    this.desk.closeEditor();
    this.desk.fillSettings();
    this.marked = (data.guesses || []).filter((g) => g.ref).map((g) => ({ ref: g.ref, card: this.cardAt(g.ref), why: `${g.what}: ${g.why}` }));
    this.showReading(data);
    this.desk.changed();
    $("#describe-resolve", this.panel).hidden = false;
  }

  cardAt(ref) {
    const [player, slot] = ref.split(":");
    const p = ((this.desk.scenario.state || {}).players || {})[player] || {};
    const entry = (p.field || {})[slot] ?? (p.realms || {})[slot];
    return typeof entry === "string" ? entry : entry && entry.card;
  }

  showReading(data) {
    const chosen = (data.guesses || []).map((g) => el("li", { className: g.ref ? "guess guess-slot" : "guess" }, `${g.what}: ${g.why}`));
    this.say([
      el("p", { className: "describe-ok" }, "Read. The board, the queue and the question below are the reading; check them, change anything by clicking it, then resolve."),
      el("details", { className: "describe-reading" }, el("summary", {}, "The reading in words"), el("pre", {}, data.reading)),
      chosen.length ? el("p", { className: "muted" }, "Chosen by the reader, nothing said decided it (marked on the board):") : "",
      chosen.length ? el("ul", { className: "guesses" }, ...chosen) : "",
    ]);
  }

  declined(data) {
    const items = (data.problems || []).map((p) => {
      const li = el("li", {}, p.message || String(p));
      if (p.options && p.options.length) li.append(el("span", { className: "muted" }, ` (could be: ${p.options.join(", ")})`));
      return li;
    });
    this.say([el("p", { className: "problem", role: "alert" }, data.error || "The dispute can't be read."), el("ul", { className: "problems" }, ...items)]);
    $("#describe-resolve", this.panel).hidden = true;
  }

  say(nodes) { this.out.replaceChildren(...nodes.filter(Boolean)); }

  // Mark each slot the reader chose on the board (the picture and, on a phone, the board in words), while the
  // same card stands there.
  mark() {
    for (const m of this.marked) {
      if (this.cardAt(m.ref) !== m.card) continue;
      const note = `Chosen by the reader: ${m.why}. Click to change.`;
      const slot = $(`#board [data-ref="${m.ref}"]`);
      if (slot) {
        slot.classList.add("guessed");
        const title = slot.querySelector("title") || slot.appendChild(document.createElementNS("http://www.w3.org/2000/svg", "title"));
        title.textContent = note;
      }
      const word = $(`#board .words-slot[data-slot-ref="${m.ref}"]`);
      if (word) {
        word.classList.add("guessed");
        word.title = note;
      }
    }
  }
}

const describePanel = $("#describe-panel");
if (describePanel && window.codexDesk) window.codexDesk.describe = new DescribeDispute(window.codexDesk, describePanel);
