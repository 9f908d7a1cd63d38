"""docs/scenario-format.md is the whole format reference: it names every verb and key, effect part,
keyword, trigger and reference the engine accepts (read from the engine's own tables), every verb it
lists is one the engine knows, and, when the shared specification is checked out beside the project,
nothing of the contract is missing from it."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from judge import ROOT
from judge.engine.data import cards, parts
from judge.engine.driver import scenario, verbs

DOC = ROOT / "docs" / "scenario-format.md"

# The engine's vocabularies, read through their public names. When the engine reshape moves one,
# change its line here.
VERB_KEYS: dict[str, tuple[str, ...]] = {v.name: v.keys for v in verbs.VERBS.values()}  # verb -> its keys
TOP_KEYS: tuple[str, ...] = tuple(scenario.TOP_KEYS)
EFFECT_PARTS: dict[str, dict[str, bool]] = {  # part -> {key: required}
    name: {k.written: k.required for k in part.FORM if k.written != name}
    for name, part in parts.PARTS.items()}
KEYWORDS: tuple[str, ...] = tuple(cards.KEYWORDS)
TRIGGERS: tuple[str, ...] = tuple(cards.TRIGGERS)
REFERENCES: tuple[str, ...] = (*cards.SINGLE_REFS, *cards.GROUP_REFS)
EFFECT_KINDS: tuple[str, ...] = tuple(cards.EFFECT_KINDS)
DURATIONS: tuple[str, ...] = tuple(cards.DURATIONS)


def _contract() -> Path | None:
    """The shared contract, when checked out: $JUDGE_SHARED_SPEC, ../shared/spec or /work/shared/spec."""
    candidates = [os.environ.get("JUDGE_SHARED_SPEC", ""), ROOT.parent / "shared" / "spec",
                  Path("/work/shared/spec")]
    for folder in candidates:
        if folder and (Path(folder) / "scenario-format.md").is_file():
            return Path(folder) / "scenario-format.md"
    return None


def code_spans(text: str) -> list[str]:
    """Every `inline code` span and every line of a fenced block."""
    spans = re.findall(r"`([^`\n]+)`", re.sub(r"```.*?```", "", text, flags=re.DOTALL))
    for block in re.findall(r"```[a-z]*\n(.*?)```", text, flags=re.DOTALL):
        spans += block.splitlines()
    return spans


def headings(text: str) -> list[str]:
    body = re.sub(r"```.*?```", "", text, flags=re.DOTALL)
    return [line.lstrip("#").strip() for line in body.splitlines() if re.match(r"#{1,6} ", line)]


def table_rows(text: str, heading: str) -> list[list[str]]:
    """The rows (cells stripped, header and rule left out) of the first table under `heading`."""
    section = text.split(heading, 1)[1]
    rows = []
    for line in section.splitlines()[1:]:
        if line.startswith("#"):
            break
        if line.startswith("|") and not set(line) <= set("|- "):
            rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows[1:]


def verb_forms(text: str) -> dict[str, str]:
    """The actions table of the format: verb -> its written form."""
    return {row[0]: row[1] for row in table_rows(text, "## 4. Actions")}


OURS = "## Verbs of our own"


def all_verb_forms(text: str) -> dict[str, str]:
    """The contract's actions table and ours (our additions): verb -> its written form."""
    return {**verb_forms(text), **{row[0]: row[1] for row in table_rows(text, OURS)}}


@pytest.fixture(scope="module")
def doc() -> str:
    return DOC.read_text(encoding="utf-8")


@pytest.mark.parametrize("verb", sorted(VERB_KEYS))
def test_every_verb_is_in_the_actions_table_with_its_keys(doc, verb):
    forms = all_verb_forms(doc)
    assert verb in forms, f"the verb {verb!r} is not in the actions table of {DOC.name}"
    for key in VERB_KEYS[verb]:
        assert f"{key}:" in forms[verb], f"{verb}'s key {key!r} is not in its form {forms[verb]}"


