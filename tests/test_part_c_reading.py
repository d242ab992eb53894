"""Part C read for what its numbers and clauses say: a drill number in another unit fails, a number from no part of
the drill is named as not checked, and two-sided arguments in plain words are read as two-sided."""

from __future__ import annotations

from typing import Any

import pytest

from regime_core.grading.grade import grade


def _checks(paragraph: str) -> dict[str, Any]:
    checks: dict[str, Any] = grade({"part_c": paragraph})["items"]["part_c"]["checks"]
    return checks


BOTH = " and is wasted on A1 at 70% of peak FLOP/s, where the math sets the time."


@pytest.mark.parametrize(("paragraph", "passed"), [
    ("Fusion pays for A2, memory-bound at 1.7 TB/s of 2.0," + BOTH, True),
    ("Fusion pays for A2, memory-bound at 1.7 TFLOP/s of 2.0," + BOTH, False),
    ("Fusion pays when bytes set the time, as for our layernorm at 900 GB/s (2.5x)," + BOTH, None),
    ("Fusion pays where decode reads its weights at about 21 tok/s," + BOTH, True),  # A4's floor, rounded
    # a figure with a unit is the drill's only in that unit: A3's bare 32 is no 33 FLOP/byte
    ("Fusion pays where bytes set the time, as for the elementwise add at ~0.33 FLOP/B, far under the ridge.", True),
    ("Fusion pays where bytes set the time, as for the elementwise add at ~33 FLOP/B, far under the ridge.", False),
    # ... and 33 FLOP/B is the add's 0.33 with two places lost: a slip the number check names
    ("Fusion pays for the elementwise add at ~33 FLOP/B," + BOTH, False),
    ("Fusion pays below the ridge, and an H100's ridge is ~500 FLOP/byte.", False),  # A4's context is 512, no ridge
    ("Fusion pays on the 4096 matmul's 1.37e11 FLOPs only if its bytes set the time.", True),  # Part B's FLOPs
    # a small multiplier is a figure, not a count in words: 10× is from no part of the drill, 5× follows from A6's
    ("Fusion pays where bytes set the time: A2's fused chain gained about 10× over eager," + BOTH, None),
    ("Fusion pays where launches set the time: A6 would gain 5× with its gaps gone," + BOTH, True),
    # a figure called the ridge is the ridge: the intensity and the ridge swapped is wrong; the ridge's working is not
    ("Fusion pays for A2 at 1.7 TB/s; it is wasted on a 4096 matmul at 156 FLOP/byte, far above the ridge of 1,356.",
     False),
    ("Fusion pays for A2 at 1.7 TB/s; it is wasted on a 4096 matmul at ~1356 flop/byte vs ridge 156.", True),
    ("Ridge = 312e12 / 2.0e12 = 156 FLOP/byte: fusion pays below it, as for A2 at 1.7 TB/s, and not far above it.",
     True),
    (">>> ridge = 312e12/2.0e12\n>>> ridge\n156.0\n>>> # fusion pays below it, as for A2 at 1.7 TB/s", True),
])
def test_part_c_numbers_are_read_in_their_units(paragraph: str, passed: bool | None) -> None:
    number = _checks(paragraph)["number"]
    assert number["passed"] is passed, number


@pytest.mark.parametrize("paragraph", [
    "Fusion is right for A2, where 1.7 of 2.0 TB/s means bytes set the time and compile bought 3.8x. For A1, at 1365"
    " FLOP/byte, far above the 156 ridge, fusion removes bytes that are not the bottleneck.",
    "Write the fused kernel when the chain moves bytes for little math, like A2 at 85% of bandwidth (3.8x from"
    " compile); it is wrong for A1's matmul at 70% of peak tensor FLOP/s, whose time is set by arithmetic.",
    # "worth a week" is the week well spent; "don't … when the tensor pipe is the limiter"; "a costly mistake"
    "Fusion is worth a week when the kernel is waiting on memory: A2's chain moved 1.7 TB/s of 2.0. It is not worth"
    " a week when the arithmetic is the limit, as with a large matmul on tensor cores.",
    "Write the fused kernel when DRAM or launches are the limiter, as in A2 at 1.7 of 2.0 TB/s. Don't when the tensor"
    " pipe is the limiter: a fused relu epilogue saves bytes the kernel was never waiting on.",
    "Fusing pays off when the work waits on memory: A2 used 85% of the bandwidth and fusing made it 3.8x"
    " faster. It is a costly mistake when the work is limited by arithmetic: A1's matmul at 70% of peak.",
])
def test_two_sided_arguments_in_plain_words_are_two_sided(paragraph: str) -> None:
    assert _checks(paragraph)["both_sides"]["passed"] is True


