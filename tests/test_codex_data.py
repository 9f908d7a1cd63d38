"""The Codex as data: counts against the raw seeds, every seed sentence kept, chapter 11's numbers
landing where the other texts point, 13.6.4 empty, glossary names, validation."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from judge import CODEX_DIR
from judge.codex import load_codex
from judge.codex.book import Codex
from judge.codex.editions import editions

SOURCES = CODEX_DIR / "sources"
CH10 = (SOURCES / "004_ae8f84442393c71e.txt").read_text(encoding="utf-8")
CH11 = (SOURCES / "000_4863627476eb32f6.txt").read_text(encoding="utf-8")
CH13 = (SOURCES / "002_3be7a10c2938e637.txt").read_text(encoding="utf-8")
GLOSSARY = (SOURCES / "003_a5f3b3277b297574.txt").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def codex():
    return load_codex()


def kinds(codex, chapter: int, kind: str) -> list[str]:
    return [r.id for r in codex.rules.values() if r.chapter == chapter and r.kind == kind]


# --- counts per chapter, counted independently in the raw source ----------------------------------

@pytest.mark.parametrize(("chapter", "raw", "rule_re", "section_re", "item_re"), [
    (10, CH10, r"^\s*\d+\.\s+(10\.\d+\.\d+)\s*$", r"^(10\.\d+)[A-Z]", r"^\s+\d+\.\s+[a-z]"),
    (13, CH13, r"^- (13\.\d+\.\d+)\s*$", r"^(13\.\d+)[A-Z]", r"^- [a-z]"),
])
def test_numbered_chapters_have_the_seeds_rules_sections_and_sub_items(
    codex, chapter, raw, rule_re, section_re, item_re
):
    seed_rules = re.findall(rule_re, raw, re.MULTILINE)
    seed_sections = re.findall(section_re, raw, re.MULTILINE)
    assert kinds(codex, chapter, "rule") == seed_rules
    assert kinds(codex, chapter, "section") == seed_sections
    assert len(kinds(codex, chapter, "item")) == len(re.findall(item_re, raw, re.MULTILINE))
    seed_examples = len(re.findall(r"^\s*Example", raw, re.MULTILINE))
    assert sum(len(codex.rules[r].examples) for r in kinds(codex, chapter, "rule")) == seed_examples


def test_chapter_11_keeps_every_paragraph_as_one_rule(codex):
    lines = [line.strip() for line in CH11.splitlines() if line.strip()][1:]  # the first is the title
    paragraphs = [
        line for line in lines if not line.startswith("Example") and not re.match(r"\d+\. [a-d][A-Z]", line)
    ]
    rules = kinds(codex, 11, "rule")
    assert len(rules) == len(paragraphs) == 39
    assert [codex.rules[r].text for r in rules] == paragraphs
    assert kinds(codex, 11, "item") == ["11.6.1a", "11.6.1b", "11.6.1c", "11.6.1d"]


def test_glossary_has_every_seed_term(codex):
    lines = GLOSSARY.splitlines()
    seed_terms = []
    for before, line, after in zip(["", *lines], lines, [*lines[1:], ""], strict=False):
        # a term line: "- Term" or "- TermAlso: …", followed by its definition (not another "- " line),
        # and not the one line of names under "- See also"
        if line.startswith("- ") and not after.startswith("- ") and before != "- See also" \
                and not re.match(r"- [\d.]+$", line):
            seed_terms.append(line[2:].split("Also: ")[0])
    assert sorted(e.term for e in codex.glossary.values()) == sorted(seed_terms)
    assert len(seed_terms) == len(set(seed_terms)) == 87


# --- every sentence of the seeds is in codex/ -------------------------------------------------------

DEBRIS = re.compile(
    r"^(Loading the index…|Contents|CodexChapter \d+ of \d+Rules for game version [\d.]+|[A-Z]"
    r"|- See also|- Rules)$"
)


def seed_sentences(raw: str) -> list[str]:
    out = []
    for line in raw.splitlines():
        line = line.strip()
        if not line or DEBRIS.match(line):
            continue
        line = re.sub(r"^(\d+\.\s+|-\s+)", "", line)             # list markers
        line = re.sub(r"^[a-d](?=[A-Z])", "", line)               # "aAn effect…" (chapter 11's a–d)
        line = re.sub(r"^(Example|Note)(?=\S)", "", line)
        heading = re.match(r"^(\d+\.\d+)([A-Z].*)$", line)        # "10.1Souls"
        parts = [heading.group(1), heading.group(2)] if heading else [line]
        if "Also: " in line:                                       # "DEFAlso: Shield, Defence, Defense"
            term, aliases = line.split("Also: ", 1)
            parts = [term, *aliases.split(", ")]
        for part in parts:
            out.extend(s for s in re.split(r"(?<=[.!?])\s+", part) if s)
    return out


def corpus(codex: Codex) -> str:
    texts = []
    for rule in codex.rules.values():
        texts += [rule.id, rule.text, rule.intro, *(e.text for e in rule.examples), *rule.notes]
    for entry in codex.glossary.values():
        texts += [
            entry.term,
            *entry.aliases,
            entry.short,
            *entry.body,
            ", ".join(entry.see_also),
            *entry.rules,
        ]
    return "\n".join(" ".join(t.split()) for t in texts)


@pytest.mark.parametrize("raw", [CH10, CH11, CH13, GLOSSARY], ids=["ch10", "ch11", "ch13", "glossary"])
def test_every_seed_sentence_is_kept(codex, raw):
    text = corpus(codex)
    sentences = seed_sentences(raw)
    assert len(sentences) > 20
    missing = [s for s in sentences if " ".join(s.split()) not in text]
    assert missing == []


def test_page_debris_is_dropped(codex):
    text = corpus(codex)
    for debris in ("Loading the index", "CodexChapter", "Rules for game version", "Also:", "ExampleHead"):
        assert debris not in text
    assert codex.entry("DEF").aliases == ("Shield", "Defence", "Defense")


# --- chapter 11: the eight cited numbers land on the paragraph the citing text describes -------------

LANDINGS = [
    # (citing id, words of the citing sentence, cited id, words of the paragraph it must land on)
    (
        "13.6.2",
        "nor a Soul Spot whose target names the Soul on it",
        "11.4.5",
        "A Soul Spot target that names the Soul on it",
    ),
    (
        "10.2.4",
        "the cost is paid when it resolves",
        "11.5.1",
        "A Cost is paid just before the effect resolves",
    ),
    (
        "11.6.1d",
        "its cost can't be paid",
        "11.5.2",
        "If it can't be paid when the effect is about to resolve",
    ),
    (
        "11.3.2",
        "Cyber-Wormhole checks the Soul's HP only when it resolves, after the cost has been paid",
        "11.5.4",
        "Cyber-Wormhole pays its discard",
    ),
    (
        "glossary/fizzle",
        "An effect that can no longer resolve does nothing",
        "11.6.1",
        "An effect that can't fizzles",
    ),
    ("11.4.8", "the rest of the effect still happens", "11.6.3", "the other parts still happen"),
    (
        "11.4.8",
        "Unyielding is checked again",
        "11.6.4",
        "Protection is checked again when the effect resolves",
    ),
    (
        "11.8.2",
        "Its condition and its requirements are checked in that moment",
        "11.3.3",
        "whose condition is not met when its trigger occurs does not trigger",
    ),
]


@pytest.mark.parametrize(("source", "quote", "target", "landing"), LANDINGS, ids=[x[2] for x in LANDINGS])
def test_chapter_11_cross_reference_lands_on_its_paragraph(codex, source, quote, target, landing):
    refs = [r for r in codex.references if r.source == source and r.target == target]
    assert refs, f"{source} does not cite {target}"
    if source.startswith("glossary/"):
        assert quote in codex.entry(source).all_text()
    else:
        assert quote in (refs[0].sentence or codex.rules[source].all_text())
    assert landing in codex.rules[target].all_text()
    assert codex.rules[target].numbering == "confirmed"


def test_chapter_11_fizzle_list_is_11_6_1_a_to_d(codex):
    items = [codex.rules[f"11.6.1{x}"].text for x in "abcd"]
    assert items[1].startswith("An Event fizzles if its Caster is no longer active")
    assert items[3].startswith("Any effect fizzles if it was negated")


def test_only_cited_chapter_11_numbers_are_confirmed(codex):
    confirmed = [r for r in kinds(codex, 11, "rule") if codex.rules[r].numbering == "confirmed"]
    assert confirmed == ["11.3.3", "11.4.5", "11.5.1", "11.5.2", "11.5.4", "11.6.1", "11.6.3", "11.6.4"]
    assert all(codex.rules[r].numbering == "inferred" for r in kinds(codex, 11, "rule") if r not in confirmed)


def test_chapter_11_numbering_is_recorded_as_an_interpretation(codex):
    interp = codex.interpretations["chapter-11-numbering"]
    assert set(interp.stands_in_for) == {
        "11.3.3",
        "11.4.5",
        "11.5.1",
        "11.5.2",
        "11.5.4",
        "11.6.1",
        "11.6.3",
        "11.6.4",
    }


# --- 13.6.4, cited-but-absent rules, the interface ---------------------------------------------------

def test_13_6_4_is_present_but_empty(codex):
    rule = codex.get("13.6.4")
    assert rule is not None and rule.text == "" and rule.empty_in_source
    assert "- 13.6.4\n- 13.6.5" in CH13


def test_cited_absent_rules_are_the_ones_codex_gaps_lists(codex):
    gaps = (
        "2.3.1, 2.5.3, 4.2.3, 5.1.2, 5.1.3, 5.2.2, 5.3, 6.4.3, 8.3.3, 9.1.1, 9.4.2, 9.4.4, 9.5.3, 9.5.6, "
        "9.5.8, 12.1, 12.2, 12.4.3, 12.5.1, 12.6.1, 14.1.4, 14.2.1, 14.3.1, 14.4.3, 15.4.1, 15.5.1, 15.6.2"
    )
    chapters_cited = {"6", "12"}  # "See chapter 6", "(chapter 12)"
    cited_by_texts = {rid for rid, citers in codex.cited_absent.items()
                      if any(not c.startswith("interpretation/") for c in citers)}
    assert cited_by_texts == set(gaps.split(", ")) | chapters_cited
    assert codex.cited_absent["9.5.6"] == ["glossary/defiance"]
    assert set(codex.cited_absent["15.5.1"]) >= {"10.4.2", "11.6.1a", "13.3.2"}


def test_interface(codex):
    assert codex.version == "0.4.0"
    assert [c.number for c in codex.chapters] == list(range(1, 19))
    assert [c.number for c in codex.chapters if c.present] == [10, 11, 13]
    assert codex.chapters[9].title == "Card types in detail" and codex.chapters[10].title == "Effects"
    assert (
        codex.get("11.6.1b").kind == "item"
        and codex.get("13.6").kind == "section"
        and codex.get("10").kind == "chapter"
    )
    assert codex.get("9.5.6") is None and codex.knows("9.5.6") and not codex.knows("9.5.7")
    assert codex.knows("glossary/def") and codex.knows("interpretation/chapter-11-numbering")
    assert not codex.knows("glossary/nope")
    assert codex.entry("shield").slug == "def" and codex.entry("Nefarious").term == "Dark"
    assert codex.entry("soul spot").slug == "soul-spot" and codex.entry("PLAYER A").slug == "player-a"
    assert "Cost is paid just before" in codex.short("11.5.1")
    assert codex.short("glossary/def").startswith("DEF: Defence")
    assert "not in this edition" in codex.short("9.5.6")
    assert load_codex() is load_codex()


def test_sub_items_of_10_3_4_and_10_4_5_have_letter_ids(codex):
    assert codex.get("10.3.4").children == ("10.3.4a", "10.3.4b", "10.3.4c")
    assert codex.get("10.4.5").children == ("10.4.5a", "10.4.5b")
    assert codex.get("10.4.5").notes[0].startswith("In the opponent's turn, Ambushes can only be sprung")
    assert codex.get("10.3.4b").text.startswith("the Wielder is returned to the hand")


def test_examples_name_their_cards(codex):
    assert codex.get("13.6.3").examples[0].cards == (
        "Noah",
        "Chrome Chains",
        "Cyber-Wormhole",
        "Mystic Wormhole",
    )
    assert codex.get("13.2.2").examples[0].cards == ("Harold",)
    assert codex.get("11.3.1").examples[0].cards == ("Head Nurse Jeanne",)


def test_glossary_slugs_aliases_see_also_and_rules(codex):
    assert {"def", "soul-spot", "player-a", "look-at-the-top"} <= set(codex.glossary)
    cast = codex.entry("Cast")
    assert cast.rules == ("10.2.1",)
    assert codex.entry("Attack").see_also == ("Battle", "Attack Target", "Dual Wielding")
    assert set(codex.absent_terms) == {"Invoke", "Retract"}
    assert codex.entry("Shatter") is not None


def test_used_in_finds_terms_and_aliases_by_whole_word(codex):
    used = codex.used_in("def")
    assert "13.4.1" in used  # "+5 DEF"
    assert "10.3.3" in used  # "ATK, DEF and HP"
    assert all(
        re.search(r"\b(DEF|Shield|Defence|Defense)\b", codex.rules[r].all_text(), re.IGNORECASE) for r in used
    )


# --- validation catches what it must ----------------------------------------------------------------

@pytest.fixture()
def broken_copy(tmp_path) -> Path:
    root = tmp_path / "codex"
    shutil.copytree(editions().folder(), root)
    return root


def test_validation_reports_a_reference_that_lands_nowhere(broken_copy):
    path = broken_copy / "chapters" / "13.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("(13.6.5)", "(13.6.9)"), encoding="utf-8")
    problems = Codex(broken_copy).problems
    assert any("13.6.9" in p["message"] and p["path"] == "13.5.3" for p in problems)


def test_validation_reports_duplicate_ids_and_unknown_stands_in_for(broken_copy):
    path = broken_copy / "chapters" / "10.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("id: 10.1.2", "id: 10.1.1"), encoding="utf-8")
    (broken_copy / "interpretations" / "bad.yaml").write_text(
        "id: bad\nquestion: q\nreading: r\nwhy: w\nstands_in_for: ['10.9.9']\n", encoding="utf-8")
    messages = [p["message"] for p in Codex(broken_copy).problems]
    assert any("10.1.1 appears more than once" in m for m in messages)
    assert any("10.9.9" in m for m in messages)


def test_an_unreadable_interpretation_is_a_problem_not_a_crash(broken_copy):
    (broken_copy / "interpretations" / "half.yaml").write_text(
        "id: half\nquestion: [unclosed\n", encoding="utf-8"
    )
    codex = Codex(broken_copy)
    assert any("half.yaml" in p["path"] for p in codex.problems)
    assert "chapter-11-numbering" in codex.interpretations


def test_a_confirmed_mark_without_a_citation_is_a_problem(broken_copy):
    path = broken_copy / "chapters" / "11.yaml"
    text = path.read_text(encoding="utf-8")
    old = "- id: 11.1.1\n    numbering: inferred"
    assert old in text
    path.write_text(text.replace(old, "- id: 11.1.1\n    numbering: confirmed"), encoding="utf-8")
    assert any(p["path"] == "11.1.1" for p in Codex(broken_copy).problems)


def test_an_interpretation_may_stand_in_for_an_uncited_rule_of_an_absent_chapter(broken_copy):
    (broken_copy / "interpretations" / "tree.yaml").write_text(
        "id: tree\nquestion: q\nreading: {altar: [L2, C3, R2]}\nwhy: w\nstands_in_for: ['5.1', '5.1.2']\n"
        "note: extra keys are kept\n", encoding="utf-8")
    codex = Codex(broken_copy)
    assert codex.problems == []
    assert codex.cited_absent["5.1"] == ["interpretation/tree"]
    assert (
        "interpretation/tree" in codex.cited_absent["5.1.2"]
        and "glossary/moral" in codex.cited_absent["5.1.2"]
    )
    assert codex.interpretations["tree"].extra == {"note": "extra keys are kept"}
    assert [i.id for i in codex.interpretations_for("5.1.2")] == ["tree"]


def test_the_sentence_check_notices_a_dropped_sentence(codex):
    text = corpus(codex).replace("A paid cost stays paid, even if the effect then has nothing to do.", "")
    sentences = seed_sentences(CH11)
    assert [s for s in sentences if " ".join(s.split()) not in text] == [
        "A paid cost stays paid, even if the effect then has nothing to do."]


@pytest.mark.parametrize("stands, path, says", [
    ("[]", "interpretation/odd: stands_in_for", "empty: name the rule ids of the Codex"),
    ("['glossary/no-such-entry']", "interpretation/odd: stands_in_for[0]",
     "'glossary/no-such-entry' is no entry"),
    ("['9.5.8', 'leader']", "interpretation/odd: stands_in_for[1]", "'leader' is not one of the rule ids"),
])
def test_what_an_interpretation_stands_in_for_is_checked_with_a_message_at_its_key(broken_copy, stands, path,
                                                                                   says):
    (broken_copy / "interpretations" / "odd.yaml").write_text(
        f"id: odd\nquestion: q\nreading: r\nwhy: w\nstands_in_for: {stands}\n", encoding="utf-8")
    problems = Codex(broken_copy).problems
    assert [p["path"] for p in problems] == [path]
    assert says in problems[0]["message"]


def test_an_interpretation_may_stand_in_for_glossary_entries(broken_copy):
    (broken_copy / "interpretations" / "odd.yaml").write_text(
        "id: odd\nquestion: q\nreading: r\nwhy: w\nstands_in_for: ['glossary/leader', '9.5.8']\n",
        encoding="utf-8")
    codex = Codex(broken_copy)
    assert codex.problems == []
    assert [i.id for i in codex.interpretations_for("glossary/leader")] == ["duel-over", "odd"]