def test_every_verb_of_the_actions_table_is_one_the_engine_knows(doc):
    forms = all_verb_forms(doc)
    assert len(forms) >= 11
    assert set(forms) <= set(VERB_KEYS), set(forms) - set(VERB_KEYS)
    for verb, form in forms.items():
        assert f"{{{verb}:" in form, f"the form of {verb} does not start with {{{verb}: …}}"


@pytest.mark.parametrize("part", sorted(EFFECT_PARTS))
def test_every_effect_part_is_written_with_its_required_keys(doc, part):
    forms = [s for s in code_spans(doc) if s.startswith(f"{{{part}:")]
    assert forms, f"no `{{{part}: …}}` form in {DOC.name}"
    required = [key for key, needed in EFFECT_PARTS[part].items() if needed]
    assert any(all(f"{key}:" in form for key in required) for form in forms), (part, required, forms)


def test_every_effect_part_written_in_the_actions_list_is_one_the_engine_knows(doc):
    section = doc.split("**Actions** in `do`", 1)[1].split("**Costs**", 1)[0]
    written = set(re.findall(r"`\{(\w+):", section))
    assert len(written) >= 10
    assert written <= set(EFFECT_PARTS), written - set(EFFECT_PARTS)


@pytest.mark.parametrize("name", sorted({*KEYWORDS, *TRIGGERS, *REFERENCES, *EFFECT_KINDS, *DURATIONS}))
def test_every_keyword_trigger_reference_kind_and_duration_is_named(doc, name):
    spans = code_spans(doc)
    assert any(re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", span) for span in spans), (
        f"{name!r} is not named in code in {DOC.name}")


@pytest.mark.parametrize("key", TOP_KEYS)
def test_every_top_level_key_is_named(doc, key):
    written = f"`{key}`" in doc or any(re.match(rf"\s*{key}:", span) for span in code_spans(doc))
    assert written, f"the top-level key {key!r} is not in {DOC.name}"


def test_the_readme_points_at_the_reference_in_the_repo():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "docs/scenario-format.md" in readme
    assert "../shared" not in readme


# --- against the shared contract, when it is checked out ---------------------------------------------

@pytest.fixture(scope="module")
def contract() -> str:
    path = _contract()
    if path is None:
        pytest.skip("the shared specification is not checked out beside the project")
    return path.read_text(encoding="utf-8")


def test_every_heading_of_the_contract_is_a_heading_here(doc, contract):
    ours = set(headings(doc))
    missing = [h for h in headings(contract) if h not in ours]
    assert missing == []


def test_every_verb_and_key_of_the_contract_is_here(doc, contract):
    ours = verb_forms(doc)
    for verb, form in verb_forms(contract).items():
        assert verb in ours, verb
        keys = re.findall(r"(\w+):", form)
        assert all(f"{key}:" in ours[verb] for key in keys), (verb, keys, ours[verb])
    our_spans = set(code_spans(doc))
    missing = [span for span in code_spans(contract) if span not in our_spans]
    assert missing == [], "code of the contract that is not in ours"


def _words(text: str) -> list[str]:
    return text.split()


def test_the_contracts_part_is_the_contract_unchanged(doc, contract):
    """Our verbs, keys and keywords go in "Our additions", never into the contract's copy."""
    ours = doc.split("# Scenario format v1", 1)[1].split("# Our additions and choices", 1)[0]
    theirs = contract.split("# Scenario format v1", 1)[1]
    assert _words(ours) == _words(theirs)
    assert OURS in doc.split("# Our additions and choices", 1)[1]


def test_the_checks_fail_on_a_reference_that_lost_a_verb_and_a_heading(contract):
    """The same checks, fed a copy of the contract without `invoke` and without §6, find both."""
    cut = contract.replace("| invoke | `{invoke: Sunken Temple, to: realm2}` |\n", "")
    cut = cut.replace("## 6. Expectations", "")
    assert "invoke" in verb_forms(contract) and "invoke" not in verb_forms(cut)
    assert "6. Expectations" in headings(contract) and "6. Expectations" not in headings(cut)
    missing = [span for span in code_spans(contract) if span not in set(code_spans(cut))]
    assert "{invoke: Sunken Temple, to: realm2}" in missing
