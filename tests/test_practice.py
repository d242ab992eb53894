"""Practice without end (issue 16): the generator, its agreement with the classifier, grading, the CLI."""

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from hostile_inputs import HOSTILE
from regime_core.bridge.api import handle
from regime_core.catalogue.levers import REGIMES, advice, fits, recognise
from regime_core.catalogue.quantity import Dim, format_quantity
from regime_core.cli.main import main
from regime_core.errors import RegimeError
from regime_core.judgment.symptoms import parse_symptoms
from regime_core.practice.generate import (
    FAMILIES,
    GENERATOR_VERSION,
    INHERENT_TRAP,
    LEVELS,
    TRAPS,
    PracticeIncident,
    practice,
)
from regime_core.practice.grade import grade_lines, grade_practice, hints, worked_attempt
from regime_core.practice.text import cards

# The generator writes one-device incidents; communication (several devices) is not generated yet.
GENERATED_REGIMES = ("compute", "memory", "overhead")

SEEDS = 5000
DISTRACTORS = ("occupancy", "gpu_utilization", "sm_active")


def _level(seed: int) -> int:
    return 1 + seed % 3


@pytest.fixture(scope="module")
def generated() -> list[tuple[PracticeIncident, object]]:
    """Every seed's incident (levels 1, 2, 3 in turn) with the classifier's verdict, generated once."""
    out = []
    for seed in range(SEEDS):
        incident = practice(seed, _level(seed))
        out.append((incident, incident.verdict()))
    return out


def test_every_incident_parses_and_the_classifier_reads_the_intended_regime(generated) -> None:
    disagree = []
    for incident, verdict in generated:
        parse_symptoms(incident.symptoms)
        if verdict.regime != incident.regime or bool(verdict.anomalies) != incident.anomaly:
            disagree.append((incident.id, incident.family, incident.regime, verdict.regime, verdict.anomalies))
    assert disagree == [], disagree[:5]


def _attempt_from(worked: dict[str, str]) -> dict[str, str]:
    """The worked answer as a learner writes it: each lever line up to its reason (``LEVER: why``)."""
    return {**worked, "wastes": worked["wastes"].split(": ")[0]}


def test_the_worked_answer_passes_every_line_and_a_wrong_regime_does_not_pass(generated) -> None:
    failing, wrong_passing = [], []
    for incident, verdict in generated:
        attempt = _attempt_from(worked_attempt(incident, verdict))
        result = grade_lines(incident, verdict, attempt)
        if result["passed"] is not True or any(c["passed"] is not True for c in result["checks"].values()):
            failing.append((incident.id, {k: c for k, c in result["checks"].items() if c["passed"] is not True}))
        # (the roofline's leaning, named where an unusable time left the verdict undecided, is not checked either way)
        wrong = next(r for r in REGIMES if r not in (verdict.regime, verdict.leaning))
        if grade_lines(incident, verdict, {**attempt, "regime": advice(wrong).name})["passed"] is not False:
            wrong_passing.append(incident.id)
    assert failing == [], failing[:3]
    assert wrong_passing == [], wrong_passing[:5]


def test_the_worked_lines_in_full_pass(generated) -> None:
    # The classifier's own lever and waste lines, reasons and all, read as the levers they name.
    for incident, verdict in generated[:600]:
        checks = grade_lines(incident, verdict, worked_attempt(incident, verdict))["checks"]
        assert all(c["passed"] is True for c in checks.values()), (incident.id, checks)


def test_regimes_traps_and_anomalies_appear_in_sensible_proportions(generated) -> None:
    regimes = Counter(incident.regime or "undecided" for incident, _ in generated)
    traps = Counter(incident.trap for incident, _ in generated)
    families = Counter(incident.family for incident, _ in generated)
    anomalies = sum(incident.anomaly for incident, _ in generated)
    print("\nregime      share")
    for name, n in regimes.most_common():
        print(f"{name:<11} {n / SEEDS:6.1%}")
    print(f"{'anomaly':<11} {anomalies / SEEDS:6.1%}")
    for name, n in traps.most_common():
        print(f"trap {name!s:<24} {n / SEEDS:6.1%}")
    for regime in GENERATED_REGIMES:
        assert 0.15 <= regimes[regime] / SEEDS <= 0.45, regimes
    assert 0.02 <= regimes["communication"] / SEEDS <= 0.1, regimes  # multi-GPU jobs: a few, at every level
    assert 0.05 <= regimes["undecided"] / SEEDS <= 0.25, regimes
    assert 0.05 <= anomalies / SEEDS <= 0.2
    assert set(traps) == {*TRAPS, None}
    assert set(families) == set(FAMILIES)
    assert len({incident.symptoms["hardware"] if isinstance(incident.symptoms["hardware"], str)
                else incident.symptoms["hardware"]["id"] for incident, _ in generated}) == len(cards())