@pytest.mark.parametrize("paragraph", [
    "A fused kernel is always a waste: A1 is at 70% of peak and the tensor cores are the limit.",
    "Fusion always pays: A2 ran 3.8x faster under compile because fusion removes round trips.",
])
def test_one_sided_arguments_stay_one_sided(paragraph: str) -> None:
    assert _checks(paragraph)["both_sides"]["passed"] is False


MEMORY_SIDE = "Fusion pays for A2, memory-bound at 1.7 of 2.0 TB/s, where compile bought 3.8x by deleting round trips. "


@pytest.mark.parametrize("paragraph", [
    # the compute side in words the reader does not read as a side argued: not "one side only"
    MEMORY_SIDE + "Die Matmul in A1 steht schon bei 70 % der Peak-TFLOP/s; eine fusionierte Relu ändert nichts.",
    # argued in questions, or as a view answered: not read as argued, never "turned around"
    MEMORY_SIDE + "But if a kernel is compute-bound, like A1's matmul at 70% of peak FLOP/s, what could fusing a relu"
    " save?",
    "Doesn't fusion win for A2's chain at 1.7 of 2.0 TB/s? And for A1 at 70% of peak, isn't fusing the relu pointless?",
])
def test_sides_the_reader_cannot_read_are_could_not_tell(paragraph: str) -> None:
    both = _checks(paragraph)["both_sides"]
    assert both["passed"] is None, both


def test_a_view_answered_is_not_the_argument_turned_around() -> None:
    for view in ("It is tempting to say fusion helps A1's matmul at 70% of peak FLOP/s",
                 "Managers often say fusion pays on A1's matmul at 70% of peak FLOP/s"):
        paragraph = view + ", but the matmul is compute-bound and fusing the relu cannot help it. " + MEMORY_SIDE
        assert _checks(paragraph)["both_sides"]["passed"] is True, view


@pytest.mark.parametrize("paragraph", [
    # the same turn, asserted rather than asked or reported, is the argument turned around
    "Fusion is the right sentence for A1's compute-bound matmul at 70% of peak: fusing the relu recovers the math. "
    + MEMORY_SIDE,
    "Fusion always pays: A2 ran 3.8x faster under compile because fusion removes round trips.",
])
def test_sides_asserted_wrongly_or_missing_stay_wrong(paragraph: str) -> None:
    assert _checks(paragraph)["both_sides"]["passed"] is False


ARGUED = " It pays on A2 at 1.7 of 2.0 TB/s and is wasted on A1 at 70% of peak FLOP/s, where the math sets the time."


@pytest.mark.parametrize(("said", "passed"), [
    ("Fusion combines ops so the GPU does fewer calculations overall.", False),
    ("Merging operations reduces the FLOP count.", False),
    ("The merged kernel runs at higher occupancy.", False),
    ("Fusion means fewer trips to HBM and fewer launches, zero fewer FLOPs.", True),
    ("No fusion of a neighbouring relu reduces the matmul's operation count.", True),
    ("Fusion deletes intermediate round trips to memory.", True),
    ("Fusing the relu saves no FLOPs; it deletes a round trip.", True),
    # fusion said to win by using more of the bandwidth: it moves fewer bytes under the same roof
    ("A2 got 3.8x because eager reached only 1.7 of 2.0 TB/s and compile closed that bandwidth gap.", False),
    ("At 1.7 of 2.0 TB/s some bandwidth sat unused, and fusing filled it.", False),
    ("A2 got 3.8× because compile removed the round trips, not by closing the bandwidth gap.", True),
])
def test_what_fusion_is_said_to_do(said: str, passed: bool) -> None:
    fusion = _checks(said + ARGUED)["fusion"]
    assert fusion["passed"] is passed, fusion


