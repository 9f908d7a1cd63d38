// The card picker: search as you type over the card library, with each card's type, rank, values,
// keywords and effect text in view; filters by type and keyword; only cards that fit where the card goes
// (a Leader only on an altar, a Realm only in a realm slot, an Ambush only under a Soul).
"use strict";

const TYPE_WORDS = { soul: "Soul", event: "Event", armament: "Armament", ambush: "Ambush", realm: "Realm" };

class Picker {
  constructor(desk) {
    this.desk = desk;
    this.panel = $("#picker");
    this.target = null;  // {zone: "slot" | "ambush" | pile name, player, ref, kind}
    this.seq = 0;
    this.run = debounce(() => this.search(), 120);
    // The results are busy from the first key to the answer for what was typed: what is listed meanwhile
    // answers an older query, and may be replaced under the pointer
    $("#card-q").addEventListener("input", () => { $("#card-results").setAttribute("aria-busy", "true"); this.run(); });
    $("#card-type").addEventListener("change", () => this.search());
    $("#card-keyword").addEventListener("change", () => this.search());
    $("#picker-close").addEventListener("click", () => this.desk.closeEditor(true));
    this.panel.addEventListener("keydown", (e) => {
      if (e.key === "ArrowDown" && e.target.id === "card-q") { e.preventDefault(); const b = $("#card-results button"); if (b) b.focus(); }
    });
  }

  // What fits where the card goes: [types, leader (true / false / undefined: either)].
  fits(target) {
    if (target.zone === "slot") {
      if (target.kind === "realm") return [["realm"], undefined];
      return [["soul"], target.ref.split(":")[1] === this.desk.rootSlot];
    }
    if (target.zone === "ambush") return [["ambush"], undefined];
    if (target.zone === "armament") return [["armament"], undefined];
    return [this.desk.vocab.card_types, undefined];
  }

  // A card stands on a slot of its rank or higher; an Ambush is set, and an Armament equipped, at a Soul
  // whose slot's rank is at least the card's (10.4, 10.3).
  maxRank(target) {
    if (!target || !target.ref) return null;
    const slot = target.ref.split(":")[1];
    const spec = [...this.desk.field.soul_slots, ...this.desk.field.realm_slots].find((s) => s.name === slot);
    return spec ? spec.rank : null;
  }

  // The type a custom card made from here starts as: what fits where the picker was opened for.
  customType() {
    if (!this.target) return null;
    const [types] = this.fits(this.target);
    const chosen = $("#card-type").value;
    if (chosen) return chosen;
    if (types.length === 1) return types[0];
    return this.target.zone === "hand" || this.target.zone === "elysium" ? "event" : "soul";
  }

  open(target, words) {
    this.target = target;
    const [types] = this.fits(target);
    const select = $("#card-type");
    select.replaceChildren(el("option", { value: "" }, types.length > 1 ? "any type" : TYPE_WORDS[types[0]]));
    if (types.length > 1) for (const t of types) select.append(el("option", { value: t }, TYPE_WORDS[t]));
    select.disabled = types.length === 1;
    $("#picker-for").textContent = words;
    $("#card-q").value = "";
    $("#card-results").replaceChildren();  // the last picker's cards do not fit here: never click them
    $("#card-guess").hidden = true;
    this.panel.hidden = false;
    Layers.push("slot", () => this.desk.closeEditor(true, false));  // Back closes the picker first
    this.desk.placePop();
    $("#card-q").focus();
    this.search();
  }

  close() {
    this.panel.hidden = true;
    const target = this.target;
    this.target = null;
    return target;
  }

  async search() {
    if (!this.target) return;
    const seq = ++this.seq;
    $("#card-results").setAttribute("aria-busy", "true");
    const [types, leader] = this.fits(this.target);
    const chosen = $("#card-type").value;
    const query = $("#card-q").value;
    const keyword = $("#card-keyword").value;
    const url = new URL(this.desk.urls.cards, window.location.href);
    url.searchParams.set("q", query);
    url.searchParams.set("type", chosen || types.join(","));
    if (leader !== undefined) url.searchParams.set("leader", leader ? "1" : "0");
    const maxRank = this.maxRank(this.target);
    if (maxRank !== null) url.searchParams.set("max_rank", String(maxRank));
    if (keyword) url.searchParams.set("keyword", keyword);
    let data = {};
    try { data = await (await fetch(url, { headers: { Accept: "application/json" } })).json(); } catch (err) { data = {}; }
    if (seq !== this.seq) return;  // a newer search is on its way
    $("#card-results").removeAttribute("aria-busy");
    const cards = data.cards || [];
    const custom = (this.desk.scenario.cards || []).filter((c) => (chosen ? c.type === chosen : types.includes(c.type))
      && (leader === undefined || Boolean(c.leader) === leader) && (maxRank === null || (c.rank ?? 0) <= maxRank)
      && c.name.toLowerCase().includes(query.trim().toLowerCase()));
    const guess = custom.length ? null : (data.suggested || [])[0];
    this.showGuess(query, guess);
    this.show([...custom.map((c) => ({ ...c, custom: true })), ...cards, ...(guess && !cards.length ? [guess] : [])]);
  }

  // Nothing matched what was typed: the YAML box's "did you mean", with the card itself to click.
  showGuess(query, card) {
    const box = $("#card-guess");
    box.hidden = !card;
    if (card) box.replaceChildren(`No card is called “${query.trim()}”: did you mean ${card.name}? It is listed below.`);
  }

  show(cards) {
    const list = $("#card-results");
    list.replaceChildren();
    for (const card of cards) {
      const values = card.type === "soul" || card.type === "realm" || card.type === "armament"
        ? ` · ATK ${card.atk ?? 0} DEF ${card.def ?? 0} HP ${card.hp ?? 0}` : "";
      const kw = (card.keywords || []).map((k) => (typeof k === "string" ? k : Object.keys(k)[0]).replace(/_/g, " "));
      const variant = card.custom && VARIANT_OF.exec(card.origin || "");
      const button = el("button", { type: "button", className: "card-option", dataset: { card: card.name } },
        el("strong", {}, card.name),
        variant ? el("span", { className: "variant-mark" }, `variant of ${variant[1]}`) : null,
        el("span", { className: "meta" }, ` ${card.leader ? "Leader " : ""}${TYPE_WORDS[card.type] || card.type}, rank ${card.rank}${values}${card.custom ? " · custom" : ""}`),
        kw.length ? el("span", { className: "kw" }, kw.join(", ")) : null,
        card.text ? el("span", { className: "text" }, card.text) : null);
      button.addEventListener("click", () => this.desk.pickCard(card.name));
      button.draggable = true;  // or drag it onto a slot or a pile
      button.addEventListener("dragstart", (e) => {
        e.dataTransfer.setData("application/x-codex-card", JSON.stringify({ name: card.name, type: card.type, leader: Boolean(card.leader) }));
        e.dataTransfer.effectAllowed = "copy";
      });
      list.append(el("li", {}, button));
    }
    if (!cards.length) list.append(el("li", { className: "muted" }, "No card fits and matches. Try part of a name, a rank (“rank 1”), a keyword (“unyielding”) or a type (“dark event”), or make a custom card."));
  }
}