def test_statements_are_distinct(generated) -> None:
    statements = Counter(incident.statement for incident, _ in generated)
    assert [s for s, n in statements.items() if n > 1] == []


def test_the_same_seed_gives_the_same_incident_and_levels_differ() -> None:
    for seed in (0, 1, 17, 4242, 2**53 - 1):
        for level in (1, 2, 3):
            assert practice(seed, level) == practice(seed, level)
            assert practice(seed, level).to_json() == practice(str(seed), str(level)).to_json()
        assert len({practice(seed, level).statement for level in (1, 2, 3)}) == 3


def test_level_one_has_one_deciding_symptom_and_level_three_a_proposal_and_distractors(generated) -> None:
    for incident, _ in generated:
        observed = incident.symptoms["observed"]
        if incident.level == 1:
            assert not any(k in observed for k in DISTRACTORS), incident.id
            assert incident.trap in (None, INHERENT_TRAP.get(incident.family)), incident.id
        if incident.level == 3:
            assert incident.symptoms.get("proposal"), incident.id
            assert incident.trap is not None, incident.id
    level_three = [i for i, _ in generated if i.level == 3]
    with_distractor = [i for i in level_three if any(k in i.symptoms["observed"] for k in DISTRACTORS)]
    assert len(with_distractor) >= 0.8 * len(level_three)


def test_a_trap_proposal_does_not_fit_and_a_fitting_one_is_said_to_fit(generated) -> None:
    for incident, verdict in generated:
        proposal = incident.symptoms.get("proposal", "")
        levers = recognise(proposal)
        if incident.trap in ("fusion_on_compute", "mma_on_memory", "occupancy_theatre", "kernel_work_on_overhead"):
            assert levers, (incident.id, proposal)
            assert not fits(levers, verdict.regime), (incident.id, proposal)
            assert verdict.waste.startswith(proposal), incident.id
        elif proposal and incident.trap is None and levers:
            assert fits(levers, verdict.regime), (incident.id, proposal)
            assert "as proposed" in verdict.lever, incident.id
        if incident.trap == "no_verdict_yet" and proposal:
            assert "too early" in verdict.waste, incident.id


def test_numbers_are_written_the_way_engineers_write_them(generated) -> None:
    for incident, _ in generated:
        text = incident.statement
        assert not re.search(r"\d\.\d{4,}|\de[+-]?\d|\{|\}|None", text), (incident.id, text)
        assert not re.search(r"  | [.,;:](?!\w)|\.\.|\( | \)|\b(\w+) \1\b|\ba [aeiou8]|\ban [b-df-hj-np-tv-z]", text), text
        for key, value in incident.symptoms["observed"].items():
            if isinstance(value, str) and key != "tokens_per_s":
                assert value in text, (incident.id, key, value)
            elif key == "launches":
                assert f"{value:,}" in text, incident.id
            elif key == "tokens_per_s":
                assert f"{float(value):,}".removesuffix(".0") in text, (incident.id, value)


@pytest.mark.parametrize(
    ("seed", "level", "field"),
    [(-1, 1, "seed"), (2**53, 1, "seed"), ("seven", 1, "seed"), (True, 1, "seed"), (1.5, 1, "seed"),
     (1, 0, "level"), (1, 4, "level"), (1, "hard", "level")],
)
def test_a_bad_seed_or_level_is_one_line_naming_the_field(seed: object, level: object, field: str) -> None:
    with pytest.raises(RegimeError, match=rf"^{field}: "):
        practice(seed, level)


