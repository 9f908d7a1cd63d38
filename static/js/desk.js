// The ruling desk: build a position by clicking, queue what happens from the legal actions, resolve,
// step through the ruling. Plain JS, no build step, no inline script; desk-util.js, desk-keep.js,
// desk-rules.js, desk-picker.js and the Desk's methods in desk-queue.js, desk-yaml.js, desk-effects.js and desk-custom.js
// load first. Every page it enhances also works without it.
"use strict";

const PHASE_WORDS = { preparation: "Preparation Phase", combat: "Combat Phase", emplacement: "Emplacement Phase", setup: "Setup" };

// Every string equal to `from` inside `value` becomes `to` (a did-you-mean fix of a card name).
function renameCard(value, from, to) {
  if (typeof value === "string") return value === from ? to : value;
  if (Array.isArray(value)) return value.map((v) => renameCard(v, from, to));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, renameCard(v, from, to)]));
  }
  return value;
}

// ---------------------------------------------------------------------------------------------
class Desk {
  constructor(root) {
    this.root = root;
    const d = root.dataset;
    this.urls = { board: d.boardUrl, legal: d.legalUrl, refused: d.refusedUrl, resolve: d.resolveUrl, parse: d.parseUrl, cards: d.cardsUrl };
    this.scenario = JSON.parse(d.scenario);
    this.field = JSON.parse(d.field);
    this.vocab = JSON.parse(d.vocabulary);  // the engine's vocabulary (judge.engine.vocabulary)
    this.starts = JSON.parse(d.starts);
    this.rootSlot = this.field.soul_slots.find((s) => s.parent === null).name;
    this.selected = null;
    this.focusRef = null;
    this.boards = [];
    this.step = null;           // null: editing; -1: start; i: after step i
    this.rejected = null;
    this.words = [];
    this.insertAt = null;  // offered actions go to the end of the queue, or before this queued one
    this.yamlDirty = d.yamlError === "1";
    this.board = $("#board");
    this.positionBoard = this.board.innerHTML;
    this.picker = new Picker(this);
    this.refreshSoon = debounce(() => this.refresh(), 200);
    this.keepSoon = debounce(() => this.keep(), 200);
    this.bind();
    this.begin();
  }

  // -- starting: the address, then this browser's draft, then the page's scenario ------------
  async begin() {
    const fromAddress = await Keep.fromAddress();
    const stored = Keep.fromStorage();
    let view = null;
    if (this.root.dataset.yamlError === "1") this.showYamlLine(this.yamlErrorLine());
    else if (fromAddress && fromAddress.scenario) view = fromAddress;
    else if (this.root.dataset.fresh === "1" && stored && stored.scenario) {
      view = stored;
      this.askWhereToStart(stored);
    }
    if (view) this.scenario = view.scenario;
    const sameDraft = stored && view && JSON.stringify(stored.scenario) === JSON.stringify(view.scenario);
    if (sameDraft && typeof stored.yaml === "string") {
      $("#yaml-text").value = stored.yaml;
      this.yamlDirty = true;
    }
    this.fillSettings();
    await this.refresh();
    if (sameDraft && typeof stored.yaml === "string") await this.checkYaml(false);
    if (view && view.resolved) {
      await this.resolve({ keepStep: true });
      if (typeof view.step === "number") this.goStep(view.step);
    }
    this.root.dataset.ready = "1";
  }

  // A fresh /desk with work kept in this browser: continue it (shown meanwhile), or start anew.
  askWhereToStart(stored) {
    const box = $("#restored");
    const button = (label, fn) => {
      const b = el("button", { type: "button", className: "start-choice" }, label);
      b.addEventListener("click", () => { this.hideBanner(); fn(); });
      return b;
    };
    box.replaceChildren(el("span", {}, `This is your desk from ${humanWhen(stored.saved)}. `),
      button("Continue where you were", () => {}),
      button("Start with an empty board", () => this.loadStart("empty")),
      button("Start from the sample position", () => this.loadStart("default")));
    box.hidden = false;
    this.bannerEdits = 0;
  }

  hideBanner() { $("#restored").hidden = true; }

  keep() {
    Keep.save({ v: 1, scenario: this.scenario, resolved: this.step !== null, step: this.step,
                yaml: this.yamlDirty ? $("#yaml-text").value : undefined });
  }

  loadStart(key) {
    const leader = (p) => (((this.starts.default || {}).state || {}).players || {})[p]?.field?.altar;
    // an empty board starts valid: each altar holds a Leader (the sample's), to change in one click
    const scenario = key === "empty"
      ? { state: { turn_player: "A", phase: "preparation", turn: 9, players: { A: { field: { altar: leader("A") } }, B: { field: { altar: leader("B") } } } }, actions: [] }
      : clone(this.starts[key]);
    this.scenario = scenario;
    this.insertAt = null;
    this.yamlDirty = false;
    this.closeEditor();
    this.fillSettings();
    this.changed();
  }

