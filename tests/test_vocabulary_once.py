"""Each vocabulary is listed in one module: verbs (verbs.TABLE), effect parts (parts.PARTS), keywords,
triggers and conditions (card_records), slot names (the edition's field.yaml). No other file of
`judge/`, `templates/` or `static/` holds a hand-written list of three or more of its names.

What counts as a hand-written list:
- Python: a literal tuple, list or set, or a dict's literal keys (read with `ast`, so strings in prose
  and docstrings do not count);
- templates and JavaScript: a bracketed or parenthesised run of quoted strings (`['a', 'b', 'c']`,
  `("a", "b", "c")`), or the options of one `<select>` (their `value`, else their text).
A list copies a vocabulary when at least three of its strings, and at least two thirds of its
non-empty strings, are that vocabulary's names: a card's fields (`name`, `rank`, `leader`, …) or the
trace's step kinds (`capture`, `damage`, `fizzle`, …) share a few names with the conditions or the
effect parts without being a list of them.
"""

from __future__ import annotations

import ast
import inspect
import re
from collections.abc import Iterable
from pathlib import Path

import pytest

from judge import ROOT
from judge.engine import load_field
from judge.engine.data import card_records, keywords, parts
from judge.engine.driver import verbs

ENGINE_DIR = Path(inspect.getsourcefile(verbs) or "").parent
FIELD = load_field()


def _module(mod: object) -> str:
    return Path(inspect.getsourcefile(mod) or "").resolve().relative_to(ROOT).as_posix()  # type: ignore[arg-type]


# name -> (its names, the module that declares them; None = declared in data, not in judge/)
VOCABULARIES: dict[str, tuple[frozenset[str], str | None]] = {
    "verbs": (frozenset(v.name for v in verbs.TABLE), _module(verbs)),
    "effect parts": (frozenset(parts.PARTS), _module(parts)),
    "keywords": (frozenset(keywords.KEYWORDS), _module(keywords)),
    "triggers": (frozenset(card_records.TRIGGERS), _module(card_records)),
    "conditions": (frozenset(card_records.CONDITION_KEYS), _module(card_records)),
    "slots": (frozenset((*FIELD.slots, *FIELD.realm_slots)), None),
}
MIN_NAMES = 3
MIN_SHARE = 2 / 3

QUOTED = r"""(?:'[^'\\\n]*'|"[^"\\\n]*")"""
QUOTED_RUN = re.compile(rf"[\[(]\s*{QUOTED}(?:\s*,\s*{QUOTED})+\s*,?\s*[\])]")
STRING = re.compile(r"""'([^'\\\n]*)'|"([^"\\\n]*)\"""")
SELECT = re.compile(r"<select\b.*?</select>", re.S | re.I)
OPTION = re.compile(r"<option\b([^>]*)>(.*?)</option>", re.S | re.I)
VALUE = re.compile(r"""\bvalue\s*=\s*(?:"([^"]*)"|'([^']*)')""", re.I)


