"""Work models: FLOPs and bytes from a shape.

Each model returns a :class:`Work` whose ``steps`` spell out the arithmetic, so a page
or a review comment can show how the numbers were reached.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache

from regime_core.catalogue.hardware import DTYPE_BYTES, check_dtype
from regime_core.catalogue.quantity import Dim, format_quantity, number, parse, parse_count
from regime_core.errors import RegimeError
from regime_core.resources import load_json

KINDS = ("matmul", "elementwise", "decode", "prefill", "attention", "raw")
#: Why a benchmark that quotes no shape cannot be classified (the drill's stretch).
NO_SHAPE = ("Without a shape there are no FLOPs and no bytes, so no intensity: the number cannot be placed"
            " against any ridge, and the benchmark cannot tell you which regime it measured.")
#: The shape fields each kernel kind takes (besides ``kernel`` and ``dtype``).
FIELDS: dict[str, tuple[str, ...]] = {
    "raw": ("flops", "bytes"),
    "matmul": ("m", "n", "k", "batch"),
    "elementwise": ("shape", "ops", "inputs", "fused"),
    "decode": ("params", "active_params", "weight_dtype", "batch", "context", "kv_bytes_per_token"),
    "prefill": ("params", "active_params", "weight_dtype", "tokens"),
    "attention": ("batch", "heads", "seq", "kv_seq", "head_dim", "fused", "causal"),
}
#: Parameter counts are written the way model cards write them: 7B, 70b, 1.5T, 350M.
_PARAM_SUFFIX = {"k": 1e3, "m": 1e6, "b": 1e9, "t": 1e12}


@dataclass(frozen=True)
class Work:
    """What a kernel must do: FLOPs and bytes moved to and from memory."""

    flops: float
    bytes: float
    label: str
    steps: tuple[str, ...] = ()
    dtype: str | None = None
    tokens_per_run: int = 0  # tokens one run produces or consumes (decode: the batch; prefill: the prompt)
    tokens_per_sequence: int = 0  # tokens one sequence advances per run (decode: 1), for ms/token

    def __post_init__(self) -> None:
        if not (math.isfinite(self.flops) and self.flops >= 0):
            raise RegimeError("work.flops", "expected a finite FLOP count, zero or more")
        if not (math.isfinite(self.bytes) and self.bytes > 0):
            raise RegimeError("work.bytes", "expected a finite byte count above zero")

    @property
    def intensity(self) -> float:
        """Arithmetic intensity in FLOP/byte."""
        return self.flops / self.bytes


def _f(value: float, dim: Dim) -> str:
    return format_quantity(value, dim)


def matmul(m: int, n: int, k: int, dtype: str = "fp16", batch: int = 1) -> Work:
    """C[m,n] = A[m,k] @ B[k,n], ``batch`` times: 2mnk FLOPs each; A and B read once, C written once."""
    size = DTYPE_BYTES[dtype]
    flops = 2.0 * m * n * k * batch
    moved = (m * k + k * n + m * n) * size * batch
    times, dot = (f"{batch} × ", f"{batch}·") if batch > 1 else ("", "")
    return Work(flops, moved, f"{times}matmul {m}×{k} @ {k}×{n}, {dtype}", (
        f"FLOPs = {dot}2·m·n·k = {dot}2·{m}·{n}·{k} = {number(flops)}",
        f"bytes = {dot}(m·k + k·n + m·n)·{number(size)} B = {number(moved)}",
    ), dtype)


def convolution(batch: int, channels: int, filters: int, *, kernel: tuple[int, ...], inputs: tuple[int, ...],
                outputs: tuple[int, ...], dtype: str = "fp16", groups: int = 1,
                grads: tuple[bool, bool] | None = None) -> Work:
    """A convolution's work: 2·N·K·(C/g)·R·S·P·Q FLOPs, a multiply-add per filter weight per output element.

    ``inputs`` and ``outputs`` are the spatial sizes (H·W and P·Q for 2-D), ``kernel`` the filter's (R·S). The forward
    pass reads the input and the weight once and writes the output once. ``grads`` (input, weight) makes it the
    backward pass: each gradient asked for costs the forward's FLOPs; it reads the output's gradient, the input and
    the weight, and writes the gradients asked for.
    """
    size = DTYPE_BYTES[dtype]
    per_filter = channels // groups * math.prod(kernel)
    forward = 2.0 * batch * filters * per_filter * math.prod(outputs)
    x, w, y = batch * channels * math.prod(inputs), filters * per_filter, batch * filters * math.prod(outputs)
    dims = "×".join(str(d) for d in kernel)
    grouped = f", {groups} groups" if groups > 1 else ""
    if grads:
        asked = sum(grads)
        moved = float((y + x + w + (x if grads[0] else 0) + (w if grads[1] else 0)) * size)
        return Work(forward * asked, moved, f"convolution backward, {filters} filters of {channels // groups}×{dims}"
                                            f"{grouped}, {dtype}", (
            f"FLOPs = {asked} × 2·N·K·(C/g)·{'·'.join('RSTU'[:len(kernel)])}·(output) = {number(forward * asked)}",
            f"bytes = output gradient, input and weight read, {asked} gradient(s) written, × {number(size)} B"
            f" = {number(moved)}",
        ), dtype)
    moved = float((x + w + y) * size)
    return Work(forward, moved, f"convolution, {filters} filters of {channels // groups}×{dims}{grouped}, {dtype}", (
        f"FLOPs = 2·N·K·(C/g)·{'·'.join('RSTU'[:len(kernel)])}·(output) = 2·{batch}·{filters}·{channels // groups}"
        f"·{'·'.join(str(d) for d in kernel)}·{'·'.join(str(d) for d in outputs)} = {number(forward)}",
        f"bytes = (input + weight + output)·{number(size)} B = ({number(x)} + {number(w)} + {number(y)})·"
        f"{number(size)} = {number(moved)}",
    ), dtype)


def elementwise(shape: tuple[int, ...], dtype: str = "fp32", ops: int = 1,
                inputs: int = 1, fused: bool = False) -> Work:
    """A chain of ``ops`` pointwise ops over one tensor of ``shape``.

    The first op reads ``inputs`` full tensors; later ops take the previous result and a
    scalar. Eager mode writes every intermediate and reads it back; fused mode reads the
    inputs once and writes the result once.
    """
    elements = math.prod(shape)
    size = DTYPE_BYTES[dtype]
    trips = inputs + 1 if fused else inputs + 1 + 2 * (ops - 1)
    moved = float(elements * size * trips)
    flops = float(elements * ops)
    mode = "fused" if fused else "eager"
    shape_text = "×".join(str(d) for d in shape)
    return Work(flops, moved, f"{ops}-op elementwise chain on {shape_text}, {dtype}, {mode}", (
        f"elements = {shape_text} = {number(elements)}",
        f"FLOPs = {ops} op × {number(elements)} = {number(flops)}",
        f"bytes = {trips} tensor trips × {number(elements)} × {number(size)} B = {number(moved)}"
        f" ({'inputs read once, result written once' if fused or ops == 1 else 'eager: every op reads and writes the tensor'})",
    ), dtype)


@dataclass(frozen=True)
class Weights:
    """The weights a decode or prefill reads: how many, how many are used per token, how stored."""

    params: float
    active: float | None = None  # MoE: parameters used per token (None: dense, all of them)
    format: str | None = None  # a weight_formats.json key; None: the math dtype's width

    def bytes_per_param(self, dtype: str) -> float:
        """Bytes per stored parameter, scales included."""
        return weight_format_bytes()[self.format] if self.format else DTYPE_BYTES[dtype]

    @property
    def used(self) -> float:
        """Parameters each token multiplies through."""
        return self.active if self.active is not None else self.params

    def lines(self, dtype: str, read: float) -> list[str]:
        """The arithmetic of the weight bytes, with what was assumed."""
        size = self.bytes_per_param(dtype)
        fmt = self.format or dtype
        out = [f"weight bytes = {number(read)} params read × {number(size, 4)} B ({fmt}) = {_f(read * size, Dim.BYTE)}"]
        if self.active is not None:
            out.append(f"MoE: {number(self.active)} of {number(self.params)} params are active per token;"
                       " a step reads at least the active experts' weights (more at larger batch)")
        return out


@cache
def weight_format_bytes() -> dict[str, float]:
    """Bytes per parameter of each weight format (``data/weight_formats.json``)."""
    return {k: float(v["bytes"]) for k, v in load_json("weight_formats.json")["formats"].items()}


def decode(params: float | Weights, dtype: str = "bf16", batch: int = 1, context: int = 0,
           kv_bytes_per_token: float = 0.0) -> Work:
    """One decode step: every weight is read once per step and used for ``batch`` tokens.

    FLOPs are 2 per active parameter per token; bytes are the weights (the active ones for an
    MoE, a lower bound) plus the KV cache the step reads (``batch · context · kv_bytes_per_token``;
    0 when not given).
    """
    w = params if isinstance(params, Weights) else Weights(params)
    weights = w.used * w.bytes_per_param(dtype)
    kv = batch * context * kv_bytes_per_token
    flops = 2.0 * w.used * batch
    steps = [f"FLOPs = 2 × {number(w.used)} params × batch {batch} = {number(flops)}", *w.lines(dtype, w.used)]
    if kv:
        steps.append(f"KV-cache bytes = batch {batch} × context {context} × {_f(kv_bytes_per_token, Dim.BYTE)}"
                     f"/token = {_f(kv, Dim.BYTE)}")
    else:
        steps.append("KV-cache bytes not given: weights only (a lower bound on traffic)")
    fmt = f", {w.format} weights" if w.format and w.format != dtype else ""  # not "bf16, bf16 weights"
    return Work(flops, weights + kv, f"decode step, {number(w.params)} params, {dtype}{fmt}, batch {batch}",
                tuple(steps), dtype, tokens_per_run=batch, tokens_per_sequence=1)


def prefill(params: float | Weights, tokens: int, dtype: str = "bf16") -> Work:
    """Prefill of ``tokens`` tokens: 2 FLOPs per active parameter per token, weights read once."""
    w = params if isinstance(params, Weights) else Weights(params)
    flops = 2.0 * w.used * tokens
    read = w.params if w.active is not None else w.used  # a long prompt touches every expert
    weights = read * w.bytes_per_param(dtype)
    return Work(flops, weights, f"prefill of {tokens} tokens, {number(w.params)} params, {dtype}", (
        f"FLOPs = 2 × {number(w.used)} params × {tokens} tokens = {number(flops)}",
        *w.lines(dtype, read), "activations are small beside the weights",
    ), dtype, tokens_per_run=tokens, tokens_per_sequence=tokens)


def attention(batch: int, heads: int, seq: int, kv_seq: int, head_dim: int, *, dtype: str = "bf16",
              fused: bool = True, causal: bool = False) -> Work:
    """Attention: QKᵀ and PV are 2·seq·kv_seq·head_dim FLOPs each, per head.

    Fused (FlashAttention-style) reads Q, K, V and writes O once; unfused also writes the score
    matrix, reads it for the softmax, writes the probabilities and reads them for PV. A causal
    mask skips about half the score matrix, so half the FLOPs (how FlashAttention counts them).
    """
    size = DTYPE_BYTES[dtype]
    flops = 4.0 * batch * heads * seq * kv_seq * head_dim / (2 if causal else 1)
    moved = size * batch * heads * head_dim * (2 * seq + 2 * kv_seq)
    if not fused:
        moved += 4 * size * batch * heads * seq * kv_seq
    mode = ("fused" if fused else "unfused") + (", causal" if causal else "")
    return Work(flops, moved, f"attention, batch {batch}, {heads} heads, {seq}×{kv_seq}, d={head_dim}, {dtype}, {mode}", (
        f"FLOPs = 4 · batch · heads · query tokens · key/value tokens · head dimension{' ÷ 2 (causal)' if causal else ''}"
        f" = {number(flops)}",
        f"bytes = Q, K, V read and O written once{'' if fused else ', plus the score matrix four times'}"
        f" = {number(moved)}",
    ), dtype)


def raw(flops: float, moved: float, dtype: str | None = None) -> Work:
    """FLOPs and bytes given directly."""
    return Work(flops, moved, "kernel", (
        f"FLOPs = {number(flops)}", f"bytes = {number(moved)}",
    ), dtype)


def _shape(value: object, field: str) -> tuple[int, ...]:
    parts: list[object]
    if isinstance(value, str):
        parts = [p.strip() for p in value.replace("×", "x").replace(",", "x").strip("()[] ").split("x")]
    elif isinstance(value, (list, tuple)):
        parts = list(value)
    else:
        parts = [value]
    if not 1 <= len(parts) <= 8:
        raise RegimeError(field, "expected a shape like [8, 4096, 4096] or '8x4096x4096'")
    dims = tuple(parse_count(p, field, maximum=2**40) for p in parts)
    if math.prod(dims) > 10**15:
        raise RegimeError(field, "expected a shape of at most 1e15 elements")
    return dims


def _a(kind: object) -> str:
    return f"{'an' if str(kind)[:1] in 'aeiou' else 'a'} {kind}"


def _flag(spec: Mapping[str, object], key: str, default: bool, name: Callable[[str], str]) -> bool:
    value = spec.get(key, default)
    if not isinstance(value, bool):
        raise RegimeError(name(key), "expected true or false")
    return value


def parse_params(value: object, field: str) -> float:
    """A parameter count: ``7e9``, ``7,000,000,000`` or the model card's ``7B`` / ``70b`` / ``350M``."""
    if isinstance(value, str):
        text = value.strip().replace(" ", "")
        scale = _PARAM_SUFFIX.get(text[-1:].lower()) if text[:-1].replace(".", "", 1).isdigit() else None
        if scale is not None:
            count = float(text[:-1]) * scale
            if count <= 0:
                raise RegimeError(field, "expected a parameter count above zero, like '7B' or '7e9'")
            return count
    try:
        return parse(value, field, Dim.COUNT)
    except RegimeError as err:
        raise RegimeError(field, "expected a parameter count like '7B', '70b', '350M' or '7e9'") from err


