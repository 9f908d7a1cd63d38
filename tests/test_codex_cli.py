"""`judge codex-check`: counts per chapter, exit 0 on the committed data, 1 on problems, 2 on
unreadable data."""

from __future__ import annotations

import re
import shutil

from judge.cli import main
from judge.codex.editions import editions


def test_codex_check_passes_and_prints_counts(capsys):
    assert main(["codex-check"]) == 0
    out = capsys.readouterr().out
    rows = {
        m.group(1): m.groups()[1:]
        for m in re.finditer(r"^(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)$", out, re.MULTILINE)
    }
    # chapter: sections, rules, sub-items, examples (counted from the seeds by hand)
    assert rows["10"][:4] == ("5", "27", "5", "0")
    assert rows["11"][:4] == ("8", "39", "4", "3")
    assert rows["13"][:4] == ("6", "21", "5", "2")
    assert "87 entries" in out
    assert "warning: glossary/realm see also: 'Invoke'" in out   # cited-but-absent glossary terms warn only
    assert out.rstrip().endswith("ok")


def test_codex_check_fails_on_a_problem(tmp_path, capsys):
    root = tmp_path / "codex"
    shutil.copytree(editions().folder(), root)
    path = root / "chapters" / "10.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("(14.4.3)", "(13.9.9)"), encoding="utf-8")
    assert main(["codex-check", "--root", str(root)]) == 1
    assert "13.9.9" in capsys.readouterr().err


def test_codex_check_exits_2_on_unreadable_data(tmp_path, capsys):
    root = tmp_path / "codex"
    shutil.copytree(editions().folder(), root)
    (root / "glossary.yaml").write_text("glossary: [unclosed\n", encoding="utf-8")
    assert main(["codex-check", "--root", str(root)]) == 2
    err = capsys.readouterr().err
    assert "glossary.yaml" in err and "line" in err
