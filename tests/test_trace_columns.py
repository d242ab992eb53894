"""A trace's GPU spans, launches and ops kept as columns (``trace/columns.py``): read back as the same named tuples,
in the same order, at a fraction of the memory a tuple an event took."""

from __future__ import annotations

import dataclasses
import tracemalloc
from array import array
from collections.abc import Callable

import pytest

from regime_core.trace.columns import Columns, FlagColumn, IdColumn, LabelColumn, MaybeFloatColumn
from regime_core.trace.events import Call, GpuSpan, read_events
from regime_core.trace.ops import op_totals
from trace_builder import Trace, as_bytes


def _spans(rows: list[tuple[str, float, float, str, str, str, int | None, int | None, bool]]) -> Columns[GpuSpan]:
    spans = Columns(GpuSpan, [[], array("d"), array("d"), LabelColumn(), LabelColumn(), LabelColumn(), IdColumn(),
                              IdColumn(), FlagColumn()])
    for row in rows:
        spans.append(row)
    return spans


ROWS = [("b", 2.0, 3.0, "kernel", "0", "7", 5, None, False), ("a", 1.0, 4.0, "memcpy", "0", "8", None, 9, True),
        ("c", 2.0, 2.5, "kernel", "1", "7", 2**40, 3, False)]


def test_columns_read_back_as_the_named_tuples_they_hold() -> None:
    spans = _spans(ROWS)
    as_tuples = tuple(GpuSpan(*row) for row in ROWS)
    assert len(spans) == 3
    assert tuple(spans) == as_tuples
    assert spans == as_tuples
    assert spans[1] == as_tuples[1]
    assert spans[-1] == as_tuples[-1]
    assert spans[1:] == as_tuples[1:]
    assert spans[1].correlation is None
    assert spans[1].comm is True
    assert spans[0].duration == 1.0
    with pytest.raises(IndexError):
        spans[3]  # the read is the test


def test_sorting_by_start_keeps_ties_in_the_order_they_came() -> None:
    spans = _spans(ROWS).sorted_by(1)
    assert [s.name for s in spans] == ["a", "b", "c"]  # b and c start together: b came first


@pytest.mark.parametrize("value", [2**63, -(2**63) - 1])
def test_an_id_past_64_bits_is_kept(value: int) -> None:
    column = IdColumn()
    for v in (1, None, value, 2):
        column.append(v)
    assert list(column.decoded()) == [1, None, value, 2]
    assert column.get(2) == value


def test_a_trace_of_ever_new_labels_keeps_them_as_they_are() -> None:
    column = LabelColumn()
    for n in range(2**16 + 5):
        column.append(f"stream {n}")
    assert column.get(2**16 + 4) == f"stream {2**16 + 4}"
    assert list(column.decoded())[:2] == ["stream 0", "stream 1"]


def test_a_missing_float_reads_back_as_none() -> None:
    column = MaybeFloatColumn()
    column.append(None)
    column.append(2.5)
    assert list(column.decoded()) == [None, 2.5]
    assert column.get(0) is None


def test_a_trace_s_events_take_a_fraction_of_a_tuple_each() -> None:
    """50,000 kernels, their launches and ops: kept as columns, under 100 bytes an event (a named tuple an event,
    with its floats and ids, took some 250)."""
    t = Trace()
    for n in range(25_000):
        op = t.op(n * 50.0, 5, "aten::mm", [[64, 64], [64, 64]], ["float", "float"])
        t.kernel(n * 50.0 + 10, 20, "gemm", op=op)
        t.kernel(n * 50.0 + 35, 5, "add")
    data = as_bytes(t.document())
    tracemalloc.start()
    try:
        events = read_events(data)
        kept, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    count = len(events.gpu) + len(events.launches) + len(events.ops)
    assert count == 125_000
    assert kept / count < 100, kept / count
    assert isinstance(events.launches[0], Call)


def test_the_ops_table_is_the_same_from_columns_and_from_tuples() -> None:
    """``ops.op_totals`` reads an op's fields from its columns (no row built per kernel); the same events held as
    tuples give the same table."""
    t = Trace()
    for n in range(200):
        op = t.op(n * 50.0, 5, "aten::mm", [[64, 64], [64, 128 if n % 3 else 64]], ["float", "float"])
        t.kernel(n * 50.0 + 10, 20, "gemm", op=op)
        t.kernel(n * 50.0 + 35, 5, "add")
    events = read_events(as_bytes(t.document()))
    as_tuples = dataclasses.replace(events, gpu=tuple(events.gpu), launches=tuple(events.launches),
                                    ops=tuple(events.ops))
    assert op_totals(events) == op_totals(as_tuples)
    totals, _ = op_totals(events)
    assert [(o.name, o.calls) for o in totals] == [("aten::mm", 133), ("aten::mm", 67)]


