"""Symptoms: what an engineer has before opening a profiler, read from a JSON object."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from regime_core import hardware as hw
from regime_core import work as wk
from regime_core.errors import RegimeError
from regime_core.quantity import Dim, parse, parse_count

#: observed field -> (dimension, allow zero). Booleans, counts and ``shrunk`` are handled apart.
OBSERVED_FIELDS: dict[str, tuple[Dim, bool]] = {
    "time": (Dim.SECOND, False),  # one run of the work
    "time_before": (Dim.SECOND, False),  # the same run before the change the incident describes
    "tokens_per_s": (Dim.TOKEN_RATE, False),  # all sequences together
    "time_per_token": (Dim.SECOND, False),  # ms/token of one sequence (decode: the step, ITL)
    "flops_fraction": (Dim.FRACTION, True),
    "mfu": (Dim.FRACTION, True),  # model FLOPs utilisation: the work's FLOPs ÷ time ÷ peak
    "achieved_flops": (Dim.FLOP_RATE, False),
    "bandwidth": (Dim.BYTE_RATE, False),
    "bandwidth_fraction": (Dim.FRACTION, True),
    "gpu_utilization": (Dim.FRACTION, True),  # nvidia-smi GPU-Util: share of time any kernel ran
    "sm_active": (Dim.FRACTION, True),
    "kernel_time": (Dim.SECOND, False),
    "gap_time": (Dim.SECOND, True),
    "shrink_4x_ratio": (Dim.COUNT, False),
    "shrink_2x_ratio": (Dim.COUNT, False),
    "fused_speedup": (Dim.COUNT, False),
    "graph_speedup": (Dim.COUNT, False),  # without ÷ with CUDA graphs (or compile's reduce-overhead)
    "loader_time": (Dim.SECOND, True),  # per step, waiting on the input pipeline
    "occupancy": (Dim.FRACTION, True),
}
#: What a shrink test can shrink; the classifier works out whether that moves the FLOPs or bytes.
SHRINKABLE = ("size", "batch", "context", "tokens")
TOP_FIELDS = ("hardware", "dtype", "work", "observed", "proposal", "notes")
_MAX_TEXT = 2000


@dataclass(frozen=True)
class Observed:
    """Measurements, in base units; None where not measured."""

    time: float | None = None
    time_before: float | None = None
    flops_fraction: float | None = None
    bandwidth: float | None = None
    bandwidth_fraction: float | None = None
    tokens_per_s: float | None = None
    time_per_token: float | None = None
    mfu: float | None = None
    achieved_flops: float | None = None
    gpu_utilization: float | None = None
    sm_active: float | None = None
    kernel_time: float | None = None
    gap_time: float | None = None
    launches: int | None = None
    shrink_4x_ratio: float | None = None
    shrink_2x_ratio: float | None = None
    shrunk: str = "size"
    fused_speedup: float | None = None
    graph_speedup: float | None = None
    loader_time: float | None = None
    occupancy: float | None = None
    host_sync_in_loop: bool = False


@dataclass(frozen=True)
class Symptoms:
    """Everything the classifier reads."""

    hardware: hw.Hardware | None = None
    dtype: str | None = None
    work: wk.Work | None = None
    observed: Observed = Observed()
    proposal: str = ""
    notes: str = ""
    #: The ``work`` object as given, so a rule can rebuild the work at another batch or size.
    work_spec: Mapping[str, object] | None = field(default=None, compare=False)


def _mapping(value: object, field: str) -> Mapping[str, object]:
    if not isinstance(value, Mapping):
        raise RegimeError(field, f"expected a JSON object, got {type(value).__name__}")
    return value


def parse_observed(raw: object, field: str = "observed") -> Observed:
    """Parse the ``observed`` object."""
    data = _mapping(raw, field)
    values: dict[str, object] = {}
    for key, value in data.items():
        where = f"{field}.{key}"
        if value is None:
            continue
        if key == "host_sync_in_loop":
            if not isinstance(value, bool):
                raise RegimeError(where, "expected true or false")
            values[key] = value
        elif key == "launches":
            values[key] = parse_count(value, where)
        elif key == "shrunk":
            if not isinstance(value, str) or value.strip().lower() not in SHRINKABLE:
                raise RegimeError(where, f"expected what the shrink test shrank: one of {', '.join(SHRINKABLE)}")
            values[key] = value.strip().lower()
        elif key in OBSERVED_FIELDS:
            dim, zero = OBSERVED_FIELDS[key]
            values[key] = parse(value, where, dim, allow_zero=zero)
        else:
            known = ", ".join([*OBSERVED_FIELDS, "launches", "shrunk", "host_sync_in_loop"])
            raise RegimeError(where, f"unknown measurement; expected one of {known}")
    return Observed(**values)  # type: ignore[arg-type]


def parse_symptoms(raw: object) -> Symptoms:
    """Parse a symptoms file's JSON object into :class:`Symptoms`."""
    data = _mapping(raw, "symptoms")
    extra = sorted(set(data) - set(TOP_FIELDS))
    if extra:
        raise RegimeError(str(extra[0])[:40], f"unknown field; expected {', '.join(TOP_FIELDS)}")
    card = hw.resolve(data["hardware"]) if data.get("hardware") is not None else None
    dtype = hw.check_dtype(data["dtype"]) if data.get("dtype") is not None else None
    if card is not None and dtype is not None:
        card.peak(dtype)  # a dtype the card lacks is an input error, said here
    spec = dict(_mapping(data["work"], "work")) if data.get("work") is not None else None
    work = wk.from_spec(spec, dtype) if spec is not None else None
    observed = parse_observed(data["observed"]) if data.get("observed") is not None else Observed()
    return Symptoms(card, dtype, work, observed, _text(data, "proposal"), _text(data, "notes"), spec)


def _text(data: Mapping[str, object], key: str) -> str:
    value = data.get(key) or ""
    if not isinstance(value, str) or len(value) > _MAX_TEXT:
        raise RegimeError(key, f"expected text of at most {_MAX_TEXT} characters")
    return value