def test_words_of_the_argument_read_as_said() -> None:
    # "neither … nor" refuses; "to write a fused kernel" is no memory side; "the four ops" is no FLOP figure.
    refused = _checks("Fusion pays for A2 at 1.7 of 2.0 TB/s (3.8x). For A1 at 70% of peak FLOP/s, fusing the relu"
                      " neither removes FLOPs from the matmul nor relieves a bottleneck it has.")
    assert refused["both_sides"]["passed"] is True, refused["both_sides"]
    one_sided = _checks("Proposals to write a fused kernel deserve suspicion: A1's matmul runs at 70% of peak math,"
                        " and fusing the relu changes neither its arithmetic nor its traffic.")
    assert one_sided["both_sides"]["passed"] is not True, one_sided["both_sides"]
    ops = _checks("The four ops of A2's chain merge into one pass, deleting round trips: 3.8x at 1.7 of 2.0 TB/s,"
                  " and wasted on A1 at 70% of peak FLOP/s, where the math sets the time.")
    assert ops["number"]["passed"] is True, ops["number"]


# The fusion check passes a claim it has read: what fusion does, or where it pays or wastes the week; fusion only
# named is could-not-tell, never a pass; fusion credited with a host sync's cure is wrong.
@pytest.mark.parametrize(("paragraph", "passed", "why"), [
    ("Fusion pays for A2, memory-bound at 1.7 TB/s of 2.0.", True, "Says where fusion pays"),
    ("A fused kernel is a bad idea for A1: its matmul is at 70% of peak and fusing the relu is a wasted week.", True,
     "Says where fusion wastes the week"),
    ("Fused kernels are always worth it: fusing the relu into A1's matmul would win big.", False, "“Fused"
     " kernels are always worth it: fusing the relu into A1's matmul would win big”: fusion cannot help A1"),
    ("Fusion is a thing people talk about; A2 got 3.8x.", None, "Could not tell: fusion is named, but neither what it"
     " does"),
    # a clause that has fusion pay or waste the week, beside one that has it pay for a compute-bound incident, fails
    ("Fused kernels are always worth it: A2 got 3.8x from fusion, and every kernel reads memory, so fusing the relu"
     " into A1's matmul would give the same kind of win.", False, "“fusing the relu into A1's matmul"
     " would give the same kind of win”: fusion cannot help A1: it is compute-bound"),
    ("Fusing pays when the math sets the time, as in A1 at 70% of peak; fusion is wasted when the math units wait on"
     " nothing, as on compute-bound A5.", False, "“Fusing pays when the math sets the time, as in A1 at 70% of peak”"),
    ("Never write a fused kernel. A3 proves it: compile was only 1.08x faster.", None, "Could not tell"),
    ("Fusion's right for A7: the .item() sync goes away if you fuse the decode step.", False,
     "“.item() sync goes away if you fuse”: fusion deletes round trips through memory and launches; it leaves the host"
     " sync in place"),
    ("Fusing removes the sync in A7, so fuse there.", False, "“Fusing removes the sync”"),
    ("Fusion would be wasted on A7: removing the .item() sync is the fix; A2's 3.8x shows fusion pays where bytes set"
     " the time.", True, "Says where fusion pays"),
    ("Fusing does not remove the sync in A7; A2 got 3.8x from fusion as it removes round trips.", True,
     "Says what fusion does"),
    # a clause that gives fusion "only" a little is not where it is said to pay; one that does not name it, not quoted
    ("Fused kernels are a trap: A3's compile only got 1.08x.", None, "Could not tell: fusion is named"),
    ("When does the fused kernel lose? A1! fusing that relu changes nothing about its arithmetic, a wasted week!",
     True, "Says where fusion wastes the week: “fusing that relu changes nothing"),
])
def test_the_fusion_check_passes_only_a_claim_it_read(paragraph: str, passed: bool | None, why: str) -> None:
    check = _checks(paragraph)["fusion"]
    assert check["passed"] is passed
    assert check["why"].startswith(why)


