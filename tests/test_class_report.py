"""A mentor's class of write-ups graded at once: a synthetic class whose counts its construction states."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from regime_core.grading.class_report import Submission, class_report, csv_text, markdown, misconception

PASSING = json.loads((Path(__file__).parent.parent / "examples/attempt-passing.json").read_text(encoding="utf-8"))


def _changed(name: str | None = None, **edits: Any) -> dict[str, Any]:
    """The passing attempt with ``edits`` ("a3_regime": "memory-bound", "ridge": "…") and a learner's name."""
    attempt: dict[str, Any] = json.loads(json.dumps(PASSING))
    for key, value in edits.items():
        if key == "ridge":
            attempt["part_b"]["ridge"] = value
        else:
            item, field = key.split("_", 1)
            attempt["part_a"][item][field] = value
    if name:
        attempt["learner"] = name
    return attempt


def _class() -> list[Submission]:
    return [
        Submission("ada.json", _changed()),
        Submission("bo.json", _changed("Bo", a3_regime="memory-bound")),
        Submission("cy.json", _changed(a3_regime="memory", ridge="1560 FLOP/byte")),
        Submission("di.json", _changed(a3_regime="memory-bound: it is the same chain as A2", ridge="1560 FLOP/byte")),
        Submission("ed.json", _changed(a1_evidence="70% of peak, so the tensor cores are idle 70% of the time")),
        Submission("fay.json", _changed(ridge="a lot | of FLOPs")),
        Submission("trace.json", {"traceEvents": []}),
        Submission("broken.json", unreadable="expected JSON (line 1, column 12)"),
    ]


def test_the_class_counts_what_its_construction_says() -> None:
    report = class_report(_class())
    names = [learner["name"] for learner in report["learners"]]
    assert names == ["ada", "Bo", "cy", "di", "ed", "fay"]  # the file's own name where it gives one
    by_name = {learner["name"]: learner for learner in report["learners"]}
    assert by_name["ada"]["passed"] is True
    assert by_name["Bo"]["criteria"]["1"] is False
    assert by_name["cy"]["criteria"]["4"] is False
    assert by_name["fay"]["criteria"]["4"] is None  # a ridge the grader cannot read: could not tell
    assert (by_name["ada"]["attempted"], by_name["ada"]["right"]) == (10, 10)

    a3 = report["items"]["a3"]
    assert (a3["attempted"], a3["regime_right"]) == (6, 3)
    assert a3["regimes_given"] == {"overhead / host-bound": 3, "memory-bound": 3}
    shared = a3["misconceptions"][0]
    assert (shared["what"], shared["count"]) == ("Regime: Not memory-bound", 3)
    assert shared["learners"] == ["Bo", "cy", "di"]
    assert shared["example"] == {"learner": "Bo", "line": "memory-bound"}

    ridge = next(m for m in report["items"]["part-b"]["misconceptions"] if m["what"].startswith("Ridge"))
    assert ridge["count"] == 2
    assert [u["learner"] for u in report["items"]["part-b"]["could_not_tell"]] == ["fay"]
    a1 = report["items"]["a1"]["misconceptions"]
    assert [(m["count"], m["learners"]) for m in a1] == [(1, ["ed"])]
    assert "of the time" in a1[0]["what"]

    assert [r["file"] for r in report["refused"]] == ["trace.json", "broken.json"]
    assert "profiler trace" in report["refused"][0]["reason"]


def test_the_json_contract_holds() -> None:
    report = class_report(_class())
    assert set(report) == {"learners", "items", "practice", "refused"}
    assert set(report["learners"][0]) >= {"name", "file", "passed", "criteria"}
    assert set(report["items"]) == {"a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8", "part-b", "part-c"}
    for item in report["items"].values():
        assert set(item) >= {"attempted", "regime_right", "regimes_given", "misconceptions"}
        for m in item["misconceptions"]:
            assert set(m) >= {"what", "count", "example"}
    assert set(report["refused"][0]) == {"file", "reason"}


def test_markdown_and_csv_carry_the_class_and_keep_learner_text_inert() -> None:
    report = class_report(_class())
    text = markdown(report)
    assert "| Bo | ✗ |" in text
    assert "Not memory-bound**: 3 (Bo, cy, di)" in text
    piped = markdown(class_report([Submission("x.json", _changed("Al|Bea <b>"))]))
    assert "| Al\\|Bea &lt;b&gt; |" in piped  # a learner's pipe never splits a cell, nor runs as HTML
    assert "trace.json" in text.split("## Files not graded", 1)[1]
    rows = list(csv.reader(io.StringIO(csv_text(report))))
    assert rows[0][:3] == ["learner", "file", "passing"]
    assert [r[0] for r in rows[1:]] == ["ada", "Bo", "cy", "di", "ed", "fay"]
    hostile = class_report([Submission("x.json", _changed("=HYPERLINK(1)"))])
    assert list(csv.reader(io.StringIO(csv_text(hostile))))[1][0] == "'=HYPERLINK(1)"