@pytest.mark.parametrize(
    ("attempt", "field"),
    [({"practice": {"seed": 3}, "answer": "x"}, "answer"), ({"practice": 3}, "practice"),
     ({"practice": {"seed": 3, "version": GENERATOR_VERSION + 1}}, "practice.version"),
     ({"practice": {"level": 2}}, "practice.seed"), ({"practice": {"seed": 3, "colour": 1}}, "practice.colour"),
     ({"practice": {"seed": 3}, "regime": 7}, "regime"), ({"practice": {"seed": 3}, "helps": "x" * 10_001}, "helps")],
)
def test_a_bad_practice_attempt_names_its_field(attempt: dict, field: str) -> None:
    with pytest.raises(RegimeError, match=rf"^{re.escape(field)}: "):
        grade_practice(attempt)


def test_an_empty_attempt_is_not_passing_and_says_what_to_write() -> None:
    result = grade_practice({"practice": {"seed": 5, "level": 1}})
    assert result["passed"] is False
    assert result["attempted"] is False
    assert all(c["passed"] is False for c in result["checks"].values())


def test_an_undecided_incident_wants_the_next_measurement_not_a_fix() -> None:
    incident = next(practice(s, 2) for s in range(200) if practice(s, 2).regime is None)
    lines = {"regime": "undecided — neither roof yet", "evidence": "far from both roofs",
             "helps": "time it at a quarter of the size (the shrink test)", "wastes": "any fix before measuring"}
    result = grade_practice({"practice": {"seed": incident.seed, "level": 2}, **lines})
    assert result["passed"] is True, result["checks"]
    guessed = grade_practice({"practice": {"seed": incident.seed, "level": 2}, **lines, "helps": "fuse it"})
    assert guessed["checks"]["helps"]["passed"] is False


def test_a_loader_stall_is_fed_not_graph_captured() -> None:
    incident = next(practice(s, 1) for s in range(400) if practice(s, 1).family == "loader_stall")
    which = {"seed": incident.seed, "level": 1}
    fed = grade_practice({"practice": which, "regime": "overhead / host-bound", "evidence": "waiting on the loader",
                          "helps": "more DataLoader workers and prefetching", "wastes": "CUDA graphs"})
    assert fed["passed"] is True, fed["checks"]
    graphs = grade_practice({"practice": which, "helps": "capture the step in CUDA graphs"})
    assert graphs["checks"]["helps"]["passed"] is False