def _weights(spec: Mapping[str, object], params: object, name: Callable[[str], str]) -> Weights:
    total = parse_params(params, name("params"))
    active = parse_params(spec["active_params"], name("active_params")) if spec.get("active_params") is not None else None
    if active is not None and active > total:
        raise RegimeError(name("active_params"), f"expected at most params ({number(total)})")
    fmt = spec.get("weight_dtype")
    if fmt is not None:
        formats = weight_format_bytes()
        if not isinstance(fmt, str) or fmt.strip().lower() not in formats:
            raise RegimeError(name("weight_dtype"), f"expected one of {', '.join(formats)}")
        fmt = fmt.strip().lower()
    return Weights(total, active, fmt)


def from_spec(spec: Mapping[str, object], dtype: str | None, field: str = "work") -> Work:
    """A Work from a symptoms-file ``work`` object (``{"kernel": ..., ...}`` or flops/bytes).

    ``field`` prefixes the names in error messages; ``"--"`` names command-line options.
    """

    def name(key: str) -> str:
        return f"--{key.replace('_', '-')}" if field == "--" else f"{field}.{key}"

    kind = spec.get("kernel", "raw")
    if kind not in KINDS:
        raise RegimeError(name("kernel"), f"expected one of {', '.join(KINDS)}")
    known = {*FIELDS[str(kind)], "kernel", "dtype"}
    extra = sorted(set(spec) - known)
    if extra:
        raise RegimeError(name(str(extra[0])[:40]), f"not a field of {_a(kind)} kernel; expected {', '.join(sorted(known))}")
    dt = check_dtype(spec.get("dtype", dtype or ("fp32" if kind == "elementwise" else "bf16")), name("dtype"))

    def need(key: str) -> object:
        if key not in spec:
            raise RegimeError(name(key), f"required for {_a(kind)} kernel")
        return spec[key]

    if kind == "raw":
        return raw(parse(need("flops"), name("flops"), Dim.FLOP, allow_zero=True),
                   parse(need("bytes"), name("bytes"), Dim.BYTE), dt if "dtype" in spec or dtype else None)
    if kind == "matmul":
        m, n, k = (parse_count(need(x), name(x), maximum=2**24) for x in "mnk")
        return matmul(m, n, k, dt, parse_count(spec.get("batch", 1), name("batch"), maximum=10**6))
    if kind == "elementwise":
        fused = _flag(spec, "fused", False, name)
        return elementwise(_shape(need("shape"), name("shape")), dt,
                           parse_count(spec.get("ops", 1), name("ops"), maximum=10_000),
                           parse_count(spec.get("inputs", 1), name("inputs"), maximum=64), fused)
    if kind == "attention":
        fused, causal = _flag(spec, "fused", True, name), _flag(spec, "causal", False, name)
        seq = parse_count(need("seq"), name("seq"), maximum=10**8)
        return attention(parse_count(spec.get("batch", 1), name("batch"), maximum=10**6),
                         parse_count(need("heads"), name("heads"), maximum=10**5), seq,
                         parse_count(spec.get("kv_seq", seq), name("kv_seq"), maximum=10**8),
                         parse_count(need("head_dim"), name("head_dim"), maximum=10**5), dtype=dt, fused=fused,
                         causal=causal)
    params = _weights(spec, need("params"), name)
    if kind == "prefill":
        return prefill(params, parse_count(need("tokens"), name("tokens"), maximum=10**8), dt)
    return decode(params, dt, parse_count(spec.get("batch", 1), name("batch"), maximum=10**6),
                  parse_count(spec.get("context", 0), name("context"), minimum=0, maximum=10**8),
                  parse(spec.get("kv_bytes_per_token", 0), name("kv_bytes_per_token"), Dim.BYTE, allow_zero=True))
