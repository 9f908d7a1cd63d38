"""bench/rulings_identical.py, the check that a reshaping changes no library ruling: it records the
rulings and finds a ruling that differs by a single byte."""

from __future__ import annotations

import importlib.util
import json

from judge import ROOT

spec = importlib.util.spec_from_file_location("rulings_identical", ROOT / "bench" / "rulings_identical.py")
tool = importlib.util.module_from_spec(spec)
spec.loader.exec_module(tool)


def test_recorded_rulings_compare_identical_and_a_changed_byte_is_found(tmp_path, capsys):
    assert tool.main(["--write", str(tmp_path)]) == 0
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == len(tool.library_files(ROOT))
    assert tool.main([str(tmp_path)]) == 0
    assert f"{len(files)} of {len(files)} rulings byte-identical" in capsys.readouterr().out

    victim = files[0]
    ruling = json.loads(victim.read_text(encoding="utf-8"))
    ruling["steps"][0]["text"] += " "
    victim.write_text(json.dumps(ruling, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    assert tool.main([str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert f"--- before/{victim.name}" in out and "1 differ" in out


def test_the_file_names_are_the_scenario_paths():
    path = ROOT / "scenarios" / "glossary" / "berserk-triggers-on-capture.yaml"
    assert tool.baseline_name(path, ROOT) == "scenarios_glossary_berserk-triggers-on-capture.yaml.json"


def test_a_key_added_to_every_ruling_is_compared_without_it(tmp_path, capsys):
    """--added answers: the rulings gained `answers` (issue 20) and nothing else changed."""
    assert tool.main(["--write", str(tmp_path)]) == 0
    for path in tmp_path.glob("*.json"):   # the baseline as it was before rulings had answers
        ruling = json.loads(path.read_text(encoding="utf-8"))
        del ruling["answers"]
        path.write_text(json.dumps(ruling, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    assert tool.main([str(tmp_path)]) == 1
    capsys.readouterr()
    assert tool.main(["--added", "answers", str(tmp_path)]) == 0
    assert "once their 'answers' key is taken out" in capsys.readouterr().out
