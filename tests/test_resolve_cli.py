"""`judge resolve` and `judge check`: output and exit codes (contract §5, §6: 0 ok, 1 an
expectation failed, 2 invalid input)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from judge.cli import main

ROOT = Path(__file__).resolve().parent.parent / "scenarios"
GOOD = ROOT / "mechanics" / "battle-defiance-same-moment.yaml"


def test_resolve_prints_a_readable_trace(capsys):
    assert main(["resolve", str(GOOD)]) == 0
    out = capsys.readouterr().out
    assert "Step 1 — " in out and "Defiance" in out and "[9.5.6" in out
    assert "Expectations: all hold." in out


def test_resolve_json_is_the_ruling(capsys):
    assert main(["resolve", str(GOOD), "--json"]) == 0
    ruling = json.loads(capsys.readouterr().out)
    assert ruling["scenario"] == "battle-defiance-same-moment"
    assert ruling["codex"] == "0.4.0" and ruling["expect"] == {"passed": True, "failures": []}


def test_resolve_exits_1_when_an_expectation_fails(tmp_path, capsys):
    text = GOOD.read_text().replace('"A:C3": {card: Knight, damage: 10}', '"A:C3": {card: Knight, damage: 0}')
    bad = tmp_path / "wrong.yaml"
    bad.write_text(text)
    assert main(["resolve", str(bad)]) == 1
    assert "A:C3.damage: expected 0, got 10" in capsys.readouterr().out


def test_resolve_exits_2_on_an_invalid_file_naming_the_key_path(tmp_path, capsys):
    bad = tmp_path / "bad.yaml"
    bad.write_text(GOOD.read_text().replace("C3: Thorn Knight", "C9: Thorn Knight"))
    assert main(["resolve", str(bad)]) == 2
    assert "state.players.B.field.C9" in capsys.readouterr().err
    assert main(["resolve", str(tmp_path / "missing.yaml")]) == 2


def test_check_prints_one_line_per_file_and_the_totals(tmp_path, capsys):
    shutil.copy(GOOD, tmp_path / "good.yaml")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "wrong.yaml").write_text(GOOD.read_text().replace("damage: 10}", "damage: 5}"))
    assert main(["check", str(tmp_path)]) == 1
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[0].startswith("PASS  good.yaml")
    assert lines[1].startswith("FAIL  sub/wrong.yaml") and "expected 5, got 10" in lines[1]
    assert lines[-1] == "1 passed, 1 failed"


def test_check_exits_2_when_a_file_is_invalid(tmp_path, capsys):
    (tmp_path / "broken.yaml").write_text("state: [\n")
    assert main(["check", str(tmp_path)]) == 2
    out = capsys.readouterr().out
    assert "FAIL  broken.yaml  invalid" in out and out.strip().endswith("0 passed, 1 failed")
    assert main(["check", str(tmp_path / "nowhere")]) == 2


def test_check_passes_the_whole_library(capsys):
    assert main(["check", str(ROOT)]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert last.endswith(" 0 failed") and int(last.split()[0]) >= 60