def test_a_part_a_line_that_has_compile_cure_a_sync_is_wrong_saying_why() -> None:
    entry = {"regime": "overhead", "evidence": "tok/s is flat; torch.compile fuses the step so the .item() sync goes"
             " away if you fuse", "helps": "remove the .item() sync", "wastes": "a faster kernel"}
    check = grade({"part_a": {"a7": entry}})["items"]["a7"]["checks"]["evidence"]
    assert check["passed"] is False
    assert "they leave the host sync in place" in check["why"]


@pytest.mark.parametrize(("paragraph", "passed"), [
    ("Fusion pays where bytes set the time: A2 eager is at 1,7 TB/s of 2,0 TB/s, 85% of peak," + BOTH, True),
    ("Fusion pays where bytes set the time: A2 eager is at 1,7 TB/s of 2,0 TB/s, only 58% of peak," + BOTH, False),
])
def test_a_share_worked_from_a_of_b_in_part_c_is_held_to_a_over_b(paragraph: str, passed: bool) -> None:
    assert _checks(paragraph)["number"]["passed"] is passed


# What a clause says fusion does for an incident it names, held to that incident: a right claim of each shape is not
# failed, a wrong one fails naming the incident. From the spent tenth set's paragraphs, in other words.
@pytest.mark.parametrize(("paragraph", "named"), [
    ("Fusion pays for A2 at 1.7 of 2.0 TB/s, and A1's matmul at 70% of peak would climb toward 100% once the relu is"
     " fused in.", "cannot help A1"),
    ("Fusion is the right call for A2 at 1.7 TB/s, and in A1, where fusing the relu would close the last 30% gap.",
     "cannot help A1"),
    ("Fusion pays for A2 at 1.7 TB/s, but in A6, with 40,000 launches, fusion can't help - it's overhead.",
     "the fix for A6"),
    ("Fusion pays for A2 at 1.7 TB/s; it is wasted on A1 at 70% of peak, and equally wasted on A6, where fusing cannot"
     " shorten the 8 µs gaps.", "the fix for A6"),
    ("Fusion pays for A2 at 1.7 TB/s, and in A3 at 12 µs and 32 KB the fusion gives the same 3.8× as A2.",
     "bought only 1.08×"),
    ("Fusion pays for A2 at 1.7 TB/s, and a fused kernel also fixes A7's 6 ms .item() stall.", "cannot help A7"),
    ("Fusion pays for A2 at 1.7 TB/s, and fusing A5's prefill at 62% of peak is the right move too.", "cannot help A5"),
    # fusion in other words: the relu folded into the matmul
    ("Fusion pays for A2 at 1.7 TB/s. Same in A1: fold the relu into the matmul and it climbs from 70% of peak to near"
     " 100%.", "cannot help A1"),
    ("Fusion pays for A2 at 1.7 TB/s, not for A1 at 70% of peak; and fusion gives its biggest win of all in A3.",
     "bought only 1.08×"),
])
def test_what_fusion_is_said_to_do_for_an_incident_is_held_to_it(paragraph: str, named: str) -> None:
    check = _checks(paragraph)["fusion"]
    assert check["passed"] is False
    assert named in check["why"]


@pytest.mark.parametrize("paragraph", [
    "Fusion pays for A2 at 1.7 TB/s; fusing the relu into A1's matmul at 70% of peak changes nothing.",
    "Fusion pays for A2 at 1.7 TB/s, and no fused kernel will rescue A7, where a .item() sync added 6 ms.",
    "A6: 40k launches, 2 µs of work then 8 µs of nothing, fuse or graph it; A1 at 70% of peak: fusing does nothing.",
    "Fusion removes bytes that were never the limit in A1 at 70% of peak, and it pays for A2 at 1.7 TB/s.",
    "Fusion pays for A2 at 1.7 TB/s; fusing a relu into A1's matmul at 70% of peak saves traffic the matmul was never"
    " waiting on.",
    "Fusion pays for A2 at 1.7 TB/s, and in A3 at 12 µs compile is only 1.08× faster.",
    "Gluing the chain is right when bytes set the time (A2: 1.7 of 2.0 TB/s, 3.8× from compile) and a waste when the"
    " math does (A1 at 70% of peak FLOP/s): the relu's bytes were never the limit.",
    "Fusion pays for A2 at 1.7 TB/s; folding the relu into A1's matmul at 70% of peak changes nothing.",
])
def test_right_claims_of_what_fusion_does_for_an_incident_are_not_failed(paragraph: str) -> None:
    assert _checks(paragraph)["fusion"]["passed"] is not False


