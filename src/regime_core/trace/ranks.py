"""A distributed run's ranks read together: each rank's digest merged into the job's reading.

One rank's trace cannot tell a slow interconnect from a slow rank: when one rank arrives late at a collective,
every other rank waits inside it, and each of their traces looks communication-bound. Merged, the ranks say it.
Per rank and per step: the time the rank spent before it reached the collectives (its ``work``: the step less
its exposed collective time, so a rank stalled on its loader arrives late as surely as one with more compute),
its compute, its share of exposed collectives, its regime. A rank whose work per step is beyond the others'
(more than ``STRAGGLER_SHARE`` over their median, and beyond three times their median absolute deviation) is a
**straggler**: the collectives the others wait in are its cost, not the network's, and the job's verdict is the
straggler with its own regime. Where no rank is late on average but most steps have a late rank, and it is a
different rank from step to step, the job's work is split unevenly (**imbalance**): every rank waits in the
collectives for that step's slowest, which the averages hide. Where no rank is late and every rank's collectives
hold the step alike, the job is communication-bound: the link is slow for all. Otherwise the job reads as the
regime most ranks read.

A **digest** is one rank's reading (what ``regime trace --json`` gives, kilobytes whatever the trace's size) in
a small versioned document: written where the trace is, merged anywhere.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from regime_core.catalogue import hardware as hw
from regime_core.catalogue.levers import advice
from regime_core.catalogue.quantity import Dim, format_quantity
from regime_core.errors import RegimeError
from regime_core.judgment.classify import COMM_SHARE
from regime_core.judgment.svg import escape
from regime_core.trace.diff import per_step, step_time
from regime_core.trace.diff import quantity_text as _f

DIGEST_FORMAT, DIGEST_VERSION = "regime-digest", 1
#: A rank whose work per step is this much over the median of all (and beyond their spread) is a straggler.
STRAGGLER_SHARE = 0.1
#: ... and beyond this many times the ranks' median absolute deviation.
MAD_FACTOR = 3.0
#: A straggler spending this share of its window waiting on its loader is said to be late for its loader.
LOADER_LATE = 0.2


def digest(reading: Mapping[str, Any]) -> dict[str, Any]:
    """One rank's reading (``regime trace --json``) as a digest document."""
    return {"format": DIGEST_FORMAT, "version": DIGEST_VERSION, "reading": dict(reading)}


def is_digest(raw: object) -> bool:
    """Whether a JSON document says it is a digest."""
    return isinstance(raw, Mapping) and raw.get("format") == DIGEST_FORMAT


def looks_like_digest(head: bytes) -> bool:
    """Whether a file's first bytes (256 of them are enough) are a digest's: JSON that names the digest format."""
    return head.lstrip()[:1] == b"{" and f'"{DIGEST_FORMAT}"'.encode() in head[:256]


def reading_of(raw: object) -> dict[str, Any]:
    """The reading a digest holds; a RegimeError says what is wrong with it."""
    if not isinstance(raw, Mapping) or raw.get("format") != DIGEST_FORMAT:
        raise RegimeError("digest", f'expected "format": "{DIGEST_FORMAT}" (regime trace FILE --digest writes one)')
    if raw.get("version") != DIGEST_VERSION:
        raise RegimeError("digest.version", f"expected {DIGEST_VERSION}: a digest of another version of Regime;"
                                            " write it again with this one (regime trace FILE --digest)")
    reading = raw.get("reading")
    if not isinstance(reading, Mapping) or not isinstance(reading.get("trace"), Mapping):
        raise RegimeError("digest.reading", "expected the rank's reading (regime trace --json)")
    return dict(reading)


def _row(source: str, reading: Mapping[str, Any], fallback_rank: int) -> dict[str, Any]:
    trace = reading["trace"]
    steps = max(1, len(trace["steps"]))
    step = step_time(trace)["median"]
    window = trace["window"]
    comm = per_step(trace)["collectives"]
    ordered = sorted(trace["steps"], key=lambda s: s["step"])
    return {"rank": trace.get("rank") if trace.get("rank") is not None else fallback_rank, "source": source,
            "world_size": trace.get("world_size"), "card": trace.get("card_name") or trace.get("device"),
            "card_known": trace.get("card") is not None, "card_id": trace.get("card"),
            "step_time": step, "work": max(0.0, window / steps - comm), "compute_time": trace["compute_time"] / steps,
            "comm_time": comm,
            "comm_share": trace["comm_share"], "loader_share": trace["loader_share"], "busy": trace["busy"],
            "regime": reading["regime"], "regime_name": reading["regime_name"], "lever": reading.get("lever", ""),
            "collectives": trace.get("collectives", {}),
            "steps": [s["time"] for s in ordered],
            # each step's work before the collectives, where the reading has each step's exposed collectives
            "step_work": [max(0.0, s["time"] - s["collectives"]) for s in ordered if "collectives" in s]}


