"""A ``torch.profiler`` ``on_trace_ready`` handler that writes each rank's trace and its digest where it runs.

``regime_core`` never imports torch: the handler takes the profiler object it is given and calls the one method
every ``torch.profiler.profile`` has, ``export_chrome_trace(path)``; then it reads the trace it wrote and writes the
rank's digest beside it (kilobytes, whatever the trace's size), so a 1,024-rank job's digests can be merged on a
laptop (``regime ranks DIGESTS...``) without moving the traces::

    from regime_core.trace.handler import on_trace_ready
    with torch.profiler.profile(schedule=..., record_shapes=True, on_trace_ready=on_trace_ready("prof/")) as p:
        ...  # train; each rank writes prof/<host>_<pid>.step<N>.pt.trace.json and .digest.json
"""

from __future__ import annotations

import json
import os
import socket
from collections.abc import Callable
from typing import Any

from regime_core.trace.ranks import digest
from regime_core.trace.reading import read_trace


def on_trace_ready(folder: str, *, prefix: str = "") -> Callable[[Any], str]:
    """A handler writing ``folder/<prefix>.step<N>.pt.trace.json`` and its digest; it returns the digest's path.

    ``prefix`` defaults to this host's name and process id (one process a rank), so ranks never overwrite each other.
    """
    def handler(profiler: Any) -> str:
        os.makedirs(folder, exist_ok=True)
        name = prefix or f"{socket.gethostname()}_{os.getpid()}"
        base = os.path.join(folder, f"{name}.step{int(getattr(profiler, 'step_num', 0) or 0)}")
        trace_path = f"{base}.pt.trace.json"
        profiler.export_chrome_trace(trace_path)
        with open(trace_path, "rb") as handle:
            reading = read_trace(handle).to_json()
        digest_path = f"{base}.digest.json"
        with open(digest_path, "w", encoding="utf-8") as out:
            json.dump(digest(reading), out, ensure_ascii=False)
        return digest_path

    return handler
