"""Synthetic Kineto traces, one per pattern the trace reader must tell apart, written as torch.profiler writes them.

Times are microseconds, as in Kineto's Chrome trace. Each builder returns the trace object; ``as_bytes``
gives its JSON (optionally gzipped), as a file on disk would be.
"""

from __future__ import annotations

import gzip
import json
from typing import Any

H100 = "NVIDIA H100 80GB HBM3"


class Trace:
    """A trace being written: kernels on a stream, host calls on a thread, ops with shapes."""

    def __init__(self, device: str = H100) -> None:
        self.events: list[dict[str, Any]] = []
        self.device = device
        self._next = 1

    def _id(self) -> int:
        self._next += 1
        return self._next

    def kernel(self, start: float, dur: float, name: str = "void elementwise_kernel<float>", *,
               op: dict[str, Any] | None = None, stream: int = 7, launch: str = "cudaLaunchKernel") -> None:
        """A kernel, the launch that made it (just before it) and, if given, the op that launched it."""
        ext = op["args"]["External id"] if op else self._id()
        corr = self._id()
        self.events.append({"ph": "X", "cat": "cuda_runtime", "name": launch, "pid": 1, "tid": 1,
                            "ts": start - 3, "dur": 2, "args": {"External id": ext, "correlation": corr}})
        self.events.append({"ph": "X", "cat": "kernel", "name": name, "pid": 0, "tid": stream, "ts": start,
                            "dur": dur, "args": {"External id": ext, "device": 0, "stream": stream,
                                                 "correlation": corr}})

    def op(self, start: float, dur: float, name: str, dims: list[Any], types: list[str]) -> dict[str, Any]:
        """A CPU op with its recorded shapes."""
        event = {"ph": "X", "cat": "cpu_op", "name": name, "pid": 1, "tid": 1, "ts": start, "dur": dur,
                 "args": {"External id": self._id(), "Input Dims": dims, "Input type": types}}
        self.events.append(event)
        return event

    def host(self, start: float, dur: float, name: str, cat: str = "cuda_runtime") -> None:
        """A host call or span (a sync, a step, a data-loader wait)."""
        self.events.append({"ph": "X", "cat": cat, "name": name, "pid": 1, "tid": 1, "ts": start, "dur": dur,
                            "args": {}})

    def document(self) -> dict[str, Any]:
        """The trace as torch.profiler exports it."""
        return {"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": self.device}],
                "traceEvents": self.events, "traceName": "synthetic"}


#: The tables of an ``nsys export --type sqlite`` database the reader reads, as NVIDIA's "SQLite Export Schema
#: Reference" lays them out (times in ns; names in StringIds).
NSYS_SCHEMA = """
    CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INT NOT NULL, end INT NOT NULL, deviceId INT NOT NULL,
        contextId INT NOT NULL, streamId INT NOT NULL, correlationId INT, globalPid INT, demangledName INT NOT NULL,
        shortName INT NOT NULL, gridX INT, blockX INT);
    CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INT NOT NULL, end INT NOT NULL, eventClass INT NOT NULL,
        globalTid INT, correlationId INT, nameId INT NOT NULL, returnValue INT NOT NULL);
    CREATE TABLE NVTX_EVENTS (start INT NOT NULL, end INT, eventType INT NOT NULL, rangeId INT, category INT,
        color INT, text TEXT, globalTid INT, endGlobalTid INT, textId INT, domainId INT);
    CREATE TABLE TARGET_INFO_GPU (id INT NOT NULL, name TEXT NOT NULL, busLocation TEXT, totalMemory INT);
"""


#: An 8192³ bf16 GEMM at 70% of an H100's dense 989 TFLOP/s, in µs (1.59 ms).
GEMM_US = 2 * 8192**3 / (989.4e12 * 0.7) * 1e6


def gemms_then_adds(t: Trace, at: float, gemms: int, adds: int, add_us: float) -> float:
    """``gemms`` 8192³ bf16 GEMMs (``GEMM_US`` each), then ``adds`` fp32 adds of 8×4096×4096 (``add_us`` each), each
    kernel with its op and shapes, back to back from ``at``; the time after the last."""
    for _ in range(gemms):
        op = t.op(at - 10, 5, "aten::mm", [[8192, 8192], [8192, 8192]], ["c10::BFloat16", "c10::BFloat16"])
        t.kernel(at, GEMM_US, "sm90_xmma_gemm_bf16bf16_bf16f32", op=op)
        at += GEMM_US + 1
    for _ in range(adds):
        op = t.op(at - 10, 5, "aten::add", [[8, 4096, 4096], [8, 4096, 4096], []], ["float", "float", "Scalar"])
        t.kernel(at, add_us, "vectorized_elementwise_kernel<4, CUDAFunctor_add<float>>", op=op)
        at += add_us + 1
    return at


