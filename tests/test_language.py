"""Learner text as the grader reads it: case, typos, shorthand, numbers in words, units, negation."""

from __future__ import annotations

import pytest

from regime_core.catalogue.levers import recognise, unsnake
from regime_core.catalogue.quantity import Dim, quantities_in
from regime_core.grading.grade import grade
from regime_core.grading.language import added, in_context, negated, normalise, unrepl, with_units


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("70 per cent of peak", "70% of peak"), ("seventy percent", "70%"), ("eighty-five pct", "85%"),
        ("three point eight times faster", "3.8× faster"), ("one point oh eight times", "1.08×"),
        ("forty thousand launches", "40000 launches"), ("a 134M-element tensor", "a 134e6-element tensor"),
        ("twelve microseconds", "12 µs"), ("12us", "12 µs"), ("memroy bonud", "memory bound"),
        ("Comptue-bound", "compute-bound"), ("fusoin", "fusion"), ("kernal", "kernel"),
        ("tensor cores", "tensor cores"), ("ten kernels", "10 kernels"), ("one kernel", "one kernel"),
        ("using CUDA graphs", "using cuda graphs"),
        # a multiplier written "-fold"; thousands grouped by spaces (SI, LaTeX's thin space); a model's size after
        # its dtype, or hyphenated in words, is billions of parameters
        ("a 2.25-fold speed-up", "a 2.25× speed-up"), ("40 000 launches", "40000 launches"),
        ("$40\\,000$ launches", "40000 launches"), ("8 192 elements", "8192 elements"),
        ("bf16 7B = 14 GB", "bf16 7e9 = 14 gb"), ("a 7-billion-parameter model", "a 7e9-parameter model"),
        ("batch 8, 512 context", "batch 8, 512 context"), ("1.5 000", "1.5 000"),
    ],
)
def test_normalise_reads_what_a_reader_reads(text: str, read: str) -> None:
    assert normalise(text) == read


@pytest.mark.parametrize(
    ("text", "quantity"),
    [("1.7TB/s", (1.7e12, Dim.BYTE_RATE)), ("1.7tb/s", (1.7e12, Dim.BYTE_RATE)), ("14gb", (14e9, Dim.BYTE)),
     ("12us", (12e-6, Dim.SECOND)), ("seventy per cent", (0.7, Dim.FRACTION))],
)
def test_units_without_spaces_or_capitals_are_quantities(text: str, quantity: tuple[float, Dim]) -> None:
    value, dim = quantities_in(with_units(text))[0]
    assert dim is quantity[1]
    assert value == pytest.approx(quantity[0])


@pytest.mark.parametrize(
    ("text", "phrase", "denied"),
    [
        ("not kv paging", "kv paging", True), ("do not micro-optimise the kernel", "micro-optimise", True),
        ("fusion won't help here", "fusion", True), ("quant rather than a faster kernel", "faster kernel", True),
        ("it is not compute-bound so fuse", "fuse", False), ("fuse, not mma", "fuse", False),
        ("cut traffic, not registers", "registers", True), ("cut traffic, not registers", "cut traffic", False),
    ],
)
def test_negation_reaches_only_its_own_clause(text: str, phrase: str, denied: bool) -> None:
    start = text.index(phrase)
    assert negated(text, start, start + len(phrase)) is denied


def test_already_marks_a_description_of_the_kernel_not_a_lever() -> None:
    text = "a fused relu-matmul for a kernel already on tensor cores"
    assert in_context(text, text.index("tensor cores")) is True
    assert in_context(text, text.index("fused")) is False


@pytest.mark.parametrize(
    ("text", "read"),
    [("the 'faster' attention kernel", "the faster attention kernel"), ('the "faster" kernel', "the faster kernel"),
     ("`pin_memory`", "pin memory"), ("don't fuse", "don't fuse"), ("the weights' bytes", "the weights bytes")],
)
def test_quotation_marks_around_a_word_are_dropped_but_an_apostrophe_inside_one_stays(text: str, read: str) -> None:
    assert normalise(text) == read


@pytest.mark.parametrize(("text", "phrase"), [("the maths is trivial", "maths"), ("compute is negligible here", "compute")])
def test_trivial_or_negligible_denies_what_it_follows(text: str, phrase: str) -> None:
    start = text.index(phrase)
    assert negated(text, start, start + len(phrase)) is True


@pytest.mark.parametrize("word", ["token", "prompt", "weight"])
def test_the_singular_of_a_vocabulary_word_is_not_corrected_to_its_plural(word: str) -> None:
    assert normalise(f"14 GB per {word}") == f"14 GB per {word}".lower()


