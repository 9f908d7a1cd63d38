// The desk's turn, question, piles and queue: hands, decks, Elysium and Exile as chips filled from the
// card picker, and what can happen next, grouped by player, one click to queue. Methods of the Desk.
"use strict";

const PILES = ["hand", "deck", "elysium", "exile"];
const TURN_CHOICES = 10;   // B's 1st turn … A's 5th turn: past a player's 4th turn every slot is proactive

function ordinal(n) { return `${n}${n % 10 === 1 && n !== 11 ? "st" : n % 10 === 2 && n !== 12 ? "nd" : n % 10 === 3 && n !== 13 ? "rd" : "th"}`; }
const PILE_WORDS = { hand: "Hand", deck: "Deck", elysium: "Elysium", exile: "Exile" };

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

const QueueAndPiles = {
  setText(key, value) {
    if (value.trim()) this.scenario[key] = value.trim(); else delete this.scenario[key];
    this.keepSoon();
    this.refreshSoon();
  },

  fillSettings() {
    $("#s-title").value = this.scenario.title || "";
    $("#s-question").value = this.scenario.question || "";
    $("#s-turn-player").value = this.state.turn_player || "A";
    const setup = this.state.phase === "setup";
    $("#s-phase").value = this.state.phase || "preparation";
    $("#s-turn").value = this.state.turn ?? 9;
    $("#s-turn").disabled = setup;                 // turn 0: before the first turn
    $("#s-round-label").hidden = !setup;
    $("#s-round").value = this.state.round || 1;
    for (const input of $$(".turns-taken")) input.value = this.player(input.dataset.player).turns_taken ?? "";
    this.fillTurnWords();
    this.renderTurn();
    this.renderPiles();
  },

  // "B's 1st turn (turn 1)", "A's 1st turn (turn 2)", …: turn 1 is B's (interpretation/setup-rounds), so
  // A's k-th turn is turn 2k (B has taken k turns) and B's k-th is turn 2k − 1 (A has taken k − 1). The
  // position's own turn stays listed as it is when it fits none of them.
  fillTurnWords() {
    const box = $("#s-turn-words");
    const state = this.state;
    const who = state.turn_player || "A";
    const taken = (p) => this.player(p).turns_taken ?? 5;
    const options = [];
    for (let turn = 1; turn <= TURN_CHOICES; turn++) {
      const p = turn % 2 ? "B" : "A";
      const k = Math.ceil(turn / 2);
      options.push({ value: `${p}:${k}`, text: `${p}'s ${ordinal(k)} turn (turn ${turn})` });
    }
    const current = `${who}:${taken(who)}`;
    const fits = options.find((o) => o.value === current)
      && this.turnFor(who, taken(who)).turn === (state.turn ?? 9)
      && taken(who === "A" ? "B" : "A") === this.turnFor(who, taken(who)).other;
    box.replaceChildren(...options.map((o) => el("option", { value: o.value }, o.text)));
    if (state.phase === "setup") box.prepend(el("option", { value: "setup" }, "Before the first turn (setup)"));
    else if (!fits) {
      box.prepend(el("option", { value: "as-is" },
        `${who}'s turn: turn ${state.turn ?? 9}, A has taken ${taken("A")} turns, B ${taken("B")}`));
    }
    box.value = state.phase === "setup" ? "setup" : fits ? current : "as-is";
    box.disabled = state.phase === "setup";
  },

  turnFor(player, k) {
    return player === "A" ? { turn: 2 * k, other: k } : { turn: 2 * k - 1, other: k - 1 };
  },

  // One choice sets the turn, the turn player and both players' turns taken, consistently.
  setTurnWords(value) {
    const [player, k] = value.split(":");
    if (!k) return;
    const { turn, other } = this.turnFor(player, Number(k));
    this.state.turn_player = player;
    this.state.turn = turn;
    this.player(player).turns_taken = Number(k);
    this.player(player === "A" ? "B" : "A").turns_taken = other;
    this.fillSettings();
    this.changed();
  },

  // Which slots are proactive now for each player, and why (glossary Escalation Spiral, Proactive;
  // interpretation/escalation-spiral): t = the player's turns taken, the current one included if theirs.
  spiralWords() {
    if (this.state.phase === "setup") return "Setup: no turn has begun, so no slot is proactive yet (recruiting is never limited).";
    const said = ["A", "B"].map((p) => {
      const t = this.player(p).turns_taken ?? 5;
      const chosen = (this.player(p).proactive || []).join(", ");
      const whose = `${p} (${t} turn${t === 1 ? "" : "s"} taken)`;
      if (t >= 4) return `${whose}: every slot, from a player's 4th turn on`;
      if (t <= 0) return `${whose}: none yet`;
      const below = t - 1 ? `every slot of rank below ${t - 1}, plus ` : "";
      const when = p === (this.state.turn_player || "A") ? "wakes by choice this turn" : "woke by choice in their last turn";
      return `${whose}: ${below}the one rank-${t - 1} slot ${p} ${when} (${chosen || "none chosen yet: tick “Woken by choice” on the slot"})`;
    });
    return `Proactive slots — ${said.join("; ")}. In a player's first four turns only Souls on proactive slots attack, cast, set Ambushes, are equipped and use Activated Effects (Escalation Spiral).`;
  },

  renderTurn() {
    $("#spiral-why").textContent = this.spiralWords();
    const who = this.state.turn_player || "A";
    const other = who === "A" ? "B" : "A";
    $("#turn-why").textContent = this.state.phase === "setup"
      ? `Setup: the players recruit in turns; ${who} recruits now, ${other} after ${who} ends the round.`
      : `${who} is the turn player, so ${who}'s actions are offered now; outside a response window only the turn player acts. `
        + `${other}'s are offered in answer to ${who}'s (a response window) and, as the turn player, once ${who}'s turn ends, each saying when. `
        + `Change whose turn it is (above) only to start the position in ${other}'s turn.`;
    document.title = this.state.phase === "setup"
      ? `Desk: setup, ${who}'s recruiting round ${this.state.round || 1} · Codex Judge`
      : `Desk: turn ${this.state.turn ?? 9}, ${who}'s ${PHASE_WORDS[this.state.phase || "preparation"]} · Codex Judge`;
  },

  // The setup (contract §2): phase setup goes with turn 0 and a recruiting round; leaving it, turn 1.
  setPhase(phase) {
    const state = this.state;
    const leavingSetup = state.phase === "setup" && phase !== "setup";
    if (phase === "setup") {
      state.turn = 0;
      state.round = state.round || 1;
      for (const p of ["A", "B"]) delete this.player(p).turns_taken;   // nobody has taken a turn yet
    } else if (leavingSetup || !state.turn) {
      delete state.round;
      state.turn = 1;                                                  // the first turn
      for (const p of ["A", "B"]) this.player(p).turns_taken = p === (state.turn_player || "A") ? 1 : 0;
    }
    state.phase = phase;
    this.fillSettings();
    this.changed();
  },

  renderPiles() {
    const box = $("#piles");
    box.replaceChildren();
    for (const p of ["A", "B"]) {
      const row = el("div", { className: `pile-row player-${p}`, role: "group", ariaLabel: `Player ${p}'s piles` },
        el("strong", { className: "pile-player" }, `${p}${(this.state.turn_player || "A") === p ? " (turn)" : ""}`));
      for (const pile of PILES) row.append(this.pileBox(p, pile));
      box.append(row);
    }
  },

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
      const wrong = this.problemPaths && this.problemPaths.has(`state.players.${p}.${pile}[${i}]`);
      box.append(el("span", { className: wrong ? "chip has-problem" : "chip", title: wrong ? "See “Fix these first”, beside the board" : "" }, name, remove));
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
  },

  addToPile(p, pile, name) {
    const parts = pileParts(this.player(p)[pile]);
    parts.names.push(name);
    this.player(p)[pile] = pileValue(parts);
    this.changed();
  },

  renderQueue() {
    const list = $("#queue");
    list.replaceChildren();
    this.actions.forEach((action, index) => {
      const by = action.by || this.state.turn_player || "A";  // until the server's words arrive
      const words = this.words[index] || (action.end_phase ? `${by} ends the phase` : action.pass ? `${by} passes` : `${by}'s action ${index + 1}`);
      const buttons = el("span", { className: "q-buttons" });
      for (const [label, title, fn] of [["+ before", "What could happen before this", () => this.offerAt(index)],
        ["↑", "Move up", () => this.moveAction(index, -1)],
        ["↓", "Move down", () => this.moveAction(index, 1)], ["✕", "Delete", () => this.deleteAction(index)]]) {
        const button = el("button", { type: "button", title: `${title}: ${words}`, ariaLabel: `${title}: ${words}` }, label);
        button.addEventListener("click", fn);
        buttons.append(" ", button);
      }
      const li = el("li", { id: `queued-${index}` }, el("span", { className: "action-text" }, words), buttons);
      if (this.insertAt === index) li.classList.add("insert-before");
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
  },

  // Where an offered action goes: the end of the queue, or before the queued action `insertAt`.
  offerAt(index) {
    this.insertAt = index === null || index >= this.actions.length ? null : index;
    this.renderQueue();
    this.renderNextTitle();
    $("#next-actions").setAttribute("aria-busy", "true");
    this.loadLegal();
    $("#next-actions").focus();
  },

  renderNextTitle() {
    const title = $("#next-title");
    const back = $("#offer-end");
    if (this.insertAt === null || this.insertAt === undefined) {
      title.firstChild.textContent = "What can happen next ";
      back.hidden = true;
      return;
    }
    const words = this.words[this.insertAt] || `action ${this.insertAt + 1}`;
    title.firstChild.textContent = `What can happen before “${words}” `;
    back.hidden = false;
  },

  moveAction(index, by) {
    const to = index + by;
    if (to < 0 || to >= this.actions.length) return;
    const [item] = this.actions.splice(index, 1);
    this.actions.splice(to, 0, item);
    const [words] = this.words.splice(index, 1);   // the words go with their action until the redraw
    this.words.splice(to, 0, words);
    this.insertAt = null;
    this.changed();
  },

  deleteAction(index) {
    this.actions.splice(index, 1);
    this.words.splice(index, 1);
    this.insertAt = null;
    this.changed();
  },

  queueOffered(item) {
    const queued = clone(item.queue || [item.action]);
    const at = this.insertAt ?? this.actions.length;
    this.actions.splice(at, 0, ...queued);
    this.words.splice(at, 0, ...queued.map((_, i) => (i === queued.length - 1 ? item.words : "")));
    if (this.insertAt !== null && this.insertAt !== undefined) this.insertAt += queued.length;  // the next one goes after it
    $("#queue-msg").textContent = `Queued: ${item.words}${at < this.actions.length - queued.length ? `, as action ${at + 1}` : ""}.`;
    this.changed();
  },

  async loadLegal(seq) {
    const box = $("#next-actions");
    const ticket = (this.legalSeq = (this.legalSeq || 0) + 1);
    const data = await postJSON(this.urls.legal, { scenario: this.scenario, after: this.insertAt ?? this.actions.length });
    // answers may arrive out of order: only the last asked is drawn, and none for a board being redrawn
    if (ticket !== this.legalSeq || (seq !== undefined && seq !== this.refreshSeq)) return;
    box.replaceChildren();
    box.removeAttribute("aria-busy");
    if (!data.ok) {
      if (this.rejected) {
        box.append(el("p", { className: "muted" }, "Fix or delete the action marked illegal to see what can happen after it."));
      } else this.offerNothing(data.error);
      return;
    }
    if (!data.groups.length) box.append(el("p", { className: "muted" }, "No player can act here: the queue ends the duel or the turn."));
    for (const group of data.groups) {
      const when = group.when === "now" ? "" : `, ${group.when}`;
      const list = el("ul", { className: "next-list" });
      for (const item of group.actions) {
        const button = el("button", { type: "button", className: "next-action" }, item.words);
        button.addEventListener("click", () => this.queueOffered(item));
        list.append(el("li", {}, button));
      }
      const aims = this.aimButtons(group);
      box.append(el("section", { className: `next-group player-${group.player}` },
        el("h4", {}, `Player ${group.player}${when}`), list, aims));
    }
    box.append(this.refusedBox());
  },

  // One click away from the legal actions: the same verbs with the choices that are refused now, each
  // saying why ("A's Noah (C3) attacks B's Harold (C3) — not legal now: Iron Sentinel has Taunt …"), to
  // queue and have ruled on like any other (a dispute is often about an action that may not be taken).
  refusedBox() {
    const list = el("ul", { className: "next-list refused-list" });
    const open = el("button", { type: "button", className: "link-button refused-open" },
      "Show the actions not legal here, and why");
    const box = el("section", { className: "refused-group" }, open, list);
    open.addEventListener("click", async () => {
      open.disabled = true;
      open.textContent = "Looking for the actions not legal here…";
      const data = await postJSON(this.urls.refused, { scenario: this.scenario, after: this.insertAt ?? this.actions.length });
      open.disabled = false;
      if (!data.ok) { open.textContent = `Can't list them now: ${data.error || "the position has problems"}`; return; }
      open.remove();
      list.before(el("h4", {}, data.refused.length ? "Not legal here (click to queue it and see the ruling)" : "Nothing offered here is refused"));
      for (const item of data.refused) {
        const button = el("button", { type: "button", className: "next-action refused" },
          el("span", {}, item.words), el("span", { className: "refused-why" }, ` — not legal now: ${item.why}`));
        button.addEventListener("click", () => this.queueOffered({ action: item.action, words: item.words }));
        list.append(el("li", {}, button));
      }
    });
    return box;
  },

  // Only legal targets are offered; "Aim … at another card" queues one the user clicks on the board, legal
  // or not, so the ruling says why it is refused (with its rules), as a judge asks "can it target Noah?".
  aimButtons(group) {
    const seen = new Set();
    const box = el("p", { className: "aim-buttons" });
    const playing = this.vocab.verbs.filter((v) => v.on_cascade).map((v) => v.verb);  // what may target
    for (const item of group.actions) {
      const action = item.action;
      const verb = playing.find((v) => typeof action[v] === "string");
      if (!verb || !Array.isArray(action.targets) || action.targets.length !== 1 || seen.has(`${verb}:${action[verb]}`)) continue;
      seen.add(`${verb}:${action[verb]}`);
      const button = el("button", { type: "button", className: "link-button aim-button" }, `Aim ${action[verb]} at another card…`);
      button.addEventListener("click", () => this.startAiming(item, action[verb], group.player));
      box.append(button, " ");
    }
    return box.childNodes.length ? box : null;
  },

  startAiming(item, name, player) {
    this.aiming = { item, name, player };
    this.closeEditor();
    $("#queue-msg").textContent = `Click the card on the board to aim ${name} at (${player}'s action; any card, even one not offered).`;
    this.root.classList.add("aiming");
    this.slotElement && $("#board").scrollIntoView({ block: "nearest" });
  },

  aimAt(ref) {
    const { item, name, player } = this.aiming;
    this.aiming = null;
    this.root.classList.remove("aiming");
    const queue = clone(item.queue || [item.action]);
    const action = queue[queue.length - 1];
    action.targets = [ref];
    const entry = this.entry(ref, /:realm\d/.test(ref) ? "realm" : "soul");
    this.queueOffered({ queue, words: `${player}'s ${name} at ${ref.replace(":", "'s ")}${entry && entry.card ? ` (${entry.card})` : ""}` });
  },

  offerNothing(error) {
    const box = $("#next-actions");
    box.removeAttribute("aria-busy");
    const fixable = !$("#problems-panel").hidden;
    box.replaceChildren(el("p", { className: "muted" }, fixable
      ? "Nothing can be offered until the problems listed under “Fix these first” are fixed."
      : `Nothing can be offered just now${error ? `: ${error}` : "."}`));
  },

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
  },
};
