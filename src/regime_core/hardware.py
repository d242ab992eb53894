"""The hardware catalogue (``data/hardware.json``) and custom cards."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any

from regime_core.errors import RegimeError
from regime_core.quantity import Dim, format_quantity, parse
from regime_core.resources import load_json

DTYPES = ("fp32", "tf32", "fp16", "bf16", "fp8", "int8")
#: Bytes per element of each dtype, for the work models.
DTYPE_BYTES: dict[str, float] = {
    "fp32": 4, "tf32": 4, "fp16": 2, "bf16": 2, "fp8": 1, "int8": 1, "int4": 0.5,
}


@dataclass(frozen=True)
class Source:
    """Where a figure comes from."""

    key: str
    title: str
    url: str


@dataclass(frozen=True)
class Figure:
    """One catalogue figure in base units, with its source."""

    value: float
    source: Source
    sparse_printed: float | None = None
    note: str = ""


@dataclass(frozen=True)
class Hardware:
    """A card: dense peak FLOP/s per dtype, memory bandwidth and size."""

    id: str
    name: str
    peaks: dict[str, Figure]
    bandwidth: Figure
    memory: Figure | None = None
    note: str = ""
    custom: bool = field(default=False, compare=False)

    def peak(self, dtype: str, field_name: str = "dtype") -> float:
        """Dense peak FLOP/s for ``dtype``; a RegimeError if the card lacks it."""
        if self.custom:  # a typed-in card has one peak, whatever the dtype
            return next(iter(self.peaks.values())).value
        if dtype not in self.peaks:
            have = ", ".join(self.peaks)
            raise RegimeError(field_name, f"{self.id} has no {dtype!r} peak; expected one of {have}")
        return self.peaks[dtype].value

    def default_dtype(self) -> str:
        """The dtype used when none is given: bf16, else fp16, else the first listed."""
        for dtype in ("bf16", "fp16"):
            if dtype in self.peaks:
                return dtype
        return next(iter(self.peaks))

    def summary(self) -> dict[str, Any]:
        """A JSON-ready description."""
        return {
            "id": self.id,
            "name": self.name,
            "note": self.note,
            "peak_flops": {d: f.value for d, f in self.peaks.items()},
            "peak_flops_text": {d: format_quantity(f.value, Dim.FLOP_RATE) for d, f in self.peaks.items()},
            "bandwidth": self.bandwidth.value,
            "bandwidth_text": format_quantity(self.bandwidth.value, Dim.BYTE_RATE),
            "memory": self.memory.value if self.memory else None,
            "sources": sorted({f.source.url for f in self.figures()}),
        }

    def figures(self) -> list[Figure]:
        """Every figure of this card."""
        return [*self.peaks.values(), self.bandwidth, *([self.memory] if self.memory else [])]


_CUSTOM_SOURCE = Source("custom", "typed in by the user", "")


def custom(peak_flops: object, bandwidth: object, dtype: str = "bf16", prefix: str = "hardware") -> Hardware:
    """A card from a peak and a bandwidth the user typed (``312 TFLOP/s``, ``2.0 TB/s``).

    ``prefix`` names the fields in errors; ``"-"`` names command-line options.
    """
    peak_name, bw_name = ("--peak-flops", "--bandwidth") if prefix == "-" else (
        f"{prefix}.peak_flops", f"{prefix}.bandwidth")
    peak = parse(peak_flops, peak_name, Dim.FLOP_RATE)
    bw = parse(bandwidth, bw_name, Dim.BYTE_RATE)
    return Hardware(
        id="custom",
        name=f"{format_quantity(peak, Dim.FLOP_RATE)}, {format_quantity(bw, Dim.BYTE_RATE)}",
        peaks={dtype: Figure(peak, _CUSTOM_SOURCE)},
        bandwidth=Figure(bw, _CUSTOM_SOURCE),
        custom=True,
    )


def _figure(raw: dict[str, Any], dim: Dim, sources: dict[str, Source], where: str) -> Figure:
    key = raw.get("source")
    if not isinstance(key, str) or key not in sources:
        raise RegimeError(f"{where}.source", "every catalogue figure needs a source listed in 'sources'")
    sparse = raw.get("sparse_printed")
    return Figure(
        value=parse(raw["value"], f"{where}.value", dim),
        source=sources[key],
        sparse_printed=parse(sparse, f"{where}.sparse_printed", dim) if sparse is not None else None,
        note=str(raw.get("note", "")),
    )


def load_catalogue(raw: dict[str, Any]) -> dict[str, Hardware]:
    """Build the catalogue from the parsed JSON document (validated as it is read)."""
    sources = {k: Source(k, v["title"], v["url"]) for k, v in raw["sources"].items()}
    cards: dict[str, Hardware] = {}
    for entry in raw["gpus"]:
        where = f"gpus.{entry['id']}"
        peaks = {
            dtype: _figure(fig, Dim.FLOP_RATE, sources, f"{where}.peak_flops.{dtype}")
            for dtype, fig in entry["peak_flops"].items()
        }
        unknown = set(peaks) - set(DTYPES)
        if unknown:
            raise RegimeError(f"{where}.peak_flops", f"unknown dtype {sorted(unknown)}; expected {DTYPES}")
        cards[entry["id"]] = Hardware(
            id=entry["id"],
            name=entry["name"],
            note=entry.get("note", ""),
            peaks=peaks,
            bandwidth=_figure(entry["bandwidth"], Dim.BYTE_RATE, sources, f"{where}.bandwidth"),
            memory=_figure(entry["memory"], Dim.BYTE, sources, f"{where}.memory"),
        )
    return cards


@cache
def catalogue() -> dict[str, Hardware]:
    """The packaged catalogue, keyed by id."""
    return load_catalogue(load_json("hardware.json"))


def get(card_id: object, field_name: str = "hardware") -> Hardware:
    """A catalogue card by id, or a RegimeError listing the known ids."""
    cards = catalogue()
    if not isinstance(card_id, str) or card_id.strip().lower() not in cards:
        shown = card_id if isinstance(card_id, str) and len(card_id) < 40 else type(card_id).__name__
        raise RegimeError(field_name, f"unknown GPU {shown!r}; expected one of {', '.join(cards)}")
    return cards[card_id.strip().lower()]


def resolve(spec: object, field_name: str = "hardware") -> Hardware:
    """A card from an id or ``{"peak_flops": Q, "bandwidth": Q}``."""
    if isinstance(spec, dict):
        if set(spec) - {"peak_flops", "bandwidth", "dtype"}:
            extra = sorted(set(spec) - {"peak_flops", "bandwidth", "dtype"})
            raise RegimeError(field_name, f"unexpected keys {extra}; expected peak_flops and bandwidth")
        if "peak_flops" not in spec or "bandwidth" not in spec:
            raise RegimeError(field_name, "expected both peak_flops and bandwidth")
        return custom(spec["peak_flops"], spec["bandwidth"], prefix=field_name)
    return get(spec, field_name)


def check_dtype(dtype: object, field_name: str = "dtype") -> str:
    """Validate a dtype name."""
    if not isinstance(dtype, str) or dtype.strip().lower() not in DTYPE_BYTES:
        raise RegimeError(field_name, f"expected one of {', '.join(DTYPE_BYTES)}")
    return dtype.strip().lower()
