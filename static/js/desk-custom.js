// The desk's custom cards: a card defined only in this scenario (its `cards:` list), made from a form.
// Methods of the Desk (desk.js mixes them in).
"use strict";

const CustomCards = {
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
  },

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
    for (const stat of this.vocab.stats) if (num(f[`moral_${stat}`])) moral[stat] = num(f[`moral_${stat}`]);
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
  },

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
    const action = this.customPart(f);
    const to = f.e_do_to.value;
    if (effect.kind === "static") Object.assign(effect, action.gain ? { gain: action.gain, to } : action);
    else effect.do = [action];
    return effect;
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
      amount: n, count: Math.max(1, Math.round(n / 5)), ref: f.e_do_to.value, stats: { [stat]: n },
      duration: f.e_until.value, who: "opponent",
    };
    const part = {};
    for (const key of spec.keys) if (key.kind in values) part[key.key] = values[key.kind];
    return part;
  },
};
