"""The "Your trace" page's widget, written from the core: its limit and the lines it asks for."""

from __future__ import annotations

from html import escape

from regime_core.bridge.trace_ops import MAX_PAGE_RANKS, MAX_PAGE_TRACE_BYTES
from regime_core.catalogue import hardware as hw
from regime_site.markup import field as _field


def trace_widget() -> str:
    """Your reading first, then the file: read in the browser's worker, never uploaded."""
    limit = f"{MAX_PAGE_TRACE_BYTES // 2**20} MB"
    guess = ('<input name="guess" maxlength="300" autocomplete="off" placeholder="e.g. memory-bound: the decode reads'
             ' its weights">')
    return (
        f'<div class="regime-trace" data-regime-widget="trace" data-max-bytes="{MAX_PAGE_TRACE_BYTES}">'
        '<p class="regime-status" role="status" aria-live="polite"></p>'
        "<noscript><p>This page needs JavaScript: the trace is read by Python running in your browser. The command"
        " line reads it too: <code>regime trace run.pt.trace.json.gz</code>.</p></noscript>"
        '<form data-search-exclude class="regime-trace__form regime-attempt" novalidate aria-label="Your trace">'
        + _field("guess", "Your reading first (optional): the regime, and why", guess)
        + _field("file", f"The trace: torch.profiler's .json or .json.gz, an Nsight Systems .sqlite export, a .csv"
                         f" report (nsys, rocprof, Nsight Compute), rocprofv3's .json or a rank's digest, up to"
                         f" {escape(limit)}",
                 '<input type="file" name="file" accept=".json,.gz,.sqlite,.csv,.log,.txt,application/json,'
                 'application/gzip,text/csv,text/plain">')
        + '<p class="regime-trace__drop" aria-hidden="true">or drop the file here</p>'
        + _field("gpu", "The card it ran on", _card_menu())
        + _field("dtype", "The math's dtype", _dtype_menu())
        + '</form>'
        '<progress class="regime-trace__progress" max="1" value="0" hidden></progress>'
        '<div class="regime-trace__result" aria-live="polite"></div>'
        "</div>"
    )


def _card_menu() -> str:
    """The catalogue's cards, for a trace that names none it holds (an old V100 trace, "AMD Radeon Graphics")."""
    options = "".join(f'<option value="{escape(card.id)}">{escape(card.name)}</option>'
                      for card in hw.catalogue().values())
    return f'<select name="gpu"><option value="" selected>As the trace names it</option>{options}</select>'


def _dtype_menu() -> str:
    """The dtypes whose dense peak the placed ops may be held to: where fp32 matmuls ran as TF32, or types are missing."""
    options = "".join(f'<option value="{escape(dtype)}">{escape(dtype)}</option>' for dtype in hw.DTYPES)
    return f'<select name="dtype"><option value="" selected>As the trace records it</option>{options}</select>'


def diff_widget() -> str:
    """Two traces, before and after a change: each read in the browser's worker, then the change between them."""
    limit = f"{MAX_PAGE_TRACE_BYTES // 2**20} MB"
    accept = 'accept=".json,.gz,.sqlite,.csv,application/json,application/gzip,text/csv"'
    return (
        f'<div class="regime-trace-diff" data-regime-widget="trace-diff" data-max-bytes="{MAX_PAGE_TRACE_BYTES}">'
        '<p class="regime-status" role="status" aria-live="polite"></p>'
        "<noscript><p>This needs JavaScript: the traces are read by Python running in your browser. The command line"
        " compares them too: <code>regime diff before.json.gz after.json.gz</code>.</p></noscript>"
        '<form data-search-exclude class="regime-trace-diff__form regime-attempt" novalidate'
        ' aria-label="Two traces, before and after">'
        + _field("guess", "What will this change do? (optional): faster or not, and the regime after",
                 '<input name="guess" maxlength="300" autocomplete="off" placeholder="e.g. the loader fixed: the'
                 ' step 40% shorter, compute-bound after">')
        + _field("before", f"Before the change (up to {escape(limit)})", f'<input type="file" name="before" {accept}>')
        + _field("after", f"After it (up to {escape(limit)})", f'<input type="file" name="after" {accept}>')
        + _field("gpu", "The card both ran on", _card_menu())
        + _field("dtype", "The math's dtype", _dtype_menu())
        + "</form>"
        '<div class="regime-trace-diff__result" aria-live="polite"></div>'
        "</div>"
    )


def ranks_widget() -> str:
    """One trace (or digest) per rank: each read in the browser's worker in turn and kept as its digest, then merged."""
    limit = f"{MAX_PAGE_TRACE_BYTES // 2**20} MB"
    return (
        f'<div class="regime-trace-ranks" data-regime-widget="trace-ranks" data-max-bytes="{MAX_PAGE_TRACE_BYTES}"'
        f' data-max-ranks="{MAX_PAGE_RANKS}">'
        '<p class="regime-status" role="status" aria-live="polite"></p>'
        "<noscript><p>This needs JavaScript: the traces are read by Python running in your browser. The command line"
        " reads a run's ranks too: <code>regime ranks run/</code>.</p></noscript>"
        '<form data-search-exclude class="regime-trace-ranks__form regime-attempt" novalidate'
        ' aria-label="One trace per rank">'
        + _field("ranks", f"One trace per rank (each up to {escape(limit)}), or the digests regime trace --digest"
                          " writes: choose them all at once",
                 '<input type="file" name="ranks" multiple accept=".json,.gz,.sqlite,.csv,application/json,'
                 'application/gzip,text/csv">')
        + _field("gpu", "The card every rank ran on", _card_menu())
        + "</form>"
        '<progress class="regime-trace-ranks__progress" max="1" value="0" hidden></progress>'
        '<div class="regime-trace-ranks__result" aria-live="polite"></div>'
        "</div>"
    )