def python_lists(text: str) -> Iterable[tuple[int, list[str]]]:
    """(line, the strings) of each literal collection of strings in Python source."""
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            elts: list[ast.expr | None] = list(node.elts)
        elif isinstance(node, ast.Dict):
            elts = list(node.keys)
        else:
            continue
        strings = [e.value for e in elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
        if strings:
            yield node.lineno, strings


def markup_lists(text: str) -> Iterable[tuple[int, list[str]]]:
    """(line, the strings) of each quoted run and each select's options in a template or script."""
    def line(pos: int) -> int:
        return text.count("\n", 0, pos) + 1

    for match in QUOTED_RUN.finditer(text):
        yield line(match.start()), [a or b for a, b in STRING.findall(match.group())]
    for select in SELECT.finditer(text):
        options = []
        for attrs, label in OPTION.findall(select.group()):
            value = VALUE.search(attrs)
            options.append((value.group(1) or value.group(2)) if value else label.strip())
        yield line(select.start()), options


def copies(path: Path, text: str | None = None) -> list[str]:
    """Each hand-written list in `path` of three or more names of one vocabulary it does not declare."""
    text = path.read_text(encoding="utf-8") if text is None else text
    rel = path.resolve().relative_to(ROOT).as_posix() if path.resolve().is_relative_to(ROOT) else path.name
    found = python_lists(text) if path.suffix == ".py" else markup_lists(text)
    out = []
    for lineno, strings in found:
        for name, (names, home) in VOCABULARIES.items():
            hits = sorted({s for s in strings if s in names})
            share = len([s for s in strings if s in names]) / max(1, len([s for s in strings if s]))
            if len(hits) >= MIN_NAMES and share >= MIN_SHARE and rel != home:
                out.append(f"{rel}:{lineno}: {name} {hits}")
    return out


def scanned_files() -> list[Path]:
    return [p for folder, pattern in (("judge", "*.py"), ("templates", "*.html"), ("static", "*.js"))
            for p in sorted((ROOT / folder).rglob(pattern))]


def test_no_file_but_its_table_lists_a_vocabulary():
    found = [c for path in scanned_files() for c in copies(path)]
    assert found == []


def test_the_scan_covers_the_code_the_templates_and_the_scripts():
    folders = {p.relative_to(ROOT).parts[0] for p in scanned_files()}
    assert folders == {"judge", "templates", "static"}
    assert (ROOT / "templates/desk/_custom_card.html") in scanned_files()


def _some(vocabulary: str, n: int = MIN_NAMES) -> list[str]:
    return sorted(VOCABULARIES[vocabulary][0])[:n]


@pytest.mark.parametrize("vocabulary", sorted(VOCABULARIES))
@pytest.mark.parametrize("suffix, template", [
    (".py", "WHAT = ({})\n"),
    (".py", "if x in [{}]:\n    pass\n"),
    (".py", "TABLE = {{{}}}\n"),
    (".js", "const kinds = [{}];\n"),
    (".html", "{{% for k in [{}] %}}{{{{ k }}}}{{% endfor %}}\n"),
])
def test_a_planted_copy_is_found(tmp_path, vocabulary, suffix, template):
    names = _some(vocabulary)
    items = ", ".join(f"'{n}': 1" if template.startswith("TABLE") else f"'{n}'" for n in names)
    path = tmp_path / f"planted{suffix}"
    path.write_text(template.format(items), encoding="utf-8")
    assert copies(path) == [f"planted{suffix}:1: {vocabulary} {names}"]


def test_a_planted_select_is_found(tmp_path):
    triggers = _some("triggers")
    options = "".join(f"<option>{t}</option>" for t in triggers[:2])
    options += f'<option value="{triggers[2]}">x</option>'
    path = tmp_path / "form.html"
    path.write_text(f"<p>\n<select name=t><option value=''>none</option>{options}</select>\n",
                    encoding="utf-8")
    assert copies(path) == [f"form.html:2: triggers {triggers}"]


def test_the_declaring_module_and_prose_do_not_count(tmp_path):
    home = ROOT / VOCABULARIES["keywords"][1]  # type: ignore[operator]
    assert copies(home) == []
    names = _some("keywords")
    prose = tmp_path / "prose.py"
    prose.write_text(f'"""Keywords such as {", ".join(names)}."""\nX = "{" ".join(names)}"\n',
                     encoding="utf-8")
    assert copies(prose) == []
    two = tmp_path / "two.js"
    two.write_text(f"const pair = ['{names[0]}', '{names[1]}'];\n", encoding="utf-8")
    assert copies(two) == []


def test_a_copy_among_a_few_other_strings_is_found_and_a_few_names_among_many_are_not(tmp_path):
    names = _some("effect parts", 4)
    copy = tmp_path / "copy.py"
    copy.write_text(f"KINDS = {(*names, 'fizzle', '')!r}\n", encoding="utf-8")
    assert copies(copy) == [f"copy.py:1: effect parts {names}"]
    fields = tmp_path / "fields.py"
    fields.write_text(f"KEYS = {(*names[:3], 'name', 'type', 'atk', 'def', 'hp')!r}\n", encoding="utf-8")
    assert copies(fields) == []
