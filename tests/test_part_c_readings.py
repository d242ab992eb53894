"""Part C readings added after the sixteenth set was spent: how far from the ridge, a ridge that is a peak, fusion
said to speed the math units, and an incident added to a win with "too".

Each is held both ways on paragraphs of the drill's kind: the right one is not failed on that check, the wrong one
is, naming why.
"""

from __future__ import annotations

from typing import Any

import pytest

from regime_core.grading.grade import grade

RIGHT = ("Fusion pays when bytes set the time: A2's eager chain hits 1.7 of 2.0 TB/s (85%) and compile, which fuses it,"
         " ran 3.8× faster. It is a career-limiter on A1's matmul, already at 70% of peak at ~1,360 FLOP/byte, 8.7×"
         " above the 156 FLOP/byte ridge: fusing a relu moves nothing that sets its time.")


def _checks(paragraph: str) -> dict[str, Any]:
    checks: dict[str, Any] = grade({"part_c": paragraph})["items"]["part_c"]["checks"]
    return checks


def test_the_right_paragraph_passes_every_check() -> None:
    checks = _checks(RIGHT)
    assert all(c["passed"] is True for c in checks.values()), checks


@pytest.mark.parametrize(("paragraph", "check", "named"), [
    # how far an intensity sits from the ridge, said wrongly
    (RIGHT.replace("8.7×", "87×"), "number", "above the ridge of 156 FLOP/byte, not 87×"),
    # the card's peak called its ridge
    (RIGHT.replace("8.7× above the 156 FLOP/byte ridge", "against a ridge of 312"), "number", "the card's ridge is"),
    # fusion said to make the math units faster
    (RIGHT.replace("which fuses it,", "because fusion lets the tensor cores run faster,"), "fusion", "fusion"),
    # an incident added to fusion's win with "too"
    ("Fusion wins on A2 (3.8×, bytes deleted) and on A1's matmul too. It is a career-limiter on A7, where the host"
     " waits on .item().", "fusion", "fusion cannot help A1"),
    # fusion's win said to hold at any size
    ("Fusion is the universal measure. A3 proves it: the compiled chain was 1.08x faster on the small tensor, which"
     " confirms A2's 3.8x fusion gain holds at any size.", "fusion", "does not hold at every size"),
    # fusion said to take A1 the rest of the way to peak
    ("Fusion pays on memory-bound chains: A2 got 3.8x from compile. And fusing the relu into the A1 matmul gets you the"
     " rest of the way from 70% to peak.", "fusion", "fusion cannot help A1"),
    # another incident's win said of this one
    ("Fusion pays on memory-bound chains: that's why A2 goes 3.8× under compile, and why A3's tiny tensor gets the same"
     " 3.8×. It wastes the week on A1's matmul at 70% of peak.", "number", "Of A3: 3.8× is not this incident's figure"),
    # a figure from nowhere, said to be the drill's
    ("Fusion is indicated for memory- and launch-bound kernels: A2's eager chain runs at 1.7 TB/s on a 2.0 TB/s card"
     " and compile's fused version is 3.8× faster. It is contraindicated for compute-bound work: the drill's A1"
     " measurement shows the fused relu-matmul reaching only 71% of peak against 70% unfused, a 1% gain for a week of"
     " work.", "number", "is presented as the drill's"),
    # a Part B kernel given another row's intensity
    ("Fusing is a buff that only works on some classes. The Part B matmul has an intensity around 0.33 FLOP/byte, well"
     " under the 156 ridge. The A3 tiny tensor is the trap: compile buys 1.08×.", "number",
     "0.33 FLOP/byte is the elementwise add's intensity"),
    # a small word said of the roof share, not of the win
    ("Fused kernel sometimes correct, sometimes waste. For A2, memory-bound, 1.7 of 2.0 TB/s, compile give 3.8x, so"
     " fuse is correct. For A1 also can, fuse relu into matmul epilogue save the activation round trip, since matmul"
     " only 70% of peak there still got 30% to win lah.", "fusion", "fusion cannot help A1"),
    # a share of "the pipe" is a share of the bandwidth
    ("Fusion's right when ye're moving bytes: A2 runs at 1.7 TB/s on a 2.0 TB/s card, only 58% o' the pipe, and"
     " compile still gets 3.8× by no writing the intermediates oot. But at A1, a matmul at 70% o' peak, fusing the"
     " relu changes naething that matters.", "number", "85% of peak bandwidth, not 58%"),
    # a statement with a tag question is said, not asked
    ("Fused kernel is always the career-limiting sentence, no? Look at A1: the matmul is at 70% of peak and fusing the"
     " relu changes nothing.", "both_sides", "takes one side for every kernel"),
    # fusion's mechanism denied in general
    ("Fused kernel is always the career-limiting sentence. Fusion never reduces memory traffic, it only makes the"
     " code hard to maintain. Look at A1: at 70% of peak, fusing the relu changes nothing.", "fusion",
     "fusion deletes round trips through memory and launches"),
    # A1's headroom said to be clawed back by fusion
    ("Fusion is sometimes right and sometimes a waste. A2 is memory-bound at 1.7 TB/s of 2.0 and compile wins 3.8× by"
     " deleting intermediate round trips, so there you fuse. A1's matmul sits at 70% of peak, and fusing the preceding"
     " relu in is how you claw back most of the remaining 30%.", "fusion", "fusion cannot help A1"),
    # a decode's rate said to be taken past a figure
    ("Fusion's right for A2: bandwidth-bound at 1.7 of 2.0 TB/s, and compile's 3.8× quicker because the intermediates"
     " stop going to memory. It's wrong for A1, a compute-bound matmul at 70% of peak. And on A4, fusing the attention"
     " would take 38 tok/s well past 100.", "fusion", "fusion cannot speed A4 up much"),
    # a decode's weight traffic said to go with fusion
    ("Fusion wins when you move bytes you need not: A2 at 1.7 TB/s of 2.0 gets 3.8×. Decode in A4 is memory-bound"
     " too, so fusing the decoder layers takes the weight traffic out. A1 at 70% of peak is compute-bound: fusing its"
     " relu cannot help.", "fusion", "each weight is read once a token"),
    # a decode's rise said from one figure to another
    ("Fusion pays where bytes set the time: A2 at 1.7 of 2.0 TB/s got 3.8× from compile. Decode in A4 is memory-bound"
     " too, so fusing the decoder layers should lift it from 38 tok/s into the 80s. A1 at 70% of peak is"
     " compute-bound: fusing its relu cannot help.", "fusion", "fusion cannot speed A4 up much"),
    # fusion said to add a round trip
    (RIGHT.replace("fusing a relu moves nothing that sets its time", "fusing the relu actually adds a memory round"
                   " trip, so it'd make it slower"), "fusion", "it only ever removes round trips"),
    # one side for every kernel, the stance said just before "every time"
    ("Fusing is the move every time: A2 gets 3.8× from compile because the intermediates never hit HBM, and A6's"
     " 40,000 launches collapse into a few.", "both_sides", "takes one side for every kernel"),
    # a relu "pulled in" is fused, and A1 cannot gain from it
    (RIGHT + " Even A1's matmul at 70% of peak would gain from pulling the relu in.", "fusion", "fusion cannot help A1"),
    # A1 said to be got from its share toward the peak
    (RIGHT + " In A1, though, fusing the relu into the matmul would get you from 70% toward 100% of peak.", "fusion",
     "fusion cannot help A1"),
    # another incident's multiplier got by this one, said of two at once
    ("Fusion is the right call on memory-bound work: A2 and A3 both get the 3.8× from compile because fusion deletes"
     " the round trips. On A1's matmul at 70% of peak, fusing the relu buys nothing.", "fusion", "bought only 1.08×"),
])
def test_a_wrong_paragraph_fails_the_check(paragraph: str, check: str, named: str) -> None:
    got = _checks(paragraph)[check]
    assert got["passed"] is False, got
    assert named in got["why"], got["why"]


