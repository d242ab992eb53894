import copy
import json
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from regime_core.bridge.api import handle
from regime_core.catalogue.levers import REGIMES, kind_advice, kinds, levers, recognise
from regime_core.content import drill
from regime_core.content.drill import hints
from regime_core.errors import RegimeError
from regime_core.grading.answer_lines import read_levers, regime_named
from regime_core.grading.attempt import MAX_IMPORT_BYTES, MAX_TEXT, parse_attempt
from regime_core.grading.grade import CRITERIA, grade, grade_incident, grade_part_c, hint
from regime_core.grading.writeup import markdown
from regime_site.parts import acceptance_panel, part_c_attempt
from strategies import json_values

CORPUS_PART_C = [a for a in json.loads((Path(__file__).parent / "data/learner_corpus.json").read_text(encoding="utf-8"))["attempts"]
                 if a["item"] == "part_c"]
PASSING = json.loads((Path(__file__).parent.parent / "examples/attempt-passing.json").read_text())


def _criteria(attempt: object) -> dict[int, bool]:
    return {c["id"]: c["passed"] for c in grade(attempt)["criteria"]}


def test_a_correct_write_up_passes_all_five() -> None:
    result = grade(PASSING)
    assert result["passed"] is True
    assert _criteria(PASSING) == dict.fromkeys(range(1, 6), True)
    for key, item in result["items"].items():
        assert item["passed"], (key, item)


def _changed(path: list[str], value: object) -> dict:
    attempt = copy.deepcopy(PASSING)
    node = attempt
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return attempt


@pytest.mark.parametrize(
    ("path", "value", "failing"),
    [
        (["part_a", "a3", "regime"], "memory-bound", 1),
        (["part_a", "a1", "helps"], "fuse the preceding relu into the matmul", 2),
        (["part_a", "a1", "helps"], "torch.compile the block", 2),
        (["part_a", "a4", "helps"], "a faster MMA kernel for attention", 3),
        (["part_a", "a4", "helps"], "switch to FlashAttention", 3),
        (["part_b", "ridge"], 200, 4),
        (["part_b", "ridge"], "a lot", None),
    ],
)
def test_each_criterion_fails_on_a_targeted_wrong_attempt(path: list[str], value: object, failing: int | None) -> None:
    attempt = _changed(path, value)
    if failing is None:
        # A ridge the grader cannot read is could-not-tell for that field and its criterion, and the rest is
        # graded: the write-up is not refused.
        result = grade(attempt)
        assert result["items"]["part_b"]["checks"]["ridge"]["passed"] is None
        assert result["criteria"][3]["passed"] is None
        assert all(c["passed"] for c in result["criteria"] if c["id"] != 4)
        return
    criteria = _criteria(attempt)
    assert criteria[failing] is False
    assert all(ok for n, ok in criteria.items() if n != failing)


def test_decode_above_the_ridge_fails_criterion_5() -> None:
    attempt = copy.deepcopy(PASSING)
    attempt["part_b"]["kernels"]["decode"]["side"] = "above"
    assert _criteria(attempt)[5] is False


def test_missing_parts_are_not_attempted() -> None:
    result = grade({})
    assert result["passed"] is False
    assert result["items"]["a1"]["attempted"] is False
    assert result["items"]["part_c"]["attempted"] is False
    assert "not attempted" in result["criteria"][1]["why"]


def test_feedback_is_specific() -> None:
    attempt = _changed(["part_a", "a2"], {"regime": "compute", "evidence": "it is slow", "helps": "more GPUs",
                                           "wastes": "fusion"})
    checks = grade(attempt)["items"]["a2"]["checks"]
    assert checks["regime"]["passed"] is False
    assert "achieved bandwidth" in checks["regime"]["why"]  # the nudge points at the deciding measurement
    assert "memory" not in checks["regime"]["why"]  # and does not give the answer away
    assert checks["evidence"]["passed"] is None  # "it is slow" is not wrong; it is not evidence the grader can read
    assert checks["helps"]["passed"] is False
    assert "would actually help" in checks["wastes"]["why"]


