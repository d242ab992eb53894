"""The classifier reads evidence, not geometry: one normal form for units, thresholds on both sides."""

from __future__ import annotations

from typing import Any

import pytest

from regime_core.catalogue.quantity import number
from regime_core.errors import RegimeError
from regime_core.judgment import classify as c
from regime_core.judgment.classify import SYNC_DECISIVE, classify
from regime_core.judgment.symptoms import parse_symptoms

L4_DECODE = {"hardware": "l4", "dtype": "bf16", "work": {"kernel": "decode", "params": "7B", "batch": 1}}
TINY_ADD = {"hardware": {"peak_flops": "30 TFLOP/s", "bandwidth": "360 GB/s"}, "dtype": "fp32",
            "work": {"kernel": "elementwise", "shape": [4096], "inputs": 2}}
A100_DECODE = {"hardware": "a100-80gb-sxm", "dtype": "bf16", "work": {"kernel": "decode", "params": "6.74B"}}


def verdict(base: dict[str, Any] | None = None, **observed: object) -> c.Verdict:
    return classify(parse_symptoms({**(base or {}), "observed": observed}))


def _same_run(base: dict[str, Any], step: float) -> list[dict[str, object]]:
    """One run, given in every unit the format takes."""
    s = parse_symptoms(base)
    assert s.work is not None
    assert s.hardware is not None
    peak, bw = s.hardware.peak(s.dtype or "bf16"), s.hardware.bandwidth.value
    flop_rate, byte_rate = s.work.flops / step, s.work.bytes / step
    units: list[dict[str, object]] = [
        {"time": step},
        {"bandwidth": byte_rate},
        {"bandwidth_fraction": byte_rate / bw},
        {"achieved_flops": flop_rate},
        {"flops_fraction": flop_rate / peak},
        {"mfu": flop_rate / peak},
    ]
    if s.work.tokens_per_run:
        units += [{"tokens_per_s": s.work.tokens_per_run / step}, {"time_per_token": f"{step * 1000} ms/token"}]
    return units


@pytest.mark.parametrize(("base", "step", "regime"), [
    (L4_DECODE, 14e9 / 300e9 / 0.7, "memory"),  # 70% of the L4's bandwidth
    (TINY_ADD, 17e-6, "overhead"),  # the 4,096-element add: 2.8 GB/s or 17 µs
    (A100_DECODE, 1 / 25.5, None),  # gpt-fast's eager decode: far from both roofs, nothing else measured
])
def test_the_same_run_in_every_unit_gets_the_same_verdict(base: dict[str, Any], step: float, regime: str | None) -> None:
    runs = _same_run(base, step)
    verdicts = [verdict(base, **observed) for observed in runs]
    assert {v.regime for v in verdicts} == {regime}, [(r, v.regime) for r, v in zip(runs, verdicts, strict=True)]
    assert len(runs) >= 6


def test_a_kernel_far_from_both_roofs_is_undecided_with_a_leaning_and_a_next_measurement() -> None:
    v = verdict(A100_DECODE, tokens_per_s=25.5)
    assert v.regime is None
    assert v.leaning == "memory"
    assert "leaning towards memory, not a verdict" in " ".join(v.evidence)
    assert "CUDA graph" in v.needs
    assert v.to_json()["leaning"] == "memory"


def test_a_large_cuda_graph_speedup_decides_overhead() -> None:
    assert verdict(A100_DECODE, tokens_per_s=25.5, graph_speedup=4.2).regime == "overhead"


def test_a_tiny_kernel_at_launch_latency_is_overhead_not_memory() -> None:
    add = {"hardware": "h100-sxm", "dtype": "fp32", "work": {"kernel": "elementwise", "shape": [65536], "inputs": 2}}
    v = verdict(add, time="1.5 µs")
    assert v.regime == "overhead"
    assert "launch-scale" in v.evidence[0]


def test_shrinking_a_decode_batch_does_not_shrink_the_bytes_so_it_cannot_say_overhead() -> None:
    base = {"hardware": "a100-80gb-sxm", "dtype": "bf16", "work": {"kernel": "decode", "params": "7B", "batch": 4}}
    v = verdict(base, shrink_4x_ratio=1.28, shrunk="batch")
    assert v.regime is None
    assert "bytes only 1×" in v.evidence[0]
    # The same ratio for a shrink of the whole input is Rule 3.
    assert verdict(base, shrink_4x_ratio=1.28).regime == "overhead"


