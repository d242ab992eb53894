"""Levers read by what they do (one that adds a sync makes a host-bound loop worse), a measured fusion speed-up near 1
as evidence against fusion, and a regime's own reason checked against the regime it names."""

from __future__ import annotations

from typing import Any

import pytest

from regime_core.grading.grade import grade


def _check(item: str, field: str, text: str) -> dict[str, Any]:
    entry = {"regime": "", "evidence": "", "helps": "", "wastes": "", field: text}
    check: dict[str, Any] = grade({"part_a": {item: entry}})["items"][item]["checks"][field]
    return check


@pytest.mark.parametrize(("text", "passed"), [
    ("call torch.cuda.synchronize() before .item() so the timing is clean", False),
    ("add a synchronize after every step", False),
    ("keep the flag on the GPU and read it every 32 steps", True),
    ("drop the per-token .item(): keep the value on the GPU", True),
    # the sync named with something done to it offers its cure; named with nothing done to it, it offers nothing
    ("get that per-token host read out of the loop", True),
    ("🚫 per-token .item() → check on GPU", True),
    ("quitar el .item() por token", True),
    ("compress the tensor before .item()", None),
    ("CUDA-graph the decode step and keep .item()", False),
])
def test_a_lever_that_adds_a_sync_is_read_as_one(text: str, passed: bool) -> None:
    assert _check("a7", "helps", text)["passed"] is passed


@pytest.mark.parametrize(("item", "text", "passed"), [
    ("a6", "throw a torch.cuda.synchronize() after every launch so they don't pile up", False),
    ("a7", "move the sampling/argmax over to the CPU so there's nothing left to sync on", False),
    ("a3", "run this little chain on the host with numpy", False),
    ("a7", "keep the argmax on the GPU; do not move it to the CPU", True),
    ("a7", "keep the sampling on the GPU and never read the token back to the host", True),
    # a sync put in beside a lever that fits is still a sync every step
    ("a1", "put a torch.cuda.synchronize() after each matmul so the tensor cores can hold a higher % of peak", False),
    # one sync for the whole run is no sync a step
    ("a7", "drop the .item() from the loop and add a single sync after the last token", True),
    ("a7", "keep tokens on the GPU and call synchronize once at the end of generation", True),
])
def test_work_moved_to_the_host_or_a_sync_thrown_in_puts_a_sync_in(item: str, text: str, passed: bool) -> None:
    """Moving GPU work to the host reads its input back there: the lever puts the problem in, and says so."""
    check = _check(item, "helps", text)
    assert check["passed"] is passed, check
    if passed is False and "sync" not in text:
        assert "puts a host sync in" in check["why"]


@pytest.mark.parametrize("text", ["fusion", "fusing the chain: compile bought only 1.08x", "torch.compile"])
def test_refusing_fusion_where_it_was_measured_to_buy_nothing_is_right(text: str) -> None:
    check = _check("a3", "wastes", text)
    assert check["passed"] is True, check
    assert "1.08" in check["why"]


def test_refusing_fusion_where_it_was_measured_to_pay_is_still_wrong() -> None:
    assert _check("a2", "wastes", "fusion")["passed"] is False  # A2's compile bought 3.8x


@pytest.mark.parametrize(("item", "text", "passed"), [
    ("a2", "memory-bound: past the ridge, bandwidth is the limit", False),
    ("a2", "memory-bound: far below the ridge, bandwidth is the limit", True),
    ("a1", "compute-bound, since it's below the ridge", False),
    ("a1", "compute-bound: way above the ridge", True),
    ("a6", "memory-bound: pointwise kernels are below 1 FLOP/B", False),
    ("a6", "overhead-bound: launch gaps", True),
])
def test_a_regime_s_reason_is_checked_against_it(item: str, text: str, passed: bool) -> None:
    assert _check(item, "regime", text)["passed"] is passed


@pytest.mark.parametrize("text", ["optimising the pointwise kernels", "tuning each small kernel"])
def test_micro_optimising_the_small_kernels_is_read_and_rightly_refused(text: str) -> None:
    assert _check("a6", "wastes", text)["passed"] is True