def merge(readings: Iterable[tuple[str, Mapping[str, Any]]], refused: Iterable[tuple[str, str]] = ()) -> dict[str, Any]:
    """The job's reading from its ranks' readings (source, reading): ``ranks``, ``stragglers``, ``job``, ``notes``."""
    rows: list[dict[str, Any]] = []
    refused_out = [{"file": file, "reason": reason} for file, reason in refused]
    seen: dict[int, str] = {}
    for at, (source, reading) in enumerate(readings):
        row = _row(source, reading, at)
        if row["rank"] in seen:
            refused_out.append({"file": source, "reason": f"rank {row['rank']} again (first read from"
                                                         f" {seen[row['rank']]}): left out"})
            continue
        seen[row["rank"]] = source
        rows.append(row)
    if not rows:
        raise RegimeError("PATH", "no rank could be read: " + "; ".join(f"{r['file']}: {r['reason']}"
                                                                       for r in refused_out[:3]))
    rows.sort(key=lambda r: r["rank"])
    notes = _notes(rows)
    stragglers = _stragglers(rows)
    # the ranks, a straggler aside, that spend a share of their window in exposed collectives
    waiting = [r for r in rows if r not in stragglers and r["comm_share"] >= COMM_SHARE]
    job = _with_keys(_job(rows, stragglers, waiting, [] if stragglers else _moving(rows)), rows, stragglers, waiting)
    return {"ranks": rows, "stragglers": [s["rank"] for s in stragglers], "job": job, "notes": notes,
            "refused": refused_out}


def _notes(rows: list[dict[str, Any]]) -> list[str]:
    """What the set itself says first: ranks missing, sizes that disagree, different cards."""
    notes = []
    sizes = {r["world_size"] for r in rows if r["world_size"] is not None}
    if len(sizes) > 1:
        notes.append(f"the traces disagree on the job's size ({', '.join(str(s) for s in sorted(sizes))} ranks)")
    elif sizes:
        missing = sorted(set(range(next(iter(sizes)))) - {r["rank"] for r in rows})
        if missing:
            shown = ", ".join(str(m) for m in missing[:20]) + (" …" if len(missing) > 20 else "")
            notes.append(f"{len(missing)} of {next(iter(sizes))} ranks missing: {shown}")
    cards = Counter(r["card"] for r in rows)
    if len(cards) > 1:
        notes.append("the ranks ran on different GPUs (" + ", ".join(f"{c or 'unnamed'}: {n}"
                                                                      for c, n in cards.most_common()) + ")")
    unknown = [r for r in rows if not r["card_known"]]
    if unknown:  # their ops are placed on no roofline, so their regime may be undecided for want of the card
        named = sorted({r["card"] for r in unknown if r["card"]})
        said = f"name {', '.join(repr(n) for n in named[:3])}, which the catalogue does not hold" if named else \
            "name no card"
        notes.append(f"{len(unknown)} of {len(rows)} ranks {said}: give the card they ran on (--gpu ID on the"
                     " command line, the card menu on the page) to place their ops")
    return notes