def test_two_files_of_one_learner_are_both_graded_and_told_apart() -> None:
    report = class_report([Submission("a/one.json", _changed("Ada")), Submission("b/two.json", _changed("Ada"))])
    assert [learner["name"] for learner in report["learners"]] == ["Ada", "Ada (b/two.json)"]


@pytest.mark.parametrize(("why", "what"), [
    ("Not memory-bound: Read the picket fence as a timeline", "Not memory-bound"),
    ("70% is a share of peak FLOP/s, not of the time.", "… is a share of peak FLOP/s, not of the time"),
    ("Your reason (“because the memory bus is full”) describes a memory-bound kernel", "Your reason (…) describes a memory-bound kernel"),
])
def test_a_misconception_sets_the_learners_own_words_aside(why: str, what: str) -> None:
    assert misconception(why) == what


def test_regime_grade_reads_a_folder_of_files(tmp_path: Path) -> None:
    for sub in _class():
        (tmp_path / sub.file).write_text("{" if sub.unreadable else json.dumps(sub.data), encoding="utf-8")
    (tmp_path / "notes.txt").write_text("not an attempt", encoding="utf-8")  # not .json: not read
    run = subprocess.run([sys.executable, "-m", "regime_core", "grade", str(tmp_path), "--json"], capture_output=True,
                         text=True, timeout=120, check=False)
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    assert len(report["learners"]) == 6
    assert {Path(r["file"]).name for r in report["refused"]} == {"trace.json", "broken.json"}
    as_csv = subprocess.run([sys.executable, "-m", "regime_core", "grade", str(tmp_path / "ada.json"), "--csv"],
                            capture_output=True, text=True, timeout=120, check=False)
    assert as_csv.stdout.splitlines()[1].startswith("ada,")
    empty = tmp_path / "empty"
    empty.mkdir()
    none = subprocess.run([sys.executable, "-m", "regime_core", "grade", str(empty)], capture_output=True, text=True,
                          timeout=120, check=False)
    assert none.returncode == 2
    assert "no attempt files" in none.stderr


def test_a_file_is_its_own_receipt() -> None:
    # The page's grade writes a receipt into the file it downloads; the report checks it and grades afresh.
    from regime_core.bridge.api import handle

    items = dict(PASSING["part_a"])
    graded = json.loads(handle(json.dumps({"op": "grade", "items": items})))
    assert graded["ok"] is True, graded
    sealed = graded["attempt"]
    assert set(sealed["receipt"]) == {"grader", "drill", "digest", "passed"}
    edited = json.loads(json.dumps(sealed))
    edited["part_a"]["a3"]["regime"] = "memory-bound"
    other = json.loads(json.dumps(sealed))
    other["receipt"]["grader"] = "0.0.1"
    report = class_report([Submission("sealed.json", sealed), Submission("edited.json", edited),
                           Submission("other.json", other), Submission("plain.json", _changed())])
    assert [learner["receipt"] for learner in report["learners"]] == [
        "matches", "edited after grading", "graded by another version", "none"]
    assert report["learners"][1]["criteria"]["1"] is False  # graded afresh, as edited
    assert "catches slips, not cheats" in markdown(report)
    # The file with its receipt imports back into the page as the learner's items.
    back = json.loads(handle(json.dumps({"op": "import_attempt", "text": json.dumps(sealed)})))
    assert back["ok"] is True, back


RECORD = {"format": "regime-practice-record", "version": 1, "learner": "Bo",
          "tally": {"memory": {"tried": 5, "right": 3, "name": "memory-bound"},
                    "overhead": {"tried": 2, "right": 2, "name": "overhead / host-bound"}},
          "missed": {"host_sync": 0, "decode_memory": 2, "gemv_memory": 1},
          "traps": {"occupancy theatre": {"met": 2, "caught": 1}, "a measurement too good to be true": {"met": 1,
                                                                                                      "caught": 0}},
          "graded": 7}


