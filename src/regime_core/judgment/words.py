"""The words and sentences the drill's answers are written in, once.

The four lines, what a verdict adds to them, and the sentences a verdict is made of that are not a
rule's own evidence. The attempt forms, the Markdown export, the command line, the pages and the widgets all take their
labels from here (through ``Verdict.lines()`` for a verdict), so they never drift apart. The sentences:
anomalies (a measurement beyond a roof, with its likely causes), the roofline line and the one
measurement that would decide an undecided case.
"""

from __future__ import annotations

from collections.abc import Mapping

from regime_core.catalogue.quantity import Dim, format_quantity, number
from regime_core.judgment.symptoms import Achieved, Symptoms
from regime_core.model.roofline import Placement

#: The drill's four lines (Part A): key in an attempt, label everywhere it is shown.
FOUR_LINES: tuple[tuple[str, str], ...] = (
    ("regime", "Regime"),
    ("evidence", "Evidence"),
    ("helps", "Lever that helps"),
    ("wastes", "Lever that wastes the week"),
)
LABEL = dict(FOUR_LINES)
UNDECIDED = "undecided — measure this next"


def undecided(leaning: str | None) -> str:
    """The regime line of an undecided verdict: with the roof its placement leans to, where it has one.

    The lesson places a kernel below the ridge on the memory side; the line says so too, so that a kernel
    read "undecided" is not taken for one the roofline knows nothing of.
    """
    return f"undecided, leaning {leaning} — measure this next" if leaning else UNDECIDED

NEEDS = "Measure this next"
PROPOSAL = "The proposal"
ANOMALY = "Anomaly"
NOTES = "Notes from the source (shown, not used)"
NOTES_READ = "Also in the trace"

_f = format_quantity
#: Why a decode or prefill can beat the bandwidth floor of its own work model.
def _token_causes(spec: Mapping[str, object] | None) -> str:
    """What a token rate beyond the weights' floor must include; a cause the symptoms already give is not asked for."""
    given = spec or {}
    causes = ["batching", *([] if "weight_dtype" in given else ["quantised weights (give the weight format)"]),
              "speculative decoding",
              *([] if "active_params" in given else
                ["an MoE's sparsity (give the active parameters: only the active experts are read)"])]
    return f"The measurement must include {', '.join(causes[:-1])} or {causes[-1]}"

#: A step timed with a host sync more than twice the step timed without it.
SYNC_BEYOND_SERIAL = ("with the sync the step is more than twice the step without it: impossible for a sync, which only"
                      " stops the CPU's and the GPU's work from overlapping (at most doubling the step, plus its round"
                      " trip). The faster time most likely did not wait for the GPU: time both with"
                      " torch.cuda.synchronize() (or CUDA events) around the step")
UNSYNCED_RETIME = ("time it again with torch.cuda.synchronize() before starting and before stopping the timer (or with"
                   " CUDA events): the time then is the run's, and against the roofline floor it says the regime")
SYNC_RETIME = ("time the step again, with torch.cuda.synchronize() (or CUDA events) around it both with and without"
               " the sync: only then does the difference say what the sync costs")
_SHRINK = ("run the shrink test: time it at a quarter of the size. Flat time means overhead; time that falls"
           " about 4× means the work sets it, and intensity against the ridge says which roof")


def roofline_line(p: Placement) -> str:
    """Where the work sits against the ridge, and its floor."""
    if " × " in p.hardware_name:  # several GPUs: say what was assumed (peaks and bandwidth add up)
        return f"on {p.hardware_name} (peaks and bandwidth summed; the ridge is one card's): " + _line(p)
    return _line(p)


def _line(p: Placement) -> str:
    if p.intensity == 0:
        return (f"roofline: no FLOPs at all, pure data movement: the memory roof is the only one;"
                f" floor {_f(p.floor_seconds, Dim.SECOND)}")
    return (f"roofline: {_f(p.intensity, Dim.INTENSITY)} is {number(p.factor)}× {p.side} the ridge of"
            f" {_f(p.ridge, Dim.INTENSITY)}; floor {_f(p.floor_seconds, Dim.SECOND)}")


