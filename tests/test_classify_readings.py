"""Readings that agree with their own numbers: shares beyond a peak flagged, long kernels not sent to a graph
capture, a host sync with its timeline decided, and 25-50% of a roof said as below it, not far."""

from __future__ import annotations

import pytest

from regime_core.errors import RegimeError
from regime_core.judgment.classify import classify
from regime_core.judgment.symptoms import Symptoms, parse_symptoms


def _verdict(raw: dict[str, object]) -> dict[str, object]:
    out: dict[str, object] = classify(parse_symptoms(raw)).to_json()
    return out


@pytest.mark.parametrize(("observed", "roof"), [({"mfu": "104%"}, "compute"), ({"flops_fraction": 1.07}, "compute"),
                                                ({"bandwidth_fraction": "107%"}, "memory")])
def test_a_share_beyond_the_peak_is_read_and_flagged_never_on_the_roof(observed: dict[str, object], roof: str) -> None:
    out = _verdict({"hardware": "h100-sxm", "observed": observed})
    assert out["regime"] == roof
    assert "beyond the" in str(out["evidence"])
    assert "on the compute roof" not in str(out["evidence"])
    (anomaly,) = out["anomalies"]  # type: ignore[misc]
    assert "another card's peak" in anomaly


@pytest.mark.parametrize("field", ["gpu_utilization", "occupancy", "sm_active"])
def test_shares_that_cannot_pass_100_percent_are_still_refused(field: str) -> None:
    with pytest.raises(RegimeError, match="above 100%"):
        parse_symptoms({"observed": {field: "150%"}})


def test_a_stretch_kernel_timed_under_its_floor_is_an_anomaly_not_on_the_roof() -> None:
    out = _verdict({"hardware": "a100-80gb-sxm", "dtype": "fp16",
                    "work": {"kernel": "matmul", "m": 4096, "n": 4096, "k": 4096}, "observed": {"time": "300 µs"}})
    assert out["anomalies"]
    assert "on the compute roof" not in str(out["evidence"])


@pytest.mark.parametrize("time", ["16 ms", "314 ms"])
def test_one_long_kernel_is_never_sent_to_a_graph_capture(time: str) -> None:
    out = _verdict({"hardware": "b200", "dtype": "fp8", "work": {"kernel": "matmul", "m": 16384, "n": 16384,
                                                               "k": 16384},
                    "observed": {"time": time}})
    assert out["regime"] is None
    assert "CUDA graph" not in str(out["needs"])
    assert "Nsight Compute" in str(out["needs"])


def test_a_half_millisecond_gemm_at_a_few_percent_is_one_kernel_to_profile_not_launches() -> None:
    # Issue 25's case: 0.5 ms is some fifty launches' worth; graphs cannot be what it needs.
    out = _verdict({"hardware": "b200", "dtype": "fp8", "work": {"kernel": "matmul", "m": 4096, "n": 4096, "k": 4096},
                    "observed": {"time": "0.5 ms"}})
    assert "CUDA graph" not in str(out["needs"])
    assert "500 µs kernel" in str(out["needs"])
    tiny = _verdict({"hardware": "h100-sxm", "dtype": "bf16", "work": {"kernel": "elementwise", "shape": "8x32x32"},
                     "observed": {"time": "12 us"}})  # A3: launch-sized, graphs still the measurement
    assert "Nsight Compute" not in str(tiny["needs"])


def test_a_short_kernel_or_a_whole_step_may_still_be_sent_to_a_graph_capture() -> None:
    out = _verdict({"hardware": "a100-80gb-sxm", "dtype": "bf16", "work": {"kernel": "decode", "params": "7B"},
                    "observed": {"tokens_per_s": 25.5}})
    assert "CUDA graph" in str(out["needs"])


@pytest.mark.parametrize(("gap", "regime"), [("6 ms", "overhead"), ("2 ms", None)])
def test_a_host_sync_with_its_timeline_is_decided_by_the_timeline(gap: str, regime: str | None) -> None:
    out = _verdict({"observed": {"host_sync_in_loop": True, "time": "14 ms", "kernel_time": "8 ms", "gap_time": gap}})
    assert out["regime"] == regime
    assert "what the wait costs is not measured" not in str(out["evidence"])
    assert "time the step without the host sync" not in str(out["needs"])


@pytest.mark.parametrize(("fraction", "says"), [("45%", "below that roof, not on it"), ("12%", "far from that roof")])
def test_a_share_between_a_quarter_and_the_roof_is_below_it_not_far(fraction: str, says: str) -> None:
    out = _verdict({"hardware": "l4", "observed": {"bandwidth_fraction": fraction}})
    assert out["regime"] is None
    assert says in str(out["evidence"])


