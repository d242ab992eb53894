"""Two (or more) sides of a benchmark timed in turn, run after run, so that the machine's drift falls on all."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def medians_in_turn(runs: int, *sides: Callable[[], object]) -> list[float]:
    """Each side's median wall time over ``runs`` rounds, the sides run one after the other in each round."""
    times: list[list[float]] = [[] for _ in sides]
    for _ in range(runs):
        for taken, side in zip(times, sides, strict=True):
            start = time.perf_counter()
            side()
            taken.append(time.perf_counter() - start)
    return [statistics.median(taken) for taken in times]
