"""The hardware catalogue (``data/hardware.json``), the names people type for it, and custom cards."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any

from regime_core.catalogue.quantity import Dim, format_quantity, parse
from regime_core.errors import RegimeError
from regime_core.resources import load_json

#: fp64 is the vector (FMA) rate; fp64-matrix the FP64 tensor- or matrix-core rate a DGEMM reaches (as tf32 is
#: to fp32, but one format: the instructions differ, not the numbers).
DTYPES = ("fp32", "tf32", "fp16", "bf16", "fp8", "fp6", "fp4", "int8", "fp64", "fp64-matrix")
#: Bytes per element of each dtype, for the work models.
DTYPE_BYTES: dict[str, float] = {
    "fp32": 4, "tf32": 4, "fp16": 2, "bf16": 2, "fp8": 1, "fp6": 0.75, "fp4": 0.5, "int8": 1, "int4": 0.5,
    "fp64": 8, "fp64-matrix": 8,
}
#: The most GPUs one card spec may stand for (``{"id": ..., "count": N}``, ``--count``).
MAX_COUNT = 100_000


@dataclass(frozen=True)
class Source:
    """Where a figure comes from."""

    key: str
    title: str
    url: str


@dataclass(frozen=True)
class Figure:
    """One catalogue figure in base units, with its source.

    ``derived`` is empty for a figure the source prints; otherwise it says how the figure was
    computed from what the source prints (cores × clock × operations per clock, a board ÷ 8).
    """

    value: float
    source: Source
    sparse_printed: float | None = None
    note: str = ""
    derived: str = ""

    def times(self, count: int) -> Figure:
        """The same figure summed over ``count`` identical chips."""
        sparse = None if self.sparse_printed is None else self.sparse_printed * count
        return replace(self, value=self.value * count, sparse_printed=sparse)


@dataclass(frozen=True)
class Arithmetic:
    """What a dense peak should be from the chip's build: units × clock × FLOP per unit per clock."""

    units: int
    unit: str
    clock_hz: float
    ops_per_clock: dict[str, float]
    source: Source
    note: str = ""

    def peak(self, dtype: str) -> float:
        """The peak this arithmetic gives for ``dtype``."""
        return self.units * self.clock_hz * self.ops_per_clock[dtype]