def test_another_card_s_ridge_named_with_its_card_is_not_held_to_the_drill_s() -> None:
    """"On an H100 the ridge is about 295" is that card's: named, it is no slip."""
    paragraph = RIGHT + " On an H100 the ridge is about 295 FLOP/byte, so the same matmul is still far above it."
    assert _checks(paragraph)["number"]["passed"] is not False


@pytest.mark.parametrize("paragraph", [
    # how fusion works ("never touch HBM") is no win denied
    RIGHT.replace("which fuses it,", "which fuses it so the intermediates never touch HBM,"),
    # a share of the matmul's FLOPs is of no roof, and no other unit's number
    RIGHT + " The relu is ~0.01% of the matmul's FLOPs.",
    # the traffic called "pure waste" is what fusion deletes, not fusion called a waste
    "Fused kernel is correct when the kernel is below the ridge, like the add at 0.33 FLOP/byte against 156: every"
    " intermediate write and read is pure waste and fusion deletes it; A2 got 3.8x. It is career-limiting above the"
    " ridge, like the 4096 matmul at ~1360 FLOP/byte or A1 at 70% of peak: fusing a relu into it changes nothing.",
    # fusion's mechanism denied of one kernel: that kernel's reading, not a denial of the mechanism
    "Fusion pays where bytes set the time: A2's chain at 1.7 of 2.0 TB/s got 3.8× from compile, which deletes the"
    " round trips. On A1's matmul at 70% of peak, fusing the relu never reduces any traffic that matters, so it"
    " cannot help.",
    # a decode's small rise, said as one
    RIGHT + " In A4, fusing the decoder layers moves it from 38 to about 39 tok/s at most.",
    # the same readings, the right way round
    RIGHT + " Fusion never adds a round trip: it keeps the intermediate on chip.",
    RIGHT + " Fusing is not the move every time: A1 shows it.",
    RIGHT + " A2 gets the 3.8× from compile; A3 gets only 1.08×.",
])
def test_right_paragraphs_of_these_kinds_are_not_failed(paragraph: str) -> None:
    checks = _checks(paragraph)
    assert all(c["passed"] is not False for c in checks.values()), checks