@pytest.mark.parametrize(
    ("text", "lever"),
    [
        ("Fuse it", "fusion"), ("kernel fusion", "fusion"), ("a fused kernel", "fusion"),
        ("use torch.compile", "compile"), ("capture a CUDA graph", "cuda_graphs"), ("cudagraphs", "cuda_graphs"),
        ("drop the .item() call", "remove_host_sync"), ("avoid host-device sync", "remove_host_sync"),
        ("quantise to int4", "quantization"), ("Quantization", "quantization"), ("bigger batch", "batching"),
        ("a faster MMA kernel", "faster_mma"), ("tensor-core kernel", "faster_mma"),
        ("lower precision", "lower_precision"), ("FP8", "lower_precision"), ("more GPUs", "more_gpus"),
        ("chunked prefill", "chunked_prefill"), ("paged attention", "kv_paging"), ("grouped-query attention", "gqa"),
        ("raise occupancy", "raise_occupancy"), ("cut registers", "raise_occupancy"),
        ("better coalescing", "access_pattern"), ("vectorized loads", "access_pattern"),
        ("vectorised loads", "access_pattern"), ("wider loads", "access_pattern"),
        ("more HBM bandwidth", "more_bandwidth"), ("a card with more bandwidth", "more_bandwidth"),
        ("speculative decoding", "speculative_decoding"), ("a draft model", "speculative_decoding"),
        ("Medusa heads", "speculative_decoding"), ("EAGLE-2", "speculative_decoding"),
        ("torch.backends.cuda.matmul.allow_tf32 = True", "faster_math"), ("FP8 GEMMs", "fp8_matmul"),
        ("cut the bytes", "cut_bytes"), ("shaving the 2 µs kernel", "micro_optimise"),
    ],
)
def test_free_text_levers_are_recognised(text: str, lever: str) -> None:
    assert lever in recognise(text)


@pytest.mark.parametrize(
    ("text", "regime"),
    [("compute-bound", "compute"), ("Memory bound", "memory"), ("bandwidth-bound", "memory"),
     ("host / sync", "overhead"), ("launch overhead", "overhead"), ("memory or compute?", None), ("", None)],
)
def test_regime_named(text: str, regime: str | None) -> None:
    assert regime_named(text) == regime


@pytest.mark.parametrize(
    "paragraph",
    ["Fusion helps memory-bound work and wastes a compute-bound week: the ridge is 156.",
     "Fusing pays off for 40k launches but not for compute, where math rules.",
     "Fusion won 3.8x in A2 because of memory traffic; compute-bound A1 would not gain."],
)
def test_part_c_with_a_number_and_both_sides(paragraph: str) -> None:
    assert grade_part_c(paragraph)["passed"] is True


def test_part_c_arguing_by_the_side_of_the_ridge_argues_both_sides() -> None:
    paragraph = ("A fused kernel is right when intensity is below the ridge (decode ~1 FLOP/B vs 156) and"
                 " career-limiting above it (matmul ~1360).")
    assert grade_part_c(paragraph)["checks"]["both_sides"]["passed"] is True


def test_part_c_without_a_number_fails_only_that() -> None:
    checks = grade_part_c("Fusion helps memory-bound work and wastes compute-bound work.")["checks"]
    assert checks["number"]["passed"] is False
    assert checks["both_sides"]["passed"] is True


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        ([], "attempt"),
        ({"part_a": []}, "part_a"),
        ({"part_a": {"a9": {}}}, "part_a.a9"),
        ({"part_a": {"a1": {"regime": 5}}}, "part_a.a1.regime"),
        ({"part_a": {"a1": {"vibe": "x"}}}, "part_a.a1.vibe"),
        ({"part_a": {"a1": {"evidence": "x" * 20_000}}}, "part_a.a1.evidence"),
        ({"part_b": {"kernels": {"conv": {}}}}, "part_b.kernels.conv"),
        ({"part_b": {"kernels": {"add": {"side": 5}}}}, "part_b.kernels.add.side"),
        ({"part_b": {"ridge": float("nan")}}, "part_b.ridge"),
        ({"part_c": ["a"]}, "part_c"),
        ({"extra": 1}, "extra"),
    ],
)
def test_bad_attempts_name_the_field(raw: object, field: str) -> None:
    with pytest.raises(RegimeError) as info:
        grade(raw)
    assert info.value.field == field




@settings(max_examples=200)
@given(st.dictionaries(st.sampled_from(["part_a", "part_b", "part_c"]), json_values, max_size=3))
def test_random_attempts_grade_or_raise_regime_error(raw: dict) -> None:
    try:
        result = grade(raw)
    except RegimeError as exc:
        assert exc.field
    else:
        assert len(result["criteria"]) == 5


def test_write_up_markdown_has_the_four_lines_and_the_verdict() -> None:
    attempt = parse_attempt(_changed(["part_a", "a6", "evidence"], "<script>alert(1)</script> 8 µs of gap"))
    text = markdown(attempt, grade(PASSING))
    assert "- **Lever that wastes the week:**" in text
    assert "### A6." in text
    assert "<script>" not in text
    assert "**Passing write-up.**" in text
    assert "| decode step, 7B, fp16, batch 1 | 1 FLOP/byte | below |" in text


