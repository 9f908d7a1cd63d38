// The effects of a card in the custom-card form, in words and editable part by part: a variant of a library
// card ("Harold (changed effects)") starts from the card's own effects (and its keywords that carry an
// effect, as Reinforcement), each effect and each part removable, each part's fields as the effect builder
// shows them, and a part addable. What is not touched is kept as it was, key for key.
// Methods of the Desk (desk.js mixes them in).
"use strict";

const EffectsEditor = {
  // The card's effects and its keywords with an effect of their own, as a draft the form edits.
  draftEffects(card) {
    const valued = (k) => k && typeof k === "object" && !("defiance" in k) && !("moral" in k);
    this.effectsDraft = {
      effects: clone((card && card.effects) || []),
      keywords: clone(((card && card.keywords) || []).filter(valued)),
    };
    this.effectsBase = JSON.stringify(this.effectsDraft);
    this.showEffects();
  },

  effectsChanged() { return Boolean(this.effectsDraft) && JSON.stringify(this.effectsDraft) !== this.effectsBase; },

  partSpec(part) {
    if (!part || typeof part !== "object") return null;
    return this.vocab.effect_parts.find((p) => p.part in part) || null;
  },

  // A value in words: a reference, a duration, a keyword, stats.
  valueWords(kind, value) {
    const v = this.vocab;
    if (value === undefined) return "…";
    if (kind === "ref") return v.reference_words[value] || String(value);
    if (kind === "duration") return v.duration_words[value] || String(value);
    if (kind === "keyword") return typeof value === "string" ? v.keyword_words[value] || value : keywordLabel(value);
    if (kind === "stats") return Object.entries(value || {}).map(([s, n]) => `+${n} ${s.toUpperCase()}`).join(" ");
    if (kind === "count") return `${value} card${value === 1 ? "" : "s"}`;
    if (kind === "who") return value === "self" ? "its controller" : "the opponent";
    if (kind === "parts") return (value || []).map((p) => this.partWords(p)).join(" and ");
    return typeof value === "object" ? JSON.stringify(value) : String(value);
  },

  partWords(part) {
    const spec = this.partSpec(part);
    if (!spec) return JSON.stringify(part);
    let words = spec.words.replace(" (the opponent unless who: self)", "");
    for (const key of spec.keys) {
      const value = part[key.key];
      if (value === undefined && !key.required) { words = words.replace(new RegExp(`,? ?(until |else )?\\{${key.field}\\}`), ""); continue; }
      words = words.replace(`{${key.field}}`, this.valueWords(key.kind, value));
    }
    return words;
  },

  effectTitle(effect, i, keyword) {
    if (keyword) return `Keyword ${this.vocab.keyword_words[keyword] || keyword.replace(/_/g, " ")}`;
    const bits = [`Effect ${i + 1}: ${effect.kind || "activated"}`];
    if (effect.fast) bits.push("Fast");
    if (effect.trigger) {   // in the type's own words: "when the Ambusher is targeted by an opposing effect"
      const own = (this.vocab.card_form[$("#custom-form").elements.type.value] || {}).trigger_words || {};
      bits.push(own[effect.trigger] || this.vocab.trigger_words[effect.trigger] || effect.trigger);
    }
    if (effect.limit) bits.push(effect.limit);
    return bits.join(", ");
  },

  showEffects() {
    const box = $("#effects-kept");
    if (!box) return;
    const d = this.effectsDraft || { effects: [], keywords: [] };
    box.replaceChildren();
    box.hidden = !d.effects.length && !d.keywords.length;
    d.effects.forEach((effect, i) => box.append(this.effectBlock(effect, ["effects", i], this.effectTitle(effect, i))));
    d.keywords.forEach((k, i) => {
      const [name, body] = Object.entries(k)[0] || ["?", {}];
      box.append(this.effectBlock(body && typeof body === "object" ? body : {}, ["keywords", i, name], this.effectTitle(body, i, name)));
    });
  },

  // One effect: its title, its parts (the `do:` list, or the static effect's own part), add and remove.
  effectBlock(effect, path, title) {
    const set = el("fieldset", { className: "kept-effect" });
    set.append(el("legend", {}, title));
    const remove = el("button", { type: "button", className: "effect-remove" }, path[0] === "keywords" ? `Remove ${title.replace(/^Keyword /, "")}` : `Remove effect ${path[1] + 1}`);
    remove.dataset.remove = JSON.stringify(path.slice(0, 2));
    if (Array.isArray(effect.do)) {
      set.append(this.partsList(effect.do, [...path, "do"]));
      set.append(this.addPartControl([...path, "do"]));
    } else if (this.partSpec(effect)) {
      set.append(this.partsList([effect], path, true));
    }
    set.append(remove);
    return set;
  },

  partsList(parts, path, itself = false) {
    const list = el("ul", { className: "kept-parts" });
    parts.forEach((part, j) => {
      const here = itself ? path : [...path, j];
      const item = el("li", {});
      item.append(el("span", { className: "part-words" }, this.partWords(part)));
      const spec = this.partSpec(part);
      for (const key of spec ? spec.keys : []) {
        const field = this.partField(key, part[key.key], [...here, key.key]);
        if (field) item.append(field);
      }
      if (!itself) {
        const remove = el("button", { type: "button", className: "part-remove" }, "Remove this part");
        remove.dataset.remove = JSON.stringify(here);
        item.append(remove);
      }
      list.append(item);
    });
    return list;
  },

  // The fields a part's key takes, as the effect builder shows them; other kinds stay in words.
  partField(key, value, path) {
    const v = this.vocab;
    const input = (label, val, step, sub = []) => {
      const box = el("input", { type: "number", min: "0", step, value: String(val) });
      box.dataset.path = JSON.stringify([...path, ...sub]);
      box.dataset.num = "1";
      const wrap = el("label", {}, `${label} `);
      wrap.append(box);
      return wrap;
    };
    const select = (label, options, val, optional) => {
      const box = el("select", {});
      if (optional) box.append(el("option", { value: "" }, "(none)"));
      const values = options.map(([o]) => o);
      if (val !== undefined && !values.includes(val)) options = [[val, String(val)], ...options];
      for (const [o, words] of options) box.append(el("option", { value: o }, words));
      box.value = val === undefined ? "" : val;
      box.dataset.path = JSON.stringify(path);
      const wrap = el("label", {}, `${label} `);
      wrap.append(box);
      return wrap;
    };
    if (key.kind === "amount") return input("Amount", value ?? 0, "5");
    if (key.kind === "count") return input("Cards", value ?? 1, "1");
    if (key.kind === "ref") {
      const refs = ["target", "target2", ...v.references.single, ...v.references.groups];
      return select(key.key === "to" || key.key === "on" ? "Acts on" : "Whom", refs.map((r) => [r, v.reference_words[r] || r]), value, false);
    }
    if (key.kind === "duration") return select("Until", v.durations.map((d) => [d, v.duration_words[d] || d]), value, !key.required);
    if (key.kind === "who") return select("Who", [["opponent", "the opponent"], ["self", "its controller"]], value, true);
    if (key.kind === "keyword") {
      if (typeof value === "string") return select("Keyword", v.keywords.bare.map((k) => [k, v.keyword_words[k] || k]), value, false);
      const [name, n] = Object.entries(value || {})[0] || [];
      if (typeof n === "number") return input(keywordLabel({ [name]: 0 }).replace(/ 0$/, ""), n, "5", [name]);
      return null;
    }
    if (key.kind === "stats") {
      const wrap = el("span", { className: "part-stats" });
      for (const [s, n] of Object.entries(value || {})) wrap.append(input(s.toUpperCase(), n, "5", [s]));
      return wrap;
    }
    if (key.kind === "parts" && Array.isArray(value)) {
      const wrap = el("div", { className: "part-nested" });
      wrap.append(el("span", { className: "muted" }, key.key === "then" ? "then:" : "else:"), this.partsList(value, path), this.addPartControl(path));
      return wrap;
    }
    return null;  // a slot, a condition, an enlist or battle spec: kept as written, in the part's words
  },

  addPartControl(path) {
    const wrap = el("span", { className: "part-add" });
    const choose = $("#custom-form").elements.e_do.cloneNode(true);
    choose.removeAttribute("name");
    choose.setAttribute("aria-label", "A part to add");
    const add = el("button", { type: "button" }, "Add a part");
    add.dataset.add = JSON.stringify(path);
    wrap.append(choose, add);
    return wrap;
  },

  // A new part with the builder's defaults: "gain_atk" is the part "gain" with +10 ATK.
  newPart(choice) {
    const parts = this.vocab.effect_parts;
    const spec = parts.find((p) => p.part === choice) || parts.find((p) => choice.startsWith(`${p.part}_`));
    const stat = choice.slice(spec.part.length + 1);
    const values = { amount: 10, count: 1, ref: "target", stats: { [stat]: 10 }, keyword: this.vocab.keywords.bare[0] };
    const part = {};
    for (const key of spec.keys) if (key.required && key.kind in values) part[key.key] = values[key.kind];
    return part;
  },

  bindEffects() {
    const box = $("#effects-kept");
    const at = (path) => path.slice(0, -1).reduce((o, k) => o[k], this.effectsDraft);
    box.addEventListener("input", (e) => this.editEffect(e, at));
    box.addEventListener("change", (e) => this.editEffect(e, at));
    box.addEventListener("click", (e) => {
      const button = e.target.closest("button");
      if (!button) return;
      if (button.dataset.remove) {
        const path = JSON.parse(button.dataset.remove);
        const holder = at(path);
        if (Array.isArray(holder)) holder.splice(path[path.length - 1], 1); else delete holder[path[path.length - 1]];
      } else if (button.dataset.add) {
        const path = JSON.parse(button.dataset.add);
        at([...path, 0]).push(this.newPart(button.previousElementSibling.value));
      } else return;
      this.showEffects();
      const form = $("#custom-form");
      if (this.varying && !this.nameTyped) form.elements.name.value = this.variantName(this.varying);
    });
  },

  editEffect(e, at) {
    const field = e.target;
    if (!field.dataset || !field.dataset.path) return;
    const path = JSON.parse(field.dataset.path);
    const holder = at(path);
    const key = path[path.length - 1];
    if (field.dataset.num) holder[key] = Math.max(0, Number(field.value) || 0);
    else if (field.value === "") delete holder[key];
    else holder[key] = field.value;
    const words = field.closest("li") && field.closest("li").querySelector(".part-words");
    const partPath = field.closest("li") ? JSON.parse(field.dataset.path) : null;
    if (words && partPath) {
      // the part is the object holding this key (or the keyword's object one level up)
      let part = holder;
      if (!this.partSpec(part)) part = at(path.slice(0, -1));
      words.textContent = this.partWords(part);
    }
  },
};
