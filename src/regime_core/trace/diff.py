"""Two readings of one workload, before and after a change: faster or not, and was the regime attacked.

The diff reads what ``regime trace --json`` gives for each trace (whatever the trace's format), so it is
format-blind. The step time is the median of the steady-state steps (``ProfilerStep#N``; the first left out as
warm-up when there are three or more), with the step-to-step spread (half the range of those steps, as a share of
their median); a change within the larger of the two spreads, and never under ``MIN_NOISE``, is "no change",
said with the spread. Where a trace marks no steps, the whole window is one step and no spread is measured.

What moved is said per step, so traces of different lengths compare: the GPU's busy time and its idle time split
as the reader splits it (host syncs, the data loader, exposed collectives, the rest: launch gaps and the host's
own time), launches, and the top ops matched by name and shapes. The paragraph a reviewer pastes says which of
those carried the change, whether it attacked the regime that held the step, where an op's speed-up bought
little because the op held little of the step (Amdahl, with the arithmetic), and what regressed.
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping
from typing import Any

from regime_core.catalogue.levers import advice
from regime_core.catalogue.quantity import Dim, format_quantity

#: Below this relative change, two step times are the same whatever the spread (timer and clock jitter).
MIN_NOISE = 0.01
#: A step count from which the first step is left out as warm-up.
WARMUP_FROM = 3
#: An op sped up by at least this factor per call, holding a share of the step in this range, is worth an Amdahl
#: line: less would be noise, more would have moved the step.
OP_SPED_UP, AMDAHL_SHARE = 1.25, (0.02, 0.5)
#: ... and only where the step kept more than this share of its time.
AMDAHL_STEP = 0.9
#: Launches per step: a rise of this share (and of at least LAUNCHES_MIN) is a regression worth naming.
LAUNCH_RISE, LAUNCHES_MIN = 0.2, 100
#: An op whose FLOP/s or bandwidth fell by this factor is a regression worth naming.
OP_SLOWED = 1.25


def quantity_text(value: float, dim: Dim) -> str:
    """A quantity as the diff and the ranks' table write it: nothing at all is "0", not "0 ns"."""
    return "0" if value == 0 else format_quantity(value, dim)



def _duration(seconds: float) -> str:
    return quantity_text(seconds, Dim.SECOND)


def step_time(trace: Mapping[str, Any]) -> dict[str, Any]:
    """The steady-state step time of one reading: ``median``, ``spread`` (a share), ``steps`` used, ``warmup``."""
    times = [s["time"] for s in sorted(trace["steps"], key=lambda s: s["step"]) if s["time"] > 0]
    if not times:
        return {"median": trace["window"], "spread": None, "steps": 0, "warmup": False}
    warmup = len(times) >= WARMUP_FROM
    steady = times[1:] if warmup else times
    median = statistics.median(steady)
    spread = (max(steady) - min(steady)) / 2 / median if len(steady) > 1 and median > 0 else None
    return {"median": median, "spread": spread, "steps": len(steady), "warmup": warmup}


#: Two traces that share at most this share of the fewer op names may run different models.
SHARED_OPS = 0.25


def differences(tb: Mapping[str, Any], ta: Mapping[str, Any]) -> list[str]:
    """What makes the two readings compare other than code, said before the change.

    Steps marked on one side only, and few op names in common; two cards are said by the paragraph itself.
    """
    said = []
    steps = (len(tb["steps"]), len(ta["steps"]))
    if bool(steps[0]) != bool(steps[1]):
        marked, bare = ("before", "after") if steps[0] else ("after", "before")
        said.append(f"Only the {marked} trace marks its steps (ProfilerStep#); the {bare} trace has none, so its whole"
                    f" {_duration((tb if bare == 'before' else ta)['window'])} window is set against one step: the"
                    " step times do not compare. Profile both with the same schedule.")
    names = ({op["name"] for op in tb["ops"]}, {op["name"] for op in ta["ops"]})
    keys = ({(op["name"], op["shape"]) for op in tb["ops"]}, {(op["name"], op["shape"]) for op in ta["ops"]})
    if min(map(len, keys)) >= 3 and not keys[0] & keys[1] and len(names[0] & names[1]) > SHARED_OPS * min(map(len, names)):
        said.append("No op runs with the same shapes in both traces (another batch size or sequence length?): the"
                    " ops' rows set nothing side by side, and the step times compare different work.")
    if min(map(len, names)) >= 3 and len(names[0] & names[1]) <= SHARED_OPS * min(map(len, names)):
        said.append(f"The two traces share {len(names[0] & names[1])} of their op names ({len(names[0])} before,"
                    f" {len(names[1])} after): they may run different models, and the change compares them as they"
                    " are.")
    return said