@pytest.mark.parametrize(("observed", "regime"), [({"time": "400 ms", "comm_time": "300 ms"}, "communication"),
                                                  ({"comm_share": "75%"}, "communication"),
                                                  ({"comm_share": "8%", "bandwidth_fraction": "80%"}, "memory")])
def test_exposed_communication_most_of_the_step_is_its_own_verdict(observed: dict[str, object], regime: str) -> None:
    out = _verdict({"hardware": {"id": "h100-sxm", "count": 8}, "observed": observed})
    assert out["regime"] == regime
    assert "collectives no compute overlaps" in str(out["evidence"])
    if regime == "communication":
        assert "overlap the collectives" in str(out["lever"])
        assert "tuning the kernels" in str(out["waste"])


def test_a_learner_may_name_communication_and_is_told_where_it_does_not_fit() -> None:
    from regime_core.grading.grade import grade

    entry = {"regime": "communication-bound", "evidence": "70% of peak", "helps": "FP8", "wastes": "fusing the relu"}
    check = grade({"part_a": {"a1": entry}})["items"]["a1"]["checks"]["regime"]
    assert check["passed"] is False
    assert "communication-bound" in check["why"]


# Words for work a kernel does not do: a single GEMM or attention kernel has no prompts to shorten and no
# prefill to chunk; an elementwise chain reads no weights and no KV cache.
_NOT_ITS_WORK = {"matmul": ("prompt", "prefill"), "attention": ("prompt", "prefill"),
                 "elementwise": ("prompt", "prefill", "weight", "kv", "gqa")}


def _verdicts() -> list[tuple[str, Symptoms]]:
    from regime_core.content import casebook, drill
    from regime_core.practice.generate import practice

    found = [(f"drill {i.id}", i.symptoms) for i in drill.incidents()]
    found += [(f"case {c.id}", c.symptoms) for c in casebook.cases()]
    found += [(f"practice {n}", parse_symptoms(practice(n, 1 + n % 3).symptoms)) for n in range(0, 1500, 3)]
    return found


def test_no_verdict_offers_or_refuses_work_its_kernel_does_not_do() -> None:
    wrong = []
    for where, symptoms in _verdicts():
        kind = str((symptoms.work_spec or {}).get("kernel", "")) if symptoms.work is not None else ""
        verdict = classify(symptoms)
        if verdict.regime not in ("compute", "memory") or kind not in _NOT_ITS_WORK:
            continue
        said = f"{verdict.lever} {verdict.waste}".lower()
        proposal = symptoms.proposal.lower()  # a proposal is quoted back as given: its words are the learner's
        wrong += [(where, word) for word in _NOT_ITS_WORK[kind] if word in said and word not in proposal]
    assert wrong == []


def test_work_already_in_fp8_is_not_offered_fp8() -> None:
    out = _verdict({"hardware": "l40s", "dtype": "fp8", "work": {"kernel": "matmul", "m": 8192, "n": 8192, "k": 8192},
                    "observed": {"flops_fraction": "70%"}})
    assert "already runs in FP8" in str(out["lever"])


def test_a_kernel_nearer_the_memory_roof_is_not_read_as_on_the_compute_roof() -> None:
    """An fp32 bmm from a real A100 trace: 42% of peak FLOP/s, 47% of peak bandwidth, just below the ridge."""
    bmm = {"hardware": "a100-40gb-sxm", "dtype": "fp32", "work": {"flops": 3.816e9, "bytes": 3.457e8},
           "observed": {"time": "470.7 us"}}
    v = classify(parse_symptoms(bmm))
    assert v.regime is None
    assert v.leaning == "memory"
    assert "41.6% of peak FLOP/s (below it, not on it) and 47.2% of peak bandwidth (below it, not on it)" in v.evidence[0]
    # The same FLOP/s share with little traffic is still the compute roof.
    gemm = {**bmm, "work": {"flops": 3.816e9, "bytes": 3.457e7}}
    assert classify(parse_symptoms(gemm)).regime == "compute"