@pytest.mark.parametrize("paragraph", [
    "Fusion helps memory-bound kernels like A2, where compile gave 3.8×. Fusion is wrong for compute-bound A1 at 70% of"
    " peak, so there is nothing left to save.",
    "In A6, 40,000 tiny launches leave the GPU idle 8 µs for every 2 µs of work, and fusing them is the fix. But no"
    " fused kernel will rescue A7, where a .item() sync added 6 ms per token.",
    "Fused kernel sometimes good, sometimes bad. In memory-bound A2, 1.7 TB/s on 2.0 TB/s card, fusion give 3.8× speed-up."
    " But A1 matmul at 70% of peak, compute-bound, fuse relu change nothing, waste the week.",
])
def test_sides_said_of_the_incidents_named_are_both_sides(paragraph: str) -> None:
    assert _checks(paragraph)["both_sides"]["passed"] is True


@pytest.mark.parametrize(("paragraph", "named"), [
    # what follows "so" is said of the incident before it
    ("Fusion pays for A2 at 1.7 TB/s. For A1, 70% of peak means 30% is memory time, so a fused relu-matmul can"
     " recover this 30%.", "cannot help A1"),
    ("Never fuse: A1 at 70% of peak gains nothing, and even A2's 3.8x came from compile, so fusion as a lever is always"
     " the career-limiting choice.", "the fix for A2"),
])
def test_a_clause_after_so_is_said_of_the_incident_before_it(paragraph: str, named: str) -> None:
    check = _checks(paragraph)["fusion"]
    assert check["passed"] is False
    assert named in check["why"]


def test_a_side_given_only_a_little_is_not_where_fusion_is_argued_to_pay() -> None:
    paragraph = ("Fused kernels are a trap. A1 is at 70% of peak, fusing the relu does nothing. A3 compile only got"
                 " 1.08x. Just don't write fused kernels.")
    assert _checks(paragraph)["both_sides"]["passed"] is not True


@pytest.mark.parametrize(("paragraph", "passed"), [
    # a figure said of an incident that is another's ("20%" is A6's busy share) is not checked as the drill's, said
    # as the relu's share or as a win fusion cannot give there (that win is the fusion check's to fail)
    ("Fusion pays for A2 at 1.7 TB/s, and it is wasted on A1, where the relu is like 20% of the time.", None),
    ("Fusion pays for A2 at 1.7 TB/s, and in A1 fusing the relu would save like 20%.", None),
    # Part B's figures may be set beside any incident
    ("Fusion pays for A2 at 1.7 TB/s, like Part B's add at 0.33 FLOP/byte, far under the 156 ridge, and is wasted on A1"
     " at 70% of peak.", True),
    # the written arithmetic of what is said of an incident is checked
    ("Fusion pays for A6: 40,000 × 8 µs = 320 ms of gaps; it is wasted on A1 at 70% of peak.", True),
    ("Fusion pays for A6: 40,000 × 8 µs = 3.2 ms of gaps; it is wasted on A1 at 70% of peak.", False),
    # Part B's intensities placed on a side of the ridge, in the regime's words
    ("Matmul intensity 1356 vs ridge 156 -> compute side, so fusing the relu is wasted there; the add at 0.33 is"
     " memory side, where fusion pays.", True),
    ("Matmul intensity 1356 vs ridge 156 -> memory side, so fusing the relu into the matmul is the right call; the add"
     " at 0.33 pays too.", False),
    ("The add at 0.33 FLOP/byte sits above the 156 ridge, so fusion is wasted there; A1 at 70% of peak too.", False),
    # a win claimed where fusion cannot give one, in the incident's own figures of its roof ("the missing 30%",
    # "toward 100%"), is the fusion check's to fail (test_a_win_fusion_cannot_give_fails_once): the figures are A1's
    ("Fusion pays for A2 at 1.7 TB/s, and in A1 fusing the preceding relu can recover the missing 30%.", True),
    ("Fusion pays for A2 at 1.7 TB/s, and A1's matmul at 70% of peak would climb toward 100% once the relu is fused"
     " in.", True),
    ("Fusion pays for A2 at 1.7 TB/s, and it also pays for compute-bound A1 at 70% of peak.", True),
    # a multiplier of a win after the incident's name is the win's; one before it is another subject's
    ("Fusion pays for A2, where compile is 3.8× faster, and wastes A1's week at 70% of peak. Even in A3 fusing gives"
     " the same 3.8× speed-up.", False),
    ("Fusion pays where bytes set the time (compile gives 3.8× by deleting intermediates) and in A7, where fusing"
     " the kernels removes the .item() stall that took ITL from 8 to 14 ms; A1 at 70% of peak gains nothing.", True),
])
def test_part_c_numbers_are_held_to_the_incident_they_are_said_of(paragraph: str, passed: bool | None) -> None:
    assert _checks(paragraph)["number"]["passed"] is passed


