// The ruling desk: build a position by clicking, queue actions, resolve, step through the ruling.
// Plain JS, no build step, no inline script. Every page it enhances also works without it.
"use strict";
document.documentElement.classList.add("js");

const $ = (sel, root = document) => root.querySelector(sel);
const $$ = (sel, root = document) => Array.from(root.querySelectorAll(sel));

async function postJSON(url, body) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(body),
  });
  try { return await response.json(); } catch (err) { return { ok: false, error: `HTTP ${response.status}` }; }
}

function renderProblems(list, problems, message) {
  list.replaceChildren();
  if (message && (!problems || !problems.length)) problems = [{ message }];
  for (const p of problems || []) {
    const li = document.createElement("li");
    if (p.path) { const code = document.createElement("code"); code.textContent = p.path; li.append(code, ": "); }
    li.append(p.message + (p.line ? ` (line ${p.line})` : ""));
    list.append(li);
  }
}

function actionLabel(action) {
  return Object.entries(action).map(([k, v]) => {
    if (v === true) return k;
    if (Array.isArray(v)) return `${k} ${v.join(", ")}`;
    if (v && typeof v === "object") return `${k} ${JSON.stringify(v)}`;
    return `${k} ${v}`;
  }).join(" · ");
}

function debounce(fn, ms) {
  let timer = null;
  return (...args) => { clearTimeout(timer); timer = setTimeout(() => fn(...args), ms); };
}

const clone = (value) => JSON.parse(JSON.stringify(value));
const typingIn = (el) => el && (el.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(el.tagName));

// ---------------------------------------------------------------------------------------------
class Desk {
  constructor(root) {
    this.root = root;
    this.urls = {
      board: root.dataset.boardUrl, legal: root.dataset.legalUrl, resolve: root.dataset.resolveUrl,
      parse: root.dataset.parseUrl, cards: root.dataset.cardsUrl,
    };
    this.scenario = JSON.parse(root.dataset.scenario);
    this.field = JSON.parse(root.dataset.field);
    this.rootSlot = this.field.soul_slots.find((s) => s.parent === null).name;
    this.selected = null;
    this.boards = [];
    this.step = null;           // null: editing; -1: start; i: after step i
    this.rejected = null;
    this.yamlDirty = false;
    this.board = $("#board");
    this.positionBoard = this.board.innerHTML;
    this.refreshSoon = debounce(() => this.refresh(), 250);
    this.bind();
    this.fillSettings();
    this.renderQueue();
    this.refresh();
  }

  // -- the scenario ------------------------------------------------------------------------
  get state() {
    this.scenario.state = this.scenario.state || {};
    return this.scenario.state;
  }

  player(p) {
    const players = (this.state.players = this.state.players || {});
    players[p] = players[p] || {};
    players[p].field = players[p].field || {};
    return players[p];
  }

  zoneOf(ref, kind) { return kind === "realm" ? "realms" : "field"; }

  entry(ref, kind) {
    const [p, slot] = ref.split(":");
    const zone = this.player(p)[this.zoneOf(ref, kind)] || {};
    const value = zone[slot];
    if (value === undefined || value === null) return null;
    return typeof value === "string" ? { card: value } : value;
  }

  setEntry(ref, kind, value) {
    const [p, slot] = ref.split(":");
    const pstate = this.player(p);
    const zone = this.zoneOf(ref, kind);
    pstate[zone] = pstate[zone] || {};
    if (value === null) delete pstate[zone][slot];
    else pstate[zone][slot] = value;
    this.changed();
  }

  changed() {
    this.leaveSteps();
    this.refreshSoon();
  }

  async refresh() {
    const seq = (this.refreshSeq = (this.refreshSeq || 0) + 1);
    const data = await postJSON(this.urls.board, { scenario: this.scenario });
    if (seq !== this.refreshSeq) return;  // a newer redraw is on its way: answers may arrive out of order
    if (data.board === undefined) {
      renderProblems($("#board-problems"), data.problems, data.error);
      return;
    }
    this.positionBoard = data.board;
    if (this.step === null) this.showBoard(data.board);
    renderProblems($("#board-problems"), data.problems);
    this.rejected = data.rejected;
    this.renderQueue();
    if (!this.yamlDirty) $("#yaml-text").value = data.yaml;
  }