def _card(trace: Mapping[str, Any]) -> str | None:
    """The card as the trace names it; the catalogue's name where the card was given or the trace names none.

    A 16 GB V100 is placed on the catalogue's 32 GB V100's roof, and is still a 16 GB V100.
    """
    if trace.get("device") and not trace.get("card_given"):
        return str(trace["device"])
    return trace.get("card_name") or trace.get("device") or None


def per_step(trace: Mapping[str, Any]) -> dict[str, float]:
    """Where one step's time went, the parts adding up to it; and its launches.

    Exposed collectives are GPU time (collective kernels no compute overlaps): they are taken out of the busy time,
    never out of the idle, which is split into host syncs, the loader and the rest.
    """
    count = max(1, len(trace["steps"]))
    window = trace["window"]
    busy = trace["busy"] * window / count
    syncs = trace["syncs"]["idle"] / count
    loader = trace["loader_share"] * window / count
    comm = min(busy, trace["comm_share"] * window / count)
    idle = window / count - busy
    return {"busy": busy - comm, "syncs": syncs, "loader": loader, "collectives": comm,
            "other idle": max(0.0, idle - syncs - loader), "launches": trace["launches"] / count}


def _ops(trace: Mapping[str, Any]) -> dict[tuple[str, str], Mapping[str, Any]]:
    return {(op["name"], op["shape"]): op for op in trace["ops"]}


def _op_change(key: tuple[str, str], before: Mapping[str, Any] | None, after: Mapping[str, Any] | None,
               steps: tuple[int, int]) -> dict[str, Any]:
    def per_call(op: Mapping[str, Any] | None) -> float | None:
        return op["time"] / op["calls"] if op and op["calls"] else None

    def per_step(op: Mapping[str, Any] | None, count: int) -> float | None:
        return op["time"] / max(1, count) if op else None

    return {"name": key[0], "shape": key[1],
            "time_per_step": {"before": per_step(before, steps[0]), "after": per_step(after, steps[1])},
            "time_per_call": {"before": per_call(before), "after": per_call(after)},
            "calls_per_step": {"before": before["calls"] / max(1, steps[0]) if before else None,
                               "after": after["calls"] / max(1, steps[1]) if after else None},
            "achieved_flops": {"before": before and before["achieved_flops"], "after": after and after["achieved_flops"]},
            "bandwidth": {"before": before and before["bandwidth"], "after": after and after["bandwidth"]},
            "regime": {"before": before and before["regime"], "after": after and after["regime"]},
            "status": "entered the top ops" if before is None else "left the top ops" if after is None else "both"}