def test_a_practice_record_joins_its_learner_and_the_class_counts_what_it_missed() -> None:
    alone = {**RECORD, "learner": "Cat", "missed": {"decode_memory": 1}, "traps": {}}
    report = class_report([*_class()[:2], Submission("bo-practice.json", RECORD),
                           Submission("cat-practice.json", alone)])
    by_name = {learner["name"]: learner for learner in report["learners"]}
    assert by_name["ada"]["practice"] is None
    bo = by_name["Bo"]["practice"]
    assert (bo["tried"], bo["right"]) == (7, 5)
    assert bo["missed"] == ["a decode step reading its weights", "a matrix–vector product"]  # most missed first
    assert bo["traps"] == {"occupancy theatre": {"caught": 1, "met": 2},
                           "a measurement too good to be true": {"caught": 0, "met": 1}}
    cat = by_name["Cat"]  # practised, sent no write-up
    assert (cat["passed"], cat["criteria"], cat["attempted"]) == (None, {}, 0)
    assert report["practice"] == {"learners": 2, "tried": 14, "right": 10,
                                  "missed": {"a decode step reading its weights": 2, "a matrix–vector product": 1},
                                  "traps": {"occupancy theatre": 1}}
    text = markdown(report)
    assert "| Cat | no write-up | – |" in text
    assert "| 5 of 7 read right |" in text
    assert "- **Kinds still missed (learners)**: a decode step reading its weights (2), a matrix–vector product (1)" in text
    rows = {r[0]: r for r in csv.reader(io.StringIO(csv_text(report)))}
    assert rows["Bo"][-3:] == ["7", "5", "a decode step reading its weights; a matrix–vector product"]
    assert rows["Cat"][2] == "no write-up"


@pytest.mark.parametrize(("edit", "field"), [
    ({"version": 2}, "version"),
    ({"tally": {"memory": {"tried": 1, "right": 2}}}, "tally.memory.right"),
    ({"tally": {"memory": {"tried": -1, "right": 0}}}, "tally.memory.tried"),
    ({"missed": ["decode_memory"]}, "missed"),
    ({"traps": {"x": 3}}, "traps.x"),
])
def test_a_damaged_practice_record_is_refused_by_its_field(edit: dict[str, Any], field: str) -> None:
    report = class_report([Submission("r.json", {**RECORD, **edit})])
    assert report["learners"] == []
    assert report["refused"][0]["reason"].startswith(f"{field}: expected")


def _ask(request: dict[str, Any]) -> dict[str, Any]:
    from regime_core.bridge.api import handle

    answer: dict[str, Any] = json.loads(handle(json.dumps(request)))
    return answer


def test_the_pages_ops_read_one_file_at_a_time_into_the_report_the_command_line_makes() -> None:
    files = [(sub.file, "{" if sub.unreadable else json.dumps(sub.data)) for sub in _class()]
    files.append(("bo-practice.json", json.dumps(RECORD)))
    entries = []
    for at, (name, text) in enumerate(files):
        answer = _ask({"op": "class_entry", "file": name, "text": text, "bytes": len(text), "index": at})
        assert answer["ok"] is True, answer
        assert len(json.dumps(answer["entry"])) < 8_000  # small: nothing of the file but what the report counts
        entries.append(answer["entry"])
    answer = _ask({"op": "class_report", "entries": entries})
    from regime_core.grading.class_report import submission

    direct = class_report(submission(name, text) for name, text in files)
    assert answer["report"] == direct
    assert answer["markdown"] == markdown(direct)
    assert answer["csv"] == csv_text(direct)
    assert answer["view"]["learners"]["rows"][0][0] == "ada"


def test_the_pages_ops_say_what_is_wrong_in_one_line() -> None:
    big = _ask({"op": "class_entry", "file": "huge.json", "text": None, "bytes": 5_000_000, "index": 0})
    assert big["entry"] == {"kind": "refused", "file": "huge.json",
                            "reason": "expected an attempt file of at most 1,000 kB; this one is 5.0 MB"}
    late = _ask({"op": "class_entry", "file": "late.json", "text": "{}", "bytes": 2, "index": 2000})
    assert late["entry"]["reason"] == "not graded: over 2,000 files in one report"
    bom = _ask({"op": "class_entry", "file": "bom.json", "text": "\ufeff" + json.dumps(PASSING), "bytes": 9, "index": 0})
    assert bom["entry"]["kind"] == "attempt"  # a byte-order mark, as Windows editors write, is read
    for entries, field in (("x", "entries"), ([{"kind": "attempt", "file": "a.json"}], "entries[0]"),
                           ([{"kind": "refused", "file": "a.json", "reason": "x"}, 5], "entries[1]")):
        answer = _ask({"op": "class_report", "entries": entries})
        assert (answer["ok"], answer["field"]) == (False, field), answer
    changed = json.loads(json.dumps(_ask({"op": "class_entry", "file": "a.json", "text": json.dumps(PASSING),
                                          "bytes": 9, "index": 0})["entry"]))
    changed["items"]["a1"] = {"regime_given": 5}
    answer = _ask({"op": "class_report", "entries": [changed]})
    assert (answer["ok"], answer["field"]) == (False, "entries")
    marked = {**changed, "items": {}, "passed": "perhaps"}  # merges, but no report can show it
    answer = _ask({"op": "class_report", "entries": [marked]})
    assert (answer["ok"], answer["field"]) == (False, "entries")
    assert "traceback" not in json.dumps(answer).lower()
