"""Each op the trace recorded with its shapes (``record_shapes=True``), placed on the card's roofline.

An op's FLOPs and bytes come from the core's own work models (a matmul's 2·M·N·K, its three operands'
bytes); its time is the GPU time of the kernels it launched, linked through the trace's ``External id``.
Where the trace carries ``flops`` (``with_flops=True``) that count is used and said. A convolution
is placed from its input and weight shapes and the stride, padding, dilation and groups the trace records beside
them (``Concrete Inputs``). Ops whose shapes give no model (custom ops, a convolution recorded without its stride)
keep their time and are said as not modelled.
"""

from __future__ import annotations

import bisect
import itertools
import math
from array import array
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from operator import and_
from typing import Any, cast

from regime_core.catalogue.hardware import DTYPE_BYTES
from regime_core.model import work as wk
from regime_core.trace.columns import Columns, values_of
from regime_core.trace.events import CpuOp, Events, GpuSpan

#: Element sizes of the ``Input type`` names PyTorch records, and the dtype the core names for the math.
_TYPES = {"float": ("fp32", 4), "c10::Half": ("fp16", 2), "c10::BFloat16": ("bf16", 2), "double": ("fp64", 8),
          "c10::Float8_e4m3fn": ("fp8", 1), "c10::Float8_e5m2": ("fp8", 1), "signed char": ("int8", 1),
          "int": ("fp32", 4), "long int": ("fp32", 8), "bool": ("fp32", 1), "unsigned char": ("int8", 1)}
_MATMUL = {"aten::mm", "aten::addmm", "aten::bmm", "aten::baddbmm", "aten::matmul", "aten::linear", "aten::addbmm"}
_ATTENTION = {"aten::scaled_dot_product_attention", "aten::_scaled_dot_product_flash_attention",
              "aten::_scaled_dot_product_efficient_attention", "aten::_flash_attention_forward",
              "aten::_scaled_dot_product_cudnn_attention"}
# Elementwise and reductions: one pass over the operands. FLOPs per output element, roughly (softmax and
# the norms take a handful: max, subtract, exp, sum, divide).
_ONE_PASS = {"aten::add": 1, "aten::add_": 1, "aten::mul": 1, "aten::mul_": 1, "aten::sub": 1, "aten::sub_": 1,
             "aten::div": 1, "aten::div_": 1, "aten::relu": 1, "aten::relu_": 1, "aten::gelu": 8, "aten::silu": 4,
             "aten::sigmoid": 4, "aten::tanh": 4, "aten::clamp": 1, "aten::clamp_": 1, "aten::clamp_min_": 1,
             "aten::threshold_backward": 1, "aten::copy_": 0, "aten::fill_": 0, "aten::zero_": 0, "aten::where": 1,
             "aten::exp": 2, "aten::pow": 2, "aten::rsqrt": 2, "aten::sum": 1, "aten::mean": 1,
             "aten::_softmax": 5, "aten::softmax": 5, "aten::_log_softmax": 5, "aten::native_layer_norm": 8,
             "aten::layer_norm": 8, "aten::rms_norm": 6, "aten::_fused_rms_norm": 6, "aten::native_dropout": 2,
             "aten::mse_loss": 3, "aten::_foreach_add_": 1, "aten::_foreach_mul_": 1}


@dataclass(frozen=True)
class OpWork:
    """One op's work per call, or why there is none."""

    flops: float
    bytes: float
    dtype: str
    source: str  # "shapes", "flops" (the trace's own count) or ""


def _tensors(op: CpuOp) -> list[tuple[tuple[int, ...], int, str]]:
    out = []
    for dims, kind in zip(op.dims, op.types or ("",) * len(op.dims), strict=False):
        if isinstance(dims, list) and dims and all(isinstance(d, int) and not isinstance(d, bool) and d >= 0
                                                   for d in dims):
            dtype, size = _TYPES.get(str(kind), ("fp32", 4))
            out.append((tuple(dims), size, dtype))
    return out


def _numel(shape: tuple[int, ...]) -> int:
    return math.prod(shape)