def test_write_up_names_a_regime_the_form_stored_by_its_key() -> None:
    # The drill's radio buttons store "memory"; the write-up a mentor reads says "memory-bound", and a regime
    # the learner typed in words is left in their words.
    keyed = markdown(parse_attempt(_changed(["part_a", "a2", "regime"], "memory")), grade(PASSING))
    assert "- **Regime:** memory-bound" in keyed
    assert "- **Regime:** memory\n" not in keyed
    typed = markdown(parse_attempt(_changed(["part_a", "a2", "regime"], "bandwidth-limited, I think")), grade(PASSING))
    assert "- **Regime:** bandwidth-limited, I think" in typed


def _run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "regime_core", *args], input=stdin, capture_output=True, text=True,
                          timeout=60, check=False)


def test_cli_gradejson_values_contract() -> None:
    out = _run("grade", "examples/attempt-passing.json", "--json")
    assert out.returncode == 0
    data = json.loads(out.stdout)
    assert data["passed"] is True
    assert [c["id"] for c in data["criteria"]] == [1, 2, 3, 4, 5]
    assert set(data["items"]) >= {"a1", "a8", "part_b", "part_c"}


@pytest.mark.parametrize("stdin", ["not json", '{"part_a": {"a9": {}}}', '{"part_a": {"a1": {"regime": [1]}}}',
                                   json.dumps({"part_c": "x" * 1_100_000})])
def test_cli_grade_bad_files_are_one_line_exit_2(stdin: str) -> None:
    out = _run("grade", "-", stdin=stdin)
    assert out.returncode == 2
    assert len(out.stderr.strip().splitlines()) == 1
    assert "Traceback" not in out.stderr


#: An attempt made from the drill's own "Check your work", line by line, in its words; where the key
#: has no line of its own, the line comes from the key's wording for a sibling incident.
ANSWER_KEY = json.loads((Path(__file__).parent.parent / "examples/attempt-answer-key.json").read_text())


def test_the_drills_own_answer_key_passes_all_five_and_no_line_is_marked_wrong() -> None:
    result = grade(ANSWER_KEY)
    assert [c["passed"] for c in result["criteria"]] == [True] * 5
    marked_wrong = [(item, name) for item, graded in result["items"].items()
                    for name, check in graded["checks"].items() if check["passed"] is False]
    assert marked_wrong == []


@pytest.mark.parametrize(
    ("item", "line", "text"),
    [
        ("a1", "wastes", "writing a fused relu-matmul for a kernel already on tensor cores"),
        ("a2", "regime", "mem"), ("a2", "regime", "BW-bound"), ("a1", "evidence", "70 per cent of peak"),
        ("a5", "helps", "more gpu"), ("a7", "helps", "Keep the value on the GPU and stop reading it back every token"),
        ("a6", "wastes", "optimize the small kernel"), ("a6", "wastes", "tuning the 2us kernel"),
        ("a8", "evidence", "saturates HBM"), ("a7", "evidence", ".item() in the loop"),
        ("a2", "evidence", "1.7TB/s"), ("a3", "evidence", "12us"), ("a1", "evidence", "seventy percent of peak"),
    ],
)
def test_the_phrasings_issue_13_found_marked_wrong_now_pass(item: str, line: str, text: str) -> None:
    entry = {**ANSWER_KEY["part_a"][item], line: text}
    assert grade({"part_a": {item: entry}})["items"][item]["checks"][line]["passed"] is True


@pytest.mark.parametrize(
    ("text", "offered", "denied"),
    [
        ("Not KV paging.", [], ["kv_paging"]), ("Cut traffic (quant, GQA, paging), not registers.",
                                               ["cut_bytes", "quantization", "gqa", "kv_paging"], ["raise_occupancy"]),
        ("quantised weights rather than a faster kernel", ["quantization"], ["faster_mma"]),
        ("fusion won't help here", [], ["fusion"]), ("avoid the host sync", ["remove_host_sync"], []),
        ("a fused relu-matmul for a kernel already on tensor cores", ["fusion"], []),
    ],
)
def test_negation_and_context_decide_what_a_line_offers(text: str, offered: list[str], denied: list[str]) -> None:
    line = read_levers(text)
    assert list(line.offered) == offered
    assert list(line.denied) == denied


@pytest.mark.parametrize(
    ("item", "line", "text"),
    [
        ("a2", "wastes", "FP8 math — the maths isn't what's slow"), ("a2", "regime", "Bandwidth-bound — the maths is trivial"),
        ("a1", "regime", "tensor-core bound"), ("a4", "helps", "GPTQ 4-bit weights"), ("a4", "helps", "AWQ int4"),
        ("a4", "wastes", "the 'faster' attention kernel"), ("a5", "helps", "split prefill across 2+ GPUs"),
        ("a5", "wastes", "quantising the KV cache"), ("a7", "helps", "a non_blocking copy, checked every 16 tokens"),
        ("a8", "wastes", "add more SMs"), ("a4", "evidence", "47 ms/token floor"), ("a5", "wastes", "KV cache compression"),
        ("a6", "wastes", "kernel-level tuning"), ("a7", "helps", "move the EOS check on-device"),
        ("a7", "wastes", "a faster GEMM"), ("a7", "wastes", "optimizing attention"), ("a4", "wastes", "FA3"),
        ("a7", "regime", "neither compute nor memory: host sync"),
    ],
)
def test_field_shorthand_a_reader_understands_passes(item: str, line: str, text: str) -> None:
    entry = {**ANSWER_KEY["part_a"][item], line: text}
    assert grade({"part_a": {item: entry}})["items"][item]["checks"][line]["passed"] is True