  // -- the scenario ------------------------------------------------------------------------
  get state() {
    this.scenario.state = this.scenario.state || {};
    return this.scenario.state;
  }

  get actions() {
    this.scenario.actions = this.scenario.actions || [];
    return this.scenario.actions;
  }

  player(p) {
    const players = (this.state.players = this.state.players || {});
    players[p] = players[p] || {};
    players[p].field = players[p].field || {};
    return players[p];
  }

  zoneOf(kind) { return kind === "realm" ? "realms" : "field"; }

  entry(ref, kind) {
    const [p, slot] = ref.split(":");
    const value = (this.player(p)[this.zoneOf(kind)] || {})[slot];
    if (value === undefined || value === null) return null;
    return typeof value === "string" ? { card: value } : value;
  }

  setEntry(ref, kind, value) {
    const [p, slot] = ref.split(":");
    const pstate = this.player(p);
    const zone = this.zoneOf(kind);
    pstate[zone] = pstate[zone] || {};
    if (value === null) delete pstate[zone][slot];
    else pstate[zone][slot] = value;
    this.changed();
  }

  changed() {
    this.hideBanner();  // "this is your desk from …" stops being true with the first edit
    if (this.insertAt >= this.actions.length) this.insertAt = null;
    $("#next-actions").setAttribute("aria-busy", "true");  // offers for the board before this change
    this.leaveSteps();
    this.renderPiles();
    this.renderQueue();
    this.refreshSoon();
    this.keepSoon();
  }

  async refresh() {
    this.refreshSoon.cancel();   // this redraw covers every edit made so far
    const seq = (this.refreshSeq = (this.refreshSeq || 0) + 1);
    $("#next-actions").setAttribute("aria-busy", "true");  // what it offers is for the board before this change
    const data = await postJSON(this.urls.board, { scenario: this.scenario });
    if (seq !== this.refreshSeq) return;  // a newer redraw is on its way: answers may arrive out of order
    if (data.board === undefined) {
      this.showProblems(data.problems, data.error);
      this.offerNothing(data.error);
      return;
    }
    this.positionBoard = data.board;
    this.problems = data.problems || [];
    if (this.step === null) this.showBoard(data.board);
    this.showProblems(data.problems);
    this.rejected = data.rejected;
    this.words = data.words || [];
    this.renderTurn();
    this.renderNextTitle();
    this.renderPiles();
    this.renderQueue();
    this.root.dispatchEvent(new CustomEvent("desk:refreshed"));  // the questions (desk-ask.js) follow the queue
    if (!this.yamlDirty) $("#yaml-text").value = data.yaml;
    await this.loadLegal(seq);
  }

  // Problems beside what they name: the list under the board, and the slot a path points at marked.
  // Problems where they are: in the side panel in words, each with its fix, and marked on the slot.
  showProblems(problems, message) {
    problems = problems || [];
    this.problems = problems;
    this.problemPaths = new Set(problems.map((p) => p.path).filter(Boolean));
    const list = $("#board-problems");
    list.replaceChildren();
    if (message && !problems.length) problems = [{ words: message }];
    for (const p of problems) {
      const li = el("li", {}, p.words || problemText(p));
      const fix = this.problemFix(p);
      if (fix) li.append(" ", fix);
      list.append(li);
    }
    $("#problems-panel").hidden = !problems.length;
    this.markProblemSlots();
  }

  markProblemSlots() {
    $$("#board .has-problem").forEach((g) => g.classList.remove("has-problem"));
    $$("#board .problem-mark").forEach((t) => t.remove());
    for (const p of this.problems || []) {
      if (!p.ref) continue;
      const g = this.board.querySelector(`g[data-ref="${CSS.escape(p.ref)}"]`);
      if (g) {
        g.classList.add("has-problem");
        const mark = document.createElementNS("http://www.w3.org/2000/svg", "text");
        mark.setAttribute("x", "66"); mark.setAttribute("y", "109"); mark.setAttribute("text-anchor", "middle");
        mark.setAttribute("class", "problem-mark");
        mark.textContent = "⚠ a problem";
        g.append(mark);
        const title = g.querySelector("title");
        if (title) title.textContent += `\nProblem: ${p.words || p.message}`;
        g.setAttribute("aria-label", `${g.getAttribute("aria-label")}; problem: ${p.words || p.message}`);
      }
      const row = this.board.querySelector(`[data-slot-ref="${CSS.escape(p.ref)}"]`);
      if (row) { row.classList.add("has-problem"); row.append(el("span", { className: "problem-mark" }, " ⚠ a problem")); }
    }
  }

