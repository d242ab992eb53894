"""A CSV report read a line at a time: never held whole, its lines cut as the whole text would be cut.

The reader takes a report's text a piece at a time (``source.Pieces.lines``), so a report of millions of rows costs
what its kernels are kept as, not the file's text several times over (decoded, split, joined, copied).
"""

from __future__ import annotations

import csv
import io
import random
import tracemalloc

import pytest

from regime_core.errors import RegimeError
from regime_core.trace import source
from regime_core.trace.events import read_events
from regime_core.trace.reading import read_trace
from regime_core.trace.source import Pieces
from test_trace_formats import as_gpu_trace_csv
from trace_builder import as_bytes, picket_fence

_PIECES = [1, 2, 3, 5, 7, 64]
_ALPHABET = ["a", "b", ",", "\n", "\r", "\r\n", "\x0b", "\u2028", '"', "é", "€"]


@pytest.mark.parametrize("seed", range(4))
def test_lines_are_the_whole_text_s_lines_wherever_its_pieces_end(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Line breaks of every kind, a carriage return and its newline in two pieces, a character cut between bytes."""
    rng = random.Random(seed)
    for _ in range(500):
        text = "".join(rng.choice(_ALPHABET) for _ in range(rng.randrange(0, 60)))
        monkeypatch.setattr(source, "PIECE", rng.choice(_PIECES))
        got = list(Pieces(text.encode()).lines("not UTF-8"))
        assert got == [line + "\n" for line in text.splitlines()], text


def test_one_long_line_is_joined_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(source, "PIECE", 1000)
    text = "x" * 200_000 + "\n" + "y" * 10
    assert list(Pieces(text.encode()).lines("not UTF-8")) == ["x" * 200_000 + "\n", "y" * 10 + "\n"]


def test_a_report_cut_into_small_pieces_reads_as_it_does_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    kineto = picket_fence()
    raw = as_gpu_trace_csv(kineto, flavour="nsys").replace(b"\n", b"\r\n")  # Windows line ends, cut between \r and \n
    whole = read_trace(raw).to_json()["trace"]
    monkeypatch.setattr(source, "PIECE", 37)
    assert read_trace(raw).to_json()["trace"] == whole
    assert whole["kernels"] == read_trace(as_bytes(kineto)).to_json()["trace"]["kernels"]


def test_a_large_report_is_read_in_a_fraction_of_what_reading_it_whole_held(monkeypatch: pytest.MonkeyPatch) -> None:
    """20,000 kernels (1.4 MB of CSV) in pieces of 32 KB, as a large file's are to the 4 MB pieces: the reading's peak
    stays under 3× the file (at 200,000 rows, in 4 MB pieces, 2.2× measured; 8.8× when the text was decoded, split
    and joined whole)."""
    monkeypatch.setattr(source, "PIECE", 32 * 1024)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["Start (ns)", "Duration (ns)", "CorrId", "GrdX", "Device", "Ctx", "Strm", "Name"])
    for n in range(20_000):
        writer.writerow([1_000_000 + n * 20_000, 8_000 + n % 7, n, 1, 0, 1, 7, f"void gemm_{n % 40}<float, 128, 128>"])
    raw = out.getvalue().encode()
    tracemalloc.start()
    events = read_events(raw)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert len(events.gpu) == 20_000
    assert peak < 3 * len(raw), (peak, len(raw))


def test_an_ncu_report_is_named_even_past_a_long_preamble_of_its_own_lines() -> None:
    """ncu writes a ``==PROF==`` line per kernel it profiles before its CSV: the header may lie past the first bytes."""
    preamble = b"".join(b'==PROF== Profiling "gemm_%d": 0%%....50%%....100%% - 9 passes\n' % n for n in range(200))
    raw = preamble + b'"ID","Kernel Name","Section Name","Metric Name","Metric Unit","Metric Value"\n0,"gemm","SOL",' \
                     b'"Duration","ns",100\n'
    assert len(preamble) > source.HEAD
    with pytest.raises(RegimeError, match="Nsight Compute report"):
        read_events(raw)


def test_a_report_that_is_not_utf8_says_so_in_one_line() -> None:
    raw = b'"Start (ns)","Duration (ns)","CorrId","Strm","Name"\n1,2,3,7,"gemm \xff"\n'
    with pytest.raises(RegimeError, match=r"^trace: expected a CSV report in UTF-8 text; this file is not$"):
        read_events(raw)
