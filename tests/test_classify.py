import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from regime_core.content import drill
from regime_core.errors import RegimeError
from regime_core.judgment.classify import classify
from regime_core.judgment.symptoms import parse_symptoms
from strategies import json_values

# The drill's acceptance point 1.
ACCEPTANCE = {
    "a1": "compute", "a5": "compute",
    "a2": "memory", "a4": "memory", "a8": "memory",
    "a3": "overhead", "a6": "overhead", "a7": "overhead",
}


@pytest.mark.parametrize(("incident_id", "regime"), sorted(ACCEPTANCE.items()))
def test_every_incident_derives_the_drills_regime(incident_id: str, regime: str) -> None:
    verdict = drill.incident(incident_id).verdict()
    assert verdict.regime == regime
    assert verdict.evidence
    assert verdict.lever
    assert verdict.waste


def test_incident_data_never_stores_the_answer() -> None:
    for item in drill.incidents():
        assert "regime" not in item.symptoms_raw


def test_a1_refuses_fusion_and_a4_refuses_a_faster_mma_kernel() -> None:
    a1 = drill.incident("a1").verdict()
    assert "fuse the preceding relu" in a1.waste
    assert "fus" not in a1.lever.lower()
    a4 = drill.incident("a4").verdict()
    assert "MMA" in a4.waste
    assert "mma" not in a4.lever.lower()


def test_a4_floor_is_47_ms_per_token_and_38_tok_s_is_flagged() -> None:
    verdict = drill.incident("A4").verdict()
    assert verdict.placement is not None
    assert verdict.placement.floor_seconds == pytest.approx(0.0467, rel=0.01)
    assert 1 / verdict.placement.floor_seconds == pytest.approx(21.4, rel=0.01)
    assert len(verdict.anomalies) == 1
    assert "21.4 tok/s" in verdict.anomalies[0]


def test_evidence_cites_the_deciding_numbers() -> None:
    assert "1.7 TB/s of 2 TB/s" in " ".join(drill.incident("a2").verdict().evidence)
    a6 = " ".join(drill.incident("a6").verdict().evidence)
    assert "2 µs of kernel" in a6
    assert "8 µs of gap" in a6
    assert "12 µs" in " ".join(drill.incident("a3").verdict().evidence)


def test_growing_a3_makes_it_memory_bound() -> None:
    raw = dict(drill.incident("a3").symptoms_raw)
    raw["work"] = {**raw["work"], "shape": [8, 4096, 4096]}
    raw["observed"] = {"time": "2.5 ms"}
    assert classify(parse_symptoms(raw)).regime == "memory"


@given(st.floats(min_value=0, max_value=1))
def test_occupancy_never_changes_a_verdict(occupancy: float) -> None:
    for item in drill.incidents():
        base = item.symptoms
        changed = dataclasses.replace(base, observed=dataclasses.replace(base.observed, occupancy=occupancy))
        assert classify(changed).regime == classify(base).regime


def test_occupancy_alone_decides_nothing() -> None:
    verdict = classify(parse_symptoms({"observed": {"occupancy": "20%"}}))
    assert verdict.regime is None
    assert "shrink test" in verdict.needs


def test_shrink_test_rule_3() -> None:
    assert classify(parse_symptoms({"observed": {"shrink_4x_ratio": 1.1}})).regime == "overhead"
    scaled = classify(parse_symptoms({"observed": {"shrink_4x_ratio": 3.9}}))
    assert scaled.regime is None
    assert "work" in scaled.needs


def test_measurement_above_the_roof_is_an_anomaly() -> None:
    verdict = classify(parse_symptoms({
        "hardware": "l4", "work": {"flops": "1e9", "bytes": "3 GB"}, "observed": {"time": "1 ms"},
    }))
    assert verdict.anomalies
    assert verdict.regime == "memory"