def _matmul(name: str, tensors: list[tuple[tuple[int, ...], int, str]]) -> OpWork | None:
    mats = [t for t in tensors if len(t[0]) >= 2]
    if (name == "aten::linear" and len(mats) >= 2) or (name == "aten::linear" and len(tensors) >= 2):
        x, weight = tensors[0], tensors[1]
        if len(weight[0]) != 2 or x[0][-1] != weight[0][1]:
            return None
        m, k, n, batch = _numel(x[0][:-1]), x[0][-1], weight[0][0], 1
    else:
        if len(mats) < 2:
            return None
        a, b = mats[-2], mats[-1]
        if a[0][-1] != b[0][-2]:
            return None
        m, k, n = a[0][-2], a[0][-1], b[0][-1]
        batch = _numel(a[0][:-2]) if len(a[0]) > 2 else 1
    # A double-precision GEMM runs on FP64 tensor or matrix cores where the card has them (cuBLAS's DGEMM does).
    dtype = "fp64-matrix" if tensors[0][2] == "fp64" else tensors[0][2]
    if dtype not in DTYPE_BYTES or m * n * k == 0:
        return None
    modelled = wk.matmul(m, n, k, dtype, batch)
    return OpWork(modelled.flops, modelled.bytes, dtype, "shapes")


def _attention(tensors: list[tuple[tuple[int, ...], int, str]]) -> OpWork | None:
    if len(tensors) < 3 or any(len(t[0]) != 4 for t in tensors[:3]):
        return None
    (b, h, seq, d), kv = tensors[0][0], tensors[1][0][2]
    dtype = tensors[0][2] if tensors[0][2] in ("fp16", "bf16") else "bf16"
    modelled = wk.attention(b, h, seq, kv, d, dtype=dtype, fused=True)
    return OpWork(modelled.flops, modelled.bytes, dtype, "shapes")


# Where each convolution op records its stride, padding, dilation and groups among its arguments (``Concrete
# Inputs``), and whether it is transposed: (stride, padding, dilation, transposed, groups); None where it has none.
_CONVOLUTION: dict[str, tuple[int, int, int, int | None, int]] = {
    "aten::convolution": (3, 4, 5, 6, 8), "aten::_convolution": (3, 4, 5, 6, 8),
    "aten::conv1d": (3, 4, 5, None, 6), "aten::conv2d": (3, 4, 5, None, 6), "aten::conv3d": (3, 4, 5, None, 6),
    "aten::cudnn_convolution": (3, 2, 4, None, 5), "aten::miopen_convolution": (4, 3, 5, None, 6),
    "aten::convolution_backward": (4, 5, 6, 7, 9),
}


def _ints(value: object, count: int) -> tuple[int, ...] | None:
    """A recorded list of ints ("[2, 2]", or "2" for every dimension), ``count`` of them, or None."""
    text = str(value).strip("[] ")
    try:
        found = tuple(int(part) for part in text.split(",")) if text else ()
    except ValueError:
        return None
    if len(found) == 1:
        found *= count
    return found if len(found) == count and all(v >= 0 for v in found) else None


