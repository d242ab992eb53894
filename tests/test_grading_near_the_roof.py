"""A lever that only brings a kernel nearer its roof, judged by how near the roof the kernel already is.

Better loads, coalescing and tiling leave the work and the bytes as they are: they can give at most 1 ÷ the share of
the roof the kernel reaches. The drill's A2 runs at 85% of peak bandwidth ("achieved GB/s near peak"), so they can
give 1.18× where fusion gave 3.8×: refusing them is right, and offering them as the help misses the lever. A1 at 70%
of peak FLOP/s is not that near its roof, and tiling there is still a help. Found in the blind sets (issue 40):
refusals of bandwidth tuning for A2 were marked "would actually help this kernel".
"""

from __future__ import annotations

from typing import Any

import pytest

from regime_core.grading.answer_lines import NEAR_ITS_ROOF, roof_share
from regime_core.grading.grade import grade
from regime_core.judgment.symptoms import parse_symptoms
from regime_core.practice.generate import practice
from regime_core.practice.grade import grade_lines, worked_attempt


def _check(item: str, field: str, text: str) -> dict[str, Any]:
    answer = {"regime": "", "evidence": "", "helps": "", "wastes": "", field: text}
    check: dict[str, Any] = grade({"part_a": {item: answer}})["items"][item]["checks"][field]
    return check


@pytest.mark.parametrize("text", [
    "Tuning memory coalescing, the bandwidth is already at 85%.",
    "Chasing bandwidth from 1.7 to 2.0 TB/s.",
    "vectorised loads",
    "Per-kernel bandwidth tuning, bounded by ≤ 2.0/1.7 ≈ 1.18.",
])
def test_refusing_better_loads_for_a_chain_near_its_bandwidth_roof_passes(text: str) -> None:
    check = _check("a2", "wastes", text)
    assert check["passed"] is True, check
    assert "85% of peak bandwidth" in check["why"], check
    assert "1.18×" in check["why"], check


def test_better_loads_offered_as_the_help_near_the_roof_fail_and_beside_fusion_pass() -> None:
    alone = _check("a2", "helps", "Vectorised loads, to squeeze the last bandwidth out.")
    assert alone["passed"] is False, alone
    assert "1.18× at most" in alone["why"], alone
    assert _check("a2", "helps", "torch.compile, then vectorised loads")["passed"] is True


def test_a_kernel_not_near_its_roof_still_has_room_for_them() -> None:
    # A1 at 70% of peak FLOP/s: tiling can still give 1.43×, so refusing it is the old reading
    assert _check("a1", "wastes", "better tiling")["passed"] is False
    # and a lever that changes the bytes is no lever "near its roof": refusing it for A2 is still wrong
    assert _check("a2", "wastes", "cutting the bytes the chain moves")["passed"] is False


def test_a_generated_incident_near_its_roof_reads_the_same() -> None:
    near = far = None
    for seed in range(200):
        incident = practice(seed, 1 + seed % 3)
        verdict = incident.verdict()
        if verdict.regime not in ("memory", "compute"):
            continue
        share = roof_share(parse_symptoms(incident.symptoms), verdict.regime)
        if share is not None and NEAR_ITS_ROOF <= share <= 1 and near is None:
            near = (incident, verdict)
        elif share is not None and share < NEAR_ITS_ROOF - 0.1 and far is None:
            far = (incident, verdict)
    assert near is not None
    assert far is not None
    for (incident, verdict), passed in ((near, True), (far, False)):
        lines = {**worked_attempt(incident, verdict), "wastes": "better tiling"}
        assert grade_lines(incident, verdict, lines)["checks"]["wastes"]["passed"] is passed, incident.statement