def test_a_measurement_the_memory_roof_forbids_is_an_anomaly() -> None:
    tiny = {"hardware": {"peak_flops": "312 TFLOP/s", "bandwidth": "2.0 TB/s"}, "dtype": "fp16",
            "work": {"kernel": "matmul", "m": 64, "n": 64, "k": 64}}
    v = verdict(tiny, flops_fraction="70%")
    assert v.regime != "compute"
    assert len(v.anomalies) == 1
    assert "caps it at 13.7% of peak" in v.anomalies[0]


def test_an_moe_read_as_dense_beats_the_floor_and_the_anomaly_names_moe() -> None:
    mixtral = {"hardware": "a100-80gb-sxm", "dtype": "bf16", "work": {"kernel": "decode", "params": "46.7B"}}
    v = verdict(mixtral, tokens_per_s=60)
    assert v.anomalies
    assert "give the active parameters" in v.anomalies[0]
    active = {**mixtral, "work": {**mixtral["work"], "active_params": "12.9B"}}
    assert verdict(active, tokens_per_s=60).anomalies == []



def test_a_rate_beyond_the_floor_asks_only_for_what_the_symptoms_do_not_give() -> None:
    given = {"hardware": "a100-80gb-sxm", "dtype": "bf16",
             "work": {"kernel": "decode", "params": "46.7B", "active_params": "12.9B", "weight_dtype": "int8"}}
    note = verdict(given, tokens_per_s=300).anomalies[0]
    assert "weight format" not in note
    assert "active parameters" not in note
    assert "must include batching or speculative decoding" in note


def test_a_decode_in_its_own_dtype_names_it_once() -> None:
    v = verdict({"hardware": "h100-sxm", "dtype": "bf16", "work": {"kernel": "decode", "params": "8e9",
                                                                   "weight_dtype": "bf16"}}, tokens_per_s=60)
    assert v.placement.work.label == "decode step, 8e9 params, bf16, batch 1"


@pytest.mark.parametrize(("observed", "regime"), [
    ({"kernel_time": "1 µs", "gap_time": "1 µs"}, "overhead"),  # GAP_SHARE: idle exactly half
    ({"kernel_time": "1 µs", "gap_time": "0.96 µs"}, None),
    ({"gpu_utilization": "50%"}, "overhead"),  # IDLE_UTILIZATION
    ({"gpu_utilization": "51%"}, None),
    ({"time": "100 ms", "loader_time": "50 ms"}, "overhead"),  # LOADER_SHARE
    ({"time": "100 ms", "loader_time": "49 ms"}, None),
    ({"graph_speedup": 1.5}, "overhead"),  # GRAPH_DECISIVE
    ({"graph_speedup": 1.49}, None),
    ({"shrink_4x_ratio": 1.5}, "overhead"),  # SHRINK_FLAT at 4×: 1 + 3/6
    ({"shrink_4x_ratio": 1.51}, None),
    ({"shrink_2x_ratio": 1.16}, "overhead"),  # SHRINK_FLAT at 2×: 1 + 1/6
    ({"shrink_2x_ratio": 1.18}, None),
    ({"flops_fraction": "40%"}, "compute"),  # NEAR_COMPUTE_ROOF
    ({"flops_fraction": "39%"}, None),
    ({"mfu": "40%"}, "compute"),
    ({"bandwidth_fraction": "50%"}, "memory"),
    ({"bandwidth_fraction": "49%"}, None),
])
def test_each_threshold_decides_on_one_side_only(observed: dict[str, object], regime: str | None) -> None:
    assert verdict(**observed).regime == regime


def test_a_graph_speedup_between_the_thresholds_is_evidence_that_decides_nothing() -> None:
    v = verdict(graph_speedup=1.44)
    assert v.regime is None
    assert any("1.44× faster: launches took 30.6% of it" in line for line in v.evidence), v.evidence
    proposed = classify(parse_symptoms({"observed": {"graph_speedup": 1.44}, "proposal": "capture it in a CUDA graph"}))
    assert proposed.waste.startswith("capture it in a CUDA graph: already measured at 1.44×")
    other = classify(parse_symptoms({"observed": {"graph_speedup": 1.44}, "proposal": "quantise the weights to int4"}))
    assert "too early" in other.waste