  showBoard(html) {
    const old = this.board.querySelector(".board-scroll");
    const scrolled = old ? old.scrollLeft : null;
    this.board.innerHTML = html;
    const scroller = this.board.querySelector(".board-scroll");
    if (scroller) scroller.scrollLeft = scrolled ?? (scroller.scrollWidth - scroller.clientWidth) / 2;
    if (this.selected) {
      const g = this.board.querySelector(`[data-ref="${CSS.escape(this.selected.ref)}"]`);
      if (g) g.classList.add("selected");
    }
  }

  // -- events ------------------------------------------------------------------------------
  bind() {
    this.board.addEventListener("click", (e) => this.boardClick(e));
    this.board.addEventListener("keydown", (e) => {
      if ((e.key === "Enter" || e.key === " ") && e.target.closest("[data-ref]")) { e.preventDefault(); this.boardClick(e); }
    });
    $("#card-q").addEventListener("input", debounce(() => this.searchCards(), 120));
    $("#slot-close").addEventListener("click", () => this.closeEditor());
    $("#slot-remove").addEventListener("click", () => this.removeCard());
    for (const id of ["#f-damage", "#f-captured", "#f-armament", "#f-recruited", "#f-attacks"]) {
      $(id).addEventListener("change", () => this.saveSlotFields());
    }
    $("#ambush-add").addEventListener("click", () => this.addAmbush());
    $("#custom-open").addEventListener("click", () => this.openCustom());
    $("#custom-cancel").addEventListener("click", () => { $("#custom-card").hidden = true; });
    $("#custom-form").addEventListener("submit", (e) => { e.preventDefault(); this.addCustom(); });
    $("#custom-form").elements.e_cost.addEventListener("change", (e) => {
      const amount = $("#custom-form").elements.e_cost_n;
      amount.step = e.target.value === "pay_hp" ? "5" : "1";
      if (e.target.value === "pay_hp" && Number(amount.value) % 5) amount.value = "5";
    });
    $("#legal-load").addEventListener("click", () => this.loadLegal());
    $("#legal-add").addEventListener("click", () => this.addLegal());
    $("#manual-add").addEventListener("click", () => this.addManual());
    $("#resolve").addEventListener("click", () => this.resolve());
    $("#step-prev").addEventListener("click", () => this.goStep(this.step - 1));
    $("#step-next").addEventListener("click", () => this.goStep(this.step + 1));
    $("#step-edit").addEventListener("click", () => this.leaveSteps());
    $("#ruling-out").addEventListener("click", (e) => {
      const li = e.target.closest("[data-step]");
      if (li && !e.target.closest("a") && this.boards.length) this.goStep(Number(li.dataset.step));
    });
    document.addEventListener("keydown", (e) => {
      if (e.key === "Escape" && this.selected) { this.closeEditor(); return; }
      if (this.step === null || typingIn(document.activeElement) || e.altKey || e.ctrlKey || e.metaKey) return;
      if (e.key === "ArrowLeft") { e.preventDefault(); this.goStep(this.step - 1); }
      if (e.key === "ArrowRight") { e.preventDefault(); this.goStep(this.step + 1); }
    });
    $("#s-title").addEventListener("change", (e) => { this.setText("title", e.target.value); });
    $("#s-question").addEventListener("change", (e) => { this.setText("question", e.target.value); });
    $("#s-turn-player").addEventListener("change", (e) => { this.state.turn_player = e.target.value; this.changed(); });
    $("#s-phase").addEventListener("change", (e) => { this.state.phase = e.target.value; this.changed(); });
    $("#s-turn").addEventListener("change", (e) => { this.state.turn = Number(e.target.value) || 1; this.changed(); });
    for (const input of $$(".player-settings input")) input.addEventListener("change", () => this.savePile(input));
    $("#yaml-text").addEventListener("input", () => { this.yamlDirty = true; });
    $("#yaml-load").addEventListener("click", () => this.loadYaml($("#yaml-text").value));
    $("#yaml-file").addEventListener("change", async (e) => {
      const file = e.target.files[0];
      if (file) this.loadYaml(await file.text());
    });
    $("#yaml-copy").addEventListener("click", () => this.copyYaml());
    $("#yaml-download").addEventListener("click", () => this.downloadYaml());
  }

