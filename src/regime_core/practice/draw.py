"""What every practice family draws from: cards, dtypes, models, decode steps, and the draft it returns.

The arithmetic here (FLOPs and bytes of a matmul, an elementwise chain, a decode step) is the
generator's own, written from the physics; the classifier's work models are a separate path, and
the tests hold the two to agree.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from regime_core.catalogue.hardware import DTYPE_BYTES
from regime_core.model.work import parse_params, weight_format_bytes
from regime_core.practice.text import Card, cards, data, kibibytes, pick

GPU_VENDORS = ("nvidia", "amd")
FIT_SHARE = 0.85  # weights and KV cache may fill at most this share of the cards' memory
COUNTS = (1, 2, 4, 8)  # tensor-parallel widths tried, smallest first
ROWS = (2048, 3584, 4096, 6144, 8192, 16384)
SIZES = (2048, 2560, 3072, 4096, 5120, 6144, 7168, 8192, 11008, 12288, 14336, 16384, 28672)
_CONTEXTS = (512, 1024, 2048, 4096, 8192, 16384, 32768)


@dataclass(frozen=True)
class Draft:
    """One drawn run: what the statement says ran and was measured, its symptoms, and the intent."""

    family: str
    regime: str | None  # compute, memory, overhead; None where the symptoms cannot decide
    anomaly: bool  # a measurement the roofs forbid
    card: Card
    text: str
    symptoms: dict[str, Any]


Family = Callable[[random.Random, int, Sequence[str]], "Draft | None"]


# --- drawing cards, dtypes and models ---------------------------------------------------------------------------------

def draw_card(rng: random.Random, vendors: Sequence[str] | None = None, dtypes: Sequence[str] = ("bf16", "fp16")) -> Card:
    """A card of one of ``vendors`` (any when None) that has one of ``dtypes``."""
    pool = [c for c in cards() if (vendors is None or c.vendor in vendors)
            and any(d in c.hardware.peaks for d in dtypes)]
    return pick(rng, pool)


def math_dtype(rng: random.Random, card: Card, fp8: bool = False) -> str:
    """bf16 where the card has it, else fp16; fp8 one time in four where allowed and the card has it."""
    if fp8 and "fp8" in card.hardware.peaks and rng.random() < 0.25:
        return "fp8"
    return "bf16" if "bf16" in card.hardware.peaks else "fp16"


def fit_cards(card: Card, needed: float) -> Card | None:
    """The fewest cards whose memory holds ``needed`` bytes, or None."""
    for n in COUNTS:
        if needed <= FIT_SHARE * card.times(n).memory:
            return card.times(n)
    return None


@dataclass(frozen=True)
class Model:
    """A decoder model and how its weights are stored."""

    name: str
    params_text: str
    active_text: str | None
    kv_per_token: float  # bytes: 2 (K and V) × layers × kv heads × head_dim × 2 B
    weights: str | None  # a weight_formats.json key; None: stored in the math dtype

    @property
    def params(self) -> float:
        """Every parameter."""
        return parse_params(self.params_text, "params")

    @property
    def used(self) -> float:
        """Parameters each token multiplies through."""
        return parse_params(self.active_text, "active_params") if self.active_text else self.params

    def bytes_per_param(self, dtype: str) -> float:
        """Bytes per stored parameter."""
        return weight_format_bytes()[self.weights] if self.weights else DTYPE_BYTES[dtype]

    def work(self, kind: str, **shape: int | float) -> dict[str, Any]:
        """The symptoms file's ``work`` object."""
        spec: dict[str, Any] = {"kernel": kind, "params": self.params_text}
        if self.active_text:
            spec["active_params"] = self.active_text
        if self.weights:
            spec["weight_dtype"] = self.weights
        spec.update(shape)
        return spec

    def phrase(self, dtype: str, kv: str = "") -> str:
        """``Llama 3.1 8B (int4 GPTQ weights)``, with the MoE's active share and the KV cache when they matter."""
        stored = data()["weight_formats"][self.weights] if self.weights else dtype
        parts = [f"{stored} weights"]
        if self.active_text:
            parts.append(f"{self.active_text} of its {self.params_text} params active per token")
        if kv:
            parts.append(f"{kv} of KV cache per token")
        return f"{self.name} ({'; '.join(parts)})"