def _lever(item: str, field: str, text: str) -> dict[str, Any]:
    answer = {"regime": "", "evidence": "", "helps": "", "wastes": "", field: text}
    check: dict[str, Any] = grade({"part_a": {item: answer}})["items"][item]["checks"][field]
    return check


@pytest.mark.parametrize(("item", "field", "right", "wrong"), [
    # a lever line's written arithmetic is checked
    ("a4", "helps", "int8 weights: 14 GB / 2 = 7 GB, so the floor halves to ~23 ms a token",
     "int8 weights: 14 GB / 2 = 5 GB, so the floor drops"),
    # an offered lever that promises the other incident's result here
    ("a3", "helps", "CUDA graphs: one launch for the chain; A2's 3.8× does not carry over to a tensor this small",
     "Apply the same fusion as A2 and expect about 3.8× again."),
    # what it is replaced with is put in: .cpu() is a host sync too
    ("a7", "helps", "Replace the per-token .item() with a check every 64 tokens.",
     "Replace .item() with .cpu() on the same tensor each token."),
])
def test_a_lever_line_s_claims_are_checked_both_ways(item: str, field: str, right: str, wrong: str) -> None:
    assert _lever(item, field, right)["passed"] is True, _lever(item, field, right)
    assert _lever(item, field, wrong)["passed"] is False, _lever(item, field, wrong)


def test_a_lever_s_what_if_figure_is_named_as_not_checked_beside_its_reading() -> None:
    # half of the incident's 70 GB is placed; 20 MiB is no figure of A1's (its 4096² fp16 output is 32 MiB, read and
    # written 64 MiB), named but not held against the lever
    check = _lever("a8", "helps", "int4 weights: 35 GB a step instead of 70 GB")
    assert check == {"passed": True, "why": "Quantisation: fits this kernel.", "label": "Lever that helps"}
    odd = _lever("a1", "wastes", "Fusing the relu: it saves 20 MiB of traffic on a compute-bound GEMM.")
    assert odd["passed"] is None  # a pass means every claim was checked: the lever's reading, and what was not
    assert "rightly refused" in odd["why"], odd
    assert "not checked: 20 MiB" in odd["why"], odd


@pytest.mark.parametrize(("item", "text", "passed"), [
    # a weight format scales the incident's bytes by its width over the incident's (bf16 → int4: 14 GB → 3.5 GB),
    # the floor the same way and the rate by the inverse
    ("a4", "int4 weights: 3.5 GB a token, so ~86 tok/s at the same 300 GB/s", True),
    ("a4", "int8 weights: 7 GB, the floor halves to ~23 ms", True),
    ("a8", "int4 weights: 35 GB a step instead of 70 GB", True),
    ("a8", "int4 weights: 17.5 GB a step", None),  # 70 GB at int8 is 35 GB at int4: 17.5 GB is not checked
    ("a4", "int4 weights: 1.75 GB a token", None),
])
def test_a_weight_format_in_a_lever_line_scales_the_incident_s_figures(item: str, text: str,
                                                                       passed: bool | None) -> None:
    assert _lever(item, "helps", text)["passed"] is passed, _lever(item, "helps", text)


@pytest.mark.parametrize(("item", "field", "text", "passed"), [
    ("a6", "helps", "Put a cudaDeviceSynchronize after each launch so the gaps close", False),
    ("a7", "helps", "drop the per-token .item() and the cudaDeviceSynchronize before it", True),
    ("a1", "wastes", "Adding GPUs; the fix is local to the kernel.", False),
    ("a2", "wastes", "Adding GPUs: the math does not set the time.", True),
    # faster math beside a lever that fits, where the math does not set the time
    ("a8", "helps", "FP8 tensor cores.", False),
    ("a8", "helps", "FP8 weights, to halve the bytes each step reads.", True),
    ("a7", "helps", "Remove the .item(), and a faster attention kernel so it finishes sooner.", False),
    ("a3", "wastes", "Chasing bandwidth: there is no traffic to chase at 8,192 elements", True),
    ("a3", "helps", "hand-vectorise loads to push bandwidth", False),
    ("a5", "helps", "Better GEMM kernels.", True),
    # a what-if on the kernels in the refused lever: it is checked too
    ("a6", "wastes", "Micro-optimising the kernel: halving it to 1 µs gives a 2× faster request.", False),
    ("a6", "wastes", "Micro-optimising the kernel: halving it to 1 µs gives only a 1.1× faster request.", True),
])
def test_levers_named_in_these_words_are_read(item: str, field: str, text: str, passed: bool) -> None:
    check = _check(item, field, text)
    assert check["passed"] is passed, check


