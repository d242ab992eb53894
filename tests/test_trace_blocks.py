"""Events kept a block at a time (what the reader hands on from one decoding call) keep what one at a time keeps.

The collector keeps a kernel, a copy or a launch written as Kineto writes them in its own loop and sends every
other event on to the general path; both add to the same columns. These traces mix the two on purpose (odd ids,
a device given as a list, collectives with their message, ties in start time) across more rows than a column
holds waiting, so a block crosses the point where waiting rows move into the columns.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from regime_core.trace.columns import PENDING
from regime_core.trace.events import Events, _Collector, _events, from_dicts, read_events


def _mixed_events(count: int, seed: int) -> list[Any]:
    """Kernels, copies, launches, ops and odd events, in the order a trace writes them, some starting together."""
    rng = random.Random(seed)
    events: list[Any] = []
    at = 1000.0
    for n in range(count):
        tie = rng.random() < 0.1
        start = at if tie else at + rng.random() * 5
        kernel = {"ph": "X", "cat": "kernel", "name": f"gemm_{n % 7}", "ts": start, "dur": 3 + rng.random(),
                  "args": {"device": 0, "stream": 7 + n % 2, "correlation": n, "External id": n}}
        odd = rng.randrange(12)
        if odd == 0:
            del kernel["args"]["External id"]  # no op to name: the general path
        elif odd == 1:
            kernel["args"]["correlation"] = str(n)  # an id as text
        elif odd == 2:
            kernel["args"]["device"] = [0]  # a list where a number belongs
        elif odd == 3:
            kernel["name"] = "ncclDevKernel_AllReduce_Sum_bf16_RING_LL"  # a collective, with its message
            kernel["args"].update({"In msg nelems": 4096, "Out msg nelems": 4096, "Group size": 8,
                                   "dtype": "BFloat16"})
        elif odd == 4:
            kernel["ts"] = str(start)  # a time as text
        events.append(kernel)
        events.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel" if n % 5 else "cudaGraphLaunch",
                       "ts": start - 2, "dur": 1.5, "tid": 11, "pid": 1,
                       "args": {"correlation": n if odd != 5 else None}})
        if n % 3 == 0:
            events.append({"ph": "X", "cat": "cpu_op", "name": "aten::mm", "ts": start - 3, "dur": 2.5, "tid": 11,
                           "args": {"External id": n, "Input Dims": [[64, 64], [64, 64]],
                                    "Input type": ["float", "float"]}})
        if n % 50 == 0:
            events.append({"ph": "X", "cat": "user_annotation", "name": f"ProfilerStep#{n // 50}", "ts": start - 4,
                           "dur": 200.0, "args": {}})
            events.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaStreamSynchronize", "ts": start,
                           "dur": 4.0, "tid": 11, "args": {}})
            events.append({"ph": "f", "cat": "ac2g", "name": "flow", "ts": start, "id": n})  # never kept
            events.append(["not", "an", "event"])
        if not tie:
            at = start + 5
    return events


def _one_at_a_time(events: list[Any]) -> Events:
    kept = _Collector()
    for event in events:
        kept.add(event)
    return _events(kept, ())


def _same(a: Events, b: Events) -> None:
    assert tuple(a.gpu) == tuple(b.gpu)
    assert tuple(a.launches) == tuple(b.launches)
    assert tuple(a.ops) == tuple(b.ops)
    assert (a.graph_launches, a.syncs, a.steps, a.skipped, a.messages) == (b.graph_launches, b.syncs, b.steps,
                                                                           b.skipped, b.messages)


@pytest.mark.parametrize("seed", [1, 2])
def test_a_block_keeps_what_one_at_a_time_keeps(seed: int) -> None:
    events = _mixed_events(PENDING + 700, seed)  # more kernels than wait at once: a block crosses a move
    alone = _one_at_a_time(events)
    assert len(alone.gpu) == PENDING + 700  # a time given as text is read as a number
    assert alone.messages
    assert alone.graph_launches
    assert alone.syncs
    assert alone.steps
    assert len(alone.ops)
    _same(from_dicts(events), alone)  # the whole list as one block


def test_the_reader_s_blocks_keep_what_one_at_a_time_keeps() -> None:
    events = _mixed_events(PENDING + 700, 3)
    text = json.dumps({"traceEvents": events}).encode()
    _same(read_events(text), _one_at_a_time(events))


def test_kernels_starting_together_keep_the_order_they_came_in() -> None:
    """Two kernels at one start, the first read by the general path (no External id), the second inline."""
    first = {"ph": "X", "cat": "kernel", "name": "a", "ts": 10.0, "dur": 1.0,
             "args": {"device": 0, "stream": 7, "correlation": 1}}
    second = {"ph": "X", "cat": "kernel", "name": "b", "ts": 10.0, "dur": 1.0,
              "args": {"device": 0, "stream": 7, "correlation": 2, "External id": 2}}
    assert [s.name for s in from_dicts([first, second]).gpu] == ["a", "b"]
    assert [s.name for s in from_dicts([second, first]).gpu] == ["b", "a"]