def diff(before: Mapping[str, Any], after: Mapping[str, Any]) -> dict[str, Any]:
    """The change from ``before`` to ``after`` (each what ``regime trace --json`` gives): ``change`` in full."""
    tb, ta = before["trace"], after["trace"]
    sb, sa = step_time(tb), step_time(ta)
    ratio = sa["median"] / sb["median"] if sb["median"] > 0 else float("inf")
    noise = max(MIN_NOISE, sb["spread"] or 0.0, sa["spread"] or 0.0)
    verdict = "no change" if abs(ratio - 1) <= noise else "faster" if ratio < 1 else "slower"
    steps = (max(1, len(tb["steps"])), max(1, len(ta["steps"])))
    ob, oa = _ops(tb), _ops(ta)
    ops = [_op_change(k, ob.get(k), oa.get(k), steps) for k in {**ob, **oa}]
    ops.sort(key=lambda o: -abs((o["time_per_step"]["after"] or 0) - (o["time_per_step"]["before"] or 0)))
    pb, pa = per_step(tb), per_step(ta)
    change = {"step_time": {"before": sb["median"], "after": sa["median"], "ratio": ratio, "spread": noise,
                            "spread_before": sb["spread"], "spread_after": sa["spread"],
                            "steps": {"before": sb["steps"], "after": sa["steps"]}},
              "verdict": verdict,
              "regime": {"before": before["regime"], "after": after["regime"]},
              "per_step": {k: {"before": pb[k], "after": pa[k]} for k in pb},
              "busy": {"before": tb["busy"], "after": ta["busy"]},
              "syncs": {"before": tb["syncs"]["calls"], "after": ta["syncs"]["calls"]},
              "time_share": {"before": tb["time_share"], "after": ta["time_share"]},
              "card": {"before": _card(tb), "after": _card(ta)},
              # one card named two ways ("NVIDIA A100-PG509-200", "NVIDIA A100-SXM4-40GB") is the catalogue's one id
              "same_card": tb["card"] == ta["card"] if tb["card"] and ta["card"] else _card(tb) == _card(ta),
              "coverage": {"before": tb["coverage"]["placed"], "after": ta["coverage"]["placed"]},
              "ops": ops, "differences": differences(tb, ta),
              "comparable": bool(tb["steps"]) == bool(ta["steps"])}
    change["text"] = paragraph(before, after, change)
    return {"before": before, "after": after, "change": change}


def _regime_name(reading: Mapping[str, Any]) -> str:
    return str(reading["regime_name"])


def _pct(ratio: float) -> str:
    return f"{(ratio - 1) * 100:+.0f}%".replace("-", "−")  # a minus sign, not a hyphen


def paragraph(before: Mapping[str, Any], after: Mapping[str, Any], change: Mapping[str, Any]) -> str:
    """The verdict on the change, in one paragraph a reviewer can paste."""
    st = change["step_time"]
    spread = f"the step-to-step spread is ±{st['spread']:.0%}" if st["spread_before"] or st["spread_after"] else \
        "no step-to-step spread measured (no ProfilerStep marks)"
    step = (f"The step went from {_duration(st['before'])} to {_duration(st['after'])} "
            f"({_pct(st['ratio'])}; {spread})")
    regimes = (f"the regime stayed {_regime_name(after)}" if before["regime"] == after["regime"] else
               f"the regime moved from {_regime_name(before)} to {_regime_name(after)}")
    verdict = change["verdict"]
    lines = [f"{step}: {verdict}; {regimes}."]
    cards = change["card"]
    differ = not change.get("same_card", cards["before"] == cards["after"])
    if differ:
        lines.insert(0, f"The two traces ran on different GPUs ({cards['before'] or 'unnamed'} before,"
                        f" {cards['after'] or 'unnamed'} after): the change includes the hardware.")
    lines[1 if differ else 0:0] = change.get("differences", [])
    moved = _what_moved(change)
    if moved:
        lines.append(moved)
    amdahl = _amdahl(change)
    if amdahl:
        lines.append(amdahl)
    lines += _regressions(change)
    came_and_went = _came_and_went(change)
    if came_and_went:
        lines.append(came_and_went)
    if after["lever"]:
        lines.append(f"Next: {after['lever']}.")
    elif after["needs"]:
        lines.append(f"To decide the regime now: {after['needs']}.")
    return " ".join(lines)


_PARTS = ("busy", "syncs", "loader", "collectives", "other idle")
_PART_NAMES = {"busy": "the GPU's busy time outside exposed collectives", "syncs": "idle in host syncs", "loader": "idle waiting on the data loader",
               "collectives": "exposed collectives", "other idle": "other idle (launch gaps, the host's own time)"}


def _what_moved(change: Mapping[str, Any]) -> str:
    per = change["per_step"]
    deltas = sorted(((per[k]["after"] - per[k]["before"], k) for k in _PARTS), key=lambda d: -abs(d[0]))
    total = change["step_time"]["after"] - change["step_time"]["before"]
    big = [(d, k) for d, k in deltas if abs(d) >= 0.1 * max(abs(total), 1e-12)][:2]
    if not big or change["verdict"] == "no change":
        return ""
    said = "; ".join(f"{_PART_NAMES[k]} {_duration(per[k]['before'])} → {_duration(per[k]['after'])}"
                     f" a step" for _, k in big)
    return f"What moved: {said}."