  problemFix(p) {
    const fix = p.fix || (p.suggest ? { do: "rename", label: `Use ${p.suggest}` } : null);
    if (!fix) return null;
    const button = el("button", { type: "button", className: "fix-button" }, fix.label);
    button.addEventListener("click", () => {
      const kind = (ref) => (/:realm\d/.test(ref) ? "realm" : "soul");
      if (fix.do === "rename") this.fixCard(p);
      else if (fix.do === "pick") this.openSlot(fix.ref, kind(fix.ref));
      else if (fix.do === "remove") { this.selected = { ref: fix.ref, kind: kind(fix.ref) }; this.removeCard(); }
      else if (fix.do === "one-ambush") {
        const entry = { ...this.entry(fix.ref, "soul") };
        entry.ambushes = (entry.ambushes || []).slice(-1);
        this.setEntry(fix.ref, "soul", entry);
        if (this.selected && this.selected.ref === fix.ref) this.renderAmbushes(entry);   // its panel, if open
      } else if (fix.do === "edit-card") {
        const card = (this.scenario.cards || []).find((c) => c.name === fix.card);
        if (card) { this.openCustom(card.type); this.fillCustom(card); $("#custom-form").elements.name.value = card.name; this.showCustomFields(); }
      }
    });
    return button;
  }

  fixCard(problem) {
    this.scenario = renameCard(this.scenario, problem.card, problem.suggest);
    this.fillSettings();
    this.changed();
  }

  // -- the board: one tab stop, arrow keys between slots -----------------------------------
  showBoard(html) {
    const old = this.board.querySelector(".board-scroll");
    const scrolled = old ? old.scrollLeft : null;
    const pop = $("#slot-pop");
    const popFocus = pop.contains(document.activeElement) ? document.activeElement : null;
    if (this.board.contains(pop)) this.popHomeAgain();
    const hadFocus = this.board.contains(document.activeElement);
    this.board.innerHTML = html;
    const scroller = this.board.querySelector(".board-scroll");
    if (scroller) scroller.scrollLeft = scrolled ?? (scroller.scrollWidth - scroller.clientWidth) / 2;
    this.markProblemSlots();
    if (this.selected) { this.placePop(); if (popFocus && document.activeElement !== popFocus) popFocus.focus({ preventScroll: true }); }
    const slots = $$("g[data-ref]", this.board);
    if (!slots.length) return;
    if (!this.focusRef || !slots.some((g) => g.dataset.ref === this.focusRef)) this.focusRef = `A:${this.rootSlot}`;
    for (const g of slots) {
      const current = g.dataset.ref === this.focusRef;
      g.setAttribute("tabindex", current ? "0" : "-1");
      const selected = this.selected && g.dataset.ref === this.selected.ref;
      g.classList.toggle("selected", Boolean(selected));
      g.setAttribute("aria-pressed", selected ? "true" : "false");
      if (current && hadFocus) g.focus();
    }
  }

  slotGroup(ref) { return this.board.querySelector(`[data-ref="${CSS.escape(ref)}"]`); }

  // Where the slot being edited is on screen: the picture's box, or its row in the board in words.
  slotElement(ref) {
    const row = this.board.querySelector(`[data-slot-ref="${CSS.escape(ref)}"]`);
    return row && row.offsetParent ? row : this.slotGroup(ref);
  }

  // On a phone the card's panel opens in the flow just under the slot's row of the board in words (the rows
  // below move down, none is covered); under the picture it floats under the slot; beside the board it stays
  // in the side column, where it was written.
  placePop() {
    const pop = $("#slot-pop");
    if (!this.popHome) { this.popHome = document.createComment("slot-pop"); pop.before(this.popHome); }
    const phone = window.matchMedia("(max-width: 60rem)").matches;
    const slot = phone && this.selected ? this.slotElement(this.selected.ref) : null;
    const row = slot && slot.dataset && slot.dataset.slotRef ? slot : null;
    if (row) {
      const li = row.closest("li");
      if (li) { if (pop.parentElement !== li) li.append(pop); } else if (row.nextSibling !== pop) row.after(pop);  // an empty slot's chip: a line of its own under it
      pop.classList.remove("floating");
      pop.classList.add("in-row");
      pop.style.top = "";
      return;
    }
    this.popHomeAgain();
    if (!slot) { pop.style.top = ""; pop.classList.remove("floating"); return; }
    const grid = $(".desk-grid").getBoundingClientRect();
    pop.classList.add("floating");
    pop.style.top = `${slot.getBoundingClientRect().bottom - grid.top + 6}px`;
  }

