"""A Chrome/Kineto trace read into what the regime needs: GPU spans, host calls, CPU ops, steps and the card.

Times are kept in seconds. An event without a usable start or duration is counted and left out (a
trace of millions of events keeps what it can read); a trace with no readable GPU activity at all is
said by :mod:`regime_core.trace.reading`, not here.
"""

from __future__ import annotations

import math
import re
import zlib
from dataclasses import dataclass
from typing import Any, NamedTuple

from regime_core.errors import RegimeError
from regime_core.resources import check_nesting
from regime_core.trace.stream import Reader

#: The largest trace read, uncompressed (a browser tab or a laptop holds this much JSON comfortably).
MAX_TRACE_BYTES = 512 * 2**20
_FIELD = "trace"
_GPU_CATEGORIES = {"kernel": "kernel", "gpu_memcpy": "memcpy", "gpu_memset": "memset", "mtia_kernel": "kernel"}
_HOST_CATEGORIES = ("cuda_runtime", "cuda_driver", "cuda_sync", "mtia_runtime")
LAUNCHES = re.compile(r"^(?:cuda|hip|cu)(?:Launch\w*|ExtModuleLaunchKernel|ModuleLaunchKernel|GraphLaunch)$"
                      r"|^cu(?:LaunchKernel\w*|GraphLaunch)$")
GRAPH_LAUNCHES = re.compile(r"GraphLaunch$")
SYNCS = re.compile(r"^(?:cuda|hip)(?:DeviceSynchronize|StreamSynchronize|EventSynchronize|Memcpy|MemcpyWithStream"
                   r"|MemcpyDtoH|MemcpyHtoD)$|^cu(?:CtxSynchronize|StreamSynchronize|EventSynchronize)$"
                   r"|^aten::(?:item|_local_scalar_dense)$")
COLLECTIVES = re.compile(r"nccl|rccl|AllReduce|AllGather|ReduceScatter|SendRecv|Broadcast|AllToAll", re.I)
LOADER = re.compile(r"enumerate\(DataLoader\).*__next__|DataLoader.*__next__|dataloader", re.I)
STEP = re.compile(r"^ProfilerStep#(\d+)$")


# Plain named tuples, not frozen dataclasses: a trace makes millions of these, and a tuple is built several
# times faster and stays smaller.
class Span(NamedTuple):
    """Something with a start and an end, in seconds."""

    name: str
    start: float
    end: float

    @property
    def duration(self) -> float:
        """End minus start."""
        return self.end - self.start


class GpuSpan(NamedTuple):
    """A kernel, copy or memset on a device's stream; ``correlation`` links it to the host call that launched it."""

    name: str
    start: float
    end: float
    kind: str = "kernel"
    device: str = ""
    stream: str = ""
    correlation: int | None = None
    external: int | None = None
    comm: bool = False

    @property
    def duration(self) -> float:
        """End minus start."""
        return self.end - self.start


class Call(NamedTuple):
    """A host call into the runtime (a launch), with the correlation id its GPU work carries."""

    name: str
    start: float
    end: float
    correlation: int | None = None
    thread: str = ""


class CpuOp(NamedTuple):
    """An operator on the host (``aten::mm``), with the shapes and types ``record_shapes=True`` records."""

    name: str
    start: float
    end: float
    thread: str = ""
    external: int | None = None
    dims: tuple[object, ...] = ()
    types: tuple[object, ...] = ()
    flops: float | None = None


@dataclass(frozen=True)
class Events:
    """A trace's events, sorted by start."""

    gpu: tuple[GpuSpan, ...]
    launches: tuple[Call, ...]
    graph_launches: int
    syncs: tuple[Span, ...]
    ops: tuple[CpuOp, ...]
    steps: tuple[tuple[int, Span], ...]
    loader: tuple[Span, ...]
    device_names: tuple[str, ...]
    skipped: int = 0


def _decompress(data: bytes) -> bytes:
    """The trace's JSON bytes: as they are, or unzipped (at most ``MAX_TRACE_BYTES``, so a zip bomb stops)."""
    limit = f"at most {MAX_TRACE_BYTES // 2**20} MB of trace"
    if data[:2] != b"\x1f\x8b":
        if len(data) > MAX_TRACE_BYTES:
            raise RegimeError(_FIELD, f"expected {limit}, got {len(data) / 2**20:.0f} MB")
        return data
    unzip = zlib.decompressobj(16 + zlib.MAX_WBITS)
    try:
        out = unzip.decompress(data, MAX_TRACE_BYTES + 1)
    except zlib.error as exc:
        raise RegimeError(_FIELD, f"expected a gzipped trace; the file is damaged ({exc})") from None
    if len(out) > MAX_TRACE_BYTES:
        raise RegimeError(_FIELD, f"expected {limit} once unzipped")
    if not unzip.eof:
        raise RegimeError(_FIELD, "expected a whole gzipped trace; the file is cut short")
    return out


def _text(data: bytes) -> str:
    """The trace's JSON text, unzipped where it is gzipped, and no deeper than the parser can go."""
    raw = _decompress(data)
    if not raw.strip():
        raise RegimeError(_FIELD, "expected a JSON trace; the file is empty" + (" once unzipped" if raw is not data else ""))
    check_nesting(raw, _FIELD, "a JSON trace")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise RegimeError(_FIELD, "expected a JSON trace (UTF-8 text, or gzipped); this file is neither") from None