@pytest.mark.parametrize(("item", "text"), [("a8", "add more SMs"), ("a4", "FP8 math"), ("a2", "FP8 math"),
                                           ("a8", "more warps per SM")])
def test_more_sms_or_faster_math_offered_for_a_memory_bound_kernel_fails(item: str, text: str) -> None:
    entry = {**ANSWER_KEY["part_a"][item], "helps": text}
    assert grade({"part_a": {item: entry}})["items"][item]["checks"]["helps"]["passed"] is False


@pytest.mark.parametrize(
    ("item", "line", "text", "passed"),
    [
        # Memory-side levers (coalescing, wider loads, more bandwidth) and speculative decoding fit memory only.
        ("a2", "helps", "vectorized loads and fusion", True), ("a8", "helps", "a card with more HBM bandwidth", True),
        ("a4", "helps", "speculative decoding with a draft model", True), ("a4", "helps", "Medusa heads", True),
        ("a3", "wastes", "better coalescing", True), ("a3", "wastes", "more HBM bandwidth", True),
        ("a5", "wastes", "speculative decoding: it only adds FLOPs", True),
        ("a3", "helps", "wider loads", False), ("a1", "helps", "a card with more bandwidth", False),
        ("a5", "helps", "speculative decoding", False), ("a7", "helps", "EAGLE", False),
        ("a4", "wastes", "speculative decoding", False), ("a2", "wastes", "a card with more HBM bandwidth", False),
    ],
)
def test_memory_side_levers_and_speculative_decoding_fit_memory_bound_kernels_only(
        item: str, line: str, text: str, passed: bool) -> None:
    entry = {**ANSWER_KEY["part_a"][item], line: text}
    assert grade({"part_a": {item: entry}})["items"][item]["checks"][line]["passed"] is passed


@pytest.mark.parametrize(
    ("item", "text", "passed"),
    [
        ("a4", "weights stream each step", True), ("a3", "shrinking 4x doesn't matter (rule 3)", True),
        ("a7", "cpu blocks on gpu", True), ("a7", "+6 ms per token", True), ("a7", "+6ms/token", True),
        ("a7", "+75% ITL, same kernels", True), ("a6", "duty cycle 20%: kernels busy a fifth of the time", True),
        ("a4", "14 gigs of bf16 weights read per token", True), ("a2", "1.7 TB/sec of the 2 TB/sec", True),
        ("a2", "~1.55 TiB/s achieved vs a 1.82 TiB/s peak", True),
        # A fact counts only for its own incident, and a different number is not the fact.
        ("a8", "shrinking 4x doesn't matter (rule 3)", None), ("a7", "+16 ms per token", False),
    ],
)
def test_incident_facts_written_as_engineers_write_them_count_as_evidence(item: str, text: str,
                                                                         passed: bool | None) -> None:
    entry = {**ANSWER_KEY["part_a"][item], "evidence": text}
    assert grade({"part_a": {item: entry}})["items"][item]["checks"]["evidence"]["passed"] is passed


@pytest.mark.parametrize("text", ["occupancy is 62%", "62% occupancy", "occupancy: 62 %"])
def test_a_figure_given_as_occupancy_is_not_evidence_even_when_the_number_matches(text: str) -> None:
    entry = {**ANSWER_KEY["part_a"]["a5"], "evidence": text}
    check = grade({"part_a": {"a5": entry}})["items"]["a5"]["checks"]["evidence"]
    assert check["passed"] is False
    assert "Occupancy" in check["why"]


@pytest.mark.parametrize(
    ("item", "text", "passed"),
    [
        ("a1", "GPU util is 100% in nvidia-smi", False), ("a4", "GPU utilization 100%", False),
        # A8's deciding figure is 100% of peak bandwidth: the same number given as GPU-Util is not it.
        ("a8", "GPU util 100%", False), ("a8", "100% GPU utilisation", False),
        ("a8", "saturates HBM, GPU util 100%", True),
        # On a launch-bound timeline a low GPU-Util is a reading of the gaps, so it is not failed there.
        ("a6", "GPU util around 20%", None),
    ],
)
def test_a_gpu_utilisation_figure_is_not_evidence_of_a_roof(item: str, text: str, passed: bool | None) -> None:
    entry = {**ANSWER_KEY["part_a"][item], "evidence": text}
    check = grade({"part_a": {item: entry}})["items"][item]["checks"]["evidence"]
    assert check["passed"] is passed
    if passed is False:
        assert "GPU utilisation" in check["why"]