  // The panel back in the side column (before the board is redrawn, or when no row holds it).
  popHomeAgain() {
    const pop = $("#slot-pop");
    pop.classList.remove("in-row");
    if (this.popHome && this.popHome.nextSibling !== pop) this.popHome.after(pop);
  }

  moveFocus(from, key) {
    const slots = $$("g[data-ref]", this.board);
    const box = (g) => { const r = g.getBoundingClientRect(); return { x: r.left + r.width / 2, y: r.top + r.height / 2 }; };
    const here = box(from);
    const dir = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[key];
    let best = null;
    let bestScore = Infinity;
    for (const g of slots) {
      if (g === from) continue;
      const p = box(g);
      const along = (p.x - here.x) * dir[0] + (p.y - here.y) * dir[1];
      if (along <= 1) continue;
      const across = Math.abs((p.x - here.x) * dir[1]) + Math.abs((p.y - here.y) * dir[0]);
      const score = along + 2 * across;
      if (score < bestScore) { bestScore = score; best = g; }
    }
    if (best) this.rove(best.dataset.ref, true);
  }

  // -- events ------------------------------------------------------------------------------
  bind() {
    this.board.addEventListener("click", (e) => this.boardClick(e));
    this.board.addEventListener("keydown", (e) => {
      const g = e.target.closest("[data-ref]");
      if (!g) return;
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); this.boardClick(e); }
      if (e.key.startsWith("Arrow") && this.step === null) { e.preventDefault(); this.moveFocus(g, e.key); }
    });
    this.board.addEventListener("focusin", (e) => {
      const g = e.target.closest("[data-ref]");
      if (g) this.focusRef = g.dataset.ref;
    });
    this.bindDrops();
    let touchX = null;
    this.board.addEventListener("touchstart", (e) => { touchX = e.touches[0].clientX; }, { passive: true });
    this.board.addEventListener("touchend", (e) => {
      if (touchX === null || this.step === null) return;
      const dx = e.changedTouches[0].clientX - touchX;
      touchX = null;
      if (Math.abs(dx) > 60) this.goStep(this.step + (dx < 0 ? 1 : -1));
    }, { passive: true });
    for (const button of $$(".start-button")) button.addEventListener("click", () => this.loadStart(button.dataset.start));
    $("#slot-close").addEventListener("click", () => this.closeEditor(true));
    $("#slot-remove").addEventListener("click", () => this.removeCard());
    $("#slot-vary").addEventListener("click", () => this.varyCard());
    $("#f-proactive").addEventListener("change", (e) => {   // the spiral's choice belongs to the slot
      const [p, slot] = this.selected.ref.split(":");
      const listed = (this.player(p).proactive || []).filter((s) => s !== slot);
      if (e.target.checked) listed.push(slot);
      if (listed.length) this.player(p).proactive = listed; else delete this.player(p).proactive;
      this.renderTurn();
      this.changed();
    });
    for (const id of ["#f-damage", "#f-captured", "#f-armament", "#f-recruited", "#f-attacks"]) {
      $(id).addEventListener("change", () => this.saveSlotFields());
      $(id).addEventListener("input", () => this.saveSlotFields());  // kept before it is left: a reload keeps it
    }
    window.addEventListener("pagehide", () => { this.keepSoon.cancel(); this.keep(); });
    window.addEventListener("popstate", () => this.keepSoon());  // a step back may land on an older address
    $("#armament-pick").addEventListener("click", () => this.picker.open({ zone: "armament", ref: this.selected.ref },
      `An Armament equipped to ${this.selected.ref.replace(":", "'s ")}`));
    $("#ambush-pick").addEventListener("click", () => this.picker.open({ zone: "ambush", ref: this.selected.ref },
      `An Ambush set face down under ${this.selected.ref}`));
    $("#custom-open").addEventListener("click", () => this.openCustom(this.picker.customType()));
    this.bindCustom();
    this.bindEffects();
    $("#manual-add").addEventListener("click", () => this.addManual());
    $("#resolve").addEventListener("click", () => this.resolve());
    $("#step-prev").addEventListener("click", () => this.goStep(this.step - 1));
    $("#step-next").addEventListener("click", () => this.goStep(this.step + 1));
    $("#step-edit").addEventListener("click", () => { this.leaveSteps(); this.keepSoon(); });
    $("#ruling-out").addEventListener("click", (e) => {
      const li = e.target.closest("[data-step]");
      if (li && !e.target.closest("a") && this.boards.length) this.goStep(Number(li.dataset.step));
    });
    document.addEventListener("keydown", (e) => this.pageKey(e));
    $("#offer-end").addEventListener("click", () => this.offerAt(null));
    $("#board-picture").addEventListener("click", (e) => {
      const on = this.root.classList.toggle("picture");
      e.target.setAttribute("aria-pressed", on ? "true" : "false");
      e.target.textContent = on ? "In words" : "Picture";
    });
    for (const event of ["change", "input"]) {  // kept as typed: a reload before leaving the field keeps it
      $("#s-title").addEventListener(event, (e) => this.setText("title", e.target.value));
      $("#s-question").addEventListener(event, (e) => this.setText("question", e.target.value));
    }
    $("#s-turn-player").addEventListener("change", (e) => { this.state.turn_player = e.target.value; this.fillSettings(); this.changed(); });
    $("#s-turn-words").addEventListener("change", (e) => this.setTurnWords(e.target.value));
    $("#s-phase").addEventListener("change", (e) => this.setPhase(e.target.value));
    $("#s-round").addEventListener("change", (e) => { this.state.round = Math.max(1, Number(e.target.value) || 1); this.changed(); });
    $("#s-turn").addEventListener("change", (e) => { this.state.turn = Number(e.target.value) || 1; this.fillSettings(); this.changed(); });
    for (const input of $$(".turns-taken")) {
      input.addEventListener("change", () => { this.player(input.dataset.player).turns_taken = Math.max(0, Number(input.value) || 0); this.fillSettings(); this.changed(); });
    }
    const yaml = $("#yaml-text");
    yaml.addEventListener("input", () => { this.yamlDirty = true; this.showYamlLine(null); this.keepSoon(); });
    yaml.addEventListener("scroll", () => { const b = $("#yaml-backdrop"); b.scrollTop = yaml.scrollTop; b.scrollLeft = yaml.scrollLeft; });
    $("#yaml-form").addEventListener("submit", (e) => {
      e.preventDefault();
      if (e.submitter && e.submitter.id === "share") this.openShare();
      else this.resolveYaml();
    });
    $("#yaml-load").addEventListener("click", () => this.checkYaml(true));
    $("#yaml-file").addEventListener("change", async (e) => {
      const file = e.target.files[0];
      if (file) { yaml.value = await file.text(); this.yamlDirty = true; this.checkYaml(true); }
    });
    $("#yaml-copy").addEventListener("click", () => this.copyYaml());
    $("#yaml-download").addEventListener("click", () => this.downloadYaml());
    $("#share-ruling").addEventListener("click", () => this.openShare());
    $("#share-form").addEventListener("submit", (e) => { e.preventDefault(); this.share(); });
    $("#share-cancel").addEventListener("click", () => $("#share-dialog").close());
  }

  // A card dragged from the picker drops onto a slot it fits, or onto a player's pile.
  bindDrops() {
    const cardOf = (e) => {
      try { return JSON.parse(e.dataTransfer.getData("application/x-codex-card") || "null"); } catch (err) { return null; }
    };
    const accepts = (e) => e.dataTransfer.types.includes("application/x-codex-card");
    for (const zone of [this.board, $("#piles")]) {  // capture: a pile's count field must not take the drop as text
      zone.addEventListener("dragover", (e) => { if (accepts(e) && this.step === null) { e.preventDefault(); e.dataTransfer.dropEffect = "copy"; } }, true);
    }
    this.board.addEventListener("drop", (e) => {
      const g = e.target.closest("[data-ref]");
      const card = cardOf(e);
      if (!g || !card || this.step !== null) return;
      e.preventDefault();
      const { ref, kind } = g.dataset;
      const altar = ref.split(":")[1] === this.rootSlot;
      const fits = kind === "realm" ? card.type === "realm" : card.type === "soul" && card.leader === altar;
      if (!fits) {
        $("#queue-msg").textContent = `${card.name} can't stand on ${ref}: ${kind === "realm" ? "a realm slot takes a Realm" : altar ? "the altar takes a Leader" : "a soul slot takes a Soul that is not a Leader"}.`;
        return;
      }
      this.selected = { ref, kind };
      this.placeCard(card.name);
    });
    $("#piles").addEventListener("drop", (e) => {
      const pile = e.target.closest(".pile");
      const row = e.target.closest(".pile-row");
      const card = cardOf(e);
      if (!pile || !row || !card) return;
      e.preventDefault();
      e.stopPropagation();
      const name = PILES.find((p) => pile.classList.contains(`pile-${p}`));
      this.addToPile(row.classList.contains("player-A") ? "A" : "B", name, card.name);
    }, true);
  }

  pageKey(e) {
    if (e.key === "Escape" && !$("#custom-card").hidden) { this.closeCustom(); return; }
    if (e.key === "Escape" && (this.selected || !$("#picker").hidden)) { this.closeEditor(true); return; }
    if (this.step === null || typingIn(document.activeElement) || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === "ArrowLeft") { e.preventDefault(); this.goStep(this.step - 1); }
    if (e.key === "ArrowRight") { e.preventDefault(); this.goStep(this.step + 1); }
  }

  boardClick(e) {
    if (e.target.closest("#slot-pop")) return;  // the card's panel, opened in a row of the board in words
    const aimed = e.target.closest("[data-slot-ref], [data-ref]");
    if (this.aiming && aimed) { this.aimAt(aimed.dataset.slotRef || aimed.dataset.ref); return; }
    const row = e.target.closest("[data-slot-ref], li[data-slot]");  // the board in words, or a ruling's rows
    if (row) {
      const ref = row.dataset.slotRef || row.dataset.slot;
      this.leaveSteps();
      this.openSlot(ref, row.dataset.kind || (/:realm\d/.test(ref) ? "realm" : "soul"));
      return;
    }
    const g = e.target.closest("[data-ref]");
    if (!g) return;
    if (this.step !== null) { this.leaveSteps(); this.keepSoon(); }  // a slot clicked in a ruling: edit it
    this.focusRef = g.dataset.ref;
    this.openSlot(g.dataset.ref, g.dataset.kind);
  }

  // -- the slot editor ---------------------------------------------------------------------
  openSlot(ref, kind) {
    this.selected = { ref, kind };
    $$("#board [data-ref]").forEach((g) => {
      const on = g.dataset.ref === ref;
      g.classList.toggle("selected", on);
      g.setAttribute("aria-pressed", on ? "true" : "false");
    });
    const slot = ref.split(":")[1];
    const spec = (kind === "realm" ? this.field.realm_slots : this.field.soul_slots).find((s) => s.name === slot);
    $("#slot-title").textContent = `${ref.replace(":", "'s ")} (${kind === "realm" ? "realm slot" : "soul slot"}, rank ${spec ? spec.rank : "?"})`;
    const entry = this.entry(ref, kind);
    const occupied = Boolean(entry && entry.card);
    $$("#slot-editor [data-when]").forEach((node) => {
      const when = node.dataset.when;
      node.hidden = (when === "occupied" && !occupied) || (when === "soul" && kind !== "soul");
    });
    if (occupied) {
      $("#slot-card").textContent = entry.card;
      const own = (this.scenario.cards || []).find((c) => c.name === entry.card);
      const of = own && VARIANT_OF.exec(own.origin || "");
      $("#slot-card-note").textContent = of ? `A variant of ${of[1]}, saved in this scenario as a card of its own (rank ${own.rank}).`
        : own ? `A custom card of this scenario (rank ${own.rank}).` : "A library card, as printed.";
      $("#f-damage").value = entry.damage || 0;
      $("#f-captured").checked = Boolean(kind === "realm" ? entry.shattered : entry.captured);
      $("#f-captured-label").textContent = kind === "realm" ? "Shattered" : "Captured (face down)";
      $("#f-armament").value = (entry.armament && (entry.armament.card || entry.armament)) || "";
      $("#f-recruited").checked = entry.recruited === "this_turn";
      $("#f-attacks").value = entry.attacks_made || 0;
      $("#f-proactive").checked = (this.player(ref.split(":")[0]).proactive || []).includes(slot);
    }
    this.renderAmbushes(entry);
    this.fillArmaments();
    if (!$("#custom-card").hidden) this.closeCustom();
    $("#slot-editor").hidden = !occupied;  // an empty slot needs only the picker
    Layers.push("slot", () => this.closeEditor(true, false));
    this.placePop();
    if (occupied) { this.picker.close(); $("#slot-title").focus(); }
    else this.picker.open({ zone: "slot", ref, kind }, `For ${ref.replace(":", "'s ")}: ${kind === "realm" ? "a Realm" : slot === this.rootSlot ? "a Leader (only Leaders stand on the altar)" : "a Soul (not a Leader)"}`);
  }

  closeEditor(returnFocus = false, takeStepBack = true) {
    const ref = this.selected && this.selected.ref;
    this.selected = null;
    $("#slot-editor").hidden = true;
    if (!$("#custom-card").hidden) this.closeCustom();
    this.picker.close();
    this.popHomeAgain();
    if (takeStepBack) Layers.drop("slot");
    $$("#board .selected").forEach((g) => { g.classList.remove("selected"); g.setAttribute("aria-pressed", "false"); });
    if (returnFocus && ref) this.rove(ref, true);
  }

  // The board's one tab stop moves to `ref` (and takes the focus when asked).
  rove(ref, focus = false) {
    this.focusRef = ref;
    for (const g of $$("g[data-ref]", this.board)) g.setAttribute("tabindex", g.dataset.ref === ref ? "0" : "-1");
    const g = this.slotGroup(ref);
    if (g && focus) g.focus();
  }

  async fillArmaments() {
    const list = $("#armament-list");
    if (list.dataset.filled) return;
    list.dataset.filled = "1";
    const url = new URL(this.urls.cards, window.location.href);
    url.searchParams.set("type", "armament");
    const cards = (await (await fetch(url, { headers: { Accept: "application/json" } })).json()).cards || [];
    for (const card of cards) list.append(el("option", { value: card.name }));
  }

  // A card clicked in the picker goes where the picker was opened for.
  pickCard(name) {
    const target = this.picker.target;
    if (!target) return;
    if (target.zone === "slot") { this.placeCard(name); return; }
    if (target.zone === "armament") {
      const entry = { ...(this.entry(target.ref, "soul") || {}), armament: name };
      this.picker.close();
      this.setEntry(target.ref, "soul", entry);
      this.openSlot(target.ref, "soul");
      return;
    }
    if (target.zone === "ambush") {
      const entry = { ...(this.entry(target.ref, "soul") || {}) };
      const ambush = { card: name };
      if ($("#f-ambush-gone").checked) ambush.setter = "gone";
      entry.ambushes = [...(entry.ambushes || []), ambush];
      this.picker.close();
      this.setEntry(target.ref, "soul", entry);
      this.renderAmbushes(entry);
      $("#ambush-pick").focus();
      return;
    }
    this.addToPile(target.player, target.zone, name);
    $("#queue-msg").textContent = `${name} added to ${target.player}'s ${PILE_WORDS[target.zone]}.`;
  }

  // The card on the selected slot becomes `name` (a variant of it), keeping what lies on the slot.
  replaceCard(name) {
    const { ref, kind } = this.selected;
    this.setEntry(ref, kind, { ...(this.entry(ref, kind) || {}), card: name });
    this.openSlot(ref, kind);
    $("#queue-msg").textContent = `${ref.replace(":", "'s ")} now holds ${name}, a card of this scenario.`;
  }

  placeCard(name) {
    const { ref, kind } = this.selected;
    const old = this.entry(ref, kind) || {};
    const entry = { card: name };
    if (old.ambushes) entry.ambushes = old.ambushes;
    this.setEntry(ref, kind, entry);
    this.openSlot(ref, kind);
  }

  removeCard() {
    const { ref, kind } = this.selected;
    const old = this.entry(ref, kind) || {};
    this.setEntry(ref, kind, old.ambushes && old.ambushes.length ? { ambushes: old.ambushes } : null);
    this.openSlot(ref, kind);
  }

  saveSlotFields() {
    const { ref, kind } = this.selected;
    const entry = { ...(this.entry(ref, kind) || {}) };
    const damage = Math.max(0, Number($("#f-damage").value) || 0);
    if (damage) entry.damage = damage; else delete entry.damage;
    const flag = kind === "realm" ? "shattered" : "captured";
    if ($("#f-captured").checked) entry[flag] = true; else delete entry[flag];
    if (kind === "soul") {
      const armament = $("#f-armament").value.trim();
      if (armament) entry.armament = armament; else delete entry.armament;
      if ($("#f-recruited").checked) entry.recruited = "this_turn"; else delete entry.recruited;
      const attacks = Math.max(0, Number($("#f-attacks").value) || 0);
      if (attacks) entry.attacks_made = attacks; else delete entry.attacks_made;
    }
    this.setEntry(ref, kind, entry);
  }

  renderAmbushes(entry) {
    const list = $("#ambush-list");
    list.replaceChildren();
    const ref = this.selected && this.selected.ref;   // the slot this list is of, whatever is selected later
    ((entry && entry.ambushes) || []).forEach((ambush, index) => {
      const remove = el("button", { type: "button", className: "link-button", ariaLabel: `Remove ${ambush.card || ambush}` }, "remove");
      remove.addEventListener("click", () => {
        // the Ambush this row shows, found in the slot as it is now (the list may have changed under it)
        const current = { ...(this.entry(ref, "soul") || {}) };
        const list = current.ambushes || [];
        const same = (a) => JSON.stringify(a) === JSON.stringify(ambush);
        const at = same(list[index]) ? index : list.findIndex(same);
        if (at < 0) { this.renderAmbushes(current); return; }
        current.ambushes = list.filter((_, i) => i !== at);
        if (!current.ambushes.length) delete current.ambushes;
        this.setEntry(ref, "soul", Object.keys(current).length ? current : null);
        this.renderAmbushes(current);
      });
      list.append(el("li", {}, `${ambush.card || ambush}${ambush.setter === "gone" ? " (Setter gone)" : ""} `, remove));
    });
  }

  // -- resolving and stepping --------------------------------------------------------------
  async resolve(options = {}) {
    $("#queue-msg").textContent = "Resolving…";
    const scenario = this.askControl ? this.askControl.withAsk(this.scenario) : this.scenario;
    const data = await postJSON(this.urls.resolve, { scenario });
    if (!data.ok) {
      const problems = data.problems || [];
      $("#queue-msg").textContent = `Can't resolve yet: ${problems.length ? problems.map(problemText).join("; ") : data.error}`;
      this.showProblems(problems, data.error);
      $("#resolve").focus();
      return;
    }
    $("#queue-msg").textContent = "";
    this.boards = data.boards;
    $("#ruling-out").innerHTML = data.trace;  // server-rendered, every user string escaped there
    $("#ruling-panel").hidden = false;
    $("#step-nav").hidden = false;
    this.root.classList.add("stepping");
    this.closeEditor();
    const steps = $$("#ruling-out .step");
    const deciding = steps.findIndex((li) => li.id === `step-${data.deciding}`);
    for (const [i, li] of steps.entries()) li.classList.toggle("deciding", i === deciding);
    this.goStep(this.boards.length - 1, false);
    // the ruling opens at its answer (verdict first, at the top of the screen); the answer links to the
    // deciding step, and stepping keeps the board in view (desk.css: .reading)
    this.root.classList.add("reading");
    if (!options.keepStep) $("#ruling-panel").scrollIntoView({ block: "start" });
    this.keepSoon();
  }

  goStep(index, scroll = true) {
    if (!this.boards.length) return;
    if (scroll) this.root.classList.remove("reading");   // the judge steps: the board follows
    this.step = Math.max(-1, Math.min(index, this.boards.length - 1));
    this.showBoard(this.step < 0 ? this.positionBoard : this.boards[this.step]);
    const steps = $$("#ruling-out .step");
    steps.forEach((li, i) => li.classList.toggle("current", i === this.step));
    const li = steps[this.step];
    if (this.step < 0 || !li) {
      $("#step-label").textContent = "Starting position";
      $("#step-text").textContent = "";
    } else {
      const kind = li.querySelector(".step-kind").textContent;
      const last = this.step === this.boards.length - 1 ? " (final board)" : "";
      $("#step-label").textContent = `Step ${this.step + 1} of ${this.boards.length}: ${kind}${last}`;
      $("#step-text").textContent = li.querySelector(".step-text").textContent;
      if (scroll) li.scrollIntoView({ block: "nearest" });
    }
    this.compactBoard();
    $("#step-prev").disabled = this.step < 0;
    $("#step-next").disabled = this.step >= this.boards.length - 1;
    this.keepSoon();
  }

  // On a phone, a step's board is drawn around the cards in play (and the slots the step touches), so it
  // fits the screen beside the step instead of scrolling sideways.
  compactBoard() {
    const svg = this.board.querySelector("svg");
    if (!svg || !window.matchMedia("(max-width: 60rem)").matches) return;
    const boxes = $$("[data-ref].occupied, [data-ref].changed", svg).map((g) => {
      const m = /translate\(([-\d.]+)[ ,]([-\d.]+)\)/.exec(g.getAttribute("transform") || "");
      const r = g.querySelector(".slot-box");
      return m && r ? [Number(m[1]), Number(m[2]), Number(r.getAttribute("width")), Number(r.getAttribute("height"))] : null;
    }).filter(Boolean);
    if (!boxes.length) return;
    const pad = 12;
    const x0 = Math.min(...boxes.map((b) => b[0])) - pad;
    const y0 = Math.min(...boxes.map((b) => b[1])) - pad;
    const x1 = Math.max(...boxes.map((b) => b[0] + b[2])) + pad;
    const y1 = Math.max(...boxes.map((b) => b[1] + b[3])) + pad;
    svg.setAttribute("viewBox", `${x0} ${y0} ${x1 - x0} ${y1 - y0}`);
  }

  leaveSteps() {
    if (this.step === null) return;
    this.step = null;
    this.boards = [];
    this.root.classList.remove("stepping", "reading");
    $("#step-nav").hidden = true;
    $("#ruling-panel").hidden = true;
    this.showBoard(this.positionBoard);
  }

}

Object.assign(Desk.prototype, QueueAndPiles, YamlAndShare, CustomCards, EffectsEditor);
const deskRoot = document.getElementById("desk");
if (deskRoot) window.codexDesk = new Desk(deskRoot);