@pytest.mark.parametrize("paragraph", [
    "Fusion pays for A2 at 1.7 TB/s, and in A1 fusing the relu would save like 20%.",
    "Fusion pays for A2 at 1.7 TB/s, and in A1 fusing the preceding relu can recover the missing 30%.",
    "Fusion pays for A2 at 1.7 TB/s, and A1's matmul at 70% of peak would climb toward 100% once the relu is fused in.",
    "Fusion pays for A2 at 1.7 TB/s, and for A1 fusing the relu will recover most of the missing 30% of peak.",
    "Fusion pays for A2 at 1.7 TB/s, and in A1 too: fusing the relu is how you'd win back the 30% of peak it leaves.",
])
def test_a_win_fusion_cannot_give_fails_once(paragraph: str) -> None:
    # One error, one aspect: fusion said to pay where the math sets the time is what fusion does said wrongly; the
    # incident's own figures of its roof beside it are not a second error (ten of fourteen blind labellers agree).
    checks = _checks(paragraph)
    assert checks["fusion"]["passed"] is False, checks["fusion"]
    assert "fusion cannot help A1" in checks["fusion"]["why"], checks["fusion"]
    assert checks["number"]["passed"] is not False, checks["number"]


def test_the_waste_fusion_removes_is_not_fusion_wasted() -> None:
    paragraph = ("A fused kernel is a good joint when the waste is in hauling boards back and forth: A2's eager chain"
                 " already moves 1.7 TB/s on a 2.0 TB/s card, and fusing it gives the 3.8×. A1's matmul at 70% of peak"
                 " gains nothing from a glued relu.")
    checks = _checks(paragraph)
    assert checks["fusion"]["passed"] is not False
    assert checks["both_sides"]["passed"] is True


def test_a_turned_round_argument_with_another_side_is_for_the_fusion_check_to_fail() -> None:
    # two sides argued, one turned round: not one-sided; what it says fusion does is wrong
    two = _checks("Fusing is worth it when the kernel is compute-bound: A1's matmul at 70% of peak would climb toward"
                  " 100%. Where it doesn't pay is decode: A4 is bound by 14 GB at 300 GB/s.")
    assert two["both_sides"]["passed"] is None
    assert two["fusion"]["passed"] is False
    one = _checks("Fusing is worth it when the kernel is compute-bound: A1's matmul at 70% of peak would climb toward"
                  " 100%.")
    assert one["both_sides"]["passed"] is False


@pytest.mark.parametrize(("paragraph", "passed"), [
    # a sentence that names no incident is said of the one named before it, unless it turns to another subject
    ("Fused kernel right for A6. Picket fence, 2 µs on and 8 µs off, so the GPU is busy 80% already. Wrong for A1 at"
     " 70% of peak.", False),
    ("Fused kernel right for A6. Picket fence, 2 µs on and 8 µs off, so the GPU is busy only 20%. Wrong for A1 at"
     " 70% of peak.", True),
    ("Fusion pays for A2 at 1.7 of 2.0 TB/s. The 4096 matmul sits at 1,356 FLOP/byte, above the ridge, where fusing"
     " its relu is wasted.", True),
])
def test_a_sentence_after_an_incident_is_said_of_it(paragraph: str, passed: bool) -> None:
    assert _checks(paragraph)["number"]["passed"] is passed