@pytest.mark.parametrize(
    ("text", "passed"),
    [("add torch.cuda.synchronize() after every step so the timing is clean", False),
     ("insert a .item() check every step", False),
     ("drop any torch.cuda.synchronize() in the loop", True), ("do not add a sync", True),
     ("add non_blocking=True to the copy of the stop flag", True), ("put a sync-free stop check on device", True)],
)
def test_adding_a_host_sync_is_offering_the_problem_not_its_cure(text: str, passed: bool) -> None:
    entry = {**ANSWER_KEY["part_a"]["a7"], "helps": text}
    assert grade({"part_a": {"a7": entry}})["items"]["a7"]["checks"]["helps"]["passed"] is passed


@pytest.mark.parametrize(
    ("item", "line", "text", "passed"),
    [("a1", "helps", "FP8 GEMMs", True), ("a1", "wastes", "FP8 GEMMs", False),
     # On the memory roof 'FP8 matmul' may mean faster math (no help) or FP8 operands (fewer bytes).
     ("a2", "wastes", "TF32/FP8 matmul flags: there's no matmul here", None), ("a2", "wastes", "FP8 matmul", None),
     ("a4", "helps", "FP8 matmuls", None), ("a2", "wastes", "allow_tf32", True)],
)
def test_fp8_matmul_is_faster_math_on_the_compute_roof_and_could_not_tell_on_the_memory_roof(
        item: str, line: str, text: str, passed: bool | None) -> None:
    entry = {**ANSWER_KEY["part_a"][item], line: text}
    assert grade({"part_a": {item: entry}})["items"][item]["checks"][line]["passed"] is passed


def test_part_c_that_describes_fusion_without_naming_it_passes_the_fusion_check() -> None:
    described = ("Collapsing the chain into a single kernel is right when HBM traffic sets the time (A2, 1.7 TB/s)"
                 " and career-limiting when the math does (A1, 70% of peak).")
    assert grade_part_c(described)["checks"]["fusion"]["passed"] is True
    neither = "A2 needs fewer bytes at 1.7 TB/s, a 3.8-fold gap, while A1 at 70% needs faster math."
    assert grade_part_c(neither)["checks"]["fusion"]["passed"] is False


def test_occupancy_named_beside_the_deciding_fact_still_passes() -> None:
    entry = {**ANSWER_KEY["part_a"]["a8"], "evidence": "saturates HBM; 55% occupancy is irrelevant (rule 4)"}
    assert grade({"part_a": {"a8": entry}})["items"]["a8"]["checks"]["evidence"]["passed"] is True


def test_an_unreadable_line_is_could_not_tell_and_fails_no_criterion() -> None:
    attempt = _changed(["part_a", "a1", "helps"], "ask the vendor")
    result = grade(attempt)
    assert result["items"]["a1"]["checks"]["helps"]["passed"] is None
    assert result["items"]["a1"]["checks"]["helps"]["why"].startswith("Could not tell")
    assert result["criteria"][1]["passed"] is None
    assert all(c["passed"] is not False for c in result["criteria"])
    assert result["passed"] is None


def test_part_c_on_compile_alone_passes_the_fusion_check_and_says_what_it_checked() -> None:
    checks = grade_part_c("torch.compile won 3.8x on memory-bound A2 and nothing on the compute-bound matmul.")["checks"]
    assert checks["fusion"]["passed"] is True
    assert checks["fusion"]["why"].startswith("Says where fusion pays: “torch.compile won 3.8")


def test_criteria_keep_their_wording_and_reveal_no_answer_before_an_attempt() -> None:
    result = grade({"part_a": {"a6": PASSING["part_a"]["a6"]}})
    assert [c["text"] for c in result["criteria"]] == list(CRITERIA)
    whys = " ".join(c["why"] for c in result["criteria"])
    assert "Not attempted yet: A1, A2, A3, A4, A5, A7, A8" in whys
    assert "look again" not in whys.lower()
    for answer in ("156", "1 FLOP/byte", "thousand"):
        assert answer not in whys
    assert not re.search(r"\b(compute|memory|overhead)\b", whys)


ITEMS = [*(f"a{n}" for n in range(1, 9)), "part_b", "part_c"]