def _convolution(op: CpuOp, tensors: list[tuple[tuple[int, ...], int, str]]) -> OpWork | None:
    """A convolution's work from its input and weight shapes and its stride, padding, dilation and groups.

    The output's size is ⌊(H + 2p − d·(R − 1) − 1) ÷ s⌋ + 1 per spatial dimension; the backward pass reads it
    from the gradient it is given. Transposed convolutions, and ops that recorded no stride or padding, are not
    modelled.
    """
    at = _CONVOLUTION[op.name]
    backward = op.name == "aten::convolution_backward"
    shapes = [t for t in tensors if len(t[0]) >= 3]
    if len(shapes) < (3 if backward else 2) or len(op.concrete) <= max(i for i in at if i is not None):
        return None
    grad, x, weight = (shapes[0], shapes[1], shapes[2]) if backward else (None, shapes[0], shapes[1])
    spatial = len(x[0]) - 2
    stride, padding, dilation = (_ints(op.concrete[i], spatial) for i in at[:3])
    groups = _ints(op.concrete[at[4]], 1)
    transposed = at[3] is not None and str(op.concrete[at[3]]).strip().lower() == "true"
    if stride is None or padding is None or dilation is None or not groups or transposed or \
            len(weight[0]) != len(x[0]) or groups[0] == 0 or x[0][1] != weight[0][1] * groups[0]:
        return None
    kernel = weight[0][2:]
    if grad is not None:
        outputs = grad[0][2:]
        mask = [part.strip().lower() == "true" for part in str(op.concrete[10]).strip("[] ").split(",")] \
            if len(op.concrete) > 10 and str(op.concrete[10]).strip("[] ") else [True, True]
        grads = (mask[0], len(mask) > 1 and mask[1])
        if not any(grads):
            return None
    else:
        outputs = tuple((size + 2 * p - d * (r - 1) - 1) // s + 1 if s else 0
                        for size, p, d, r, s in zip(x[0][2:], padding, dilation, kernel, stride, strict=True))
        grads = None
    dtype = x[2] if x[2] in DTYPE_BYTES else "fp32"
    if min(outputs, default=0) <= 0 or 0 in x[0] or 0 in kernel:
        return None
    modelled = wk.convolution(x[0][0], x[0][1], weight[0][0], kernel=kernel, inputs=x[0][2:], outputs=outputs,
                              dtype=dtype, groups=groups[0], grads=grads)
    return OpWork(modelled.flops, modelled.bytes, dtype, "shapes")


# Older traces (2021) record a convolution's tensors but not its stride: the backward op that holds all three
# (input, output gradient, weight) gives the output's size, and the work of the two ops it calls for each gradient.
_CONV_BACKWARD = frozenset({"aten::cudnn_convolution_backward", "aten::miopen_convolution_backward"})
_CONV_GRAD_PART = {"aten::cudnn_convolution_backward_input": (True, False),
                   "aten::cudnn_convolution_backward_weight": (False, True),
                   "aten::miopen_convolution_backward_input": (True, False),
                   "aten::miopen_convolution_backward_weight": (False, True)}
_CONV_FORWARD = frozenset({"aten::cudnn_convolution", "aten::miopen_convolution", "aten::convolution",
                           "aten::_convolution", "aten::conv1d", "aten::conv2d", "aten::conv3d"})
_CONV_OLDER = _CONV_BACKWARD | frozenset(_CONV_GRAD_PART) | _CONV_FORWARD
_Shape = tuple[int, ...]


@dataclass(frozen=True)
class ConvolutionShapes:
    """What a trace's convolution backward ops record, for its ops that record less.

    ``backward``: per thread, each backward op's start, end and (input, output gradient, weight) tensors, in start
    order; ``outputs``: the output sizes seen for each (input, weight) shape, one where the layer is unambiguous.
    """

    backward: dict[str, list[tuple[float, float, tuple[tuple[_Shape, int, str], ...]]]]
    outputs: dict[tuple[_Shape, _Shape], set[_Shape]]

    @classmethod
    def of(cls, ops: Sequence[CpuOp]) -> ConvolutionShapes:
        """The backward ops' shapes, read from the ops that are convolution backward ops only."""
        backward: dict[str, list[tuple[float, float, tuple[tuple[_Shape, int, str], ...]]]] = defaultdict(list)
        outputs: dict[tuple[_Shape, _Shape], set[_Shape]] = defaultdict(set)
        for row, name in enumerate(values_of(ops, 0)):
            if name not in _CONV_BACKWARD:
                continue
            op = ops[row]
            tensors = [t for t in _tensors(op) if len(t[0]) >= 3]
            if len(tensors) < 3:
                continue
            x, grad, weight = tensors[0], tensors[1], tensors[2]
            backward[op.thread].append((op.start, op.end, (x, grad, weight)))
            outputs[(x[0], weight[0])].add(grad[0][2:])
        return cls(dict(backward), dict(outputs))

    def enclosing(self, op: CpuOp) -> tuple[tuple[_Shape, int, str], ...] | None:
        """The tensors of the backward op on ``op``'s thread that encloses it in time, or None."""
        return next((tensors for start, end, tensors in self.backward.get(op.thread, ())
                     if start <= op.start and op.end <= end), None)