# Kinds read after the ninth set was spent: what compile or fusion is said to do, the other incident's result said
# to be this one's, and a contraction typed without its apostrophe.
@pytest.mark.parametrize(("item", "field", "text", "passed", "why"), [
    ("a3", "wastes", "Fusion! Compile makes it SLOWER at this size!", False,
     "“Compile makes it SLOWER”: compile was measured 1.08× faster here, not slower."),
    ("a3", "wastes", "compile doesn't make it slower, but only 1.08x faster", True, ""),
    ("a2", "helps", "torch.compile: eager was slower than compiled by 3.8x", True, ""),
    ("a3", "wastes", "Fusion/compile — it won't cut any launches.", False, "a fused chain runs as fewer kernels"),
    ("a3", "wastes", "fusion/compile: it bought only 1.08x, a few launches fewer", True, ""),
    ("a3", "wastes", "fusion/compile: not that it won't cut launches; it does, for 1.08x", True, ""),
    ("a3", "helps", "torch.compile — it should give 3.8× like A2.", False, "“3.8” is the other incident's result"),
    ("a3", "helps", "torch.compile, that's the 3.8x from before", False, "“3.8” is the other incident's result"),
    ("a3", "helps", "CUDA graphs; compile gives 1.08x here", True, ""),
    ("a2", "helps", "so prob just leave it, compile cant do much here", None, "Could not tell"),
    ("a1", "wastes", "fusing the relu: compile may even make it slower", True, ""),  # nothing measured says otherwise
])
def test_what_compile_is_said_to_do_is_held_to_the_incident(item: str, field: str, text: str, passed: bool | None,
                                                            why: str) -> None:
    check = _check(item, field, text)
    assert check["passed"] is passed, check
    assert why in check["why"]


@pytest.mark.parametrize(("item", "text", "passed"), [
    ("a2", "chasing FLOP/s", True), ("a1", "chasing FLOP/s", False),
    ("a2", "Accelerating the arithmetic.", True), ("a5", "Accelerating the arithmetic.", False),
    ("a8", "Rewriting the GEMMs.", True), ("a5", "Rewriting the GEMMs.", False),
    ("a3", "Optimising the memory throughput of the chain.", True),
    ("a2", "Optimising the memory throughput of the chain.", True),  # at 85% of its roof: 1.18× at most
    ("a3", "Bandwidth polish.", True), ("a6", "kernel micro-tuning", True),
])
def test_refused_levers_in_more_words_are_read_on_their_side(item: str, text: str, passed: bool) -> None:
    """Read, a refused lever is right where it does not fit the regime and wrong where it does."""
    assert _check(item, "wastes", text)["passed"] is passed


@pytest.mark.parametrize(("item", "text", "passed"), [
    ("a7", "drop the per-token .item(); batch the host reads every N tokens", True),
    ("a7", "keep the tensor on device; non_blocking copy into pinned memory and check it a few steps later", True),
    ("a7", "Remove the per-token host read: keep the token on device, check stop conditions every N tokens, or use an"
           " async copy into pinned memory.", True),
    ("a2", "batch the host reads every N tokens", False),  # a memory-bound chain has no host read to remove
])
def test_reading_the_host_value_seldom_or_asynchronously_is_removing_the_sync(item: str, text: str,
                                                                              passed: bool) -> None:
    assert _check(item, "helps", text)["passed"] is passed