@dataclass(frozen=True)
class Hardware:
    """A card: dense peak FLOP/s per dtype, memory bandwidth and size; ``count`` identical ones."""

    id: str
    name: str
    peaks: dict[str, Figure]
    bandwidth: Figure
    memory: Figure | None = None
    note: str = ""
    custom: bool = field(default=False, compare=False)
    aliases: tuple[str, ...] = ()
    arithmetic: Arithmetic | None = None
    count: int = 1
    #: The GPU-to-GPU link's bandwidth as the vendor prints it: both directions together (NVLink), so each way is
    #: half; None where the catalogue holds none.
    link: Figure | None = None

    def peak(self, dtype: str, field_name: str = "dtype") -> float:
        """Dense peak FLOP/s for ``dtype``; a RegimeError if the card lacks it."""
        if self.custom:  # a typed-in card has one peak, whatever the dtype
            return next(iter(self.peaks.values())).value
        if dtype not in self.peaks:
            have = ", ".join(self.peaks)
            why = ""
            if dtype.startswith("fp64"):
                why = (" (the catalogue holds only this card's vector FP64 rate: fp64)" if "fp64" in self.peaks else
                       " (the catalogue holds FP64 rates where the vendor's text was read: data-center cards; consumer"
                       " and inference cards run FP64 at 1/64 of FP32 or less)")
            raise RegimeError(field_name, f"{self.id} has no {dtype!r} peak{why}; expected one of {have}")
        return self.peaks[dtype].value

    def roof_dtype(self, dtype: str) -> str | None:
        """The dtype whose peak bounds work in ``dtype`` on this card, or None.

        A DGEMM (fp64-matrix) on a card without FP64 tensor or matrix cores runs on its vector units (fp64).
        """
        if dtype in self.peaks:
            return dtype
        return "fp64" if dtype == "fp64-matrix" and "fp64" in self.peaks else None

    def default_dtype(self) -> str:
        """The dtype used when none is given: bf16, else fp16, else the first listed."""
        for dtype in ("bf16", "fp16"):
            if dtype in self.peaks:
                return dtype
        return next(iter(self.peaks))

    def times(self, count: int) -> Hardware:
        """``count`` of this card working as one: peaks, bandwidth and memory scale; the ridge does not."""
        if count == 1:
            return self
        base = f"({self.name})" if self.custom else self.name
        return replace(
            self,
            name=f"{count} × {base}",
            peaks={d: f.times(count) for d, f in self.peaks.items()},
            bandwidth=self.bandwidth.times(count),
            memory=self.memory.times(count) if self.memory else None,
            count=self.count * count,
        )

    def summary(self) -> dict[str, Any]:
        """A JSON-ready description."""
        return {
            "id": self.id,
            "name": self.name,
            "note": self.note,
            "count": self.count,
            "aliases": list(self.aliases),
            "peak_flops": {d: f.value for d, f in self.peaks.items()},
            "peak_flops_text": {d: format_quantity(f.value, Dim.FLOP_RATE) for d, f in self.peaks.items()},
            "bandwidth": self.bandwidth.value,
            "bandwidth_text": format_quantity(self.bandwidth.value, Dim.BYTE_RATE),
            "memory": self.memory.value if self.memory else None,
            "link": self.link.value if self.link else None,
            "sources": sorted({f.source.url for f in self.figures()}),
        }

    def figures(self) -> list[Figure]:
        """Every figure of this card."""
        return [*self.peaks.values(), self.bandwidth, *([self.memory] if self.memory else []),
                *([self.link] if self.link else [])]


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


def _source(raw: dict[str, Any], sources: dict[str, Source], where: str) -> Source:
    key = raw.get("source")
    if not isinstance(key, str) or key not in sources:
        raise RegimeError(f"{where}.source", "every catalogue figure needs a source listed in 'sources'")
    return sources[key]


def _figure(raw: dict[str, Any], dim: Dim, sources: dict[str, Source], where: str) -> Figure:
    sparse = raw.get("sparse_printed")
    return Figure(
        value=parse(raw["value"], f"{where}.value", dim),
        source=_source(raw, sources, where),
        sparse_printed=parse(sparse, f"{where}.sparse_printed", dim) if sparse is not None else None,
        note=str(raw.get("note", "")),
        derived=str(raw.get("derived", "")),
    )


def _arithmetic(raw: dict[str, Any] | None, sources: dict[str, Source], where: str) -> Arithmetic | None:
    if raw is None:
        return None
    ops = raw["ops_per_clock"]
    return Arithmetic(
        units=int(raw["units"]),
        unit=str(raw["unit"]),
        clock_hz=float(raw["clock_mhz"]) * 1e6,
        ops_per_clock={str(d): float(n) for d, n in ops.items()},
        source=_source(raw, sources, where),
        note=str(raw.get("note", "")),
    )


def _card(entry: dict[str, Any], sources: dict[str, Source]) -> Hardware:
    where = f"gpus.{entry['id']}"
    peaks = {
        dtype: _figure(fig, Dim.FLOP_RATE, sources, f"{where}.peak_flops.{dtype}")
        for dtype, fig in entry["peak_flops"].items()
    }
    unknown = set(peaks) - set(DTYPES)
    if unknown:
        raise RegimeError(f"{where}.peak_flops", f"unknown dtype {sorted(unknown)}; expected {DTYPES}")
    return Hardware(
        id=entry["id"],
        name=entry["name"],
        note=entry.get("note", ""),
        peaks=peaks,
        bandwidth=_figure(entry["bandwidth"], Dim.BYTE_RATE, sources, f"{where}.bandwidth"),
        memory=_figure(entry["memory"], Dim.BYTE, sources, f"{where}.memory"),
        aliases=tuple(entry.get("aliases", ())),
        arithmetic=_arithmetic(entry.get("arithmetic"), sources, f"{where}.arithmetic"),
        link=_figure(entry["link"], Dim.BYTE_RATE, sources, f"{where}.link") if "link" in entry else None,
    )


