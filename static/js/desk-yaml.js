// The desk's YAML editor and sharing: the user's text is never replaced by ours while it is theirs; an
// error is shown once, under the editor, with its line marked; Share asks for a title and a question.
// Methods of the Desk.
"use strict";

const YamlAndShare = {
  yamlErrorLine() {
    const m = /line (\d+)/.exec($("#yaml-problems").textContent);
    return m ? Number(m[1]) : null;
  },

  showYamlLine(line) {
    const text = $("#yaml-text").value;
    const backdrop = $("#yaml-backdrop");
    backdrop.replaceChildren();
    if (!line) return;
    text.split("\n").forEach((row, i) => {
      backdrop.append(i + 1 === line ? el("mark", { className: "bad-line" }, `${row || " "}`) : `${row}`, "\n");
    });
    backdrop.scrollTop = $("#yaml-text").scrollTop;
  },

  focusYamlLine(line) {
    const area = $("#yaml-text");
    const rows = area.value.split("\n");
    const start = rows.slice(0, line - 1).reduce((n, r) => n + r.length + 1, 0);
    area.focus();
    area.setSelectionRange(start, start + (rows[line - 1] || "").length);
    const lineHeight = parseFloat(getComputedStyle(area).lineHeight) || 20;
    area.scrollTop = Math.max(0, (line - 3) * lineHeight);
  },

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
    this.insertAt = null;
    this.yamlDirty = false;
    this.closeEditor();
    this.fillSettings();
    this.changed();
    await this.refresh();
    return !(data.problems || []).length;
  },

  fixYamlCard(problem) {
    const area = $("#yaml-text");
    area.value = area.value.split(problem.card).join(problem.suggest);
    this.yamlDirty = true;
    this.checkYaml(true);
  },

  async resolveYaml() {
    if (await this.checkYaml(true)) await this.resolve();
  },

  openShare() {
    const dialog = $("#share-dialog");
    const words = this.words.filter(Boolean);
    $("#share-name").value = this.scenario.title || (words.length ? `${words[0]}${words.length > 1 ? ", and an answer" : ""}` : "A position");
    const asked = this.askControl ? this.askControl.words() : "";  // "What do you want to know?" (desk-ask.js)
    $("#share-question").value = this.scenario.question || (asked && words.length ? `${words.join("; then ")}. ${asked}` : asked)
      || (words.length ? `${words.join("; then ")}. What happens?` : "What is legal here?");
    $("#share-msg").textContent = "";
    dialog.showModal();
    $("#share-name").select();
  },

  async share() {
    if (this.yamlDirty && !(await this.checkYaml(false))) {
      $("#share-msg").textContent = "The YAML in the editor has problems (shown under it); fix them or load the desk's own.";
      return;
    }
    this.setText("title", $("#share-name").value);
    this.setText("question", $("#share-question").value);
    if (this.askControl) this.askControl.settle();
    await this.refresh();
    this.keep();
    const form = $("#yaml-form");
    form.action = $("#share").getAttribute("formaction");
    HTMLFormElement.prototype.submit.call(form);
  },

  async copyYaml() {
    const text = $("#yaml-text").value;
    const button = $("#yaml-copy");
    try { await navigator.clipboard.writeText(text); button.textContent = "Copied"; }
    catch (err) { $("#yaml-text").select(); document.execCommand("copy"); button.textContent = "Selected"; }
    setTimeout(() => { button.textContent = "Copy"; }, 1500);
  },

  downloadYaml() {
    const blob = new Blob([$("#yaml-text").value], { type: "application/yaml" });
    const link = el("a", { href: URL.createObjectURL(blob) });
    link.download = `${(this.scenario.id || this.scenario.title || "scenario").toString().replace(/[^\w-]+/g, "-").slice(0, 60) || "scenario"}.yaml`;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  },
};