@pytest.mark.parametrize(("item", "text"), [
    ("a2", "Fuse the chain (torch.compile or one custom kernel) so intermediates never get set down on the floor."),
    ("a5", "Faster math (FP8 roughly doubles tensor peak) and/or more GPUs sharing the prefill; or shorter prompts."),
])
def test_a_fused_custom_kernel_is_fusion_and_sharing_is_not_shaving(item: str, text: str) -> None:
    """"One custom kernel" for a chain is the chain fused; "sharing" is a word of its own, not "shaving" misspelt."""
    assert _check(item, "helps", text)["passed"] is True


@pytest.mark.parametrize(("item", "text", "passed"), [
    # a lever that keeps the FLOPs (levers.json 'keeps_flops') said to cut them
    ("a5", "chunked prefill: splitting the prompt into 4 chunks cuts the prefill FLOPs 4x", False),
    ("a5", "chunked prefill, which would reduce the arithmetic", False),
    ("a5", "chunked prefill over more GPUs: it spreads the FLOPs, it does not cut the FLOPs", True),
    ("a5", "chunked prefill never cuts the FLOPs; it spreads them over more GPUs", True),
    ("a5", "chunked prefill spread over more GPUs cuts the math time", True),
    # fewer FLOPs offered as a lever of its own, beside one that keeps them
    ("a1", "FP8 or fewer FLOPs", True),
    ("a1", "lower precision like FP8, or reducing the FLOP count", True),
    # a lever that does cut them
    ("a5", "shorter prompts: a 2,048-token prompt cuts the prefill FLOPs about in half", True),
])
def test_a_lever_said_to_cut_the_flops_it_keeps_is_wrong(item: str, text: str, passed: bool) -> None:
    check = _check(item, "helps", text)
    assert check["passed"] is passed, check
    if passed is False:
        assert "leaves the FLOP count as it is" in check["why"]


@pytest.mark.parametrize(("item", "text", "passed"), [
    # the right regime for a reason the incident says is not so
    ("a7", "Overhead-bound, because the matmul and attention kernels got slower after the change.", False),
    ("a6", "Overhead-bound: the kernels are slow", False),
    ("a7", "Host-bound: the kernels are unchanged, the host waits on .item()", True),
    # a denial inside the words the incident's contradiction reads
    ("a6", "Overhead-bound: the kernels are not slow, the gaps are", True),
])
def test_a_regime_given_for_a_reason_the_incident_contradicts_is_wrong(item: str, text: str, passed: bool) -> None:
    check = _check(item, "regime", text)
    assert check["passed"] is passed, check
    if passed is False:
        assert "not for that reason" in check["why"]


def test_a_denial_inside_a_contradiction_s_words_is_no_contradiction() -> None:
    assert _check("a6", "evidence", "2 µs on, 8 µs off; the kernels are not slow")["passed"] is True


@pytest.mark.parametrize(("field", "text", "passed"), [
    # at context 512 the weights are nearly all of A4's bytes: a line that says the KV cache is says the opposite
    ("helps", "Quantise only the KV cache: at context 512 the KV reads dominate the weight reads.", False),
    ("evidence", "14 GB at 300 GB/s caps decode near 21 tok/s, and at context 512 attention reads the bulk of the"
                 " bytes", False),
    ("evidence", "14 GB of weights at 300 GB/s: 47 ms, 21 tok/s; the KV cache at 512 is not the bulk of the bytes",
     True),
    ("helps", "int8 weights: half the bytes a token reads", True),
])
def test_a_line_that_says_the_opposite_of_the_incident_fails_in_any_field(field: str, text: str, passed: bool) -> None:
    check = _check("a4", field, text)
    assert check["passed"] is passed, check
    if passed is False:
        assert "the weights are nearly all the bytes" in check["why"]


@pytest.mark.parametrize(("item", "text", "passed"), [
    # cutting IO is cutting bytes: it fits a memory-bound kernel, not a compute-bound prefill
    ("a5", "FlashAttention-style IO reduction", False),
    ("a8", "IO reduction: int8 KV cache, fewer bytes a step", True),
])
def test_io_reduction_is_read_as_moving_fewer_bytes(item: str, text: str, passed: bool) -> None:
    assert _check(item, "helps", text)["passed"] is passed