@pytest.mark.parametrize("item", ITEMS)
def test_hints_are_a_ladder_of_three_that_names_no_regime(item: str) -> None:
    ladder = hints(item)
    assert len(ladder) == 3, ladder
    assert len(set(ladder)) == 3, "a rung repeats another"
    for text in ladder:
        assert not re.search(r"(compute|memory|overhead|host|communication)[- ]bound", text.lower()), (item, text)
    # The nudge is the shortest; the top rung does the arithmetic, so it carries numbers the nudge need not.
    assert len(ladder[0]) < len(ladder[2])
    assert len(re.findall(r"\d", ladder[2])) > len(re.findall(r"\d", ladder[0]))
    assert [hint(item, rung) for rung in (1, 2, 3, 4)] == [*ladder, ladder[2]]


def test_a_wrong_regime_line_gives_the_nudge_and_the_hint_button_starts_above_it() -> None:
    """The ✗ line says where to look (rung 1) and the item says so, so Hint shows rung 2 first: no repeat."""
    for item in (f"a{n}" for n in range(1, 9)):
        wrong = "compute-bound" if drill.incident(item).verdict().regime != "compute" else "memory-bound"
        graded = grade_incident(item, {"regime": wrong, "evidence": "", "helps": "", "wastes": ""})
        assert graded["checks"]["regime"]["why"].endswith(hints(item)[0])
        assert not any(rung in graded["checks"]["regime"]["why"] for rung in hints(item)[1:])
        assert graded["hint_rung"] == 1
        right = grade_incident(item, {"regime": drill.incident(item).verdict().regime or "", "evidence": "x"})
        assert right["hint_rung"] == 0


def _call(op: str, **fields: object) -> dict:
    return json.loads(handle(json.dumps({"op": op, **fields})))