  boardClick(e) {
    const g = e.target.closest("[data-ref]");
    if (!g || this.step !== null) return;
    this.openSlot(g.dataset.ref, g.dataset.kind);
  }

  // -- the slot editor ---------------------------------------------------------------------
  openSlot(ref, kind) {
    this.selected = { ref, kind };
    $$("#board .selected").forEach((g) => g.classList.remove("selected"));
    const g = this.board.querySelector(`[data-ref="${CSS.escape(ref)}"]`);
    if (g) g.classList.add("selected");
    const slot = ref.split(":")[1];
    const spec = (kind === "realm" ? this.field.realm_slots : this.field.soul_slots).find((s) => s.name === slot);
    $("#slot-title").textContent = `${ref} (${kind === "realm" ? "realm slot" : "soul slot"}, rank ${spec ? spec.rank : "?"})`;
    const entry = this.entry(ref, kind);
    const occupied = Boolean(entry && entry.card);
    $$("#slot-editor [data-when]").forEach((el) => {
      const when = el.dataset.when;
      el.hidden = (when === "empty" && occupied) || (when === "occupied" && !occupied) || (when === "soul" && kind !== "soul");
    });
    if (occupied) {
      $("#slot-card").textContent = entry.card;
      $("#f-damage").value = entry.damage || 0;
      $("#f-captured").checked = Boolean(kind === "realm" ? entry.shattered : entry.captured);
      $("#f-captured-label").textContent = kind === "realm" ? "Shattered" : "Captured (face down)";
      $("#f-armament").value = (entry.armament && (entry.armament.card || entry.armament)) || "";
      $("#f-recruited").checked = entry.recruited === "this_turn";
      $("#f-attacks").value = entry.attacks_made || 0;
    } else {
      $("#card-q").value = "";
      this.searchCards();
    }
    this.renderAmbushes(entry);
    this.fillDatalist("#armament-list", "armament");
    this.fillDatalist("#ambush-cards", "ambush");
    $("#slot-editor").hidden = false;
    $("#custom-card").hidden = true;
    (occupied ? $("#f-damage") : $("#card-q")).focus();
  }

  closeEditor() {
    this.selected = null;
    $("#slot-editor").hidden = true;
    $("#custom-card").hidden = true;
    $$("#board .selected").forEach((g) => g.classList.remove("selected"));
  }

  async cardSearch(query, type, leader) {
    const url = new URL(this.urls.cards, window.location.href);
    url.searchParams.set("q", query);
    if (type) url.searchParams.set("type", type);
    if (leader !== undefined) url.searchParams.set("leader", leader ? "1" : "0");
    const response = await fetch(url, { headers: { Accept: "application/json" } });
    return (await response.json()).cards || [];
  }

  async searchCards() {
    if (!this.selected) return;
    const { ref, kind } = this.selected;
    const isAltar = kind === "soul" && ref.split(":")[1] === this.rootSlot;
    const query = $("#card-q").value;
    const cards = await this.cardSearch(query, kind === "realm" ? "realm" : "soul", isAltar ? true : undefined);
    if (query !== $("#card-q").value) return;  // a newer search is on its way
    const list = $("#card-results");
    list.replaceChildren();
    const custom = (this.scenario.cards || []).filter((c) => c.type === (kind === "realm" ? "realm" : "soul")
      && c.name.toLowerCase().includes(query.toLowerCase()));
    for (const card of [...custom, ...cards]) {
      const li = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.card = card.name;
      const name = document.createElement("strong");
      name.textContent = card.name;
      const meta = document.createElement("span");
      meta.className = "meta";
      meta.textContent = ` ${card.leader ? "Leader, " : ""}rank ${card.rank} · ATK ${card.atk ?? "–"} DEF ${card.def ?? "–"} HP ${card.hp ?? "–"}`;
      button.append(name, meta);
      button.addEventListener("click", () => this.placeCard(card.name));
      li.append(button);
      list.append(li);
    }
    if (!list.children.length) {
      const li = document.createElement("li");
      li.className = "muted";
      li.textContent = "No card matches; make a custom one.";
      list.append(li);
    }
  }

