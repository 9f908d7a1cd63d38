// The ruling desk: build a position by clicking, queue what happens from the legal actions, resolve,
// step through the ruling. Plain JS, no build step, no inline script; desk-util.js, desk-keep.js,
// desk-rules.js and desk-picker.js load first. Every page it enhances also works without it.
"use strict";

const PILES = ["hand", "deck", "elysium", "exile"];
const PILE_WORDS = { hand: "Hand", deck: "Deck", elysium: "Elysium", exile: "Exile" };
const PHASE_WORDS = { preparation: "Preparation Phase", combat: "Combat Phase", emplacement: "Emplacement Phase", setup: "Setup" };

// A pile as the contract writes it (a count, a list of names, or {cards, unnamed}) → {names, unnamed}.
function pileParts(value) {
  if (Array.isArray(value)) return { names: value.map((v) => v.card || v), unnamed: 0 };
  if (value && typeof value === "object") return { names: (value.cards || []).map((v) => v.card || v), unnamed: value.unnamed || 0 };
  return { names: [], unnamed: Number(value) || 0 };
}

function pileValue({ names, unnamed }) {
  if (!unnamed) return names;
  return names.length ? { cards: names, unnamed } : unnamed;
}

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
    this.urls = { board: d.boardUrl, legal: d.legalUrl, resolve: d.resolveUrl, parse: d.parseUrl, cards: d.cardsUrl };
    this.scenario = JSON.parse(d.scenario);
    this.field = JSON.parse(d.field);
    this.starts = JSON.parse(d.starts);
    this.rootSlot = this.field.soul_slots.find((s) => s.parent === null).name;
    this.selected = null;
    this.focusRef = null;
    this.boards = [];
    this.step = null;           // null: editing; -1: start; i: after step i
    this.rejected = null;
    this.words = [];
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
      this.showRestored(`Your desk from ${humanWhen(stored.saved)} is back.`);
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

  showRestored(text) {
    const box = $("#restored");
    const again = el("button", { type: "button", className: "link-button" }, "Start over");
    again.addEventListener("click", () => { box.hidden = true; this.loadStart("default"); });
    box.replaceChildren(text, " ", again);
    box.hidden = false;
  }

  keep() {
    Keep.save({ v: 1, scenario: this.scenario, resolved: this.step !== null, step: this.step,
                yaml: this.yamlDirty ? $("#yaml-text").value : undefined });
  }

  loadStart(key) {
    const scenario = key === "empty"
      ? { state: { turn_player: "A", phase: "preparation", turn: 9, players: { A: { field: {} }, B: { field: {} } } }, actions: [] }
      : clone(this.starts[key]);
    this.scenario = scenario;
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
    this.leaveSteps();
    this.renderPiles();
    this.renderQueue();
    this.refreshSoon();
    this.keepSoon();
  }

  async refresh() {
    const seq = (this.refreshSeq = (this.refreshSeq || 0) + 1);
    const data = await postJSON(this.urls.board, { scenario: this.scenario });
    if (seq !== this.refreshSeq) return;  // a newer redraw is on its way: answers may arrive out of order
    if (data.board === undefined) {
      this.showProblems(data.problems, data.error);
      return;
    }
    this.positionBoard = data.board;
    if (this.step === null) this.showBoard(data.board);
    this.showProblems(data.problems);
    this.rejected = data.rejected;
    this.words = data.words || [];
    this.renderTurn();
    this.renderPiles();
    this.renderQueue();
    if (!this.yamlDirty) $("#yaml-text").value = data.yaml;
    await this.loadLegal(seq);
  }

  // Problems beside what they name: the list under the board, and the slot a path points at marked.
  showProblems(problems, message) {
    renderProblems($("#board-problems"), problems, message, (p) => this.fixCard(p));
    $$("#board .has-problem").forEach((g) => g.classList.remove("has-problem"));
    for (const p of problems || []) {
      const m = /^state\.players\.([AB])\.(field|realms)\.([\w]+)/.exec(p.path || "");
      const g = m && this.board.querySelector(`[data-ref="${m[1]}:${m[3]}"]`);
      if (g) g.classList.add("has-problem");
    }
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
    const hadFocus = this.board.contains(document.activeElement);
    this.board.innerHTML = html;
    const scroller = this.board.querySelector(".board-scroll");
    if (scroller) scroller.scrollLeft = scrolled ?? (scroller.scrollWidth - scroller.clientWidth) / 2;
    const slots = $$("[data-ref]", this.board);
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

  moveFocus(from, key) {
    const slots = $$("[data-ref]", this.board);
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
    let touchX = null;
    this.board.addEventListener("touchstart", (e) => { touchX = e.touches[0].clientX; }, { passive: true });
    this.board.addEventListener("touchend", (e) => {
      if (touchX === null || this.step === null) return;
      const dx = e.changedTouches[0].clientX - touchX;
      touchX = null;
      if (Math.abs(dx) > 60 && !this.board.querySelector(".board-scroll:not(.fits)")) this.goStep(this.step + (dx < 0 ? 1 : -1));
    }, { passive: true });
    for (const button of $$(".start-button")) button.addEventListener("click", () => this.loadStart(button.dataset.start));
    $("#slot-close").addEventListener("click", () => this.closeEditor(true));
    $("#slot-remove").addEventListener("click", () => this.removeCard());
    for (const id of ["#f-damage", "#f-captured", "#f-armament", "#f-recruited", "#f-attacks"]) {
      $(id).addEventListener("change", () => this.saveSlotFields());
    }
    $("#ambush-pick").addEventListener("click", () => this.picker.open({ zone: "ambush", ref: this.selected.ref },
      `An Ambush set face down under ${this.selected.ref}`));
    $("#custom-open").addEventListener("click", () => this.openCustom());
    $("#custom-cancel").addEventListener("click", () => { $("#custom-card").hidden = true; });
    $("#custom-form").addEventListener("submit", (e) => { e.preventDefault(); this.addCustom(); });
    $("#custom-form").elements.e_cost.addEventListener("change", (e) => {
      const amount = $("#custom-form").elements.e_cost_n;
      amount.step = e.target.value === "pay_hp" ? "5" : "1";
      if (e.target.value === "pay_hp" && Number(amount.value) % 5) amount.value = "5";
    });
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
    $("#s-title").addEventListener("change", (e) => this.setText("title", e.target.value));
    $("#s-question").addEventListener("change", (e) => this.setText("question", e.target.value));
    $("#s-turn-player").addEventListener("change", (e) => { this.state.turn_player = e.target.value; this.changed(); });
    $("#s-phase").addEventListener("change", (e) => { this.state.phase = e.target.value; this.changed(); });
    $("#s-turn").addEventListener("change", (e) => { this.state.turn = Number(e.target.value) || 1; this.changed(); });
    for (const input of $$(".turns-taken")) {
      input.addEventListener("change", () => { this.player(input.dataset.player).turns_taken = Math.max(0, Number(input.value) || 0); this.changed(); });
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
    $("#share-form").addEventListener("submit", (e) => { e.preventDefault(); this.share(); });
    $("#share-cancel").addEventListener("click", () => $("#share-dialog").close());
  }

  pageKey(e) {
    if (e.key === "Escape" && (this.selected || !$("#picker").hidden)) { this.closeEditor(true); return; }
    if (this.step === null || typingIn(document.activeElement) || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === "ArrowLeft") { e.preventDefault(); this.goStep(this.step - 1); }
    if (e.key === "ArrowRight") { e.preventDefault(); this.goStep(this.step + 1); }
  }

  boardClick(e) {
    const g = e.target.closest("[data-ref]");
    if (!g || this.step !== null) return;
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
      $("#f-damage").value = entry.damage || 0;
      $("#f-captured").checked = Boolean(kind === "realm" ? entry.shattered : entry.captured);
      $("#f-captured-label").textContent = kind === "realm" ? "Shattered" : "Captured (face down)";
      $("#f-armament").value = (entry.armament && (entry.armament.card || entry.armament)) || "";
      $("#f-recruited").checked = entry.recruited === "this_turn";
      $("#f-attacks").value = entry.attacks_made || 0;
    }
    this.renderAmbushes(entry);
    this.fillArmaments();
    $("#custom-card").hidden = true;
    $("#slot-editor").hidden = !occupied;  // an empty slot needs only the picker
    if (occupied) { this.picker.close(); $("#slot-title").focus(); }
    else this.picker.open({ zone: "slot", ref, kind }, `For ${ref.replace(":", "'s ")}: ${kind === "realm" ? "a Realm" : slot === this.rootSlot ? "a Leader (only Leaders stand on the altar)" : "a Soul (not a Leader)"}`);
  }

  closeEditor(returnFocus = false) {
    const ref = this.selected && this.selected.ref;
    this.selected = null;
    $("#slot-editor").hidden = true;
    $("#custom-card").hidden = true;
    this.picker.close();
    $$("#board .selected").forEach((g) => { g.classList.remove("selected"); g.setAttribute("aria-pressed", "false"); });
    if (returnFocus && ref) this.rove(ref, true);
  }

  // The board's one tab stop moves to `ref` (and takes the focus when asked).
  rove(ref, focus = false) {
    this.focusRef = ref;
    for (const g of $$("[data-ref]", this.board)) g.setAttribute("tabindex", g.dataset.ref === ref ? "0" : "-1");
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
    ((entry && entry.ambushes) || []).forEach((ambush, index) => {
      const remove = el("button", { type: "button", className: "link-button", ariaLabel: `Remove ${ambush.card || ambush}` }, "remove");
      remove.addEventListener("click", () => {
        const current = { ...this.entry(this.selected.ref, "soul") };
        current.ambushes = current.ambushes.filter((_, i) => i !== index);
        if (!current.ambushes.length) delete current.ambushes;
        this.setEntry(this.selected.ref, "soul", Object.keys(current).length ? current : null);
        this.renderAmbushes(current);
      });
      list.append(el("li", {}, `${ambush.card || ambush}${ambush.setter === "gone" ? " (Setter gone)" : ""} `, remove));
    });
  }

  // -- turn, question and piles ------------------------------------------------------------
  setText(key, value) {
    if (value.trim()) this.scenario[key] = value.trim(); else delete this.scenario[key];
    this.keepSoon();
    this.refreshSoon();
  }

  fillSettings() {
    $("#s-title").value = this.scenario.title || "";
    $("#s-question").value = this.scenario.question || "";
    $("#s-turn-player").value = this.state.turn_player || "A";
    $("#s-phase").value = this.state.phase || "preparation";
    $("#s-turn").value = this.state.turn || 9;
    for (const input of $$(".turns-taken")) input.value = this.player(input.dataset.player).turns_taken ?? "";
    this.renderTurn();
    this.renderPiles();
  }

  renderTurn() {
    const who = this.state.turn_player || "A";
    document.title = `Desk: turn ${this.state.turn || 9}, ${who}'s ${PHASE_WORDS[this.state.phase || "preparation"]} · Codex Judge`;
  }

  renderPiles() {
    const box = $("#piles");
    box.replaceChildren();
    for (const p of ["A", "B"]) {
      const row = el("div", { className: `pile-row player-${p}`, role: "group", ariaLabel: `Player ${p}'s piles` },
        el("strong", { className: "pile-player" }, `${p}${(this.state.turn_player || "A") === p ? " (turn)" : ""}`));
      for (const pile of PILES) row.append(this.pileBox(p, pile));
      box.append(row);
    }
  }

  pileBox(p, pile) {
    const parts = pileParts(this.player(p)[pile]);
    const box = el("span", { className: `pile pile-${pile}` }, el("span", { className: "pile-name" }, `${PILE_WORDS[pile]}:`));
    parts.names.forEach((name, i) => {
      const remove = el("button", { type: "button", className: "chip-x", ariaLabel: `Remove ${name} from ${p}'s ${PILE_WORDS[pile]}` }, "✕");
      remove.addEventListener("click", () => {
        parts.names.splice(i, 1);
        this.player(p)[pile] = pileValue(parts);
        this.changed();
      });
      box.append(el("span", { className: "chip" }, name, remove));
    });
    const count = el("input", { type: "number", min: 0, max: 120, value: parts.unnamed, className: "pile-count",
                                ariaLabel: `${p}'s ${PILE_WORDS[pile]}: cards not named` });
    count.addEventListener("change", () => {
      parts.unnamed = Math.max(0, Number(count.value) || 0);
      this.player(p)[pile] = pileValue(parts);
      this.changed();
    });
    const add = el("button", { type: "button", className: "chip-add", ariaLabel: `Add a card to ${p}'s ${PILE_WORDS[pile]}` }, "+ card");
    add.addEventListener("click", () => {
      this.selected = null;
      $("#slot-editor").hidden = true;
      this.picker.open({ zone: pile, player: p }, `Cards go to ${p}'s ${PILE_WORDS[pile]}; pick as many as you like.`);
    });
    box.append(add, el("label", { className: "pile-unnamed" }, "+", count, " unnamed"));
    return box;
  }

  addToPile(p, pile, name) {
    const parts = pileParts(this.player(p)[pile]);
    parts.names.push(name);
    this.player(p)[pile] = pileValue(parts);
    this.changed();
  }

  // -- the queue and what can happen next --------------------------------------------------
  renderQueue() {
    const list = $("#queue");
    list.replaceChildren();
    this.actions.forEach((action, index) => {
      const words = this.words[index] || Object.entries(action).map(([k, v]) => `${k} ${v}`).join(" · ");
      const buttons = el("span", { className: "q-buttons" });
      for (const [label, title, fn] of [["↑", "Move up", () => this.moveAction(index, -1)],
        ["↓", "Move down", () => this.moveAction(index, 1)], ["✕", "Delete", () => this.deleteAction(index)]]) {
        const button = el("button", { type: "button", title: `${title}: ${words}`, ariaLabel: `${title}: ${words}` }, label);
        button.addEventListener("click", fn);
        buttons.append(" ", button);
      }
      const li = el("li", { id: `queued-${index}` }, el("span", { className: "action-text" }, words), buttons);
      if (this.rejected && this.rejected.action === index) {
        li.classList.add("illegal");
        const rules = el("span", { className: "step-rules" });
        rules.innerHTML = (this.rejected.rules_html || []).join(" ");  // built and escaped by the server
        li.append(el("p", { className: "why" }, `Not legal here: ${this.rejected.text} `, rules));
      }
      list.append(li);
    });
    if (this.rejected && this.rejected.action !== undefined) {
      $("#queue-msg").textContent = `“${this.words[this.rejected.action] || "An action"}” is not legal where it stands: ${this.rejected.text}`;
    }
  }

  moveAction(index, by) {
    const to = index + by;
    if (to < 0 || to >= this.actions.length) return;
    const [item] = this.actions.splice(index, 1);
    this.actions.splice(to, 0, item);
    this.changed();
  }

  deleteAction(index) {
    this.actions.splice(index, 1);
    this.changed();
  }

  async loadLegal(seq) {
    const box = $("#next-actions");
    const data = await postJSON(this.urls.legal, { scenario: this.scenario, after: this.actions.length });
    if (seq !== undefined && seq !== this.refreshSeq) return;
    box.replaceChildren();
    if (!data.ok) {
      box.append(el("p", { className: "muted" }, this.rejected
        ? "Fix or delete the action marked illegal to see what can happen after it."
        : `Nothing can be offered until the problems under the board are fixed${data.error ? ` (${data.error})` : ""}.`));
      return;
    }
    if (!data.groups.length) box.append(el("p", { className: "muted" }, "No player can act here: the queue ends the duel or the turn."));
    for (const group of data.groups) {
      const when = group.when === "now" ? "" : `, ${group.when}`;
      const list = el("ul", { className: "next-list" });
      for (const item of group.actions) {
        const button = el("button", { type: "button", className: "next-action" }, item.words);
        button.addEventListener("click", () => {
          this.actions.push(clone(item.action));
          $("#queue-msg").textContent = `Queued: ${item.words}.`;
          this.changed();
        });
        list.append(el("li", {}, button));
      }
      box.append(el("section", { className: `next-group player-${group.player}` },
        el("h4", {}, `Player ${group.player}${when}`), list));
    }
  }

  async addManual() {
    const text = $("#manual-text").value.trim();
    if (!text) return;
    const data = await postJSON(this.urls.parse, { action: text });
    if (!data.ok) {
      $("#queue-msg").textContent = (data.problems || []).map(problemText).join("; ") || data.error;
      $("#manual-text").focus();
      return;
    }
    this.actions.push(data.action);
    $("#manual-text").value = "";
    $("#queue-msg").textContent = "";
    this.changed();
  }
  // -- custom cards ------------------------------------------------------------------------
  openCustom() {
    const form = $("#custom-form");
    form.reset();
    if (this.selected) form.elements.type.value = this.selected.kind === "realm" ? "realm" : "soul";
    if (this.selected && this.selected.ref.split(":")[1] === this.rootSlot) {
      form.elements.leader.checked = true;
      form.elements.rank.value = "3";
    }
    $("#custom-msg").textContent = "";
    $("#custom-card").hidden = false;
    form.elements.name.focus();
  }

  addCustom() {
    const f = $("#custom-form").elements;
    const num = (el) => Math.max(0, Number(el.value) || 0);
    const name = f.name.value.trim();
    if (!name) { $("#custom-msg").textContent = "A card needs a name."; return; }
    const card = { name, type: f.type.value, rank: Number(f.rank.value) };
    if (f.attribute.value) card.attribute = f.attribute.value;
    if (card.type === "soul") card.leader = f.leader.checked;
    if (["soul", "realm", "armament"].includes(card.type)) { card.atk = num(f.atk); card.def = num(f.def); card.hp = num(f.hp); }
    if (f.text.value.trim()) card.text = f.text.value.trim();
    const keywords = $$("input[name=kw]:checked", $("#custom-form")).map((el) => el.value);
    if (num(f.defiance)) keywords.push({ defiance: num(f.defiance) });
    const moral = {};
    for (const stat of ["atk", "def", "hp"]) if (num(f[`moral_${stat}`])) moral[stat] = num(f[`moral_${stat}`]);
    if (Object.keys(moral).length) keywords.push({ moral });
    card.keywords = keywords;
    card.effects = f.has_effect.checked ? [this.customEffect(f)] : [];
    this.scenario.cards = (this.scenario.cards || []).filter((c) => c.name.toLowerCase() !== name.toLowerCase());
    this.scenario.cards.push(card);
    $("#custom-card").hidden = true;
    const kind = this.selected && this.selected.kind;
    const target = this.picker.target;
    if (target && target.zone !== "slot") {
      this.pickCard(name);
    } else if (this.selected && ((kind === "soul" && card.type === "soul") || (kind === "realm" && card.type === "realm"))) {
      this.placeCard(name);
    } else {
      const p = this.selected ? this.selected.ref.split(":")[0] : this.state.turn_player || "A";
      this.addToPile(p, "hand", name);
    }
  }

  customEffect(f) {
    const effect = { kind: f.e_kind.value };
    if (f.e_name.value.trim()) effect.name = f.e_name.value.trim();
    if (f.e_fast.checked) effect.fast = true;
    if (f.e_limit.value.trim()) effect.limit = f.e_limit.value.trim();
    if (f.e_trigger.value) effect.trigger = f.e_trigger.value;
    const cond = f.e_condition.value;
    if (cond === "line_max") effect.condition = { line: { max: Number(f.e_line.value) || 1 } };
    else if (cond) effect.condition = { [cond]: true };
    if (f.e_target.value) {
      const [what, side, extra] = f.e_target.value.split(":");
      const selector = { [what]: side };
      if (what === "soul") selector.lines = extra;
      if (extra === "naming") selector.naming = "front";
      effect.targets = [selector];
    }
    const costN = Math.max(0, Number(f.e_cost_n.value) || 0);
    if (f.e_cost.value === "discard") effect.cost = [{ discard: costN }];
    if (f.e_cost.value === "pay_hp") effect.cost = [{ pay_hp: costN, by: "self" }];  // HP comes in steps of 5
    const n = Math.max(0, Number(f.e_do_n.value) || 0);
    const to = f.e_do_to.value;
    const verb = f.e_do.value;
    let action;
    if (verb === "gain_atk" || verb === "gain_def") {
      action = { gain: { [verb.slice(5)]: n }, to, until: f.e_until.value };
    } else if (["capture", "return", "exile"].includes(verb)) action = { [verb]: to };
    else if (verb === "draw") action = { draw: Math.max(1, Math.round(n / 5)) };
    else if (verb === "discard") action = { discard: Math.max(1, Math.round(n / 5)), who: "opponent" };
    else action = { [verb]: n, to };
    if (effect.kind === "static") Object.assign(effect, action.gain ? { gain: action.gain, to } : action);
    else effect.do = [action];
    return effect;
  }


  // -- resolving and stepping --------------------------------------------------------------
  async resolve(options = {}) {
    $("#queue-msg").textContent = "Resolving…";
    const data = await postJSON(this.urls.resolve, { scenario: this.scenario });
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
    this.deciding = deciding;
    for (const [i, li] of steps.entries()) li.classList.toggle("deciding", i === deciding);
    this.goStep(this.boards.length - 1, false);
    if (deciding >= 0 && !options.keepStep) steps[deciding].scrollIntoView({ block: "center" });
    this.keepSoon();
  }

  goStep(index, scroll = true) {
    if (!this.boards.length) return;
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
    $("#step-prev").disabled = this.step < 0;
    $("#step-next").disabled = this.step >= this.boards.length - 1;
    this.keepSoon();
  }

  leaveSteps() {
    if (this.step === null) return;
    this.step = null;
    this.boards = [];
    this.root.classList.remove("stepping");
    $("#step-nav").hidden = true;
    $("#ruling-panel").hidden = true;
    this.showBoard(this.positionBoard);
  }

  // -- YAML in and out: the user's text is never replaced by ours while it is theirs -------
  yamlErrorLine() {
    const m = /line (\d+)/.exec($("#yaml-problems").textContent);
    return m ? Number(m[1]) : null;
  }

  showYamlLine(line) {
    const text = $("#yaml-text").value;
    const backdrop = $("#yaml-backdrop");
    backdrop.replaceChildren();
    if (!line) return;
    text.split("\n").forEach((row, i) => {
      backdrop.append(i + 1 === line ? el("mark", { className: "bad-line" }, `${row || " "}`) : `${row}`, "\n");
    });
    backdrop.scrollTop = $("#yaml-text").scrollTop;
  }

  focusYamlLine(line) {
    const area = $("#yaml-text");
    const rows = area.value.split("\n");
    const start = rows.slice(0, line - 1).reduce((n, r) => n + r.length + 1, 0);
    area.focus();
    area.setSelectionRange(start, start + (rows[line - 1] || "").length);
    const lineHeight = parseFloat(getComputedStyle(area).lineHeight) || 20;
    area.scrollTop = Math.max(0, (line - 3) * lineHeight);
  }

  // Read the editor's YAML into the desk; on an error keep the text, show the error once, mark its line.
  async checkYaml(announce) {
    const text = $("#yaml-text").value;
    const data = await postJSON(this.urls.parse, { yaml: text });
    renderProblems($("#yaml-problems"), data.problems, data.ok ? null : data.error, (p) => this.fixYamlCard(p));
    if (!data.ok) {
      const problem = (data.problems || []).find((p) => p.line);
      this.showYamlLine(problem ? problem.line : null);
      if (announce && problem) this.focusYamlLine(problem.line);
      else if (announce) $("#yaml-text").focus();
      return false;
    }
    this.showYamlLine(null);
    this.scenario = data.scenario;
    this.yamlDirty = false;
    this.closeEditor();
    this.fillSettings();
    this.changed();
    await this.refresh();
    return !(data.problems || []).length;
  }

  fixYamlCard(problem) {
    const area = $("#yaml-text");
    area.value = area.value.split(problem.card).join(problem.suggest);
    this.yamlDirty = true;
    this.checkYaml(true);
  }

  async resolveYaml() {
    if (await this.checkYaml(true)) await this.resolve();
  }

  // -- sharing -----------------------------------------------------------------------------
  openShare() {
    const dialog = $("#share-dialog");
    const words = this.words.filter(Boolean);
    $("#share-name").value = this.scenario.title || (words.length ? `${words[0]}${words.length > 1 ? ", and an answer" : ""}` : "A position");
    $("#share-question").value = this.scenario.question || (words.length ? `${words.join("; then ")}. What happens?` : "What is legal here?");
    $("#share-msg").textContent = "";
    dialog.showModal();
    $("#share-name").select();
  }

  async share() {
    if (this.yamlDirty && !(await this.checkYaml(false))) {
      $("#share-msg").textContent = "The YAML in the editor has problems (shown under it); fix them or load the desk's own.";
      return;
    }
    this.setText("title", $("#share-name").value);
    this.setText("question", $("#share-question").value);
    await this.refresh();
    this.keep();
    const form = $("#yaml-form");
    form.action = $("#share").getAttribute("formaction");
    HTMLFormElement.prototype.submit.call(form);
  }

  async copyYaml() {
    const text = $("#yaml-text").value;
    const button = $("#yaml-copy");
    try { await navigator.clipboard.writeText(text); button.textContent = "Copied"; }
    catch (err) { $("#yaml-text").select(); document.execCommand("copy"); button.textContent = "Selected"; }
    setTimeout(() => { button.textContent = "Copy"; }, 1500);
  }

  downloadYaml() {
    const blob = new Blob([$("#yaml-text").value], { type: "application/yaml" });
    const link = el("a", { href: URL.createObjectURL(blob) });
    link.download = `${(this.scenario.id || this.scenario.title || "scenario").toString().replace(/[^\w-]+/g, "-").slice(0, 60) || "scenario"}.yaml`;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  }

}