def draw_model(rng: random.Random, quantised: bool = True, largest: float = float("inf")) -> Model:
    """A model of at most ``largest`` parameters, stored in the math dtype or (when ``quantised``) a weight format."""
    pool = [m for m in data()["models"] if parse_params(m["params"], "params") <= largest]
    raw = pick(rng, pool)
    kv = 2.0 * raw["layers"] * raw["kv_heads"] * raw["head_dim"] * 2
    formats: list[str | None] = [None, None, None]
    if quantised:
        formats += list(data()["weight_formats"])
    return Model(raw["name"], raw["params"], raw.get("active"), kv, pick(rng, formats))


def measure_how(rng: random.Random, level: int) -> str:
    """How the deciding measurement is given: plainly at level 1, in the units people report later."""
    return pick(rng, (("fraction",), ("fraction", "rate"), ("rate", "time"))[level - 1])


def matmul_work(m: int, n: int, k: int, dtype: str) -> tuple[float, float]:
    """FLOPs and bytes of an m×k @ k×n matmul: the generator's own arithmetic, not the classifier's."""
    return 2.0 * m * n * k, (m * k + k * n + m * n) * DTYPE_BYTES[dtype]


def symptoms_of(card: Card, dtype: str | None, work: dict[str, Any] | None, observed: dict[str, Any]) -> dict[str, Any]:
    """A symptoms object, in the order a person writes one."""
    out: dict[str, Any] = {"hardware": card.spec}
    if dtype:
        out["dtype"] = dtype
    if work:
        out["work"] = work
    out["observed"] = observed
    return out


@dataclass(frozen=True)
class DecodeDraw:
    """A drawn decode step: the cards it fits, the model, the batch and context, and the bytes it moves."""

    card: Card
    dtype: str
    model: Model
    batch: int
    context: int
    moved: float
    kv_text: str

    def work(self) -> dict[str, Any]:
        """The symptoms file's ``work`` object."""
        spec = self.model.work("decode", batch=self.batch, context=self.context)
        if self.kv_text:
            spec["kv_bytes_per_token"] = self.kv_text
        return spec


def draw_decode(rng: random.Random, vendors: Sequence[str] | None = None, largest: float = float("inf"),
            batches: Sequence[int] = (1, 1, 1, 2, 4, 8, 16, 32, 64)) -> DecodeDraw | None:
    """A decode step that fits the card and sits far below its ridge (intensity at most a quarter of it)."""
    base = draw_card(rng, vendors)
    dtype = math_dtype(rng, base)
    model = draw_model(rng, largest=largest)
    batch = pick(rng, batches if not model.active_text else (1, 1, 2, 4))
    context = pick(rng, _CONTEXTS) if rng.random() < 0.5 else rng.randint(300, 30000)
    kv = batch * context * model.kv_per_token
    weights = model.used * model.bytes_per_param(dtype)
    card = fit_cards(base, model.params * model.bytes_per_param(dtype) + kv)
    if card is None:
        return None
    kv_text = kibibytes(model.kv_per_token) if kv >= 0.05 * weights else ""
    moved = weights + (kv if kv_text else 0.0)
    if 2.0 * model.used * batch / moved > card.ridge(dtype) / 4:
        return None
    return DecodeDraw(card, dtype, model, batch, context, moved, kv_text)


def elementwise_bytes(dims: Sequence[int], dtype: str, ops: int, fused: bool) -> tuple[float, int]:
    """Bytes an elementwise chain moves and its tensor trips (eager: every op reads and writes the tensor)."""
    elements = 1
    for d in dims:
        elements *= d
    trips = 2 if fused else 2 + 2 * (ops - 1)
    return float(elements * DTYPE_BYTES[dtype] * trips), trips