  async fillDatalist(selector, type) {
    const list = $(selector);
    if (list.dataset.filled) return;
    list.dataset.filled = "1";
    for (const card of await this.cardSearch("", type)) {
      const option = document.createElement("option");
      option.value = card.name;
      list.append(option);
    }
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
      const li = document.createElement("li");
      li.textContent = (ambush.card || ambush) + (ambush.setter === "gone" ? " (Setter gone) " : " ");
      const remove = document.createElement("button");
      remove.type = "button";
      remove.className = "link-button";
      remove.textContent = "remove";
      remove.addEventListener("click", () => {
        const current = { ...this.entry(this.selected.ref, "soul") };
        current.ambushes = current.ambushes.filter((_, i) => i !== index);
        if (!current.ambushes.length) delete current.ambushes;
        this.setEntry(this.selected.ref, "soul", Object.keys(current).length ? current : null);
        this.renderAmbushes(current);
      });
      li.append(remove);
      list.append(li);
    });
  }

  addAmbush() {
    const name = $("#f-ambush").value.trim();
    if (!name || !this.selected) return;
    const entry = { ...(this.entry(this.selected.ref, "soul") || {}) };
    const ambush = { card: name };
    if ($("#f-ambush-gone").checked) ambush.setter = "gone";
    entry.ambushes = [...(entry.ambushes || []), ambush];
    this.setEntry(this.selected.ref, "soul", entry);
    $("#f-ambush").value = "";
    this.renderAmbushes(entry);
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
    if (this.selected && ((kind === "soul" && card.type === "soul") || (kind === "realm" && card.type === "realm"))) {
      this.placeCard(name);
    } else {
      const p = this.selected ? this.selected.ref.split(":")[0] : this.state.turn_player || "A";
      const pstate = this.player(p);
      pstate.hand = Array.isArray(pstate.hand) ? pstate.hand : [];
      pstate.hand.push(name);
      this.fillSettings();
      this.changed();
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

  // -- turn and piles ----------------------------------------------------------------------
  setText(key, value) {
    if (value.trim()) this.scenario[key] = value.trim(); else delete this.scenario[key];
    this.changed();
  }

  fillSettings() {
    $("#s-title").value = this.scenario.title || "";
    $("#s-question").value = this.scenario.question || "";
    $("#s-turn-player").value = this.state.turn_player || "A";
    $("#s-phase").value = this.state.phase || "preparation";
    $("#s-turn").value = this.state.turn || 9;
    for (const box of $$(".player-settings")) {
      const pstate = this.player(box.dataset.player);
      for (const input of $$("input", box)) {
        const value = pstate[input.dataset.pile];
        if (Array.isArray(value)) input.value = value.map((v) => v.card || v).join(", ");
        else if (value && typeof value === "object") {  // {cards: [...], unnamed: N}
          input.value = [...(value.cards || []), ...(value.unnamed ? [`+${value.unnamed}`] : [])].join(", ");
        } else input.value = value ?? "";
      }
    }
  }

  savePile(input) {
    const pstate = this.player(input.closest("[data-player]").dataset.player);
    const pile = input.dataset.pile;
    const text = input.value.trim();
    if (pile === "turns_taken") pstate.turns_taken = Math.max(0, Number(text) || 0);
    else if (/^\d+$/.test(text)) pstate[pile] = Number(text);
    else {
      // names, comma-separated; "+N" adds N unnamed cards
      const items = text ? text.split(",").map((s) => s.trim()).filter(Boolean) : [];
      const unnamed = items.filter((s) => /^\+\d+$/.test(s)).reduce((n, s) => n + Number(s.slice(1)), 0);
      const cards = items.filter((s) => !/^\+\d+$/.test(s));
      pstate[pile] = unnamed ? { cards, unnamed } : cards;
    }
    this.changed();
  }

  // -- the queue ---------------------------------------------------------------------------
  get actions() {
    this.scenario.actions = this.scenario.actions || [];
    return this.scenario.actions;
  }

  renderQueue() {
    const list = $("#queue");
    list.replaceChildren();
    this.actions.forEach((action, index) => {
      const li = document.createElement("li");
      const text = document.createElement("span");
      text.className = "action-text";
      text.textContent = actionLabel(action);
      const buttons = document.createElement("span");
      buttons.className = "q-buttons";
      for (const [label, title, fn] of [["↑", "Move up", () => this.moveAction(index, -1)],
        ["↓", "Move down", () => this.moveAction(index, 1)], ["✕", "Delete", () => this.deleteAction(index)]]) {
        const button = document.createElement("button");
        button.type = "button";
        button.textContent = label;
        button.title = `${title}: action ${index}`;
        button.setAttribute("aria-label", `${title}: action ${index}`);
        button.addEventListener("click", fn);
        buttons.append(" ", button);
      }
      li.append(text, buttons);
      if (this.rejected && this.rejected.action === index) {
        li.classList.add("illegal");
        const why = document.createElement("p");
        why.className = "why";
        why.append(`Illegal here: ${this.rejected.text} `);
        const rules = document.createElement("span");
        rules.className = "step-rules";
        rules.innerHTML = (this.rejected.rules_html || []).join(" ");  // built and escaped by the server
        why.append(rules);
        li.append(why);
      }
      list.append(li);
    });
  }

  moveAction(index, by) {
    const to = index + by;
    if (to < 0 || to >= this.actions.length) return;
    const [item] = this.actions.splice(index, 1);
    this.actions.splice(to, 0, item);
    this.renderQueue();
    this.changed();
  }

  deleteAction(index) {
    this.actions.splice(index, 1);
    this.renderQueue();
    this.changed();
  }

  async loadLegal() {
    $("#queue-msg").textContent = "Asking the engine…";
    const data = await postJSON(this.urls.legal, { scenario: this.scenario, after: this.actions.length });
    const select = $("#legal-select");
    select.replaceChildren();
    if (!data.ok) {
      $("#queue-msg").textContent = data.error || "The scenario has problems; fix them first.";
      $("#legal-box").hidden = true;
      return;
    }
    this.legal = data.actions;
    data.actions.forEach((action, index) => {
      const option = document.createElement("option");
      option.value = String(index);
      option.textContent = actionLabel(action);
      select.append(option);
    });
    $("#legal-box").hidden = !data.actions.length;
    $("#queue-msg").textContent = data.actions.length
      ? `${data.actions.length} legal actions after action ${this.actions.length - 1 < 0 ? "none" : this.actions.length - 1}.`
      : "No legal action at this point of the queue.";
  }

  addLegal() {
    const index = Number($("#legal-select").value);
    if (!this.legal || !this.legal[index]) return;
    this.actions.push(clone(this.legal[index]));
    $("#legal-box").hidden = true;
    $("#queue-msg").textContent = "";
    this.renderQueue();
    this.changed();
  }

  async addManual() {
    const text = $("#manual-text").value.trim();
    if (!text) return;
    const data = await postJSON(this.urls.parse, { action: text });
    if (!data.ok) { $("#queue-msg").textContent = (data.problems || []).map((p) => p.message).join("; ") || data.error; return; }
    this.actions.push(data.action);
    $("#manual-text").value = "";
    $("#queue-msg").textContent = "";
    this.renderQueue();
    this.changed();
  }

  // -- resolving and stepping --------------------------------------------------------------
  async resolve() {
    $("#queue-msg").textContent = "Resolving…";
    const data = await postJSON(this.urls.resolve, { scenario: this.scenario });
    if (!data.ok) {
      $("#queue-msg").textContent = "";
      renderProblems($("#board-problems"), data.problems, data.error);
      return;
    }
    $("#queue-msg").textContent = "";
    this.boards = data.boards;
    $("#ruling-out").innerHTML = data.trace;  // server-rendered, every user string escaped there
    $("#ruling-panel").hidden = false;
    $("#step-nav").hidden = false;
    this.goStep(this.boards.length - 1);
  }

  goStep(index) {
    if (!this.boards.length) return;
    this.step = Math.max(-1, Math.min(index, this.boards.length - 1));
    this.showBoard(this.step < 0 ? this.positionBoard : this.boards[this.step]);
    const steps = $$("#ruling-out .step");
    steps.forEach((li, i) => li.classList.toggle("current", i === this.step));
    const label = $("#step-label");
    if (this.step < 0) label.textContent = "Starting position";
    else {
      const li = steps[this.step];
      const kind = li ? li.querySelector(".step-kind").textContent : "";
      const last = this.step === this.boards.length - 1 ? " (final)" : "";
      label.textContent = `After step ${this.step + 1} of ${this.boards.length}: ${kind}${last}`;
      if (li) li.scrollIntoView({ block: "nearest" });
    }
    $("#step-prev").disabled = this.step < 0;
    $("#step-next").disabled = this.step >= this.boards.length - 1;
  }

  leaveSteps() {
    if (this.step === null) return;
    this.step = null;
    this.boards = [];
    $("#step-nav").hidden = true;
    $("#ruling-panel").hidden = true;
    this.showBoard(this.positionBoard);
  }

  // -- YAML in and out ---------------------------------------------------------------------
  async loadYaml(text) {
    const data = await postJSON(this.urls.parse, { yaml: text });
    renderProblems($("#yaml-problems"), data.problems, data.ok ? null : data.error);
    if (!data.ok) return;
    this.scenario = data.scenario;
    this.yamlDirty = false;
    this.closeEditor();
    this.fillSettings();
    this.renderQueue();
    this.changed();
    this.refresh();
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
    const link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = `${(this.scenario.id || this.scenario.title || "scenario").toString().replace(/[^\w-]+/g, "-").slice(0, 60) || "scenario"}.yaml`;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  }
}

// ---------------------------------------------------------------------------------------------
// Ruling pages: step through the trace with buttons or arrow keys (each step's board opens).
function initRulingPage(page) {
  const steps = $$(".ruling-trace .step", page);
  if (!steps.length) return;
  let current = -1;
  const nav = document.createElement("div");
  nav.className = "step-nav";
  const prev = document.createElement("button");
  prev.type = "button";
  prev.textContent = "◀ Back";
  const label = document.createElement("span");
  label.id = "step-label";
  label.textContent = "Step through the ruling";
  const next = document.createElement("button");
  next.type = "button";
  next.textContent = "Forward ▶";
  nav.append(prev, " ", label, " ", next);
  $(".ruling-trace h2", page).after(nav);
  // On a wide screen the board beside the trace follows the step; on a phone the step's own board opens.
  const side = $(".ruling-board", page);
  const sideHeading = side && side.querySelector("h2");
  let sideFigure = side && side.querySelector(".board");
  const wide = window.matchMedia("(min-width: 60rem)");
  const go = (index) => {
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
    steps[current].scrollIntoView({ block: "nearest" });
  };
  prev.addEventListener("click", () => go(current - 1));
  next.addEventListener("click", () => go(current + 1));
  document.addEventListener("keydown", (e) => {
    if (typingIn(document.activeElement) || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === "ArrowLeft") go(current - 1);
    if (e.key === "ArrowRight") go(current + 1);
  });
}

// On a narrow screen a board scrolls sideways: start with the middle (the altars) in view.
for (const scroller of $$(".board-scroll")) scroller.scrollLeft = (scroller.scrollWidth - scroller.clientWidth) / 2;

const deskRoot = document.getElementById("desk");
if (deskRoot) window.codexDesk = new Desk(deskRoot);
const rulingPage = document.querySelector("[data-ruling-page]");
if (rulingPage) initRulingPage(rulingPage);