// ---------------------------------------------------------------------------------------------
// Ruling pages: step through the trace with buttons or arrow keys; the page opens with the final
// board beside the trace and the deciding step in view.
function initRulingPage(page) {
  const steps = $$(".ruling-trace .step", page);
  if (!steps.length) return;
  let current = -1;
  const prev = el("button", { type: "button" }, "◀ Back");
  const label = el("span", { id: "step-label", ariaLive: "polite" }, "Step through the ruling");
  const next = el("button", { type: "button" }, "Forward ▶");
  const nav = el("div", { className: "step-nav" }, prev, " ", label, " ", next);
  $(".ruling-trace h2", page).after(nav);
  // On a wide screen the board beside the trace follows the step; on a phone the step's own board opens.
  const side = $(".ruling-board", page);
  const sideHeading = side && side.querySelector("h2");
  let sideFigure = side && side.querySelector(".board");
  const wide = window.matchMedia("(min-width: 60rem)");
  const go = (index, scroll = true) => {
    current = Math.max(0, Math.min(index, steps.length - 1));
    steps.forEach((li, i) => {
      li.classList.toggle("current", i === current);
      const details = li.querySelector("details");
      if (details) details.open = i === current && !(wide.matches && sideFigure);
    });
    const figure = steps[current].querySelector(".step-board .board");
    if (wide.matches && sideFigure && figure) {
      sideFigure.replaceWith(sideFigure = figure.cloneNode(true));
      sideHeading.textContent = `The board after step ${current + 1}${current === steps.length - 1 ? " (final)" : ""}`;
    }
    label.textContent = `Step ${current + 1} of ${steps.length}`;
    if (scroll) steps[current].scrollIntoView({ block: "nearest" });
  };
  prev.addEventListener("click", () => go(current - 1));
  next.addEventListener("click", () => go(current + 1));
  document.addEventListener("keydown", (e) => {
    if (typingIn(document.activeElement) || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === "ArrowLeft") go(current - 1);
    if (e.key === "ArrowRight") go(current + 1);
  });
  // The deciding step in view: beside the final board on a wide screen; on a phone with its own board open.
  const deciding = $(".ruling-trace .step.deciding", page);
  if (deciding && !window.location.hash) {
    if (!wide.matches) go(steps.indexOf(deciding), false);
    label.textContent = `The deciding step: ${deciding.querySelector(".step-n").textContent} of ${steps.length}`;
    deciding.scrollIntoView({ block: wide.matches ? "center" : "start" });
  }
}

// On a narrow screen a board scrolls sideways: start with the middle (the altars) in view.
for (const scroller of $$(".board-scroll")) scroller.scrollLeft = (scroller.scrollWidth - scroller.clientWidth) / 2;

const deskRoot = document.getElementById("desk");
if (deskRoot) window.codexDesk = new Desk(deskRoot);
const rulingPage = document.querySelector("[data-ruling-page]");
if (rulingPage) initRulingPage(rulingPage);