def test_a_rate_past_a_figure_the_instruction_may_beat_names_the_figure_and_the_instruction() -> None:
    """An RTX 5090 FP8 GEMM at 2x the catalogue's FP8 (FP32-accumulate) figure: past that figure, not impossible."""
    mx = {"hardware": "rtx-5090", "dtype": "fp8", "work": {"kernel": "matmul", "m": 8192, "n": 8192, "k": 8192},
          "observed": {"achieved_flops": "800 TFLOP/s"}}
    (anomaly,) = classify(parse_symptoms(mx)).anomalies
    assert anomaly.startswith("191% of the card's dense fp8 peak (419 TFLOP/s): beyond that figure.")
    assert "for one accumulate width: FP32 accumulate" in anomaly
    assert "Block-scaled math (MXFP8, MXFP6, MXFP4, NVFP4 on Blackwell)" in anomaly
    # A bf16 MFU past an H100's peak has no other instruction to blame: it is impossible, and says which peak.
    (mfu,) = classify(parse_symptoms({"hardware": "h100-sxm", "dtype": "bf16", "observed": {"mfu": "104%"}})).anomalies
    assert mfu.startswith("104% of the card's dense bf16 peak (990 TFLOP/s): impossible.")
    assert "Block-scaled" not in mfu


# The classifier's held-out misses (issue 40): readings of published cases that the arithmetic makes plain.

@pytest.mark.parametrize(("observed", "regime"), [
    ({"time": "14 ms", "kernel_time": "8 ms", "host_sync_in_loop": True}, "overhead"),  # 6 ms of gap: 1.75x
    ({"time": "8.4 ms", "kernel_time": "8 ms", "host_sync_in_loop": True}, None),  # 0.4 ms of gap: cheap
])
def test_a_step_with_its_kernel_time_and_a_host_sync_implies_the_gap(observed: dict[str, object],
                                                                      regime: str | None) -> None:
    out = _verdict({"observed": observed})
    assert out["regime"] == regime
    assert "of gap a step" in str(out["evidence"])


def test_a_kernel_time_per_launch_is_not_taken_for_the_step_s() -> None:
    out = _verdict({"observed": {"time": "14 ms", "kernel_time": "8 µs", "launches": 1000, "host_sync_in_loop": True}})
    assert "of gap a step" not in str(out["evidence"])


@pytest.mark.parametrize(("observed", "regime"), [
    ({"time": "0.8 s", "launches": 100_000}, "overhead"),  # 8 µs a launch
    ({"time": "0.8 s", "launches": 1000}, None),  # 800 µs a launch: not launch-scale
])
def test_a_long_loop_of_tiny_launches_is_launch_bound(observed: dict[str, object], regime: str | None) -> None:
    out = _verdict({"observed": observed})
    assert out["regime"] == regime
    if regime:
        assert "8 µs each" in str(out["evidence"])


def test_a_launch_loop_whose_work_explains_its_time_is_not_called_overhead() -> None:
    # a 4096 matmul in 200 µs split over 20 launches (10 µs each): its floor, ~139 µs, explains the time
    out = _verdict({"hardware": "h100-sxm", "dtype": "fp16", "work": {"kernel": "matmul", "m": 4096, "n": 4096,
                                                                         "k": 4096},
                    "observed": {"time": "200 µs", "launches": 20}})
    assert out["regime"] != "overhead"


def test_a_serial_split_across_devices_is_not_host_overhead() -> None:
    out = _verdict({"observed": {"gpu_utilization": "26%", "pipeline_stages": 4}})
    assert out["regime"] is None
    assert "serialisation" in str(out["evidence"])
    alone = _verdict({"observed": {"gpu_utilization": "26%"}})
    assert alone["regime"] == "overhead"


def test_a_fusion_measured_to_buy_nothing_is_not_the_lever_offered() -> None:
    # A3: compile bought 1.08×. The launch-bound chain is offered CUDA graphs and fewer launches, not fusion;
    # the same chain with no fusion measured (or one that paid) is offered fusion first.
    from regime_core.catalogue.levers import FUSION_BOUGHT_NOTHING
    from regime_core.content import drill
    from regime_core.grading.answer_lines import read_levers
    from regime_core.judgment.classify import classify
    from regime_core.judgment.symptoms import parse_symptoms

    a3 = drill.incident("a3").verdict()
    assert a3.regime == "overhead"
    offered = read_levers(a3.lever).offered
    assert "fusion" not in offered, a3.lever
    assert "cuda_graphs" in offered, a3.lever
    assert "1.08×" in a3.lever
    chain = {"hardware": "l40s", "dtype": "fp32", "work": {"kernel": "elementwise", "shape": [2, 16, 32], "ops": 3},
             "observed": {"time": "24 µs"}}
    unmeasured = classify(parse_symptoms(chain))
    assert unmeasured.regime == "overhead"
    assert "fusion" in read_levers(unmeasured.lever).offered
    paid = classify(parse_symptoms({**chain, "observed": {"time": "24 µs", "fused_speedup": FUSION_BOUGHT_NOTHING * 2}}))
    assert "fusion" in read_levers(paid.lever).offered
