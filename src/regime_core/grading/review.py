"""The review comment: a verdict in the few lines a reviewer pastes into a pull request."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from regime_core.catalogue.levers import advice
from regime_core.catalogue.quantity import Dim, counted, format_quantity, number
from regime_core.content import drill
from regime_core.judgment.classify import Verdict


def _sentence(text: str) -> str:
    text = text.strip().rstrip(".")
    return text[:1].upper() + text[1:] if text else ""


_MARKDOWN = str.maketrans({c: f"\\{c}" for c in "\\`*_[]<>"})


def markdown_text(text: str) -> str:
    """Text set in Markdown as it reads: its own ``*``, ``_``, backticks and brackets escaped."""
    return text.translate(_MARKDOWN)


def review_comment(verdict: Verdict, label: str, url: str, *, title: str = "", symptom: str = "",
                   link_text: str = "Why, with the arithmetic") -> str:
    """``label``'s verdict as Markdown for a pull request or a chat.

    The regime in bold in a sentence that names the incident, the symptom quoted, the deciding evidence,
    the lever and the waste, and a short link.

    Example::

        A6, *40,000 launches and a picket fence*, is **overhead / host-bound**.

        > A custom CUDA extension launches 40,000 pointwise kernels per request. ...

        - **Deciding evidence:** timeline: 2 µs of kernel, 8 µs of gap: the GPU idles 80% of the time ...
        - **Helps:** Launch less: fuse, capture the loop in a CUDA graph, or launch fewer, bigger grids.
        - **Wastes the week:** Micro-optimising the kernels themselves: the GPU is idle between them.

        [Why, with the arithmetic](https://…/casebook/a6/)
    """
    named = markdown_text(label) + (f", *{markdown_text(title)}*," if title else "")
    reason = markdown_text(verdict.evidence[0]) if verdict.evidence else ""
    if verdict.regime is None:
        lean = f", leaning {markdown_text(verdict.leaning)}" if verdict.leaning else ""
        head = f"{named} is **undecided**{lean}."
        lines = [f"- **What the symptoms show:** {reason}.", f"- **Measure this next:** {markdown_text(verdict.needs)}."]
    elif verdict.anomalies:
        # A figure beyond a roof comes first: until it is measured again, the regime rests on it.
        head = f"{named.rstrip(',')}: **a measurement beyond what the card can do**, to check before the regime."
        lines = [f"- **The anomaly:** {markdown_text(verdict.anomalies[0])}.",
                 f"- **Read as, once re-measured:** {advice(verdict.regime).name}: {reason}.",
                 f"- **Helps:** {markdown_text(_sentence(verdict.lever))}.",
                 f"- **Wastes the week:** {markdown_text(_sentence(verdict.waste))}."]
    else:
        head = f"{named} is **{advice(verdict.regime).name}**."
        lines = [f"- **Deciding evidence:** {reason}.",
                 f"- **Helps:** {markdown_text(_sentence(verdict.lever))}.",
                 f"- **Wastes the week:** {markdown_text(_sentence(verdict.waste))}."]
    if verdict.notes_read:  # what a reading saw beside its verdict (a trace's exposed collectives), not a file's notes
        lines.append(f"- **Also:** {markdown_text(verdict.notes)}.")
    quote = [f"> {markdown_text(symptom)}", ""] if symptom else []
    return "\n".join([head, "", *quote, *lines, "", f"[{link_text}]({url})"])


def question_comment(label: str, url: str, *, title: str = "", symptom: str = "") -> str:
    """``label`` as a question for a pull request or a chat, before its answer is open: the incident and its link.

    A reviewer who pastes it sends the reader to try it; the verdict is copied only once the answer is open.

    Example::

        A6, *40,000 launches and a picket fence*: which regime holds it?

        > A custom CUDA extension launches 40,000 pointwise kernels per request. ...

        [Read it, then open the answer](https://…/casebook/a6/)
    """
    named = markdown_text(label) + (f", *{markdown_text(title)}*" if title else "")
    quote = [f"> {markdown_text(symptom)}", ""] if symptom else []
    return "\n".join([f"{named}: which regime holds it?", "", *quote, f"[Read it, then open the answer]({url})"])


def part_b_review(url: str) -> str:
    """Part B in the lines a reviewer pastes: the ridge and each kernel's side, with the numbers."""
    rows = drill.part_b()
    p = rows[0].placement
    places = "; ".join(f"{r.label}: {format_quantity(r.placement.intensity, Dim.INTENSITY)},"
                       f" {number(r.placement.factor)}× {r.placement.side}" for r in rows)
    return (f"Part B: ridge = {format_quantity(p.peak_flops, Dim.FLOP_RATE)} / {format_quantity(p.bandwidth, Dim.BYTE_RATE)}"
            f" = {format_quantity(p.ridge, Dim.INTENSITY)}. {places}. Why: {url}")


def part_b_question(url: str) -> str:
    """Part B as a question, before its answer is open: the card and the three kernels to place."""
    rows = drill.part_b()
    p = rows[0].placement
    return (f"Part B: a card of {format_quantity(p.peak_flops, Dim.FLOP_RATE)} and {format_quantity(p.bandwidth, Dim.BYTE_RATE)}."
            f" Where is its ridge, and which side of it do {', '.join(r.label for r in rows)} sit? Try it: {url}")


def kernel_review(verdict: Verdict, url: str) -> str:
    """A stretch kernel's verdict for a review, naming the kernel and the card; ``url`` reproduces it."""
    p = verdict.placement
    label = f"{p.work.label} on {p.hardware_name}" if p is not None else "This kernel"
    return review_comment(verdict, label, url)


def counter_review(verdict: Verdict, facts: Mapping[str, Any], url: str) -> str:
    """Nsight Compute's counters' verdict for a review, with what they measured; no part of the report."""
    label = (f"This Nsight Compute report ({counted(facts['launches'], 'kernel launch')} of"
             f" {counted(facts['kernels'], 'kernel')}, {format_quantity(facts['time'], Dim.SECOND)} of replayed"
             " kernel time)")
    return review_comment(verdict, label, url, link_text="How Regime reads a trace")


def trace_review(verdict: Verdict, facts: Mapping[str, Any], url: str) -> str:
    """A profiler trace's verdict for a review, with what the trace measured; it carries no part of the trace."""
    card = f", on {facts['card_name']}" if facts.get("card_name") else ""
    label = (f"This profiler trace (GPU busy {facts['busy']:.1%} of a {format_quantity(facts['window'], Dim.SECOND)}"
             f" window, {counted(facts['kernels'], 'kernel')}{card})")
    # The trace stays with its owner, so the link says how it was read (the reference), not an empty form.
    return review_comment(verdict, label, url, link_text="How Regime reads a trace")