def _amdahl(change: Mapping[str, Any]) -> str:
    """The op that sped up most per call while holding little of the step: what it could buy, at most.

    Amdahl's law: a part sped up s× saves at most its share × (1 − 1/s). Said only where the step did not get
    much faster: where it did, the op is not the story.
    """
    before_step = change["step_time"]["before"]
    best: tuple[float, str] = (0.0, "")
    for op in change["ops"]:
        b, a = op["time_per_call"]["before"], op["time_per_call"]["after"]
        held = op["time_per_step"]["before"]
        if not (b and a and held) or b / a < OP_SPED_UP or before_step <= 0:
            continue
        share = held / before_step
        if not AMDAHL_SHARE[0] <= share <= AMDAHL_SHARE[1]:
            continue
        saved = share * (1 - a / b)
        said = (f"{op['name']} got {b / a:.1f}× faster per call, but it held {share:.0%} of the step: at most"
                f" {share:.0%} × (1 − 1/{b / a:.1f}) = {saved:.1%} of the step could be saved (Amdahl).")
        best = max(best, (share, said))
    return best[1] if change["step_time"]["ratio"] > AMDAHL_STEP else ""


def _regressions(change: Mapping[str, Any]) -> list[str]:
    out = []
    launches = change["per_step"]["launches"]
    rise = launches["after"] - launches["before"]
    if rise >= LAUNCHES_MIN and rise >= LAUNCH_RISE * max(launches["before"], 1):
        out.append(f"Launches a step rose from {launches['before']:,.0f} to {launches['after']:,.0f}.")
    syncs = change["syncs"]
    if syncs["after"] > syncs["before"]:
        out.append(f"Host syncs rose from {syncs['before']:,} to {syncs['after']:,}.")
    for op in change["ops"]:
        for key, dim, what in (("bandwidth", Dim.BYTE_RATE, "bandwidth"), ("achieved_flops", Dim.FLOP_RATE, "FLOP/s")):
            b, a = op[key]["before"], op[key]["after"]
            if b and a and a < b / OP_SLOWED:
                named = f"{op['name']} {op['shape']}".rstrip()
                out.append(f"{named} fell from {quantity_text(b, dim)} to {quantity_text(a, dim)} of {what}.")
                break
        if len(out) >= 4:
            break
    return out


#: An op new to (or gone from) the top ops is said where it holds at least this share of its side's step.
OP_CAME_SHARE = 0.05


def _came_and_went(change: Mapping[str, Any]) -> str:
    """The ops only one side ran, each holding a share of its step worth saying, in words ("" where none)."""
    said = []
    for status, side, word in (("entered the top ops", "after", "New after the change"),
                               ("left the top ops", "before", "Gone after it")):
        step = change["step_time"][side]
        ops = [op for op in change["ops"] if op["status"] == status and step > 0
               and (op["time_per_step"][side] or 0) >= OP_CAME_SHARE * step][:3]
        if ops:
            said.append(f"{word}: " + ", ".join(f"{op['name']} {op['shape']}".rstrip()
                                                 + f" ({_duration(op['time_per_step'][side])} a step)" for op in ops))
    return "; ".join(said) + "." if said else ""


#: The head of the top ops' rows ``op_rows`` gives; how many it gives.
OP_HEAD, TOP_OP_ROWS = ("op and shapes", "GPU time a step", "time a call", "achieved FLOP/s · bandwidth"), 8


def _pair(before: float | None, after: float | None, dim: Dim) -> str:
    return " → ".join("—" if value is None else quantity_text(value, dim) for value in (before, after))


def op_rows(result: Mapping[str, Any]) -> list[tuple[str, str, str, str]]:
    """The ops whose time a step moved most, before → after: time a step, time a call, FLOP/s and bandwidth."""
    out = []
    for op in result["change"]["ops"][:TOP_OP_ROWS]:
        shape = f" {op['shape']}" if op["shape"] else ""
        rate = (f"{_pair(op['achieved_flops']['before'], op['achieved_flops']['after'], Dim.FLOP_RATE)} ·"
                f" {_pair(op['bandwidth']['before'], op['bandwidth']['after'], Dim.BYTE_RATE)}"
                if op["achieved_flops"]["before"] or op["achieved_flops"]["after"] else "not modelled")
        out.append((f"{op['name']}{shape[:60]}", _pair(op["time_per_step"]["before"], op["time_per_step"]["after"],
                                                        Dim.SECOND),
                    _pair(op["time_per_call"]["before"], op["time_per_call"]["after"], Dim.SECOND), rate))
    return out