def load_catalogue(raw: dict[str, Any]) -> dict[str, Hardware]:
    """Build the catalogue from the parsed JSON document (validated as it is read)."""
    sources = {k: Source(k, v["title"], v["url"]) for k, v in raw["sources"].items()}
    cards: dict[str, Hardware] = {}
    for entry in raw["gpus"]:
        cards[entry["id"]] = _card(entry, sources)
    return cards


_VENDOR_WORDS = re.compile(r"^(?:nvidia|geforce|tesla|amd|instinct|google|cloud|intel|habana)+")


def name_key(text: str) -> str:
    """How a typed name is compared: letters and digits only, lower case, no leading vendor words.

    ``NVIDIA GeForce RTX 4090`` and ``rtx4090`` both become ``rtx4090``.
    """
    return _VENDOR_WORDS.sub("", re.sub(r"[^a-z0-9]", "", text.lower()))


def load_names(raw: dict[str, Any], cards: dict[str, Hardware]) -> dict[str, str | tuple[str, ...]]:
    """Every name a card answers to (its id, its aliases) and each ambiguous name's variants, by ``name_key``.

    A RegimeError names the first name that two cards would share, or a variant that is not an id.
    """
    names: dict[str, str | tuple[str, ...]] = {}

    def claim(name: str, target: str | tuple[str, ...], where: str) -> None:
        key = name_key(name)
        if not key or key in names:
            raise RegimeError(where, f"the name {name!r} is empty or already taken by {names.get(key)!r}")
        names[key] = target

    for card in cards.values():
        claim(card.id, card.id, f"gpus.{card.id}.id")
    for card in cards.values():
        for alias in card.aliases:
            claim(alias, card.id, f"gpus.{card.id}.aliases")
    for name, variants in raw.get("ambiguous", {}).items():
        if name == "format":
            continue
        missing = [v for v in variants if v not in cards]
        if missing or len(variants) < 2:
            raise RegimeError(f"ambiguous.{name}", f"expected two or more catalogue ids, not {variants}")
        claim(name, tuple(variants), f"ambiguous.{name}")
    return names


@cache
def catalogue() -> dict[str, Hardware]:
    """The packaged catalogue, keyed by id."""
    return load_catalogue(load_json("hardware.json"))


@cache
def _names() -> dict[str, str | tuple[str, ...]]:
    return load_names(load_json("hardware.json"), catalogue())


def get(card_id: object, field_name: str = "hardware") -> Hardware:
    """A catalogue card by id or alias, in any case; a RegimeError lists the ids, or an ambiguous name's variants."""
    cards = catalogue()
    shown = card_id if isinstance(card_id, str) and len(card_id) < 40 else type(card_id).__name__
    target = _names().get(name_key(card_id)) if isinstance(card_id, str) and len(card_id) < 200 else None
    if isinstance(target, tuple):
        raise RegimeError(field_name, f"{shown!r} names several cards; expected one of {', '.join(target)}")
    if target is None:
        raise RegimeError(field_name, f"unknown GPU {shown!r}; expected one of {', '.join(cards)}")
    return cards[target]


def named_in(text: str) -> bool:
    """Whether a text names a catalogue card, in one word or two ("on an H100", "the MI300X", "an RTX 4090")."""
    words = re.findall(r"[a-z0-9]+", text.lower())[:2000]
    names = _names()
    return any(len(key) > 1 and key in names
               for n, word in enumerate(words) for key in (name_key(word), name_key(word + "".join(words[n + 1:n + 2]))))