def _mm_trace(ops: int, external: Callable[[int], int]) -> Trace:
    """Matmuls with the External ids ``external(n)`` (from a million: clear of the ids the builder gives)."""
    t = Trace()
    for n in range(ops):
        op = t.op(n * 50.0, 5, "aten::mm", [[64, 64], [64, 128 if n % 3 else 64]], ["float", "float"])
        t.events[-1]["args"]["External id"] = external(n)
        t.kernel(n * 50.0 + 10, 20, "gemm", op=op)
        t.kernel(n * 50.0 + 35, 5, "add")
    return t


def test_ops_are_found_by_external_id_whether_the_ids_are_dense_or_spread() -> None:
    """Kineto's ids, in order (looked up in an array), and ids spread a thousand apart (in a dict), give one table."""
    dense = op_totals(read_events(as_bytes(_mm_trace(300, lambda n: 10**6 + n).document())))
    spread = op_totals(read_events(as_bytes(_mm_trace(300, lambda n: 10**6 + 1000 * (299 - n)).document())))
    assert dense == spread
    assert [(o.name, o.calls) for o in dense[0]] == [("aten::mm", 200), ("aten::mm", 100)]


def test_the_ops_table_works_in_under_80_bytes_an_op() -> None:
    """25,000 ops and 50,000 kernels tallied: an array slot and a byte per op, a double per kernel (a dict entry,
    a set of calls and a list of floats took some 340 bytes an op)."""
    events = read_events(as_bytes(_mm_trace(25_000, lambda n: 10**6 + 4 * n).document()))
    tracemalloc.start()
    try:
        totals, _ = op_totals(events)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert sum(o.calls for o in totals) == 25_000
    assert peak / 25_000 < 80, peak / 25_000


def test_columns_kept_a_block_at_a_time_read_back_as_the_rows_kept_one_at_a_time() -> None:
    """``Columns.extend`` (an SQLite export's rows, a block at a time) keeps what ``append`` keeps: ids with and
    without None, one past 64 bits, labels new and seen."""
    rows = [*ROWS, ("d", 5.0, 6.0, "kernel", "0", "9", None, None, True), ("e", 6.0, 7.0, "memset", "2", "7", 2**70, 4,
                                                                            False)]
    one_by_one = _spans(rows)
    in_blocks = _spans(rows[:1])
    in_blocks.extend([list(column) for column in zip(*rows[1:3], strict=True)])
    in_blocks.extend([list(column) for column in zip(*rows[3:], strict=True)])
    assert list(in_blocks) == list(one_by_one) == [GpuSpan(*row) for row in rows]
    with pytest.raises(ValueError, match="different lengths"):
        in_blocks.extend([["x"], [1.0]])


@pytest.mark.parametrize("ids", [[1, 2, 3], [None, None, None], [1, None, 3]])
def test_an_id_column_reads_back_its_ids_and_nones(ids: list[int | None]) -> None:
    column = IdColumn()
    column.extend(ids)
    assert list(column.decoded()) == ids


def test_rows_appended_wait_in_blocks_and_read_back_whole_in_order_between_extends() -> None:
    """Appended rows wait as tuples and move into the columns a block at a time; any read, and any extend, sees
    every row before it, in order (past a block's size, and with an id too large for 64 bits in the middle)."""
    from regime_core.trace.columns import PENDING

    many = [(f"k{n}", float(n), n + 0.5, "kernel", str(n % 3), "7", 2**70 if n == PENDING + 5 else n, None, n % 2 == 0)
            for n in range(PENDING * 2 + 17)]
    spans = _spans(many[:PENDING + 10])
    assert len(spans) == PENDING + 10
    spans.extend([list(column) for column in zip(*many[PENDING + 10:PENDING + 12], strict=True)])
    for row in many[PENDING + 12:]:
        spans.append(row)
    assert list(spans) == [GpuSpan(*row) for row in many]
    assert spans[PENDING + 5].correlation == 2**70
    assert list(spans.values(1)) == [row[1] for row in many]


@pytest.mark.parametrize("window", [None, (0.002, 0.004)])
def test_a_trace_without_ops_counts_every_kernel_s_time_and_nothing_else(window: tuple[float, float] | None) -> None:
    """An export with no op recorded (Nsight's, a CSV report): no op row, and the kernels' time summed as the tally
    sums it, copies and memsets left out, a window's kernels by their start."""
    t = Trace()
    for n in range(300):
        t.kernel(1000 + n * 20.0, 7.5 + n % 3, f"k{n % 4}")
        if n % 10 == 0:  # a copy, which is GPU time but not a kernel's
            t.events.append({"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD", "ts": 1000 + n * 20.0 + 10,
                             "dur": 3.0, "args": {"device": 0, "stream": 7, "correlation": n, "External id": n}})
    events = read_events(as_bytes(t.document()))
    totals, seconds = op_totals(events, window)
    assert totals == []
    kernels = [s for s in events.gpu if s.kind == "kernel" and (window is None or window[0] <= s.start < window[1])]
    assert seconds == sum(s.end - s.start for s in kernels)
    assert 0 < len(kernels) < (300 if window else 301)