def as_bytes(trace: dict[str, Any], *, zipped: bool = False) -> bytes:
    """The trace's file contents."""
    data = json.dumps(trace).encode()
    return gzip.compress(data) if zipped else data


def picket_fence(launches: int = 2000) -> dict[str, Any]:
    """A6's picket fence: 2 µs of kernel, 8 µs of gap, repeat."""
    t = Trace()
    for n in range(launches):
        t.kernel(100 + 10 * n, 2)
    return t.document()


def sync_stall(steps: int = 50) -> dict[str, Any]:
    """Each step: 1 ms of kernels, then the CPU blocks in cudaStreamSynchronize while the GPU idles 3 ms."""
    t = Trace()
    for n in range(steps):
        start = 100 + n * 4000
        t.kernel(start, 1000)
        t.host(start + 1000, 3000, "cudaStreamSynchronize")
    return t.document()


def loader_starved(steps: int = 20) -> dict[str, Any]:
    """Each 10 ms step waits 8 ms in the data loader before 2 ms of kernels."""
    t = Trace()
    for n in range(steps):
        start = 100 + n * 10_000
        t.host(start, 10_000, f"ProfilerStep#{n + 1}", "user_annotation")
        t.host(start, 8000, "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", "user_annotation")
        t.kernel(start + 8000, 2000)
    return t.document()


def comm_exposed(steps: int = 20) -> dict[str, Any]:
    """Each 10 ms step: 2.5 ms of compute, then a 7 ms all-reduce no compute overlaps."""
    t = Trace()
    for n in range(steps):
        start = 100 + n * 10_000
        t.kernel(start, 2500, "ampere_sgemm_128x64_nn")
        t.kernel(start + 2500, 7000, "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevComm*, unsigned long, ncclWork*)",
                 stream=20)
    return t.document()


def gemm_bound(calls: int = 50, m: int = 8192, n: int = 8192, k: int = 8192, efficiency: float = 0.7) -> dict[str, Any]:
    """bf16 GEMMs back to back on an H100, timed at ``efficiency`` of its dense 989 TFLOP/s."""
    t = Trace()
    seconds = 2 * m * n * k / (989.4e12 * efficiency)
    at = 100.0
    for _ in range(calls):
        op = t.op(at - 10, 5, "aten::mm", [[m, k], [k, n]], ["c10::BFloat16", "c10::BFloat16"])
        t.kernel(at, seconds * 1e6, "sm90_xmma_gemm_bf16bf16_bf16f32", op=op)
        at += seconds * 1e6 + 1
    return t.document()


def bandwidth_bound(calls: int = 50, elements: int = 8 * 4096 * 4096, efficiency: float = 0.8) -> dict[str, Any]:
    """An fp32 add of two large tensors on an H100, at ``efficiency`` of its 3.35 TB/s."""
    t = Trace()
    seconds = 3 * elements * 4 / (3.35e12 * efficiency)
    at = 100.0
    for _ in range(calls):
        op = t.op(at - 10, 5, "aten::add", [[8, 4096, 4096], [8, 4096, 4096], []], ["float", "float", "Scalar"])
        t.kernel(at, seconds * 1e6, "vectorized_elementwise_kernel<4, CUDAFunctor_add<float>>", op=op)
        at += seconds * 1e6 + 1
    return t.document()


def graph_captured(replays: int = 100) -> dict[str, Any]:
    """A CUDA graph replayed: one cudaGraphLaunch per replay, its 20 kernels back to back."""
    t = Trace()
    at = 100.0
    for _ in range(replays):
        t.host(at - 5, 3, "cudaGraphLaunch")
        for _ in range(20):
            t.events.append({"ph": "X", "cat": "kernel", "name": "void small_kernel", "pid": 0, "tid": 7, "ts": at,
                             "dur": 4, "args": {"device": 0, "stream": 7}})
            at += 4.2
        at += 2
    return t.document()


PATTERNS = {"picket_fence": picket_fence, "sync_stall": sync_stall, "loader_starved": loader_starved,
            "comm_exposed": comm_exposed, "gemm_bound": gemm_bound, "bandwidth_bound": bandwidth_bound,
            "graph_captured": graph_captured}