def test_a_dropped_g_and_a_week_spent_are_read() -> None:
    """"savin'", "writin'": the g dropped; "you spent a week" is fusion argued against; both sides are then read."""
    paragraph = ("Mais, 'write a fused kernel' is a fine gumbo or a burnt roux dependin' on the regime. On A2 the chain's"
                 " memory-bound — 1.7 of 2.0 TB/s, 85% of peak bandwidth — and compile make it 3.8x faster by never"
                 " writin' the intermediates, so fusion pays big. But A1's matmul already at 70% of peak TFLOP/s, ~1,356"
                 " FLOP/byte, way above a 156 ridge — fuse the relu and you spent a week savin' a spoonful.")
    assert _checks(paragraph)["both_sides"]["passed"] is True


def test_a_win_of_nothing_is_no_win() -> None:
    """"Saves zero frames", "gains nothing": the paying word is denied by what follows it."""
    from regime_core.grading.argument import fusion_said_of_incidents
    from regime_core.grading.language import normalise

    said = fusion_said_of_incidents(normalise("Fusing the relu into A1's matmul saves zero frames."))
    assert [(s.incident, s.pays) for s in said] == [("a1", False)]


def test_several_kernels_to_merge_is_the_side_where_fusion_pays() -> None:
    """"Wherever there are several kernels to merge" is the launch side: with A1's refusal, both sides are argued."""
    paragraph = ("Fusion pays wherever there are several kernels to merge. It's the wrong sentence in A1, where the matmul"
                 " is already at 70% of peak and compute-bound.")
    assert _checks(paragraph)["both_sides"]["passed"] is True


def test_a_ridge_with_its_figure_is_not_given_the_kernel_s() -> None:
    """"Way above di 156 FLOP/byte ridge at ~1,360": the 1,360 is the matmul's, the ridge has its 156."""
    paragraph = RIGHT + " The A1 matmul sits way above di 156 FLOP/byte ridge at ~1,360."
    assert _checks(paragraph)["number"]["passed"] is not False


def test_a_side_given_to_an_incident_after_and_or_so_is_read() -> None:
    """"In A2 …, and compile's fusion gives 3.8×"; "where it is a bad idea is A3 …, so the effort is not paid back"."""
    paragraph = ("In A2 the eager chain gets 1.7 TB/s of 2.0 TB/s, and compile's fusion gives 3.8×. It is a bad idea on"
                 " A1, where the matmul sits at 70% of peak, past the ridge: the bytes a fused relu saves were never the"
                 " problem.")
    assert _checks(paragraph)["both_sides"]["passed"] is True


def test_an_intensity_raised_from_is_where_it_starts() -> None:
    """"Raises its intensity from about 1 FLOP/byte past the ridge": 1 FLOP/byte is not placed past the ridge."""
    paragraph = RIGHT + " Fusing the decode step's kernels would raise its intensity from about 1 FLOP/byte past the ridge."
    assert _checks(paragraph)["number"]["passed"] is not False


def test_a_clause_led_by_it_is_said_of_fusion() -> None:
    """ "It also pays on A1": the paragraph is about fusion, so "it" is fusion; "It is a career-limiter" is too."""
    wrong = RIGHT[:RIGHT.index(" It is a career-limiter")] + (" It also pays on A1's matmul, at 70% of peak, to a"
                                                                 " smaller degree.")
    assert _checks(wrong)["fusion"]["passed"] is False
    assert "fusion cannot help A1" in _checks(wrong)["fusion"]["why"]
    assert _checks(RIGHT)["fusion"]["passed"] is True