@pytest.mark.parametrize(("paragraph", "passed"), [
    # a clause with no name leads the next across "and" or a sentence's start, in any sentence; across "while" or
    # "but" it contrasts
    ("Compile gave A2 3.8×. Fusion is the right call, while A1 at 70% of peak is compute-bound.", True),
    ("Compile gave A2 3.8×. Fusion is also the right call, and A1 at 70% of peak shows it.", False),
])
def test_a_clause_with_no_name_leads_only_across_and(paragraph: str, passed: bool) -> None:
    assert (_checks(paragraph)["fusion"]["passed"] is False) is not passed


@pytest.mark.parametrize(("paragraph", "passed"), [
    # for every kernel, whatever examples follow: one side
    ("A fused kernel is almost never worth it: the A1 matmul is at 70% of peak TFLOP/s and fusing the relu gives"
     " nothing, and A3 showed that compile gives only 1.08×.", False),
    ("Never write a fused kernel: A1's matmul is at 70% of peak, and even A2's 3.8× came from compile.", False),
    ("We should always write the fused kernel: A2 got 3.8× from compile, and A6's launches shrink.", False),
    ("Fused kernels are basically always a win because they cut the trips to memory, as A2's 3.8× shows.", False),
    # restricted to a side, asked, hedged, or an adverb of something else: not a stance for every kernel
    ("Fusion always pays for memory-bound chains like A2 (3.8×) and never for a compute-bound matmul like A1 at 70%"
     " of peak.", True),
    ("Fusion pays for A2, whose intermediates never hit HBM once compiled (3.8×)," + BOTH, True),
    ("Is fusion always worth it? No: A2 got 3.8× because bytes set its time; A1 at 70% of peak is math-bound, so"
     " fusing the relu wastes the week.", None),
])
def test_a_stance_for_every_kernel_is_one_side(paragraph: str, passed: bool | None) -> None:
    """"Fusion is always/never worth it" argues one side, naming the clause; a side restricted to a kind does not."""
    check = _checks(paragraph)["both_sides"]
    assert check["passed"] is passed, check["why"]
    if passed is False:
        assert "takes one side for every kernel" in check["why"]


def test_a_stance_for_every_kernel_is_one_side_even_beside_an_argument_turned_round() -> None:
    """Fusion said to pay on A1 and "basically never wrong": one side, named, not could-not-tell."""
    check = _checks("Matmul intensity 1356 vs ridge 156, memory side, so fusing the relu into A1's matmul is the right"
                    " call; A2's chain (1.7 of 2.0 TB/s) also wants fusion. Fusion is basically never wrong.")["both_sides"]
    assert check["passed"] is False, check["why"]
    assert "takes one side for every kernel" in check["why"]


def test_a_win_overstated_where_fusion_fits_is_not_the_argument_turned_round() -> None:
    """"A3's biggest win" overstates a win where fusion fits (launches): the fusion check fails it; the paragraph still
    argues both sides."""
    checks = _checks("Fusion pays for memory-bound A2 at 1.7 of 2.0 TB/s and wastes the week on compute-bound A1 at 70%"
                     " of peak. And fusion gives its biggest win of all in A3, where launches dominate.")
    assert checks["fusion"]["passed"] is False
    assert checks["both_sides"]["passed"] is True


def test_where_an_incident_already_stands_is_no_win_credited_to_fusion() -> None:
    """"A1 already reaches 70% of peak: fusing the relu does not change its work" says where A1 stands, then that fusion
    cannot help: no win is credited to fusion there, so the fusion check is not failed."""
    checks = _checks("Fusion pays when memory traffic or launches set the time: A2's compile is 3.8× faster because it"
                     " removes the intermediate reads and writes. But the 4096 matmul has intensity ≈ 1356, well above"
                     " the ridge, and A1 already reaches 70% of peak: fusing the relu does not change its work, so a week"
                     " spent on it is wasted.")
    assert checks["fusion"]["passed"] is True, checks["fusion"]