def parse_count(value: object, field_name: str = "count") -> int:
    """A number of GPUs: a whole number from 1 to ``MAX_COUNT`` (``8`` or ``"8"``)."""
    count: int | None = None
    if isinstance(value, int) and not isinstance(value, bool):
        count = value
    elif (isinstance(value, float) and value.is_integer()) or (
            isinstance(value, str) and re.fullmatch(r"\s*[0-9]{1,7}\s*", value)):
        count = int(value)
    if count is None or not 1 <= count <= MAX_COUNT:
        raise RegimeError(field_name, f"expected a whole number of GPUs from 1 to {MAX_COUNT:,}")
    return count


_CUSTOM_KEYS = {"peak_flops", "bandwidth", "dtype", "count"}
_CATALOGUE_KEYS = {"id", "count"}


def resolve(spec: object, field_name: str = "hardware") -> Hardware:
    """A card from an id, ``{"id": ID, "count": N}`` or ``{"peak_flops": Q, "bandwidth": Q, "count": N}``.

    With a count, peaks, bandwidth and memory are the sum over ``N`` identical GPUs and the name says so.
    """
    if not isinstance(spec, dict):
        return get(spec, field_name)
    if "id" in spec:
        extra = sorted(set(spec) - _CATALOGUE_KEYS)
        if extra:
            raise RegimeError(field_name, f"unexpected keys {extra}; expected id and count")
        card = get(spec["id"], f"{field_name}.id")
    else:
        extra = sorted(set(spec) - _CUSTOM_KEYS)
        if extra:
            raise RegimeError(field_name, f"unexpected keys {extra}; expected id, or peak_flops and bandwidth")
        if "peak_flops" not in spec or "bandwidth" not in spec:
            raise RegimeError(field_name, "expected both peak_flops and bandwidth, or an id")
        card = custom(spec["peak_flops"], spec["bandwidth"], prefix=field_name)
    if "count" in spec:
        card = card.times(parse_count(spec["count"], f"{field_name}.count"))
    return card


#: The keys of a card in a bridge request, as the forms hold it (inputs ``hardware.id``, ``hardware.peak_flops``, …).
FORM_KEYS = ("id", "peak_flops", "bandwidth")


def from_form(value: object, field_name: str = "hardware") -> Hardware:
    """A card from a request's ``hardware`` object: ``{"id": "l4" | "custom", "peak_flops": Q, "bandwidth": Q}``.

    This is the one card shape every bridge request uses, exactly as the forms hold it. An id of
    ``"custom"`` (or an empty one) makes a custom card from the two figures; an error names
    ``hardware.peak_flops`` or ``hardware.bandwidth``, the inputs that hold them. Any other id is a
    catalogue card (by id or alias); an error names ``hardware.id``. The figures beside a catalogue
    id are that card's own, which the widget writes back into the form after each answer, so they
    are not read. A key other than these three is refused by name.

    Args:
        value: The request's ``hardware`` object.
        field_name: What the object is called in the request; errors name ``{field_name}.<key>``.

    Returns:
        The card.

    Raises:
        RegimeError: The object is missing or not an object, carries an unknown key, names an
            unknown card, or a custom card's figures do not parse.

    """
    if not isinstance(value, dict):
        raise RegimeError(field_name, 'expected a card: {"id": a catalogue id, or "custom" with peak_flops and'
                                      " bandwidth}")
    for key in value:
        if key not in FORM_KEYS:
            raise RegimeError(f"{field_name}.{str(key)[:40]}", f"not a field of a card; expected {', '.join(FORM_KEYS)}")
    card_id = value.get("id")
    if card_id in (None, "", "custom"):
        return custom(value.get("peak_flops", ""), value.get("bandwidth", ""), prefix=field_name)
    return get(card_id, f"{field_name}.id")


def check_dtype(dtype: object, field_name: str = "dtype") -> str:
    """Validate a dtype name."""
    if not isinstance(dtype, str) or dtype.strip().lower() not in DTYPE_BYTES:
        raise RegimeError(field_name, f"expected one of {', '.join(DTYPE_BYTES)}")
    return dtype.strip().lower()