def markdown(result: Mapping[str, Any]) -> str:
    """The change as a pull-request comment: a table, the two verdicts, the paragraph, the ops that moved most."""
    change = result["change"]
    heading = (f"### Regime: {change['verdict']}, step {_pct(change['step_time']['ratio'])}"
               f" ({_regime_name(result['before'])} → {_regime_name(result['after'])})")
    out = [heading, "", "| | before | after | change |", "| --- | ---: | ---: | ---: |"]
    out += [f"| {a} | {b} | {c} | {d} |" for a, b, c, d in rows(result)]
    out += ["", change["text"], ""]
    ops = op_rows(result)
    if ops:
        out += ["| " + " | ".join(OP_HEAD) + " |", "| --- | ---: | ---: | ---: |"]
        out += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in ops]
        out.append("")
    return "\n".join(out)


#: The head of the rows ``rows`` gives.
ROW_HEAD = ("", "before", "after", "change")


def headline(result: Mapping[str, Any]) -> str:
    """The verdict on the change and the regime before and after, in one line."""
    return f"{result['change']['verdict']}: {_regime_name(result['before'])} → {_regime_name(result['after'])}"


def rows(result: Mapping[str, Any]) -> list[tuple[str, str, str, str]]:
    """What moved, a row each: what, before, after, the change."""
    change = result["change"]
    st = change["step_time"]
    per = change["per_step"]
    rows = [("step time (median)", _duration(st["before"]), _duration(st["after"]), _pct(st["ratio"])),
            ("regime", _regime_name(result["before"]), _regime_name(result["after"]), ""),
            ("GPU busy", f"{change['busy']['before']:.0%}", f"{change['busy']['after']:.0%}", ""),
            ("kernel time on the roofline", f"{change['coverage']['before']:.0%}", f"{change['coverage']['after']:.0%}",
             "")]
    rows += [(f"{_PART_NAMES[k]} a step", _duration(per[k]["before"]), _duration(per[k]["after"]), "")
             for k in _PARTS[1:]]
    rows.append(("launches a step", f"{per['launches']['before']:,.0f}", f"{per['launches']['after']:,.0f}", ""))
    return rows


def gate(change: Mapping[str, Any], *, max_slowdown: float | None = None,
         expect_regime: str | None = None) -> list[str]:
    """Why a CI gate fails, one line each (none: it passes).

    ``max_slowdown`` (a fraction): the step slower by more than it, and beyond the step-to-step spread.
    ``expect_regime`` (a regime key): the after trace reads another regime, or none.
    """
    failed = []
    st = change["step_time"]
    if max_slowdown is not None and not change.get("comparable", True):
        failed.append("the step time cannot be gated: only one of the two traces marks its steps, so a step is set"
                      " against a whole window")
    elif max_slowdown is not None and change["verdict"] == "slower" and st["ratio"] - 1 > max_slowdown:
        failed.append(f"the step is {(st['ratio'] - 1):.1%} slower ({_duration(st['before'])} →"
                      f" {_duration(st['after'])}), more than the {max_slowdown:.1%} allowed, beyond the"
                      f" ±{st['spread']:.1%} step-to-step spread")
    after = change["regime"]["after"]
    if expect_regime is not None and after != expect_regime:
        failed.append(f"the after trace reads {advice(after).name if after else 'undecided'}, not"
                      f" {advice(expect_regime).name}")
    return failed


def text(result: Mapping[str, Any]) -> str:
    """The change for a terminal: the verdict, what moved line by line, and the paragraph."""
    change = result["change"]
    moved = rows(result)
    width = max(len(r[0]) for r in moved)
    lines = [headline(result), ""]
    lines += [f"{a.ljust(width)}  {b:>10}  →  {c:<10} {d}".rstrip() for a, b, c, d in moved]
    return "\n".join([*lines, "", change["text"]])
