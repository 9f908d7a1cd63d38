// The desk's own cards: a custom card (this scenario's `cards:` list) made from a form that shows only the
// fields of the chosen type, and a variant of a library card ("Noah (rank 1)"), made from the card's panel
// with its values filled in. A variant is a card of its own: it never takes a library card's name.
// Methods of the Desk (desk.js mixes them in).
"use strict";

const VARIANT_OF = /^variant of (.+)$/;
const PRINTED_KEYS = ["type", "rank", "attribute", "leader", "atk", "def", "hp", "text"];

const CustomCards = {
  // type: the card type to start with (from where the form was opened); base: a card to vary.
  openCustom(type = null, base = null) {
    const form = $("#custom-form");
    form.reset();
    this.varying = base;
    const f = form.elements;
    if (type) f.type.value = type;
    if (!base && this.selected && this.selected.ref.split(":")[1] === this.rootSlot && type === "soul") {
      f.leader.checked = true;
      f.rank.value = "3";
    }
    if (base) this.fillCustom(base);
    else {
      this.draftEffects(null);
      $("#has-effect-words").textContent = "This card has an effect";
      f.name.value = this.freshName(`My ${TYPE_WORDS[f.type.value] || "card"}`);
      f.has_effect.checked = ["event", "ambush"].includes(f.type.value);  // an Event or Ambush is its effect
      const maxRank = this.picker.maxRank(this.picker.target || this.selected);
      if (maxRank !== null && Number(f.rank.value) > maxRank) f.rank.value = String(maxRank);
    }
    this.customTitle();
    $("#custom-about").textContent = base
      ? `Change what differs; it is saved in this scenario as a card of its own, named for the change. The library's ${base.name} stays as it is.`
      : "Defined only in this scenario (its cards: list).";
    $("#custom-submit").textContent = base ? "Use this variant" : "Add the card";
    $("#custom-msg").textContent = "";
    this.showCustomFields();
    $("#custom-card").hidden = false;
    this.placePop();
    Layers.push("custom", () => this.closeCustom(false));
    (base ? f.rank : f.name).focus();
  },

  // "My Ambush", or "My Ambush 2" when this scenario has one already.
  freshName(name) {
    const taken = new Set((this.scenario.cards || []).map((c) => c.name.toLowerCase()));
    let n = 1;
    let candidate = name;
    while (taken.has(candidate.toLowerCase())) candidate = `${name} ${++n}`;
    return candidate;
  },

  fillCustom(card) {
    const f = $("#custom-form").elements;
    f.type.value = card.type;
    f.rank.value = String(card.rank ?? 0);
    f.attribute.value = card.attribute || "";
    f.leader.checked = Boolean(card.leader);
    for (const s of ["atk", "def", "hp"]) f[s].value = card[s] ?? 0;
    f.text.value = card.text || "";
    const keywords = card.keywords || [];
    for (const box of $$("input[name=kw]", $("#custom-form"))) box.checked = keywords.includes(box.value);
    const valued = (key) => keywords.find((k) => k && typeof k === "object" && key in k);
    f.defiance.value = (valued("defiance") || {}).defiance || "";
    const moral = (valued("moral") || {}).moral || {};
    for (const s of this.vocab.stats) f[`moral_${s}`].value = moral[s] || "";
    // the card's own effects, part by part, in words; the builder below adds one more
    f.has_effect.checked = false;
    this.draftEffects(card);
    $("#has-effect-words").textContent = (card.effects || []).length ? "Add an effect" : "This card has an effect";
    f.name.value = this.variantName(card);
  },

  // Only the fields of the chosen type, and of the effect part chosen.
  showCustomFields() {
    const form = $("#custom-form");
    const f = form.elements;
    const type = f.type.value;
    for (const node of $$("[data-for]", form)) node.hidden = !node.dataset.for.split(" ").includes(type);
    const has = f.has_effect.checked;
    $(".effect-fields", form).hidden = !has;
    const option = f.e_do.selectedOptions[0];
    const takes = option ? option.dataset.takes.split(" ") : [];
    for (const node of $$("[data-takes]", form)) {
      if (node.tagName === "OPTION") continue;
      node.hidden = !node.dataset.takes.split(" ").some((k) => takes.includes(k));
    }
    this.fitFormToType(type);
    for (const node of $$("[data-kinds]", form)) if (!node.hidden) node.hidden = !node.dataset.kinds.split(" ").includes(f.e_kind.value);
    // a granted keyword with a value takes the amount (and Moral its stat)
    const granting = f.e_do.value === "grant";
    const valued = granting && f.e_do_kw.value in this.vocab.grant_words;
    if (valued) $("[data-takes~=amount]", form).hidden = false;
    $("[data-grant=moral]", form).hidden = !(granting && f.e_do_kw.value === "moral");
    $("[data-condition]", form).hidden = f.e_condition.value !== "line_max";
    $("[data-cost]", form).hidden = !f.e_cost.value;
    const amount = f.e_do_n;
    if (takes.includes("count") && !takes.includes("amount")) { amount.step = "1"; if (Number(amount.value) > 5) amount.value = "1"; } else amount.step = "5";
    if (this.varying) f.name.placeholder = this.variantName(this.varying);
  },

  // What the chosen type can have (the desk's card-form table, judge/desk/card_form.py): its effect kinds,
  // triggers (in its own words: "when the Ambusher is attacked") and references; a Static effect only
  // gains or grants. A choice the type can't have gives way to the first it can.
  fitFormToType(type) {
    const form = $("#custom-form");
    const f = form.elements;
    const rules = this.vocab.card_form[type];
    const offer = (select, allowed) => {
      for (const option of select.options) option.hidden = option.disabled = !allowed(option.value);
      const chosen = select.selectedOptions[0];
      if (!chosen || chosen.disabled) {   // none chosen (all were refused a moment ago), or refused now
        const first = [...select.options].find((o) => !o.disabled);
        if (first) select.value = first.value;
      }
    };
    offer(f.e_kind, (k) => rules.kinds.includes(k));
    $("[data-form=kinds]", form).hidden = rules.kinds.length < 2;
    $("[data-form=fast]", form).hidden = rules.fast !== "choice";
    offer(f.e_trigger, (t) => rules.triggers.includes(t));   // a timing effect needs its trigger
    for (const option of f.e_trigger.options) {
      if (option.value) option.textContent = (rules.trigger_words || {})[option.value] || this.vocab.trigger_words[option.value];
    }
    $("[data-form=triggers]", form).hidden = !rules.triggers.length;
    // the fields only some kinds have start shown; the kind then hides those it lacks
    for (const node of $$("[data-kinds]:not([data-form]):not([data-takes]):not([data-for])", form)) node.hidden = false;
    const statics = f.e_kind.value === "static";   // no targets: it acts on named cards while in force
    offer(f.e_do_to, (r) => rules.refs.includes(r) && !(statics && r === "target"));
    offer(f.e_do, (d) => !statics || d === "grant" || d.startsWith("gain_"));
  },

  // The custom form's heading names the type chosen ("A custom Ambush").
  customTitle() {
    const f = $("#custom-form").elements;
    $("#custom-title").textContent = this.varying ? `A variant of ${this.varying.name}` : `A custom ${TYPE_WORDS[f.type.value] || "card"}`;
  },

  bindCustom() {
    const form = $("#custom-form");
    form.addEventListener("change", (e) => {
      if (e.target.name === "type" && !this.varying) {
        const f = form.elements;
        if (/^My [A-Z]\w+( \d+)?$/.test(f.name.value)) f.name.value = this.freshName(`My ${TYPE_WORDS[f.type.value]}`);
        if (["event", "ambush"].includes(f.type.value)) f.has_effect.checked = true;
        this.customTitle();
      }
      if (e.target.name === "type" || e.target.name === "has_effect" || e.target.name.startsWith("e_")) this.showCustomFields();
      if (this.varying && e.target.name !== "name" && !this.nameTyped) form.elements.name.value = this.variantName(this.varying);
    });
    form.addEventListener("input", (e) => {
      if (e.target.name === "name") this.nameTyped = true;
      else if (this.varying && !this.nameTyped) form.elements.name.value = this.variantName(this.varying);
    });
    form.elements.e_cost.addEventListener("change", (e) => {
      const amount = form.elements.e_cost_n;
      amount.step = e.target.value === "pay_hp" ? "5" : "1";
      if (e.target.value === "pay_hp" && Number(amount.value) % 5) amount.value = "5";
    });
    $("#custom-cancel").addEventListener("click", () => this.closeCustom());
    form.addEventListener("submit", (e) => { e.preventDefault(); this.addCustom(); });
  },

  closeCustom(takeStepBack = true) {
    $("#custom-card").hidden = true;
    this.varying = null;
    this.nameTyped = false;
    if (takeStepBack) Layers.drop("custom");
  },

  // The card the form describes now (without its name).
  formCard() {
    const f = $("#custom-form").elements;
    const num = (el) => Math.max(0, Number(el.value) || 0);
    const card = { name: f.name.value.trim(), type: f.type.value, rank: Number(f.rank.value) };
    if (f.attribute.value && ["soul", "event", "ambush"].includes(card.type)) card.attribute = f.attribute.value;
    if (card.type === "soul") card.leader = f.leader.checked;
    if (["soul", "realm", "armament"].includes(card.type)) { card.atk = num(f.atk); card.def = num(f.def); card.hp = num(f.hp); }
    if (f.text.value.trim()) card.text = f.text.value.trim();
    const keywords = card.type === "soul" ? $$("input[name=kw]:checked", $("#custom-form")).map((el) => el.value) : [];
    if (card.type === "soul") {
      if (num(f.defiance)) keywords.push({ defiance: num(f.defiance) });
      const moral = {};
      for (const stat of this.vocab.stats) if (num(f[`moral_${stat}`])) moral[stat] = num(f[`moral_${stat}`]);
      if (Object.keys(moral).length) keywords.push({ moral });
    }
    card.keywords = keywords;
    const kept = this.effectsDraft || { effects: [], keywords: [] };
    card.effects = clone(kept.effects);
    if (f.has_effect.checked) card.effects.push(this.customEffect(f));
    if (card.type === "soul") card.keywords.push(...clone(kept.keywords));
    if (this.varying) {
      for (const key of ["caster", "ambusher"]) if (this.varying[key]) card[key] = clone(this.varying[key]);
      card.origin = `variant of ${this.varying.name}`;
    }
    return card;
  },

  // "Noah (rank 1)", "Noah (rank 1, no Unyielding)", "Noah (ATK 20)": the variant named for what changed.
  variantName(base) {
    const card = this.formCard();
    const changes = [];
    if (card.rank !== (base.rank ?? 0)) changes.push(`rank ${card.rank}`);
    for (const s of ["atk", "def", "hp"]) if (s in card && card[s] !== (base[s] ?? 0)) changes.push(`${s.toUpperCase()} ${card[s]}`);
    if ((card.attribute || "") !== (base.attribute || "")) changes.push(card.attribute || "no attribute");
    const label = (k) => (typeof k === "string" ? this.vocab.keyword_words[k] || k : keywordLabel(k));
    const before = (base.keywords || []).map(label);
    const after = (card.keywords || []).map(label);
    for (const k of after) if (!before.includes(k)) changes.push(k);
    for (const k of before) if (!after.includes(k)) changes.push(`no ${k}`);
    if (card.type !== base.type) changes.push(TYPE_WORDS[card.type] || card.type);
    if ($("#custom-form").elements.has_effect.checked) changes.push("new effect");
    if (this.effectsChanged()) changes.push("changed effects");
    return `${base.name} (${changes.length ? changes.join(", ") : "variant"})`;
  },

  async addCustom() {
    const card = this.formCard();
    const name = card.name;
    const msg = $("#custom-msg");
    if (!name) { msg.textContent = "A card needs a name."; $("#custom-form").elements.name.focus(); return; }
    if (await this.isLibraryName(name)) {
      msg.textContent = `${name} is a library card: give yours its own name (say “${name} (variant)”) so the library's ${name} stays as printed.`;
      $("#custom-form").elements.name.focus();
      return;
    }
    const varying = this.varying;
    this.scenario.cards = (this.scenario.cards || []).filter((c) => c.name.toLowerCase() !== name.toLowerCase());
    this.scenario.cards.push(card);
    this.closeCustom();
    if (varying && this.selected) { this.replaceCard(name); return; }
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
  },

  async isLibraryName(name) {
    const url = new URL(this.urls.cards, window.location.href);
    url.searchParams.set("q", name);
    try {
      const cards = (await (await fetch(url, { headers: { Accept: "application/json" } })).json()).cards || [];
      return cards.some((c) => c.name.toLowerCase() === name.toLowerCase());
    } catch (err) { return false; }
  },

  // The card on the selected slot, as a card record to vary (the scenario's own, or the library's).
  async cardRecord(name) {
    const own = (this.scenario.cards || []).find((c) => c.name === name);
    if (own) return clone(own);
    const url = new URL(this.urls.cards, window.location.href);
    url.searchParams.set("full", name);
    const data = await (await fetch(url, { headers: { Accept: "application/json" } })).json();
    return data.card || null;
  },

  async varyCard() {
    const entry = this.entry(this.selected.ref, this.selected.kind);
    if (!entry || !entry.card) return;
    let base = await this.cardRecord(entry.card);
    if (!base) { $("#queue-msg").textContent = `No card named ${entry.card} to vary.`; return; }
    const of = VARIANT_OF.exec(base.origin || "");
    if (of) { const original = await this.cardRecord(of[1]); if (original) base = original; }
    this.nameTyped = false;
    this.openCustom(base.type, base);
    $("#slot-editor").hidden = true;
  },

  customEffect(f) {
    const rules = this.vocab.card_form[f.type.value];
    const effect = { kind: rules.kinds.includes(f.e_kind.value) ? f.e_kind.value : rules.kinds[0] };
    const statics = effect.kind === "static";
    if (rules.fast === "always") effect.fast = true;       // Ambushes are Fast (10.4)
    else if (f.e_fast.checked && !statics) effect.fast = true;
    if (f.e_limit.value.trim() && !statics) effect.limit = f.e_limit.value.trim();
    if (["timing", "instant"].includes(effect.kind) && f.e_trigger.value) effect.trigger = f.e_trigger.value;
    const cond = f.e_condition.value;
    if (cond === "line_max") effect.condition = { line: { max: Number(f.e_line.value) || 1 } };
    else if (cond) effect.condition = { [cond]: true };
    if (f.e_target.value && !statics) {
      const [what, side, extra] = f.e_target.value.split(":");
      const selector = { [what]: side };
      if (what === "soul") selector.lines = extra;
      if (extra === "naming") selector.naming = "front";
      effect.targets = [selector];
    }
    const costN = Math.max(0, Number(f.e_cost_n.value) || 0);
    if (f.e_cost.value === "discard" && !statics) effect.cost = [{ discard: costN }];
    // HP comes in steps of 5; who pays is the card's own payer (an Event's Caster, an Ambush's Ambusher)
    if (f.e_cost.value === "pay_hp" && !statics) effect.cost = [{ pay_hp: costN, by: rules.payer }];
    const action = this.customPart(f);
    if (statics) {   // a Static effect gains or grants while it is in force: no duration (11.2)
      delete action.until;
      Object.assign(effect, action);
    } else effect.do = [action];
    return effect;
  },

  // A keyword as a grant writes it: bare, or with the value the form gives it (contract §3's table).
  grantedKeyword(f, n) {
    const keyword = f.e_do_kw.value;
    if (keyword === "defiance") return { defiance: n };
    if (keyword === "moral") return { moral: { [f.e_do_stat.value]: n } };
    if (keyword === "berserk") return { berserk: [{ gain: { atk: n }, to: "self", until: "permanently" }] };
    if (keyword === "reinforcement") {
      return { reinforcement: { targets: [{ soul: "own", lines: "any" }], do: [{ heal: n, to: "target" }] } };
    }
    return keyword;
  },

  // One part of the effect's `do:`, built from the part's keys in the engine's vocabulary: "damage"
  // takes an amount and a reference, "gain_atk" is the part "gain" with the stat "atk", and so on.
  customPart(f) {
    const choice = f.e_do.value;
    const parts = this.vocab.effect_parts;
    const spec = parts.find((p) => p.part === choice) || parts.find((p) => choice.startsWith(`${p.part}_`));
    const stat = choice.slice(spec.part.length + 1);
    const n = Math.max(0, Number(f.e_do_n.value) || 0);
    const values = {
      amount: n, count: Math.max(1, n), ref: f.e_do_to.value, stats: { [stat]: n },
      duration: f.e_until.value, who: "opponent", keyword: this.grantedKeyword(f, n),
    };
    const part = {};
    for (const key of spec.keys) if (key.kind in values) part[key.key] = values[key.kind];
    return part;
  },
};

// {defiance: 10} → "Defiance 10"; {moral: {atk: 5}} → "Moral +5 ATK" (as the board writes them).
function keywordLabel(k) {
  const [name, value] = Object.entries(k)[0] || ["?", null];
  const label = name.replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase());
  if (value && typeof value === "object" && !Object.values(value).every((n) => typeof n === "number")) return label;  // Reinforcement
  if (value && typeof value === "object") return `${label} ${Object.entries(value).map(([s, v]) => `+${v} ${s.toUpperCase()}`).join(" ")}`;
  return typeof value === "number" ? `${label} ${value}` : label;
}