def percent(fraction: float) -> str:
    """A fraction as the verdicts write it: ``0.512`` -> ``51.2%``, ``0.00409`` -> ``0.41%`` (as format_quantity)."""
    return format_quantity(fraction, Dim.FRACTION)


def unsynced_line(time: float, implied: str) -> str:
    """The anomaly of a time taken around a call with no synchronize, and what it would imply if it were the run's."""
    return (f"{_f(time, Dim.SECOND)} was timed without a synchronize (a timer around the call): the GPU runs"
            f" asynchronously, so that is how long the launch took, not the run{implied}. It is set aside until the"
            " run is re-timed")


def tokens_beyond_floor(s: Symptoms, p: Placement | None, a: Achieved, above: float) -> bool:
    """Whether a token rate beats its weights' floor: measured of more than the symptoms say, not to discard.

    The anomaly line for it (``anomaly_lines``' first case) names what the measurement must include: batching,
    quantised weights, speculative decoding.
    """
    return (a.bandwidth_fraction is not None and a.bandwidth_fraction > above and p is not None and a.step is not None
            and s.observed.tokens_per_s is not None and s.work is not None)


def anomaly_lines(s: Symptoms, p: Placement | None, a: Achieved, above: float, above_compute: float) -> list[str]:
    """A line per measurement that beats a roof, with what must be off."""
    o, out = s.observed, []
    bf, ff = a.bandwidth_fraction, a.flops_fraction
    if bf is not None and bf > above:
        if p is not None and a.step is not None and o.tokens_per_s is not None and s.work is not None:  # as below
            cap = s.work.tokens_per_run / p.floor_seconds
            out.append(f"{number(o.tokens_per_s)} tok/s means {_f(a.step, Dim.SECOND)} per step, under the roofline"
                       f" floor of {_f(p.floor_seconds, Dim.SECOND)}: {_f(s.work.bytes, Dim.BYTE)} at"
                       f" {_f(p.bandwidth, Dim.BYTE_RATE)} caps it at {_f(cap, Dim.TOKEN_RATE)}. {_token_causes(s.work_spec)}"
                       "; either way no compute kernel will 2× it")
        elif p is not None and a.byte_rate is not None:
            given = f"{percent(ff)} of peak FLOP/s" if o.flops_fraction is not None and ff is not None else (
                f"{_f(a.step, Dim.SECOND)}" if a.step is not None else "the measurement")
            cap = p.attainable_flops / p.peak_flops
            out.append(f"{given} at {_f(p.intensity, Dim.INTENSITY)} means moving {_f(a.byte_rate, Dim.BYTE_RATE)},"
                       f" {number(bf)}× the card's {_f(p.bandwidth, Dim.BYTE_RATE)}: at this intensity the memory"
                       f" roof caps it at {percent(cap)} of peak FLOP/s. The measurement or the work model is off"
                       " (a smaller shape, data already in cache, or a misread figure?)")
        else:
            out.append(f"achieved bandwidth is {number(bf * 100)}% of the card's peak: impossible from DRAM. Was it"
                       " measured against another card's peak, is the data served from a cache (L2 holds it), or"
                       " is the byte count off?")
    if ff is not None and ff > above_compute:
        other_rates = _instruction_causes(s, p)  # then past the one figure held, not past every rate the card has
        out.append(f"{percent(ff)} of {_which_peak(s, p, a)}: {'beyond that figure' if other_rates else 'impossible'}."
                   " Is it measured against another card's peak (an A100's for an H100), is the peak a 2:4-sparse"
                   " figure or another dtype's, are the FLOPs counted twice (a multiply-add is 2 FLOPs), or was it"
                   " timed without a synchronize (the GPU runs asynchronously: a timer around the call times the"
                   f" launch; re-time it with torch.cuda.synchronize() or CUDA events)?{other_rates}")
    return out


#: Dtypes whose tensor-core rate depends on the instruction as well: block-scaled MX and NVFP4 formats.
_BLOCK_SCALED = ("fp8", "fp6", "fp4")