def test_cli_practice_json_has_the_contract_keys(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["practice", "--seed", "42", "--level", "2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"id", "seed", "level", "statement", "symptoms", "regime", "trap", "url"}
    assert out["url"] == f"practice/?seed=42&level=2&v={GENERATOR_VERSION}"
    assert out == practice(42, 2).to_json()


def test_cli_practice_without_a_seed_draws_one(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["practice", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["level"] == 1
    assert out == practice(out["seed"], 1).to_json()


@pytest.mark.parametrize(("argv", "field"), [(["--seed", "-3"], "--seed"), (["--level", "9"], "--level")])
def test_cli_practice_bad_input_is_one_line(argv: list[str], field: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["practice", *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith(f"regime practice: {field}: ")


def test_cli_grade_takes_a_practice_attempt(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    incident = practice(11, 3)
    path = tmp_path / "attempt.json"
    path.write_text(json.dumps({"practice": {"seed": 11, "level": 3}, **_attempt_from(worked_attempt(incident))}))
    assert main(["grade", str(path)]) == 0
    assert capsys.readouterr().out.rstrip().endswith("\npassing")
    wrong = next(r for r in REGIMES if r != incident.verdict().regime)
    path.write_text(json.dumps({"practice": {"seed": 11, "level": 3}, "regime": advice(wrong).name}))
    assert main(["grade", str(path), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["passed"] is False
    assert result["checks"]["regime"]["passed"] is False


def _call(op: str, **fields: object) -> dict:
    return json.loads(handle(json.dumps({"op": op, **fields})))


def test_the_page_op_shows_the_statement_and_its_address_but_not_the_answer() -> None:
    shown = _call("practice", seed=9, level=3)
    assert shown["ok"] is True
    assert shown["statement"] == practice(9, 3).statement
    assert shown["url"] == practice(9, 3).url
    assert not {"regime", "trap", "symptoms", "verdict", "family"} & set(shown)


def test_a_missed_kind_comes_back_sooner() -> None:
    missed = "loader_stall"
    start = next(s for s in range(1000) if practice(s, 1).family != missed)
    shown = _call("practice", seed=start, level=1, missed=[missed])
    assert practice(shown["seed"], 1).family == missed
    assert start < shown["seed"] <= start + 40
    assert _call("practice", seed=start, level=1, missed=["no_such_family"])["field"] == "missed"


def test_the_grade_op_says_which_regime_was_read_as_which() -> None:
    incident = next(practice(s, 1) for s in range(100) if practice(s, 1).regime == "memory")
    answer = _call("practice_grade", seed=incident.seed, level=1, lines={"regime": "compute-bound"})
    assert (answer["regime"], answer["answered"], answer["grade"]["passed"]) == ("memory", "compute", False)
    assert answer["grade"]["worked"]["regime"] == "memory-bound"
    undecided = next(practice(s, 1) for s in range(100) if practice(s, 1).regime is None)
    answer = _call("practice_grade", seed=undecided.seed, level=1, lines={"regime": "can't tell yet"})
    assert (answer["regime"], answer["answered"]) == ("undecided", "undecided")
    assert _call("practice_grade", seed=1, level=1, lines="compute")["field"] == "lines"


@pytest.mark.parametrize("value", [*HOSTILE, 7, -1, 2.5, True, None, [1], {"a": 1}, 2**80])
def test_the_page_ops_answer_hostile_fields_in_one_line(value: object) -> None:
    requests = [
        {"op": "practice", "seed": value, "level": 1}, {"op": "practice", "seed": 3, "level": value},
        {"op": "practice", "seed": 3, "missed": value}, {"op": "practice", "seed": 3, "missed": [value]},
        {"op": "practice_grade", "seed": value, "lines": {}}, {"op": "practice_grade", "seed": 3, "lines": value},
        {"op": "practice_grade", "seed": 3, "lines": dict.fromkeys(("regime", "evidence", "helps", "wastes"), value)},
    ]
    for request in requests:
        response = json.loads(handle(json.dumps(request)))
        if not response["ok"]:
            assert response["field"], (request, response)
            assert "internal error" not in response["error"], (request, response)
            assert "\n" not in response["error"]


def test_practice_check_grades_without_the_answer_and_grade_gives_a_review_comment() -> None:
    lines = {"regime": "memory-bound", "evidence": "x", "helps": "", "wastes": ""}
    checked = json.loads(handle(json.dumps({"op": "practice_check", "seed": 7, "level": 1, "lines": lines})))
    assert set(checked) == {"ok", "id", "checks", "passed", "summary", "hint_rung"}  # no verdict, no worked answer
    assert checked["summary"].startswith("Checked without the answer")
    graded = json.loads(handle(json.dumps({"op": "practice_grade", "seed": 7, "level": 1, "lines": lines})))
    assert graded["grade"]["checks"] == checked["checks"]
    incident = practice(7, 1)
    name = advice(incident.verdict().regime).name if incident.verdict().regime else "undecided"
    assert graded["review"].startswith(f"Practice incident {incident.id} is **{name}**")
    assert graded["review"].endswith("[Why, with the arithmetic]({url})")


@pytest.mark.parametrize("level", LEVELS)
def test_each_incident_has_a_hint_ladder_that_never_names_its_regime(level: int) -> None:
    for seed in range(0, 400, 7):
        incident = practice(seed, level)
        ladder = hints(incident)
        verdict = incident.verdict()
        assert len(ladder) == 3, (seed, level, ladder)
        assert not [rung for rung in ladder if "{" in rung or "}" in rung]
        for rung in ladder:
            named = re.search(r"compute-bound|memory-bound|overhead-bound|host-bound|\bundecided\b", rung, re.I)
            assert not named, (seed, level, rung)
        if verdict.placement is not None and verdict.regime in ("compute", "memory"):  # its own arithmetic
            assert format_quantity(verdict.placement.ridge, Dim.INTENSITY) in ladder[2]


def test_the_practice_hint_op_climbs_the_ladder_and_refuses_a_rung_past_it() -> None:
    first = json.loads(handle(json.dumps({"op": "practice_hint", "seed": 3, "level": 2})))
    assert (first["ok"], first["rung"], first["rungs"]) == (True, 1, 3)
    last = json.loads(handle(json.dumps({"op": "practice_hint", "seed": 3, "level": 2, "rung": 3})))
    assert last["hint"].startswith("The arithmetic:")
    past = json.loads(handle(json.dumps({"op": "practice_hint", "seed": 3, "level": 2, "rung": 4})))
    assert (past["ok"], past["field"]) == (False, "rung")