def _seconds(value: object) -> float | None:
    if type(value) is float or type(value) is int:  # the common case, checked first: millions of events
        return value * 1e-6 if math.isfinite(value) else None
    if not isinstance(value, str):
        return None
    try:
        number = float(value)
    except ValueError:
        return None
    return number * 1e-6 if math.isfinite(number) else None  # Kineto writes microseconds


def _int(value: object) -> int | None:
    if type(value) is int:
        return value
    if isinstance(value, str) and value.strip().lstrip("-").isdigit() and len(value) < 20:
        return int(value)
    return None


def _tuple(value: object) -> tuple[object, ...]:
    return tuple(value) if isinstance(value, list) else ()


_Kinds = tuple[str, bool, bool, int | None, bool, bool, bool]


class _Names:
    """What a name is (a collective, a loader wait, a step, a launch, a sync), worked out once per distinct name.

    A trace repeats a few thousand names over millions of events; the first copy of each is the one kept.
    """

    def __init__(self) -> None:
        self._seen: dict[str, _Kinds] = {}

    def __call__(self, name: str) -> _Kinds:
        found = self._seen.get(name)
        if found is None:
            step = STEP.match(name)
            found = (name, bool(COLLECTIVES.search(name)), bool(LOADER.search(name)), int(step[1]) if step else None,
                     bool(LAUNCHES.match(name)), bool(GRAPH_LAUNCHES.search(name)), bool(SYNCS.match(name)))
            if len(self._seen) < 100_000:
                self._seen[name] = found
        return found


class _Collector:
    """Keeps what the reader needs of each event as it streams past."""

    def __init__(self) -> None:
        self.gpu: list[GpuSpan] = []
        self.launches: list[Call] = []
        self.syncs: list[Span] = []
        self.ops: list[CpuOp] = []
        self.steps: list[tuple[int, Span]] = []
        self.loader: list[Span] = []
        self.graphs = self.skipped = 0
        self.kinds = _Names()

    def add(self, event: Any) -> None:  # one branch per kind of event, in the order Kineto writes them
        """Keep one event, if it is one the reader needs."""
        if type(event) is not dict or event.get("ph") != "X":
            return
        cat = event.get("cat", "")
        cat = cat if type(cat) is str else str(cat)
        raw_name = event.get("name", "")
        start, duration = _seconds(event.get("ts")), _seconds(event.get("dur"))
        if start is None or duration is None or duration < 0:
            self.skipped += 1
            return
        args = event.get("args")
        if type(args) is not dict:
            args = {}
        end = start + duration
        name, comm, loads, step, launch, graph, sync = self.kinds(raw_name[:500] if type(raw_name) is str
                                                                   else str(raw_name)[:500])
        if cat in _GPU_CATEGORIES:
            self.gpu.append(GpuSpan(name, start, end, _GPU_CATEGORIES[cat], str(args.get("device", event.get("pid", ""))),
                                    str(args.get("stream", event.get("tid", ""))), _int(args.get("correlation")),
                                    _int(args.get("External id")), cat == "kernel" and comm))
            return
        if cat in _HOST_CATEGORIES or (cat == "cpu_op" and sync):
            if launch:
                self.launches.append(Call(name, start, end, _int(args.get("correlation")), str(event.get("tid", ""))))
                self.graphs += graph
            elif sync and cat != "cuda_sync":
                self.syncs.append(Span(name, start, end))
        if cat == "cpu_op":
            flops = args.get("flops")
            self.ops.append(CpuOp(name, start, end, str(event.get("tid", "")), _int(args.get("External id")),
                                  _tuple(args.get("Input Dims")), _tuple(args.get("Input type")),
                                  float(flops) if type(flops) is int or type(flops) is float else None))
        if step is not None and cat in ("user_annotation", "cpu_op", "python_function", ""):
            self.steps.append((step, Span(name, start, end)))
        elif loads and cat in ("cpu_op", "user_annotation", "python_function"):
            self.loader.append(Span(name, start, end))


def _start(span: Span | GpuSpan | Call | CpuOp) -> float:
    return span.start


def read_events(data: bytes) -> Events:
    """Read a trace's bytes (JSON, or gzipped JSON) into :class:`Events`; a RegimeError says what is wrong."""
    reader = Reader(_text(data))
    kept = _Collector()
    reader.read(kept.add)
    names: tuple[str, ...] = ()
    properties = reader.header.get("deviceProperties")
    if isinstance(properties, list):
        names = tuple(str(p.get("name", ""))[:100] for p in properties if isinstance(p, dict))
    return Events(tuple(sorted(kept.gpu, key=_start)), tuple(sorted(kept.launches, key=_start)), kept.graphs,
                  tuple(sorted(kept.syncs, key=_start)), tuple(sorted(kept.ops, key=_start)),
                  tuple(sorted(kept.steps, key=lambda s: s[1].start)), tuple(sorted(kept.loader, key=_start)),
                  names, kept.skipped)