def _stragglers(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    if len(rows) < 3:  # two ranks cannot say which of them is the odd one
        return []
    work = [r["work"] for r in rows]
    median = statistics.median(work)
    spread = statistics.median(abs(w - median) for w in work)
    late = [r for r in rows if r["work"] > median * (1 + STRAGGLER_SHARE) and r["work"] - median > MAD_FACTOR * spread]
    for r in late:
        r["late_by"] = r["work"] / median - 1 if median > 0 else 0.0
    return sorted(late, key=lambda r: -r["work"])


def _moving(rows: list[dict[str, Any]]) -> list[tuple[int, float]]:
    """Each late step's slowest rank and by how much, where the lateness moves from rank to rank; else [].

    A step is late where its slowest rank's work is beyond the others' as a straggler's is (``STRAGGLER_SHARE`` over
    the median and ``MAD_FACTOR`` times the spread). The lateness moves where half the steps or more are late and no
    one rank is the slowest in most of them: uneven work (sequence lengths, routing), not a slow node.
    """
    steps = min((len(r["step_work"]) for r in rows), default=0)
    if len(rows) < 3 or steps < 3:
        return []
    late = []
    for n in range(steps):
        work = [r["step_work"][n] for r in rows]
        median = statistics.median(work)
        spread = statistics.median(abs(w - median) for w in work)
        slowest = max(range(len(rows)), key=lambda i: work[i])
        if median > 0 and work[slowest] > median * (1 + STRAGGLER_SHARE) and work[slowest] - median > MAD_FACTOR * spread:
            late.append((rows[slowest]["rank"], work[slowest] / median - 1))
    most = Counter(rank for rank, _ in late).most_common(1)
    if len(late) * 2 < steps or not most or most[0][1] * 2 > len(late):
        return []
    return late


def _job(rows: list[dict[str, Any]], stragglers: list[dict[str, Any]], waiting: list[dict[str, Any]],
         moving: list[tuple[int, float]] | None = None) -> dict[str, Any]:
    if moving:
        ranks = list(dict.fromkeys(rank for rank, _ in moving))
        shown = ", ".join(str(r) for r in ranks[:8]) + (" …" if len(ranks) > 8 else "")
        text = (f"No one rank is late: in {len(moving)} of {min(len(r['step_work']) for r in rows)} steps one rank"
                f" reaches the collectives up to {max(by for _, by in moving):.0%} after the median, and it is a"
                f" different rank from step to step (ranks {shown}). The work is split unevenly (sequence lengths,"
                " routing, a data-dependent path), not a slow node or a slow network: every other rank waits in"
                " the collectives for that step's slowest. Balance the work per step (bucket or pack by length, cap"
                " the imbalance); a faster interconnect or another node would not shorten the step.")
        # Not communication-bound, though every rank waits in collectives: the wait is the slowest rank's work.
        return {"verdict": "imbalance", "regime": None, "text": text, "late_ranks": ranks}
    if stragglers:
        first = stragglers[0]
        computes = statistics.median(r["compute_time"] for r in rows)
        why = ("waits on its data loader" if first["loader_share"] >= LOADER_LATE else
               f"computes longer ({_f(first['compute_time'], Dim.SECOND)} a step against"
               f" {_f(computes, Dim.SECOND)} for the median rank)"
               if first["compute_time"] > computes * (1 + STRAGGLER_SHARE / 2) else
               f"takes longer before the collectives ({_f(first['work'], Dim.SECOND)} a step against"
               f" {_f(statistics.median(r['work'] for r in rows), Dim.SECOND)}) with the same compute"
               f" ({_f(first['compute_time'], Dim.SECOND)}): the time is outside its kernels (the host, a sync, an"
               " input it waits on)")
        text = (f"Rank {first['rank']} is a straggler: it reaches the collectives {first['late_by']:.0%} later than"
                f" the median rank; it {why}, and reads {first['regime_name']} on its own."
                + (f" {len(waiting)} other ranks spend {statistics.median(r['comm_share'] for r in waiting):.0%} of"
                   " the window in exposed collectives: that is waiting for it, not a slow network."
                   if waiting else "")
                + " Fix the straggler first; a faster interconnect would not shorten the step.")
        return {"verdict": "straggler", "regime": first["regime"], "text": text}
    shares = [r["comm_share"] for r in rows]
    if len(waiting) == len(rows):
        text = (f"Every rank spends {min(shares):.0%}–{max(shares):.0%} of its window in exposed collectives and no"
                " rank is late: the collectives themselves are slow for all (the link, or too little overlap)."
                + _bus_said(rows) +
                " Overlap them with compute, or move less data; faster kernels would not shorten the step.")
        return {"verdict": "communication", "regime": "communication", "text": text}
    regimes = Counter(r["regime"] for r in rows)
    regime, count = regimes.most_common(1)[0]
    name = advice(regime).name if regime else "undecided"
    text = (f"No rank is late and the collectives do not hold the step: {count} of {len(rows)} ranks read {name}.")
    return {"verdict": regime or "undecided", "regime": regime, "text": text}


def _bus_said(rows: list[dict[str, Any]]) -> str:
    """The bus bandwidth the ranks' collectives reached, where their messages were recorded ("" where not)."""
    kinds = Counter[str]()
    for r in rows:
        for kind, entry in r["collectives"].items():
            if entry.get("bus_bandwidth"):
                kinds[kind] += entry.get("exposed", entry["time"])
    if not kinds:
        return ""
    kind = kinds.most_common(1)[0][0]
    reached = [r["collectives"][kind]["bus_bandwidth"] for r in rows if r["collectives"].get(kind, {}).get("bus_bandwidth")]
    bus = statistics.median(reached)
    said = (f" Their {kind} kernels reached a bus bandwidth of {_f(bus, Dim.BYTE_RATE)} (the median of"
            f" {len(reached)} ranks; nccl-tests' measure, from the message sizes PyTorch recorded)")
    ids = {str(r.get("card_id")) for r in rows}  # "None" for a rank whose trace names no known card
    card = hw.catalogue().get(next(iter(ids))) if len(ids) == 1 else None
    if card is None or card.link is None:
        return said + (": set it against what the link gives each way (nccl-tests' all_reduce_perf on the same"
                       " nodes).")
    each_way = card.link.value / 2
    return said + (f", {bus / each_way:.0%} of the {_f(each_way, Dim.BYTE_RATE)} the {card.name}'s link moves each"
                   f" way ({_f(card.link.value, Dim.BYTE_RATE)} both directions, as the vendor prints it; an NVLink"
                   " SHARP all-reduce can pass it).")


def _with_keys(job: dict[str, Any], rows: list[dict[str, Any]], stragglers: list[dict[str, Any]],
               waiting: list[dict[str, Any]]) -> dict[str, Any]:
    """The job's verdict with the classifier's keys (``regime_name``, ``evidence``, ``lever``, ``waste``, ``needs``).

    And ``waiting``: the numbers of the ranks that wait in exposed collectives.
    """
    shares = [r["comm_share"] for r in rows]
    evidence = [f"{len(rows)} ranks read; exposed collectives {min(shares):.0%}–{max(shares):.0%} of a rank's window"]
    if stragglers:
        first = stragglers[0]
        evidence.append(f"rank {first['rank']} reaches the collectives {first['late_by']:.0%} later than the median"
                        f" rank and reads {first['regime_name']} on its own")
        lever = f"fix rank {first['rank']} first: " + (first.get("lever") or "find why it is late")
        waste = "a faster interconnect: the other ranks wait in the collectives for the straggler, not for the network"
    elif job["verdict"] == "imbalance":
        evidence.append(f"the slowest rank changes from step to step ({len(job['late_ranks'])} ranks take turns)")
        lever = "balance the work per step: bucket or pack by length, cap the imbalance"
        waste = "a faster interconnect or another node: each step waits for that step's slowest rank"
    elif job["regime"] is not None:
        lever, waste = advice(job["regime"]).helps, advice(job["regime"]).wastes
    else:
        lever = waste = ""
    needs = "" if lever else ("read each rank on its own (regime trace FILE): no regime holds most ranks, and no rank"
                              " is late")
    return {**job, "regime_name": advice(job["regime"]).name if job["regime"] else "undecided",
            "evidence": evidence, "lever": lever, "waste": waste, "needs": needs,
            "waiting": [r["rank"] for r in waiting]}


COLUMNS = ("rank", "step time", "work before collectives", "compute", "exposed collectives", "loader", "regime")


def table_rows(result: Mapping[str, Any]) -> list[list[str]]:
    """The per-rank table as text, a row per rank, stragglers marked."""
    late = set(result["stragglers"])
    return [[f"{r['rank']}{' (straggler)' if r['rank'] in late else ''}", _f(r["step_time"], Dim.SECOND),
             _f(r["work"], Dim.SECOND), _f(r["compute_time"], Dim.SECOND), f"{r['comm_share']:.0%}",
             f"{r['loader_share']:.0%}", r["regime_name"]] for r in result["ranks"]]


_ALIKE = 1e-6  # ranks whose work is within this share of the median's are at it (the rest is float rounding)
#: The most rows a page or a pull-request comment shows of one job (GitHub cuts a comment at 65,536 characters).
SHOWN_ROWS = 16


def shown_rows(result: Mapping[str, Any], limit: int = SHOWN_ROWS) -> tuple[list[list[str]], str]:
    """The table's rows worth a reader's eye, in rank order, and a line saying which (empty when every rank is shown).

    A large job's rows are its stragglers, then the ranks whose work before the collectives is furthest from the
    median; the rest are like the median rank.
    """
    rows, ranks = table_rows(result), result["ranks"]
    if len(ranks) <= limit:
        return rows, ""
    late = set(result["stragglers"])
    median = statistics.median(r["work"] for r in ranks)
    keep = sorted(sorted(range(len(ranks)), key=lambda i: (ranks[i]["rank"] not in late,
                                                           -abs(ranks[i]["work"] - median), i))[:limit])
    kept = set(keep)
    rest = max(abs(r["work"] - median) for i, r in enumerate(ranks) if i not in kept)
    return [rows[i] for i in keep], (
        f"{len(keep)} of {len(ranks):,} ranks shown: the stragglers, then those whose work before the collectives is"
        f" furthest from the median rank's ({_f(median, Dim.SECOND)}); the other {len(ranks) - len(keep):,} are "
        + (f"within {_f(rest, Dim.SECOND)} of it" if rest >= _ALIKE * median else "at it")
        + ". regime ranks --json gives every rank")


def markdown(result: Mapping[str, Any]) -> str:
    """The job's reading for a pull request or an issue: the verdict, what the set says first, the table."""
    out = [f"### Regime across {len(result['ranks'])} ranks: {result['job']['verdict']}", "", result["job"]["text"], ""]
    out += [f"- {note}" for note in result["notes"]]
    if result["notes"]:
        out.append("")
    out += ["| " + " | ".join(COLUMNS) + " |", "| " + " | ".join("---:" if c != "regime" else "---" for c in COLUMNS)
            + " |"]
    rows, shown = shown_rows(result)
    out += ["| " + " | ".join(row) + " |" for row in rows]
    if shown:
        out += ["", shown]
    if result["refused"]:
        out += ["", "Not read:"] + [f"- {r['file']}: {r['reason']}" for r in result["refused"]]
    return "\n".join(out) + "\n"


#: A step this much over the job's median step is drawn darkest.
DARKEST_OVER = 0.5
#: The picture's most rows and columns: more ranks or steps are gathered, each cell the slowest it gathers.
PICTURE_ROWS, PICTURE_COLUMNS = 64, 60
# The stragglers are named in the left margin, beside their row: where many steps make the picture wider than a phone,
# it scrolls sideways, and a name at the right end would start off-screen. A few steps fill 240 units: the whole
# picture, split included, then fits a phone's column at the size its labels read at.
_CELL_W, _CELL_H, _LEFT, _RIGHT, _TOP, _MIN_STEPS_WIDTH = 8.0, 6.0, 64.0, 8.0, 22.0, 240.0
#: Right of the steps, each row's step split into compute, exposed collectives and idle: its gap and width.
_SPLIT_GAP, _SPLIT_W = 10.0, 60.0
#: The split's parts, in the strip's classes and colours (the page's CSS recolours them in the dark scheme).
_SPLIT = (("busy", "#3f51b5"), ("comm", "#e67e22"), ("idle", "#d5d8dc"))
#: Text in a grey that reads on a light page and a dark one (the SVG may stand alone, outside any page's CSS).
_TEXT = "#8a8f98"
#: The cells' hue: one the timeline strip does not use (its collectives are orange, its syncs red), so a late step
#: is never read as a collective. The page's CSS brightens it in the dark scheme.
_LATE = "#8e44ad"


def _split(ranks: list[dict[str, Any]], rows: list[range], x: float) -> list[str]:
    """Each row's step (its group's slowest rank's) as three bars: compute, exposed collectives, the rest idle."""
    out = []
    for y, group in enumerate(rows):
        row = max((ranks[i] for i in group), key=lambda r: r["work"])
        step = row["work"] + row.get("comm_time", 0.0)  # the mean step: its work before the collectives, then them
        if step <= 0:
            continue
        compute = min(step, row["compute_time"])
        comm = min(step - compute, row.get("comm_time", 0.0))
        at = x
        for (kind, colour), part in zip(_SPLIT, (compute, comm, step - compute - comm), strict=True):
            wide = _SPLIT_W * part / step
            if wide >= 0.05:
                out.append(f'<rect class="regime-strip__{kind}" x="{at:.1f}" y="{_TOP + y * _CELL_H:.1f}"'
                           f' width="{wide:.1f}" height="{_CELL_H - 1:.1f}" fill="{colour}"/>')
            at += wide
    return out


def _groups(count: int, most: int) -> list[range]:
    """``count`` items in at most ``most`` consecutive groups."""
    size = -(-count // most)
    return [range(start, min(start + size, count)) for start in range(0, count, size)]


def picture(result: Mapping[str, Any]) -> str:
    """Ranks × steps as SVG: each cell a step's work before the collectives against the job's median (a deeper purple: longer).

    Without each step's collectives in the readings, the step's time is drawn instead. The stragglers are named
    beside their rows. At 1,024 ranks the rows gather ranks (the slowest of each group shown), so a late rank is never
    averaged away.
    """
    ranks = result["ranks"]
    # Synchronised ranks share their step times (each waits for the slowest in the collectives): where the readings
    # hold each step's work before the collectives, that is drawn, and the late rank shows.
    worked = all(r.get("step_work") and len(r["step_work"]) == len(r["steps"]) for r in ranks)
    series = [r["step_work"] if worked else r["steps"] for r in ranks]
    steps = max((len(s) for s in series), default=0)
    every = [t for s in series for t in s]
    if not steps or not every:
        return ""
    median = statistics.median(every)
    rows, columns = _groups(len(ranks), PICTURE_ROWS), _groups(steps, PICTURE_COLUMNS)
    cell_w = max(_CELL_W, _MIN_STEPS_WIDTH / len(columns))  # a few steps still make a picture, not a strip
    late = set(result["stragglers"])
    cells, labels = [], []
    labelled: set[int] = set()  # rows whose straggler is named: the rank axis gives way there
    for y, group in enumerate(rows):
        for x, span in enumerate(columns):
            times = [series[i][j] for i in group for j in span if j < len(series[i])]
            if not times:
                continue
            over = max(0.0, min(1.0, (max(times) / median - 1) / DARKEST_OVER)) if median > 0 else 0.0
            cells.append(f'<rect x="{_LEFT + x * cell_w:.1f}" y="{_TOP + y * _CELL_H:.1f}" width="{cell_w - 1:.1f}"'
                         f' height="{_CELL_H - 1:.1f}" class="regime-ranks__cell" fill="{_LATE}"'
                         f' fill-opacity="{0.12 + 0.88 * over:.2f}"/>')
        named = [ranks[i]["rank"] for i in group if ranks[i]["rank"] in late]
        if named:
            labelled.add(y)
            labels.append(f'<text x="{_LEFT - 3:.1f}" y="{_TOP + (y + 1) * _CELL_H - 0.5:.1f}" font-size="7"'
                          f' text-anchor="end" font-weight="bold">late: rank'
                          f' {", ".join(str(n) for n in named[:3])}</text>')
    first, last = ranks[0]["rank"], ranks[-1]["rank"]
    split_x = _LEFT + len(columns) * cell_w + _SPLIT_GAP
    cells += _split(ranks, rows, split_x)
    height = _TOP + len(rows) * _CELL_H + 14
    width = split_x + _SPLIT_W + _RIGHT
    what = "Work before the collectives" if worked else "Step time"
    title = escape(f"{what} by rank ({len(ranks)} ranks, {steps} steps), against the median of"
                   f" {format_quantity(median, Dim.SECOND)}: a deeper purple is longer, +{DARKEST_OVER:.0%} or more the deepest"
                   + (f"; stragglers: {', '.join(str(n) for n in result['stragglers'][:10])}" if late else "")
                   + "; beside each row, its step split into compute, exposed collectives and idle")
    axes = ((f'<text x="0" y="{_TOP + 5:.1f}" font-size="8">rank {first}</text>' if 0 not in labelled else "")
            + (f'<text x="0" y="{_TOP + len(rows) * _CELL_H:.1f}" font-size="8">rank {last}</text>'
               if len(rows) - 1 not in labelled else "")
            + f'<text x="{_LEFT:.1f}" y="12" font-size="9">steps →</text>'
            + f'<text x="{split_x:.1f}" y="12" font-size="9">a step, split</text>')
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="regime-ranks" viewBox="0 0 {width:.0f} {height:.0f}"'
            f' role="img" aria-label="{title}"><title>{title}</title><g fill="{_TEXT}">{axes}'
            f'{"".join(labels)}</g>{"".join(cells)}</svg>')