def _convolution_from(x: tuple[_Shape, int, str], weight: tuple[_Shape, int, str], outputs: _Shape,
                      grads: tuple[bool, bool] | None) -> OpWork | None:
    """A convolution's work where its output's size is known without its stride."""
    if len(weight[0]) != len(x[0]) or not weight[0][1] or x[0][1] % weight[0][1] or min(outputs, default=0) <= 0 \
            or 0 in x[0] or 0 in weight[0]:
        return None
    dtype = x[2] if x[2] in DTYPE_BYTES else "fp32"
    modelled = wk.convolution(x[0][0], x[0][1], weight[0][0], kernel=weight[0][2:], inputs=x[0][2:], outputs=outputs,
                              dtype=dtype, groups=x[0][1] // weight[0][1], grads=grads)
    return OpWork(modelled.flops, modelled.bytes, dtype, "shapes")


def _convolution_recorded_elsewhere(op: CpuOp, tensors: list[tuple[_Shape, int, str]],
                                    shapes: ConvolutionShapes) -> OpWork | None:
    """An older trace's convolution op, placed from the backward op's shapes (see ``ConvolutionShapes``)."""
    if op.name in _CONV_BACKWARD:
        found = [t for t in tensors if len(t[0]) >= 3]
        return _convolution_from(found[0], found[2], found[1][0][2:], (True, True)) if len(found) >= 3 else None
    if op.name in _CONV_GRAD_PART:
        enclosing = shapes.enclosing(op)
        if enclosing is None:
            return None
        x, grad, weight = enclosing
        return _convolution_from(x, weight, grad[0][2:], _CONV_GRAD_PART[op.name])
    found = [t for t in tensors if len(t[0]) >= 3]
    if len(found) < 2:  # a forward op: its output's size where every backward op of its shapes agrees on one
        return None
    seen = shapes.outputs.get((found[0][0], found[1][0]), set())
    return _convolution_from(found[0], found[1], next(iter(seen)), None) if len(seen) == 1 else None


def work_of(op: CpuOp, shapes: ConvolutionShapes | None = None) -> OpWork | None:
    """The op's FLOPs and bytes per call from its recorded shapes (or the trace's own FLOP count), or None.

    ``shapes``: what the trace's convolution backward ops record, for a convolution recorded without its stride.
    """
    tensors = _tensors(op)
    if not tensors:
        return None
    found: OpWork | None = None
    if op.name in _MATMUL:
        found = _matmul(op.name, tensors)
    elif op.name in _ATTENTION:
        found = _attention(tensors)
    elif op.name in _CONVOLUTION:
        found = _convolution(op, tensors)
    if found is None and shapes is not None and op.name in _CONV_OLDER:
        found = _convolution_recorded_elsewhere(op, tensors, shapes)
    elif op.name in _ONE_PASS:
        largest = max(tensors, key=lambda t: _numel(t[0]))
        moved = float(sum(_numel(t[0]) * t[1] for t in tensors))
        if not op.name.endswith("_"):  # the result is written too (in place, it is one of the operands)
            moved += _numel(largest[0]) * largest[1]
        found = OpWork(float(_ONE_PASS[op.name] * _numel(largest[0])), moved, largest[2], "shapes")
    if op.flops is not None and op.flops > 0:
        moved = found.bytes if found else 0.0
        return OpWork(op.flops, moved, found.dtype if found else tensors[0][2], "flops") if moved else None
    return found if found and found.bytes > 0 else None


@dataclass(frozen=True)
class OpTotal:
    """An op name with one shape, over the trace: calls, GPU time, and its work per call (None: not modelled)."""

    name: str
    shape: str
    calls: int
    seconds: float
    work: OpWork | None


def op_totals(events: Events, window: tuple[float, float] | None = None) -> tuple[list[OpTotal], float]:
    """GPU time per (op, shape), most time first; and the GPU time of every kernel in the window, an op's or not.

    Kernels reach their op through ``External id``. A kernel counts for the innermost op that launched it (the
    op with its External id), so nested ops (``aten::linear`` over ``aten::addmm``) are not counted twice.
    """
    if not len(events.ops):  # no op recorded (an Nsight export, a CSV report): the kernels' time is all there is
        return [], _kernel_seconds(events.gpu, window)
    row_of = _rows_by_external(events.ops)
    tally = _Tally(len(events.ops))
    older = tally.add(events, window, row_of, {})
    if older:  # an older trace: its kernels' ops are found by when they were launched, then counted again
        launcher = _launching_ops(events, older)
        if launcher:
            tally = _Tally(len(events.ops))
            tally.add(events, window, row_of, launcher)
    shapes = ConvolutionShapes.of(events.ops)
    totals = [OpTotal(op.name, _shape(op), tally.calls[key], tally.seconds[key], work_of(op, shapes))
              for key, op in tally.first.items()]
    # Summed as the kernels come (sum() of an array: the same float as summing them in a pass of their own).
    return sorted(totals, key=lambda o: -o.seconds), sum(tally.kernels)


def _kernel_seconds(gpu: Sequence[GpuSpan], window: tuple[float, float] | None) -> float:
    """The GPU time of every kernel starting in ``window``, summed in order as the tally sums it (in C: no op to find)."""
    took = map(float.__sub__, values_of(gpu, 2), values_of(gpu, 1))
    counted: Iterable[bool] = map("kernel".__eq__, values_of(gpu, 3))
    if window is not None:
        lo, hi = window
        counted = map(and_, counted, [lo <= start < hi for start in values_of(gpu, 1)])
    return sum(itertools.compress(took, counted))


def _field(rows: Sequence[Any], index: int) -> Callable[[int], Any]:
    """A function giving field ``index`` of row ``n``: from the column alone where the rows are columns."""
    if isinstance(rows, Columns):
        return rows.field(index)
    return lambda n: rows[n][index]


_DENSE = 8  # External ids spread over at most this many times their count are looked up in an array


def _rows_by_external(ops: Sequence[CpuOp]) -> Callable[[int], int | None]:
    """Each op's row by its External id (the last op with that id), as a lookup.

    The rows, not the ops: a trace of millions of ops is not built again as tuples (events keeps them as
    columns). Kineto numbers its ops in order, so the ids are dense: an array indexed by the id takes 4 bytes
    a slot where a dict takes some 100 bytes an op. Ids spread wider are looked up in a dict.
    """
    # two passes over the column (read alone), not a list of its pairs: a trace has millions of them
    lo, hi, count = 0, -1, 0
    for external in values_of(ops, 4):
        if external is not None:
            lo, hi = (external, external) if not count else (min(lo, external), max(hi, external))
            count += 1
    size = hi - lo + 1
    if size > _DENSE * count or len(ops) >= 2**31:
        rows = {e: row for row, e in enumerate(values_of(ops, 4)) if e is not None}
        return cast("Callable[[int], int | None]", rows.get)
    table = array("i", [-1]) * size
    for row, external in enumerate(values_of(ops, 4)):
        if external is not None:
            table[external - lo] = row

    def row_of(external: int) -> int | None:
        at = external - lo
        if 0 <= at < size:
            row = table[at]
            return row if row >= 0 else None
        return None

    return row_of


class _Tally:
    """GPU seconds and calls per (op name, shape), and the first op of each."""

    def __init__(self, ops: int) -> None:
        self.seconds: dict[tuple[str, str], float] = defaultdict(float)
        self.calls: dict[tuple[str, str], int] = defaultdict(int)  # ops (rows) that launched a kernel counted
        self.first: dict[tuple[str, str], CpuOp] = {}
        self.kernels = array("d")  # every kernel's time in the window, in order
        self.counted = bytearray(ops)  # per op row: already counted as a call (a byte an op, not a set of them)

    def add(self, events: Events, window: tuple[float, float] | None, row_of: Callable[[int], int | None],
            launcher: dict[int, int]) -> set[int]:
        """Count each kernel in ``window`` for its op; return the correlation ids of the kernels linked older-style.

        Older traces give a kernel its launch's correlation id as its External id (or none): its op is found by
        when the launch was made (``launcher``, the op's row by the launch's correlation id). A kernel with an
        External id of its own names its op; where that op was not recorded, an op found by time would be one
        enclosing it, whose shapes are not the work.
        """
        seconds, calls, first, kernels, counted = self.seconds, self.calls, self.first, self.kernels.append, self.counted
        older: set[int] = set()
        # Keyed by the shapes' repr (one call into C per kernel); the shape as shown is made once per key.
        shapes: dict[int, str] = {}
        ops = events.ops
        name_of, dims_of = _field(ops, 0), _field(ops, 5)
        gpu = events.gpu  # the five fields the tally reads, each from its column: no span built whole
        for start, end, kind, correlation, external in zip(*(values_of(gpu, i) for i in (1, 2, 3, 6, 7)), strict=True):
            if kind != "kernel" or (window is not None and not (window[0] <= start < window[1])):
                continue
            took = end - start
            kernels(took)
            row = row_of(external) if external is not None else None
            if row is None:
                if correlation is None or (external is not None and external != correlation):
                    continue
                row = launcher.get(correlation)
                if row is None:
                    older.add(correlation)
                    continue
            dims = dims_of(row)
            shape = shapes.get(id(dims))  # equal shapes are one tuple (events shares them): its repr made once
            if shape is None:
                shape = shapes[id(dims)] = repr(dims) if any(dims) else ""
            key = (name_of(row), shape)
            seconds[key] += took
            if not counted[row]:
                counted[row] = 1
                calls[key] += 1
            if key not in first:
                first[key] = ops[row]
        return older


def _shape(op: CpuOp) -> str:
    """The op's recorded shapes as the ops table shows them ("" when it recorded none).

    The empty entries a trailing run of non-tensor arguments records (a convolution's stride, padding, …) are left
    off: "[[32, 64, 56, 56], [64, 64, 3, 3]]", not seven "[]" after it.
    """
    if not any(op.dims):
        return ""
    shown = [list(d) if isinstance(d, list) else d for d in op.dims]
    while shown and shown[-1] in ([], ()):
        shown.pop()
    return str(shown)[:200]


_REACH = 64  # ops looked back at for the one enclosing a launch: nesting is shallow


def _launching_ops(events: Events, wanted: set[int]) -> dict[int, int]:
    """Per launch correlation id, the row of the innermost recorded op on the launching thread that encloses it.

    Older Kineto traces give a kernel the launch's correlation id as its External id; the op is then the
    one running on that thread when the launch was made.
    """
    by_thread: dict[str, list[int]] = defaultdict(list)
    thread_of, name_of, start_of, end_of = (_field(events.ops, i) for i in (3, 0, 1, 2))
    for row in range(len(events.ops)):
        by_thread[thread_of(row)].append(row)
    starts = {thread: [start_of(row) for row in rows] for thread, rows in by_thread.items()}
    # The latest end among the ops up to each one: no op at or before it can enclose a launch ending later.
    reach = {thread: list(itertools.accumulate((end_of(row) for row in rows), max)) for thread, rows in by_thread.items()}
    found: dict[int, int] = {}
    if not by_thread:  # no op recorded: none to find
        return found
    for call in events.launches:
        rows = by_thread.get(call.thread)
        if call.correlation not in wanted or not rows:
            continue
        ends = reach[call.thread]
        at = bisect.bisect_right(starts[call.thread], call.start)
        for index in range(at - 1, max(-1, at - 1 - _REACH), -1):
            if ends[index] < call.end:
                break  # nothing this early is still running
            row = rows[index]
            if call.end <= end_of(row) and name_of(row).startswith("aten::"):
                found[call.correlation] = row
                break
    return found