def _dtype(s: Symptoms, p: Placement | None) -> str | None:
    if p is not None:
        return p.dtype
    if s.hardware is None or s.hardware.custom:
        return None
    return s.dtype or s.hardware.default_dtype()


def _which_peak(s: Symptoms, p: Placement | None, a: Achieved) -> str:
    """The peak a measurement is held to, named: ``the card's dense fp8 peak (330 TFLOP/s)``."""
    dtype = _dtype(s, p)
    if dtype is None or a.peak_flops is None:
        return "the card's dense peak FLOP/s"
    return f"the card's dense {dtype} peak ({_f(a.peak_flops, Dim.FLOP_RATE)})"


def _instruction_causes(s: Symptoms, p: Placement | None) -> str:
    """Where the one figure held per dtype may not be the rate the kernel's instructions run at, say so."""
    dtype = _dtype(s, p)
    figure = s.hardware.peaks.get(dtype) if s.hardware is not None and dtype is not None else None
    said = []
    if figure is not None and "accumulate" in figure.note:
        said.append(f"The {dtype} figure held here is for one accumulate width: {figure.note.rstrip('.')}.")
    if dtype in _BLOCK_SCALED:
        said.append(f"Block-scaled math (MXFP8, MXFP6, MXFP4, NVFP4 on Blackwell) may run at another rate than the"
                    f" one {dtype} figure held here.")
    return " " + " ".join([*said, "Name the instruction the kernel used."]) if said else ""


#: A single kernel this long is not launch overhead, whatever else is unknown: a launch costs 5-10 µs, so a kernel
#: timed at ten launches or more (a 0.5 ms GEMM at 12% of peak) is not mostly its launch.
LONG_KERNEL = 100e-6
_ONE_KERNEL = ("matmul", "elementwise", "attention", "raw")


def _one_long_kernel(s: Symptoms, a: Achieved) -> bool:
    """Whether the work is one kernel (not a whole step) timed far past what launches could cost."""
    spec = s.work_spec or {}
    return s.work is not None and spec.get("kernel", "raw") in _ONE_KERNEL and (a.step or 0) >= LONG_KERNEL


def needs(s: Symptoms, p: Placement | None, a: Achieved) -> str:
    """The one measurement that would decide an undecided case."""
    o = s.observed
    if a.step is None and a.flops_fraction is None and a.bandwidth_fraction is None:
        if p is not None:
            return (f"time one run: against the roofline floor of {_f(p.floor_seconds, Dim.SECOND)} it says whether"
                    f" the kernel sits on a roof (then it is {p.bound}-bound) or far below both (then look for"
                    " overhead)")
        if o.shrink_4x_ratio is None and o.shrink_2x_ratio is None:
            return _SHRINK
        return "give the work (a shape, or FLOPs and bytes) and the card, so intensity can be placed against the ridge"
    if o.time_on_gpu:
        return ("profile the kernel with Nsight Compute: its speed of light says whether the SMs or the memory are"
                " busy at all, and its launch statistics give the grid (tiles against the card's SMs) and the occupancy"
                " that keep it from filling the card")
    if o.graph_speedup is None and o.kernel_time is None and _one_long_kernel(s, a):
        return (f"profile that one kernel: a launch is microseconds and cannot be most of a {_f(a.step or 0, Dim.SECOND)}"
                " kernel, so ask which kernel ran (a fallback or a misaligned shape), what the clocks and power were"
                " while it ran, and what Nsight Compute's speed of light says of it")
    if o.graph_speedup is None and o.kernel_time is None:
        return ("capture the step in a CUDA graph (or torch.compile with mode='reduce-overhead') and time it again:"
                " a large speedup means launch overhead; or look at a timeline for gaps between kernels")
    if o.shrink_4x_ratio is None and o.shrink_2x_ratio is None:
        return _SHRINK
    if s.work is None or s.hardware is None:
        return "give the work (a shape, or FLOPs and bytes) and the card, so intensity can be placed against the ridge"
    return ("look at a timeline (Nsight Systems or the PyTorch profiler): gaps between kernels, host waits or a"
            " slow kernel far below its roof")