@pytest.mark.parametrize(("time", "regime"), [
    ("10 µs", "overhead"),  # within two launch latencies, work under half the time
    ("11 µs", None),
])
def test_launch_latency_threshold(time: str, regime: str | None) -> None:
    # 5.8 MB at 2 TB/s is a 2.9 µs floor: 29% of a 10 µs step, 26% of an 11 µs one.
    base = {"hardware": {"peak_flops": "312 TFLOP/s", "bandwidth": "2.0 TB/s"}, "dtype": "fp32",
            "work": {"kernel": "raw", "flops": 1e6, "bytes": 5.8e6}}
    assert verdict(base, time=time).regime == regime


@pytest.mark.parametrize(("time", "regime"), [("50 µs", "overhead"), ("51 µs", None)])
def test_launch_scale_threshold_for_a_handful_of_launches(time: str, regime: str | None) -> None:
    base = {"hardware": {"peak_flops": "312 TFLOP/s", "bandwidth": "2.0 TB/s"}, "dtype": "fp32",
            "work": {"kernel": "raw", "flops": 1e6, "bytes": 9e6}}  # floor 4.5 µs: 9% of 50 µs
    assert verdict(base, time=time).regime == regime


@pytest.mark.parametrize(("flops", "anomalous"), [("315 TFLOP/s", False), ("316 TFLOP/s", True)])
def test_above_compute_roof_threshold(flops: str, anomalous: bool) -> None:
    card = {"hardware": {"peak_flops": "312 TFLOP/s", "bandwidth": "2.0 TB/s"}}  # 1.01× is 315.1 TFLOP/s
    assert bool(verdict(card, achieved_flops=flops).anomalies) is anomalous


@pytest.mark.parametrize(("bandwidth", "anomalous"), [("2.04 TB/s", False), ("2.05 TB/s", True)])
def test_above_roof_threshold(bandwidth: str, anomalous: bool) -> None:
    card = {"hardware": {"peak_flops": "312 TFLOP/s", "bandwidth": "2.0 TB/s"}}  # 1.02× is 2.04 TB/s
    assert bool(verdict(card, bandwidth=bandwidth).anomalies) is anomalous


def test_reported_but_never_decisive_measurements_are_said_to_decide_nothing() -> None:
    v = verdict(gpu_utilization="100%", sm_active="90%", occupancy="30%")
    assert v.regime is None
    text = " ".join(v.evidence)
    assert "decides nothing" in text
    assert text.count("decides nothing") == 3


def test_the_data_loader_lever_is_the_loader_not_cuda_graphs() -> None:
    v = verdict(time="100 ms", loader_time="70 ms")
    assert "DataLoader workers" in v.lever
    assert "CUDA graphs" in v.waste


def test_decode_on_the_memory_roof_gets_the_cut_traffic_lever() -> None:
    v = verdict(L4_DECODE, tokens_per_s=15)
    assert v.regime == "memory"
    assert "quantise the weights" in v.lever


@pytest.mark.parametrize(("work", "field"), [
    ({"kernel": "decode", "params": "7 parsecs"}, "work.params"),
    ({"kernel": "decode", "params": "7B", "weight_dtype": "q3_magic"}, "work.weight_dtype"),
    ({"kernel": "decode", "params": "7B", "active_params": "13B"}, "work.active_params"),
    ({"kernel": "attention", "heads": 8, "seq": 128, "head_dim": 64, "causal": "yes"}, "work.causal"),
    ({"kernel": "matmul", "m": 8, "n": 8, "k": 8, "batch": -1}, "work.batch"),
])
def test_new_work_fields_refuse_bad_input_by_name(work: dict[str, object], field: str) -> None:
    with pytest.raises(RegimeError) as err:
        parse_symptoms({"work": work})
    assert err.value.field == field


@pytest.mark.parametrize(("observed", "field"), [
    ({"shrunk": "height"}, "observed.shrunk"),
    ({"time_per_token": "fast"}, "observed.time_per_token"),
    ({"gpu_util": "30%"}, "observed.gpu_util"),
])
def test_new_observed_fields_refuse_bad_input_by_name(observed: dict[str, object], field: str) -> None:
    with pytest.raises(RegimeError) as err:
        parse_symptoms({"observed": observed})
    assert err.value.field == field


def test_notes_are_kept_and_shown_but_decide_nothing() -> None:
    base = {"observed": {"flops_fraction": "62%"}}
    plain = classify(parse_symptoms(base))
    noted = classify(parse_symptoms({**base, "notes": "measured with torch.utils.benchmark, 100 runs"}))
    assert noted.notes.startswith("measured with")
    assert (noted.regime, noted.evidence) == (plain.regime, plain.evidence)


