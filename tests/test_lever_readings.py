"""Lever lines read after this session's training set: a reason that names a bound is no lever, and the ways people
say they would keep the host from waiting (a copy made asynchronously, a stop-check batched) are that lever.
"""

from __future__ import annotations

import pytest

from regime_core.grading.answer_lines import read_levers
from regime_core.grading.grade import grade

ANSWER = {"regime": "", "evidence": "", "helps": "", "wastes": ""}


@pytest.mark.parametrize(("text", "offered"), [
    ("MMA-heavy attention rewrite — a compute optimisation on a bandwidth-limited account.",
     ["faster_mma", "faster_math"]),
    ("Remove the per-token host read: keep the token on the device, or copy asynchronously to pinned memory.",
     ["remove_host_sync"]),
    ("Take out the per-token host read: keep sampling on device, batch the stop-check, or use non-blocking copies.",
     ["remove_host_sync"]),
    ("Tune the memory bandwidth.", ["access_pattern"]),
    # work on the kernels themselves, said with any verb
    ("Re-cutting the 2 µs kernels. They are already well finished pieces.", ["micro_optimise"]),
    ("Fiddlin' wi' the 2 µs kernels. Halve them and ye go fae 400 ms tae 360 ms.", ["micro_optimise"]),
    ("Messin' aboot wi' the matmul an' attention kernels; they didnae change.", ["rewrite_kernel"]),
    ("Picking through the matmul and attention kernels: wrong patch entirely.", ["rewrite_kernel"]),
    # ... but not the verbs of the levers that help
    ("Launching fewer kernels: fuse the chain.", ["fewer_launches", "fusion"]),
    ("Replaying the kernels from a CUDA graph.", ["cuda_graphs"]),
    ("Keeping the matmul kernels as they are and removing the .item().", ["remove_host_sync"]),
    ("Blending the relu into the matmul.", []),
    ("Making each eager kernel faster: a week to win 18%, versus 3.8× for typing torch.compile.", ["micro_optimise"]),
    ("Faster math: tune the tiles or use the vendor library kernel, or fp8.", ["faster_math", "tiling",
                                                                                "lower_precision"]),
])
def test_what_a_lever_line_offers(text: str, offered: list[str]) -> None:
    assert list(read_levers(text).offered) == offered


@pytest.mark.parametrize(("item", "field", "text"), [
    ("a4", "wastes", "MMA-heavy attention rewrite — a compute optimisation on a bandwidth-limited account."),
    ("a7", "helps", "Remove the per-token host read: keep the token on the device, check stop conditions every N steps,"
                    " or copy asynchronously to pinned memory."),
    ("a7", "helps", "Take out the per-token host read: keep sampling on device, batch the stop-check, or use"
                    " non-blocking copies."),
])
def test_right_lever_lines_pass(item: str, field: str, text: str) -> None:
    check = grade({"part_a": {item: {**ANSWER, field: text}}})["items"][item]["checks"][field]
    assert check["passed"] is True, check