def test_a_fitting_proposal_is_endorsed() -> None:
    raw = dict(drill.incident("a2").symptoms_raw, proposal="torch.compile the chain")
    verdict = classify(parse_symptoms(raw))
    assert verdict.lever.startswith("torch.compile the chain")


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        ([], "symptoms"),
        ({"hardware": "nope"}, "hardware"),
        ({"hardware": "t4", "dtype": "bf16"}, "dtype"),
        ({"observed": {"bandwidth": "fast"}}, "observed.bandwidth"),
        ({"observed": {"host_sync_in_loop": "yes"}}, "observed.host_sync_in_loop"),
        ({"observed": {"launches": 2.5}}, "observed.launches"),
        ({"observed": {"speed": 1}}, "observed.speed"),
        ({"observed": []}, "observed"),
        ({"colour": "red"}, "colour"),
        ({"proposal": 5}, "proposal"),
    ],
)
def test_bad_symptoms_name_the_field(raw: object, field: str) -> None:
    with pytest.raises(RegimeError) as info:
        parse_symptoms(raw)
    assert info.value.field == field


_keys = st.sampled_from(["hardware", "dtype", "work", "observed", "proposal"])
_observed_keys = st.sampled_from(["time", "flops_fraction", "bandwidth", "tokens_per_s", "kernel_time", "gap_time",
                                  "launches", "shrink_4x_ratio", "host_sync_in_loop", "occupancy"])


@settings(max_examples=300)
@given(st.dictionaries(_keys, json_values, max_size=5), st.dictionaries(_observed_keys, json_values, max_size=5))
def test_random_symptoms_give_a_verdict_or_a_regime_error(top: dict, observed: dict) -> None:
    raw = {**top, "observed": observed}
    try:
        verdict = classify(parse_symptoms(raw))
    except RegimeError as exc:
        assert exc.field
    else:
        assert verdict.regime in (None, "compute", "memory", "overhead")


@pytest.mark.parametrize("proposal", ["fuse the kernels", "torch.compile the decode loop", "coalesce the loads"])
def test_a_proposal_that_fits_the_regime_but_not_a_decode_on_the_roof_is_not_called_fitting(proposal: str) -> None:
    v = classify(parse_symptoms({"hardware": "h100-sxm", "dtype": "bf16", "observed": {"bandwidth_fraction": 0.9},
                                 "work": {"kernel": "decode", "params": 7e9, "batch": 1}, "proposal": proposal}))
    assert (v.regime, v.kind) == ("memory", "decode")
    assert "it fits" not in v.lever
    assert f"The proposal, {proposal}, may not: a decode step on the memory roof" in v.lever
    assert v.lever.startswith("cut the bytes each token reads")


def test_the_same_proposal_on_an_elementwise_chain_on_the_roof_fits() -> None:
    v = classify(parse_symptoms({"hardware": "h100-sxm", "dtype": "fp16", "observed": {"bandwidth_fraction": 0.9},
                                 "work": {"kernel": "elementwise", "shape": [8, 4096, 4096], "ops": 4},
                                 "proposal": "fuse the kernels"}))
    assert (v.regime, v.kind) == ("memory", "memory")
    assert v.lever.startswith("fuse the kernels, as proposed — it fits")


@pytest.mark.parametrize(
    ("proposal", "waste"),
    [
        ("raise occupancy by cutting registers", "raise occupancy by cutting registers: it does not help"),
        ("cut registers to 64 so more warps fit", "cut registers to 64 so more warps fit (raising occupancy): it"),
        ("use the tensor cores harder", "use the tensor cores harder (a faster MMA kernel): it does not help"),
    ],
)
def test_a_refused_proposal_names_its_lever_only_where_its_own_words_do_not(proposal: str, waste: str) -> None:
    v = classify(parse_symptoms({"hardware": "h100-sxm", "dtype": "bf16", "work": {"kernel": "decode", "params": 7e9},
                                 "observed": {"bandwidth_fraction": 0.9}, "proposal": proposal}))
    assert v.waste.startswith(waste)