def test_model_card_parameter_counts_and_weight_formats() -> None:
    q4 = parse_symptoms({"work": {"kernel": "decode", "params": "7B", "weight_dtype": "q4_0"}}).work
    assert q4 is not None
    assert q4.bytes == pytest.approx(7e9 * 18 / 32)  # 18 bytes per block of 32 weights
    moe = parse_symptoms({"work": {"kernel": "decode", "params": "46.7B", "active_params": "12.9B"}}).work
    assert moe is not None
    assert moe.flops == pytest.approx(2 * 12.9e9)


def test_the_reference_documents_every_symptoms_field() -> None:
    from pathlib import Path

    from regime_core.judgment.symptoms import OBSERVED_FIELDS, TOP_FIELDS
    from regime_core.model.work import FIELDS

    page = (Path(__file__).parents[1] / "docs" / "reference" / "symptoms.md").read_text(encoding="utf-8")
    names = {*OBSERVED_FIELDS, "launches", "shrunk", "host_sync_in_loop", *TOP_FIELDS}
    names |= {f for fields in FIELDS.values() for f in fields}
    missing = sorted(n for n in names if f"`{n}`" not in page)
    assert missing == []


def test_several_gpus_the_verdict_says_what_it_assumed() -> None:
    one = {"hardware": "a100-80gb-sxm", "dtype": "bf16", "work": {"kernel": "decode", "params": "70B"}}
    eight = {**one, "hardware": {"id": "a100-80gb-sxm", "count": 8}}
    assert verdict(one, tokens_per_s=60).anomalies
    v = verdict(eight, tokens_per_s=60)
    assert (v.regime, v.anomalies) == ("memory", [])
    assert any("8 × " in line and "summed" in line for line in v.evidence)


def test_a_proposal_is_judged_against_what_the_gpu_waits_on() -> None:
    starved = {"observed": {"time": "100 ms", "loader_time": "70 ms"}}
    graphs = classify(parse_symptoms({**starved, "proposal": "capture the step in a CUDA graph"}))
    assert "starved of input" in graphs.waste
    workers = classify(parse_symptoms({**starved, "proposal": "more DataLoader workers"}))
    assert "as proposed — it fits" in workers.lever
    synced = {"observed": {"host_sync_in_loop": True, "time": "14 ms", "time_before": "8 ms"},
              "proposal": "fuse the kernels"}
    assert "CPU waits" in classify(parse_symptoms(synced)).waste


def test_every_idle_measurement_given_adds_its_line_and_the_first_that_decides_names_the_kind() -> None:
    v = verdict(time="887 ms", loader_time="791 ms", gpu_utilization="5%")
    assert v.regime == "overhead"
    assert v.evidence[0].startswith("791 ms of each 887 ms step waits on the data loader")
    assert any(line.startswith("GPU utilisation 5%") for line in v.evidence), v.evidence
    assert "DataLoader workers" in v.lever  # the loader's lever, not the generic overhead one


def test_a_host_sync_with_the_time_before_it_states_what_the_wait_costs() -> None:
    v = verdict(host_sync_in_loop=True, time="14 ms", time_before="8 ms")
    assert (v.regime, v.kind) == ("overhead", "host")
    assert "went from 8 ms to 14 ms (1.75×): the wait costs 6 ms a step, 42.9% of it" in v.evidence[0]
    faster = verdict(host_sync_in_loop=True, time="8 ms", time_before="14 ms")
    assert "went from 14 ms to 8 ms (0.571×): no slower with it, so the wait is not what sets the pace" in faster.evidence[0]
    assert faster.regime is None  # a sync that costs nothing is not the regime