@pytest.mark.parametrize(
    ("text", "quantity"),
    [("47 ms/token", (0.047, Dim.SECOND)), ("14 GB/token", (14e9, Dim.BYTE)), ("14GB/step", (14e9, Dim.BYTE))],
)
def test_a_unit_per_token_or_step_written_with_a_slash_is_a_quantity(text: str, quantity: tuple[float, Dim]) -> None:
    value, dim = quantities_in(with_units(text))[0]
    assert dim is quantity[1]
    assert value == pytest.approx(quantity[0])


@pytest.mark.parametrize(
    ("text", "quantity"),
    [("1.7 TB/sec", (1.7e12, Dim.BYTE_RATE)), ("2 terabytes per second", (2e12, Dim.BYTE_RATE)),
     ("1.7e12 bytes per sec", (1.7e12, Dim.BYTE_RATE)), ("14 gigs", (14e9, Dim.BYTE)),
     ("14 gigabytes", (14e9, Dim.BYTE)), ("1.55 tib/s", (1.55 * 2**40, Dim.BYTE_RATE)), ("16 kib", (16 * 2**10, Dim.BYTE))],
)
def test_bandwidth_per_sec_sizes_in_words_and_lower_case_binary_prefixes_are_quantities(
        text: str, quantity: tuple[float, Dim]) -> None:
    value, dim = quantities_in(with_units(text))[0]
    assert dim is quantity[1]
    assert value == pytest.approx(quantity[0])


def test_a_size_word_without_a_number_stays_a_word() -> None:
    assert normalise("a few kilobytes") == "a few kilobytes"


def test_a_full_stop_inside_a_dotted_name_does_not_end_the_clause() -> None:
    text = "never call torch.cuda.synchronize"
    start = text.index("synchronize")
    assert negated(text, start, len(text)) is True


@pytest.mark.parametrize(
    ("text", "phrase", "put_in"),
    [("add torch.cuda.synchronize() after every step", "synchronize", True), ("insert a sync", "sync", True),
     ("do not add a sync", "sync", False), ("remove the sync", "sync", False),
     ("add fusion, then a long list of other things and a sync", "sync", False)],
)
def test_added_reads_a_phrase_put_in_but_not_one_whose_adding_is_denied(text: str, phrase: str, put_in: bool) -> None:
    assert added(text, text.index(phrase)) is put_in



@pytest.mark.parametrize(("text", "read"), [
    (">>> 312e12 / 2.0e12\n156.0", "312e12 / 2.0e12 = 156.0"),
    (">>> 2/(2+8)   # GPU busy share\n0.2", "2/(2+8) = 0.2; GPU busy share"),
    (">>> regime\n'compute-bound'", "regime\n'compute-bound'"),  # a result that is no number is left as said
    (">>> # a comment alone\ntext", "# a comment alone\ntext"),
    ("no prompt here", "no prompt here"),
])
def test_a_repl_transcript_is_read_as_working(text: str, read: str) -> None:
    assert unrepl(text) == read


def test_a_repl_reading_is_linear_in_the_text() -> None:
    """Prompts with nothing else, and many prompt-result pairs, read as fast as any text (no backtracking)."""
    for text in (">>>" * 40_000, ">>> " + " " * 100_000, ">>> 1\n2\n" * 20_000):
        assert ">>>" not in unrepl(text)


@pytest.mark.parametrize(("item", "field", "text"), [
    ("a3", "regime", "regime: overhead_bound"),
    ("a3", "helps", "levers: [cuda_graphs, fewer_launches]"),
    ("a3", "wastes", "anti_levers: [bandwidth_tuning]"),
])
def test_snake_case_identifiers_are_read_as_words(item: str, field: str, text: str) -> None:
    """A config writer's identifiers are words joined by underscores; the levers' own (pin_memory) still read."""
    entry = {"regime": "", "evidence": "", "helps": "", "wastes": "", field: text}
    assert grade({"part_a": {item: entry}})["items"][item]["checks"][field]["passed"] is True


def test_levers_named_as_identifiers_are_recognised() -> None:
    assert recognise("pin_memory=True, num_workers=8") == ["feed_loader"]
    assert unsnake("cuda_graphs and 40_000") == "cuda graphs and 40_000"


@pytest.mark.parametrize(("text", "read"), [
    ("gpu_busy_pct: 20", "gpu busy: 20%"),
    ("floor_tok_per_s: 21  # from 47 ms", "floor: 21 tok/s  # from 47 ms"),
    ("time_us = 12", "time: 12 µs"),
    ("the gap us: not a key", "the gap us: not a key"),  # no value after it: left as written
])
def test_a_config_key_that_ends_in_a_unit_gives_its_value_the_unit(text: str, read: str) -> None:
    assert normalise(text) == read
