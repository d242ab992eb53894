"""``regime ranks --engine ray``: each rank's trace read where Ray runs it, and the readings merged here.

An optional extra (``pip install 'regime-core[ray]'``): it calls the core, and the core never imports it. The
command line finds it through the ``regime.engines`` entry point this package's distribution declares.

Each rank's file is read by the core's own ``rank_reading`` inside a Ray task, so the trace is read on whichever
node Ray schedules the task on: the paths must be readable there (shared storage). Only the reading comes back,
and the merge is the core's, on the results in the order the files were named, so ``--engine ray`` and
``--engine local`` give byte-identical JSON. When traces are written on the nodes that ran the ranks, the profiler
handler's digests (``regime_core.trace.handler``) are cheaper still: merge those anywhere, without Ray.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from regime_core.cli.main import rank_reading
from regime_core.errors import RegimeError

__all__ = ["read_ranks"]

#: A rank read on a worker: its path, its reading (None when it could not be read) and why not.
RankResult = tuple[str, dict[str, Any] | None, str]


def read_ranks(files: Sequence[str], *, jobs: int, address: str | None = None, gpu: str | None = None) -> list[RankResult]:
    """Each file's reading, read in Ray tasks; in the order given (a trace on the card ``gpu``, where given).

    Joins the cluster at ``address`` (``auto`` for the one this machine belongs to), or the one this process
    already joined, or starts a local instance with ``jobs`` CPUs and shuts it down after.

    Raises:
        RegimeError: Ray cannot be imported, or no cluster answers at ``address``.

    """
    try:
        import ray  # noqa: PLC0415 - an optional extra, imported only when this engine is asked for
    except ImportError:
        raise RegimeError("--engine", "expected Ray for --engine ray: pip install 'regime-core[ray]'") from None
    started = not ray.is_initialized()
    if started:
        try:
            if address:
                ray.init(address=address, include_dashboard=False, logging_level=logging.ERROR, log_to_driver=False)
            else:
                ray.init(num_cpus=jobs, include_dashboard=False, logging_level=logging.ERROR, log_to_driver=False)
        except (ConnectionError, RuntimeError, ValueError) as exc:
            raise RegimeError("--address", f"expected a Ray cluster at {address or 'this machine'}: {exc}") from None
    try:
        read = ray.remote(num_cpus=1, max_retries=0)(rank_reading)
        results: list[RankResult] = ray.get([read.remote(path, gpu) for path in files])
        return results
    finally:
        if started:
            ray.shutdown()
