"""A Chrome/Kineto trace read into what the regime needs: GPU spans, host calls, CPU ops, steps and the card.

Times are kept in seconds. An event without a usable start or duration is counted and left out (a
trace of millions of events keeps what it can read); a trace with no readable GPU activity at all is
said by :mod:`regime_core.trace.reading`, not here.
"""

from __future__ import annotations

import json
import math
import re
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, field

from regime_core.errors import RegimeError

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


@dataclass(frozen=True)
class Span:
    """Something with a start and an end, in seconds."""

    name: str
    start: float
    end: float

    @property
    def duration(self) -> float:
        """End minus start."""
        return self.end - self.start


@dataclass(frozen=True)
class GpuSpan(Span):
    """A kernel, copy or memset on a device's stream; ``correlation`` links it to the host call that launched it."""

    kind: str = "kernel"
    device: str = ""
    stream: str = ""
    correlation: int | None = None
    external: int | None = None
    comm: bool = False


@dataclass(frozen=True)
class Call(Span):
    """A host call into the runtime (a launch), with the correlation id its GPU work carries."""

    correlation: int | None = None
    thread: str = ""


@dataclass(frozen=True)
class CpuOp(Span):
    """An operator on the host (``aten::mm``), with the shapes and types ``record_shapes=True`` records."""

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
    categories: tuple[str, ...] = field(default=())


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


def parse(data: bytes) -> Mapping[str, object] | list[object]:
    """The trace's JSON: an object with ``traceEvents``, or the bare list of events."""
    text = _decompress(data)
    try:
        raw = json.loads(text.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise RegimeError(_FIELD, "expected a JSON trace (UTF-8 text, or gzipped); this file is neither") from None
    except json.JSONDecodeError as exc:
        raise RegimeError(_FIELD, f"expected a JSON trace; it stops being JSON at line {exc.lineno}, column"
                                  f" {exc.colno} (cut short?)") from None
    except RecursionError:
        raise RegimeError(_FIELD, "expected a JSON trace, not one nested this deep") from None
    if isinstance(raw, list):
        return raw
    if not isinstance(raw, Mapping) or not isinstance(raw.get("traceEvents"), list):
        raise RegimeError(_FIELD, "expected a Chrome trace: an object with a 'traceEvents' list (torch.profiler's"
                                  " export_chrome_trace writes one)")
    return raw


def _seconds(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        return None
    try:
        number = float(value)
    except ValueError:
        return None
    return number * 1e-6 if math.isfinite(number) else None  # Kineto writes microseconds


def _int(value: object) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().lstrip("-").isdigit() and len(value) < 20:
        return int(value)
    return None


def _tuple(value: object) -> tuple[object, ...]:
    return tuple(value) if isinstance(value, list) else ()


def read_events(data: bytes) -> Events:
    """Read a trace's bytes (JSON, or gzipped JSON) into :class:`Events`; a RegimeError says what is wrong."""
    raw = parse(data)
    events = raw if isinstance(raw, list) else raw["traceEvents"]
    assert isinstance(events, list)
    gpu: list[GpuSpan] = []
    launches: list[Call] = []
    syncs: list[Span] = []
    ops: list[CpuOp] = []
    steps: list[tuple[int, Span]] = []
    loader: list[Span] = []
    categories: set[str] = set()
    graphs = skipped = 0
    for event in events:
        if not isinstance(event, Mapping) or event.get("ph") != "X":
            continue
        cat, name = str(event.get("cat", "")), str(event.get("name", ""))[:500]
        categories.add(cat[:40])
        start, duration = _seconds(event.get("ts")), _seconds(event.get("dur"))
        if start is None or duration is None or duration < 0:
            skipped += 1
            continue
        args = event.get("args") if isinstance(event.get("args"), Mapping) else {}
        assert isinstance(args, Mapping)
        end = start + duration
        if cat in _GPU_CATEGORIES:
            gpu.append(GpuSpan(name, start, end, _GPU_CATEGORIES[cat], str(args.get("device", event.get("pid", ""))),
                               str(args.get("stream", event.get("tid", ""))), _int(args.get("correlation")),
                               _int(args.get("External id")), cat == "kernel" and bool(COLLECTIVES.search(name))))
        elif cat in _HOST_CATEGORIES or (cat == "cpu_op" and SYNCS.match(name)):
            if LAUNCHES.match(name):
                launches.append(Call(name, start, end, _int(args.get("correlation")), str(event.get("tid", ""))))
                graphs += bool(GRAPH_LAUNCHES.search(name))
            elif SYNCS.match(name) and cat != "cuda_sync":
                syncs.append(Span(name, start, end))
        if cat == "cpu_op":
            flops = args.get("flops")
            ops.append(CpuOp(name, start, end, str(event.get("tid", "")), _int(args.get("External id")), _tuple(args.get("Input Dims")),
                             _tuple(args.get("Input type")),
                             float(flops) if isinstance(flops, (int, float)) and not isinstance(flops, bool) else None))
        if (step := STEP.match(name)) and cat in ("user_annotation", "cpu_op", "python_function", ""):
            steps.append((int(step[1]), Span(name, start, end)))
        elif LOADER.search(name) and cat in ("cpu_op", "user_annotation", "python_function"):
            loader.append(Span(name, start, end))
    names: tuple[str, ...] = ()
    properties = raw.get("deviceProperties") if isinstance(raw, Mapping) else None
    if isinstance(properties, list):
        names = tuple(str(p.get("name", ""))[:100] for p in properties if isinstance(p, Mapping))
    by_start = lambda s: s.start  # noqa: E731
    return Events(tuple(sorted(gpu, key=by_start)), tuple(sorted(launches, key=by_start)), graphs,
                  tuple(sorted(syncs, key=by_start)), tuple(sorted(ops, key=by_start)),
                  tuple(sorted(steps, key=lambda s: s[1].start)), tuple(sorted(loader, key=by_start)),
                  names, skipped, tuple(sorted(categories)))