def test_a_part_c_as_long_as_the_page_allows_grades() -> None:
    assert f'maxlength="{MAX_TEXT}"' in part_c_attempt()
    paragraph = (PASSING["part_c"] + " ") * (MAX_TEXT // (len(PASSING["part_c"]) + 1))
    response = _call("grade", items={"part-c": {"paragraph": paragraph[:MAX_TEXT]}})
    assert response["ok"] is True
    assert response["grade"]["items"]["part_c"]["passed"] is True


@pytest.mark.parametrize("filler", ["x", "\u0001", '"'])
def test_the_largest_import_the_page_accepts_is_refused_naming_the_file_not_the_request(filler: str) -> None:
    assert f'data-max-import-bytes="{MAX_IMPORT_BYTES}"' in acceptance_panel()
    response = _call("import_attempt", text=filler * MAX_IMPORT_BYTES)
    assert response["ok"] is False
    assert response["field"] == "file"


def test_an_import_just_under_the_limit_is_read() -> None:
    text = json.dumps(PASSING)
    padded = text[:-1] + " " * (MAX_IMPORT_BYTES - len(text.encode())) + "}"
    assert len(padded.encode()) == MAX_IMPORT_BYTES
    assert _call("import_attempt", text=padded)["ok"] is True


def test_the_hint_op_answers_per_item_and_rung_and_refuses_an_unknown_one_by_name() -> None:
    assert _call("hint", item="a8")["hint"] == hint("a8")
    assert _call("hint", item="part-b")["hint"] == hint("part_b")
    third = _call("hint", item="a6", rung=3)
    assert (third["hint"], third["rung"], third["rungs"]) == (hints("a6")[2], 3, 3)
    refused = _call("hint", item="a9")
    assert (refused["ok"], refused["field"]) == (False, "item")
    for rung in (0, 4, "2", 1.5, True, None):
        refused = _call("hint", item="a1", rung=rung)
        assert (refused["ok"], refused["field"]) == (False, "rung"), rung
        assert "from 1 to 3" in refused["error"]


def test_feedback_marks_could_not_tell_as_such_never_as_a_cross() -> None:
    entry = {**PASSING["part_a"]["a1"], "helps": "ask the vendor"}
    lines = _call("grade", items={"a1": entry})["feedback"]["a1"]
    assert "Lever that helps: ? Could not tell" in " ".join(lines)
    assert not any("✗" in line for line in lines)


@pytest.mark.parametrize("line", ["fuse " * 2000, "not fuse, " * 1000, "memory not compute " * 500])
def test_an_attempt_full_to_every_limit_grades_in_seconds_not_minutes(line: str) -> None:
    text = line[:MAX_TEXT]
    full = {"part_a": {f"a{n}": dict.fromkeys(("regime", "evidence", "helps", "wastes"), text) for n in range(1, 9)},
            "part_b": {"kernels": {k: {"optimisation": text} for k in ("add", "matmul", "decode")}}, "part_c": text}
    started = time.perf_counter()
    grade(full)
    assert time.perf_counter() - started < 10  # about 2 s on CPython (6 s while lever mentions were compared pairwise)


def test_checking_a_wrong_part_b_gives_no_number_of_the_answer_away() -> None:
    wrong = {"ridge": "200", "kernels": {"add": {"intensity": "3", "side": "above", "optimisation": "fp8"},
                                         "matmul": {"intensity": "10", "side": "below", "optimisation": "fusion"},
                                         "decode": {"intensity": "50", "side": "above", "optimisation": "mma"}}}
    result = grade({"part_b": wrong})
    whys = " ".join([*(c["why"] for c in result["items"]["part_b"]["checks"].values()),
                     *(c["why"] for c in result["criteria"])])
    assert all(c["passed"] is False for c in result["items"]["part_b"]["checks"].values())
    for answer in ("156", "1.37k", "1365", "0.333", "0.167", "below the ridge", "above the ridge"):
        assert answer not in whys


def test_a_part_b_ridge_written_as_an_estimate_is_graded_not_refused() -> None:
    result = grade({"part_a": {}, "part_b": {"ridge": "~156 FLOP per byte", "kernels": {}}, "part_c": ""})
    assert result["items"]["part_b"]["checks"]["ridge"]["passed"] is True


@pytest.mark.parametrize(
    ("item", "line", "text", "passed"),
    [
        # A decode on the memory roof reads its weights: fusion, compiling and coalescing fit the regime
        # but need not move it, so the grader cannot tell, and says why (it neither passes nor fails them).
        ("a8", "helps", "better coalescing", None), ("a8", "helps", "fuse the kernels", None),
        ("a4", "helps", "torch.compile", None), ("a8", "wastes", "kernel fusion", None),
        ("a8", "helps", "int4 weights and fusion", None),
        # An elementwise chain's bytes are its round trips: there fusion and compiling are the lever.
        ("a2", "helps", "fuse the kernels", True), ("a2", "helps", "torch.compile", True),
        ("a2", "wastes", "kernel fusion", False),
    ],
)
def test_levers_that_fit_the_regime_but_not_a_decode_on_the_roof_are_could_not_tell(
        item: str, line: str, text: str, passed: bool | None) -> None:
    entry = {**ANSWER_KEY["part_a"][item], line: text}
    check = grade({"part_a": {item: entry}})["items"][item]["checks"][line]
    assert check["passed"] is passed
    if passed is None:
        assert "weights" in check["why"], check["why"]


def test_every_doubt_in_levers_json_names_a_kind_the_classifier_gives() -> None:
    doubted = {kind for lever in levers() for kind, _ in lever.doubtful_for}
    assert doubted, "no lever is doubtful for any kind: the check would pass on anything"
    assert doubted <= set(kinds())


def test_every_kind_in_levers_json_belongs_to_a_regime_and_every_rule_names_one_of_them() -> None:
    assert {kind_advice(kind)[0] for kind in kinds()} == set(REGIMES)
    source = (Path(__file__).parents[1] / "src/regime_core/judgment/classify.py").read_text(encoding="utf-8")
    named = set(re.findall(r'(?:return|decided\.append\()\s*"(\w+)"', source))
    assert named, "no rule names a kind: the check would pass on anything"
    assert named <= set(kinds()), named - set(kinds())


TURNED_AROUND = "Fusion is right for compute-bound A1 because it cuts FLOPs; it is wasted on memory-bound A2 at 1.7 TB/s."


def test_a_part_c_argued_the_wrong_way_round_is_not_passed_and_says_which_clause() -> None:
    # both sides argued, both turned round: the fusion check fails what it says fusion does, naming the clause; the
    # both-sides check cannot tell which way it runs and says which clause
    checks = grade_part_c(TURNED_AROUND)["checks"]
    assert checks["fusion"]["passed"] is False
    assert checks["both_sides"]["passed"] is None
    assert '"Fusion is right for compute-bound A1 because it cuts FLOPs"' in checks["both_sides"]["why"]


@pytest.mark.parametrize(
    "paragraph",
    [
        *(a["answer"]["paragraph"] for a in CORPUS_PART_C if not a["wrong"]),
        "Fusion helps A2 (1.7 TB/s, memory-bound) and A6, but for A1, which is compute-bound at 70% of peak, fusing"
        " the relu buys nothing.",
        "Compile helped A2 3.8x because the chain was memory-bound; on A1 the math already runs at 70% of peak, so"
        " fusion won't move it.",
        "Fusing the relu into the matmul's epilogue is right only when the epilogue's traffic matters: A1 is"
        " compute-bound at 1365 FLOP/byte, so it changes nothing there, while A2's bytes made compile pay 3.8x.",
    ],
)
def test_no_right_part_c_is_read_as_turned_around(paragraph: str) -> None:
    assert "which way your argument runs" not in grade_part_c(paragraph)["checks"]["both_sides"]["why"]


@pytest.mark.parametrize(("item", "entry", "field"), [
    ("a9", {"regime": "compute"}, "part_a.a9"),
    ("a2", {"regime": 5}, "part_a.a2.regime"),
    ("a3", {"regime": "memory", "confidence": "high"}, "part_a.a3.confidence"),
    ("a4", {"evidence": "x" * (MAX_TEXT + 1)}, "part_a.a4.evidence"),
])
def test_an_item_another_version_saved_is_set_aside_and_the_rest_graded(item: str, entry: dict, field: str) -> None:
    response = _call("grade", items={item: entry, "a1": {"regime": "compute-bound", "evidence": "70% of peak"}})
    assert response["ok"] is True
    assert response["set_aside"][item].startswith(f"{field}")
    assert list(response["feedback"]) == ["a1"]
    assert item not in response["attempt"]["part_a"]
    assert response["grade"]["items"]["a1"]["attempted"] is True
    first = response["grade"]["criteria"][0]["why"]
    if item != "a9":  # not one of the drill's: no criterion names it
        assert f"{item.upper()} saved by another version: kept, not graded" in first
        assert item.upper() not in first.split(";")[0]  # not listed as "not attempted yet"


def test_items_the_page_could_not_read_are_kept_not_untried() -> None:
    response = _call("grade", items={}, kept=["a4", "part-b"])
    criteria = [c["why"] for c in response["grade"]["criteria"]]
    assert criteria[0] == ("Not attempted yet: A1, A2, A3, A5, A6, A7, A8; A4 saved by another version: kept,"
                           " not graded.")
    assert "A4 saved by another version: kept, not graded." in criteria
    refused = _call("grade", items={}, kept="a4")
    assert (refused["ok"], refused["field"]) == (False, "kept")


def test_a_file_of_empty_objects_answers_nothing_and_changes_nothing() -> None:
    response = _call("import_attempt", text=json.dumps({"part_a": {"a1": {}, "a2": {"evidence": "  "}},
                                                        "part_b": {"kernels": {"add": {}}}, "part_c": ""}))
    assert response["ok"] is False
    assert response["field"] == "file"
    partly = _call("import_attempt", text=json.dumps({"part_a": {"a1": {}, "a2": {"regime": "memory"}}}))
    assert partly["items"] == {"a2": {"regime": "memory"}}


def test_every_feedback_line_is_labelled_as_its_field_and_speaks_as_the_project() -> None:
    """Lines read "Lever that helps: ✗ …", never "helps: …"; the grader is "the grader", never "I"."""
    from regime_core.grading.labels import PART_C, PRACTICE
    from regime_core.judgment.words import LABEL

    rows = {r.label[:1].upper() + r.label[1:] for r in drill.part_b()}
    known = {*LABEL.values(), *PART_C.values(), "Ridge", *rows}
    attempts = [PASSING, {"part_a": {i: {"regime": "compute", "evidence": "zz", "helps": "qq", "wastes": ""}
                                     for i in (f"a{n}" for n in range(1, 9))},
                          "part_b": {"ridge": 3, "kernels": {"add": {"intensity": 9, "side": "above", "optimisation": "x"}}},
                          "part_c": "it depends"}]
    seen = set()
    for attempt in attempts:
        items = {**attempt["part_a"], "part-b": attempt["part_b"],
                 "part-c": {"paragraph": attempt["part_c"]}}
        response = _call("grade", items=items)
        for line in (line for lines in response["feedback"].values() for line in lines):
            label = line.split(": ", 1)[0]
            assert label in known, line
            seen.add(label)
            assert not re.search(r"\bI (could|can|cannot|did)\b", line), line
    assert seen == known, f"labels never produced: {known - seen}"
    practice = _call("practice_grade", seed=7, level=1, lines={"regime": "memory", "evidence": "x", "helps": "y",
                                                                "wastes": "z"})
    assert {c["label"] for c in practice["grade"]["checks"].values()} <= set(PRACTICE.values())


def test_an_imported_regime_in_words_becomes_the_forms_choice() -> None:
    text = json.dumps({"part_a": {"a1": {"regime": "Compute bound: tensor cores at 70%", "evidence": "70% of peak"},
                                  "a2": {"regime": "memory-bound"}, "a3": {"regime": "no idea yet"}}})
    items = _call("import_attempt", text=text)["items"]
    assert (items["a1"]["regime"], items["a2"]["regime"]) == ("compute", "memory")
    assert items["a1"]["evidence"] == "70% of peak"
    assert items["a3"]["regime"] == "no idea yet"  # names none: kept as written, and the grader says so


@pytest.mark.parametrize(("raw", "said"), [
    ({"schemaVersion": 1, "traceEvents": []}, "profiler trace"), ({"traceEvents": []}, "Your trace page"),
    ({"observed": {"time": "1 ms"}}, "symptoms file"),
])
def test_a_file_of_another_kind_is_named_for_what_it_is(raw: object, said: str) -> None:
    with pytest.raises(RegimeError, match=said) as info:
        grade(raw)
    assert info.value.field == "file"