@pytest.mark.parametrize(
    ("observed", "said"),
    [
        # rf-detr PR #1492: 164 syncs a step cut to 15 bought 0.23%, on a GPU 89% busy.
        ({"gpu_utilization": "89%"}, "yet the GPU is busy 89% of the time: the wait can cost at most the 11% it idles"),
        # TornadoVM PR #1023: the step with the sync and without it, 17.46 µs and 17.44 µs.
        ({"time": "17.46 µs", "time_before": "17.44 µs"}, "barely slower with it, so the wait is not what sets the pace"),
        ({}, "a suspect, but what the wait costs is not measured"),
        # lingbot-world PR #51: removing the .item() syncs took 15134 ms to 13523 ms: real, but a tenth of the step.
        ({"time": "15134 ms", "time_before": "13523 ms"}, "the wait costs 1.61 s a step, 10.6% of it — real overhead,"
                                                         " but not most of the step"),
        # torch2trt #471: 0.003 s unsynchronised, 0.06 s synchronised: the fast time never waited for the GPU.
        ({"time": "0.06 s", "time_before": "0.003 s"}, "more than a sync can cost (see the anomaly)"),
    ],
)
def test_a_host_sync_whose_cost_is_not_shown_is_said_not_blamed(observed: dict[str, str], said: str) -> None:
    v = verdict(host_sync_in_loop=True, **observed)
    assert v.regime is None
    assert said in v.evidence[0]
    assert v.needs.startswith("time the step without the host sync") or "time_before" in observed
    if "time_before" not in observed:  # the band it asks for is the one that decides
        assert f"a step {number(SYNC_DECISIVE)}× or more slower with it is host-bound" in v.needs


def test_gaps_far_longer_than_a_launch_read_as_an_idle_gpu_not_launch_overhead() -> None:
    waits = verdict(kernel_time="0.106 ms", gap_time="16.9 ms")
    assert (waits.regime, waits.kind) == ("overhead", "idle")
    assert "far longer than a launch" in waits.evidence[0]
    assert "find what the GPU waits for" in waits.lever
    fence = verdict(kernel_time="2 µs", gap_time="8 µs", launches=40000)
    assert (fence.regime, fence.kind) == ("overhead", "launch")


def test_a_proposal_already_measured_is_kept_on_its_record_not_called_a_waste() -> None:
    """llama.cpp PR #6766: CUDA graphs bought a memory-bound decode 1.06×; the verdict keeps the gain and says why."""
    decode = {"hardware": "rtx-4090", "dtype": "fp16", "work": {"kernel": "decode", "params": "7B", "batch": 1},
              "observed": {"bandwidth_fraction": "0.8", "graph_speedup": 1.06}, "proposal": "CUDA graphs"}
    v = classify(parse_symptoms(decode))
    assert v.regime == "memory"
    assert "CUDA graphs" not in v.waste
    assert v.lever.endswith("The proposal, CUDA graphs, is already measured at 1.06×: keep it, but it is not what"
                            " limits a memory-bound kernel")
    chain = {"observed": {"bandwidth_fraction": "0.85", "fused_speedup": 3.8}, "proposal": "torch.compile it",
             "hardware": "h100-sxm", "work": {"kernel": "elementwise", "shape": [8, 4096, 4096], "ops": 4}}
    assert classify(parse_symptoms(chain)).lever.startswith("torch.compile it, as proposed — it fits, already measured"
                                                           " at 3.8×")


def test_a_measured_sync_removal_is_on_record_and_a_tiny_fusion_gain_is_not_called_paying() -> None:
    v = classify(parse_symptoms({"observed": {"host_sync_in_loop": True, "time": "31.7 ms", "time_before": "28.4 ms"},
                                 "proposal": "remove the host sync from the loop"}))
    assert v.regime is None
    assert v.waste.startswith("remove the host sync from the loop: already measured at 1.12×")
    decode = {"hardware": "rtx-4090", "dtype": "fp16", "work": {"kernel": "decode", "params": "8B", "batch": 1},
              "observed": {"bandwidth_fraction": "0.63", "fused_speedup": 1.01}, "proposal": "fuse RoPE into the KV write"}
    d = classify(parse_symptoms(decode))
    assert "fusing bought only 1.01×: the round trips it deleted were a small part of the bytes" in d.evidence
    assert "The proposal, fuse RoPE into the KV write, may not (measured: 1.01×):" in d.lever


def test_a_sync_ab_beyond_serialising_is_an_anomaly_that_says_how_to_time_it() -> None:
    v = verdict(host_sync_in_loop=True, time="0.06 s", time_before="0.003 s")
    assert v.regime is None
    assert len(v.anomalies) == 1
    assert "did not wait for the GPU" in v.anomalies[0]
    assert v.needs.startswith("time the step again, with torch.cuda.synchronize()")
    dropped = classify(parse_symptoms({"observed": {"host_sync_in_loop": True, "time": "0.06 s", "time_before": "0.003 s"},
                                       "proposal": "remove the host sync"}))
    assert "already measured" not in dropped.waste  # an impossible A/B measures nothing
    assert verdict(host_sync_in_loop=True, time="30 µs", time_before="6 µs").anomalies == []  # a round trip's worth
