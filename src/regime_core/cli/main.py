"""The ``regime`` command: the core for a terminal or a review comment.

Every subcommand takes ``--json``. Bad input prints one line naming the field and exits 2.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import functools
import glob
import json
import os
import secrets
from collections.abc import Callable, Sequence
from importlib.metadata import entry_points
from typing import Any, BinaryIO, NoReturn, TypeVar

from regime_core.catalogue import hardware
from regime_core.catalogue.quantity import Dim, format_quantity
from regime_core.cli import terminal
from regime_core.content import casebook, drill
from regime_core.errors import RegimeError
from regime_core.grading.answer_lines import regime_named
from regime_core.grading.attempt import MAX_IMPORT_BYTES
from regime_core.grading.class_report import MAX_CLASS_FILES, Submission, class_report, submission, too_many
from regime_core.grading.class_report import csv_text as class_csv
from regime_core.grading.class_report import markdown as class_markdown
from regime_core.grading.grade import grade
from regime_core.grading.writeup import report
from regime_core.judgment import svg
from regime_core.judgment.classify import Verdict, classify
from regime_core.judgment.symptoms import Symptoms, parse_observed, parse_symptoms
from regime_core.model import roofline, work
from regime_core.practice.generate import check_level, check_seed, practice
from regime_core.practice.grade import grade_practice, grade_text, is_practice_attempt
from regime_core.resources import dump_json_text, parse_json_text
from regime_core.trace.counters import CounterReading
from regime_core.trace.counters import text as counter_text
from regime_core.trace.diff import diff, gate
from regime_core.trace.diff import markdown as diff_markdown
from regime_core.trace.diff import text as diff_text
from regime_core.trace.picture import ops_roofline
from regime_core.trace.ranks import COLUMNS as RANK_COLUMNS
from regime_core.trace.ranks import digest as rank_digest
from regime_core.trace.ranks import looks_like_digest
from regime_core.trace.ranks import markdown as ranks_markdown
from regime_core.trace.ranks import merge as merge_ranks
from regime_core.trace.ranks import picture as ranks_picture
from regime_core.trace.ranks import reading_of as rank_reading_of
from regime_core.trace.ranks import table_rows as ranks_table
from regime_core.trace.reading import (
    TraceReading,
    facts_text,
    no_cycle_collection,
    read_profile,
    read_trace,
    verdict_of,
)
from regime_core.trace.reading import text as trace_text

MAX_FILE_BYTES = 1_000_000
_Read = TypeVar("_Read")


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line and exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n")

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        terminal.settle()  # --help into a closed pipe: quiet, not a traceback at exit
        super().exit(status, message)


def _card(args: argparse.Namespace) -> tuple[hardware.Hardware, str | None]:
    if args.gpu is not None and (args.peak_flops is not None or args.bandwidth is not None):
        raise RegimeError("--gpu", "give either --gpu or --peak-flops with --bandwidth, not both")
    count = hardware.parse_count(args.count, "--count") if args.count is not None else 1
    if args.gpu is not None:
        card = hardware.get(args.gpu, "--gpu")
        dtype = hardware.check_dtype(args.dtype, "--dtype") if args.dtype else None
        if dtype:
            card.peak(dtype, "--dtype")
        return card.times(count), dtype
    if args.peak_flops is None or args.bandwidth is None:
        raise RegimeError("--gpu", "expected --gpu ID, or both --peak-flops and --bandwidth")
    dtype = hardware.check_dtype(args.dtype, "--dtype") if args.dtype else None
    return hardware.custom(args.peak_flops, args.bandwidth, prefix="-").times(count), dtype


def _add_card(p: argparse.ArgumentParser) -> None:
    p.add_argument("--gpu", help="catalogue id or a common name such as rtx4090 (see `regime gpus`)")
    p.add_argument("--count", help="GPUs working as one (tensor parallel): peaks and bandwidth scale, the ridge does not")
    p.add_argument("--dtype", help="fp32, tf32, fp16, bf16, fp8, fp6, fp4, int8, fp64 or fp64-matrix")
    p.add_argument("--peak-flops", help="peak compute, e.g. '312 TFLOP/s'")
    p.add_argument("--bandwidth", help="memory bandwidth, e.g. '2.0 TB/s'")


def _read_json(path: str, field: str) -> Any:
    if path == "-":
        return parse_json_text(terminal.read_stdin(MAX_FILE_BYTES + 1, field), field, limit=MAX_FILE_BYTES)
    try:
        with open(path, encoding="utf-8-sig") as handle:  # a byte-order mark, as Windows editors write, is read
            text = handle.read(MAX_FILE_BYTES + 1)
    except (OSError, UnicodeDecodeError) as exc:
        raise RegimeError(field, f"cannot read {path!r}: {getattr(exc, 'strerror', None) or exc}") from None
    return parse_json_text(text, field, limit=MAX_FILE_BYTES)


def cmd_ridge(args: argparse.Namespace) -> tuple[dict[str, Any], str]:
    card, dtype = _card(args)
    dt = dtype or card.default_dtype()
    peak = card.peak(dt, "--dtype")
    r = roofline.ridge(peak, card.bandwidth.value)
    text = (f"ridge = {format_quantity(peak, Dim.FLOP_RATE)} / {format_quantity(card.bandwidth.value, Dim.BYTE_RATE)}"
            f" = {format_quantity(r, Dim.INTENSITY)}" + ("" if card.custom else f"  ({card.name}, {dt})"))
    return {"ridge": r, "peak_flops": peak, "bandwidth": card.bandwidth.value, "dtype": dt, "hardware": card.id}, text


def _placement_out(p: roofline.Placement) -> tuple[dict[str, Any], str]:
    lines = [*p.arithmetic(), f"allowed: {p.allowed}"]
    return p.to_json(), "\n".join(lines)


def cmd_place(args: argparse.Namespace) -> tuple[dict[str, Any], str]:
    card, dtype = _card(args)
    w = work.from_spec({"flops": args.flops, "bytes": args.bytes}, dtype, "--")  # names errors --flops
    return _placement_out(roofline.place(w, card, dtype, "--dtype"))


_KERNEL_OPTIONS = ("m", "n", "k", "shape", "ops", "inputs", "params", "active_params", "weight_dtype", "batch",
                   "context", "kv_bytes_per_token", "tokens", "heads", "seq", "kv_seq", "head_dim", "flops", "bytes")


def _work(args: argparse.Namespace, kind: str, dtype: str | None) -> work.Work:
    spec: dict[str, object] = {"kernel": kind}
    spec.update({k: getattr(args, k) for k in _KERNEL_OPTIONS if getattr(args, k, None) is not None})
    if args.fused:
        spec["fused"] = True
    if args.causal:
        spec["causal"] = True
    return work.from_spec(spec, dtype, "--")


def cmd_kernel(args: argparse.Namespace) -> tuple[dict[str, Any], str]:
    card, dtype = _card(args)
    return _placement_out(roofline.place(_work(args, args.kind, dtype), card, dtype, "--dtype"))


def cmd_plot(args: argparse.Namespace) -> tuple[dict[str, Any], str]:
    if args.symptoms is not None:
        symptoms = parse_symptoms(_read_json(args.symptoms, "--symptoms"))
    else:
        if args.kind is None:
            raise RegimeError("KIND", "expected a kernel kind, or --symptoms FILE")
        card, dtype = _card(args)
        observed = parse_observed({"time": args.time} if args.time else {}, "-")
        symptoms = Symptoms(card, dtype, _work(args, args.kind, dtype), observed)
    if symptoms.hardware is None or symptoms.work is None:
        raise RegimeError("--symptoms", "expected a file that names both hardware and work")
    picture = svg.for_symptoms(symptoms, title=f"Roofline of {symptoms.hardware.name} with {symptoms.work.label}",
                               label=args.label or "")
    return {"svg": picture}, str(picture)


def _verdict_text(v: Verdict) -> str:
    lines = [f"{line['label']}: " + (line["text"] if "text" in line else "; ".join(line["items"])) for line in v.lines()]
    if v.leaning:
        lines.insert(1, f"Leaning: {v.leaning} (a roofline side, not a verdict)")
    return "\n".join(lines)


def cmd_classify(args: argparse.Namespace) -> tuple[dict[str, Any], str]:
    v = classify(parse_symptoms(_read_json(args.file, "FILE")))
    return v.to_json(), _verdict_text(v)


def cmd_incident(args: argparse.Namespace) -> tuple[dict[str, Any], str]:
    item = drill.incident(args.id)
    v = item.verdict()
    text = f"{item.id.upper()}. {item.text}\n\n{_verdict_text(v)}"
    if v.placement is not None:
        text += "\n\nArithmetic:\n  " + "\n  ".join(v.placement.arithmetic())
    return item.to_json(), text


def cmd_case(args: argparse.Namespace) -> tuple[dict[str, Any], str]:
    if args.id is None:
        rows = [f"{c.id:<52} {c.authors_regime}" for c in casebook.cases()]
        return {"cases": [c.id for c in casebook.cases()]}, "case id (authors' reading)\n" + "\n".join(rows)
    c = casebook.case(args.id)
    v = c.verdict()
    text = f"{c.title}\n{c.summary}\n\n{_verdict_text(v)}"
    if v.placement is not None:
        text += "\n\nArithmetic:\n  " + "\n  ".join(v.placement.arithmetic())
    text += f"\n\nThe authors: {c.authors_regime}" + (f": \"{c.conclusion}\"" if c.conclusion else "")
    if c.disagreement:
        text += f"\nWhere we differ: {c.disagreement}"
    text += f"\nSource: {c.source.title}, {c.source.url}"
    out = {"id": c.id, "title": c.title, "authors_regime": c.authors_regime, "source": c.source.url, **v.to_json()}
    return out, text


def cmd_trace(args: argparse.Namespace) -> tuple[dict[str, Any], str]:
    with no_cycle_collection():  # until the reading is freed, as _trace returns (see no_cycle_collection)
        return _trace(args)


def _read_file(path: str, step: int | None, field: str, read: Callable[[bytes | BinaryIO, int | None], _Read]) -> _Read:
    """A trace file (or stdin, '-') read by ``read`` a piece at a time; a RegimeError names the file's field."""
    if path == "-":
        try:
            return read(terminal.stdin_stream(field), step)
        except OSError as exc:
            raise RegimeError(field, f"cannot read stdin: {exc.strerror or exc}") from None
    try:
        handle = open(path, "rb")  # noqa: SIM115 - closed below; read a piece at a time, never whole
    except OSError as exc:
        raise RegimeError(field, f"cannot read {path!r}: {exc.strerror or exc}") from None
    try:
        with handle:
            return read(handle, step)
    except OSError as exc:
        raise RegimeError(field, f"cannot read {path!r}: {exc.strerror or exc}") from None
    except RegimeError as exc:  # which of two files is wrong, where a command reads two
        raise RegimeError(field if field != "FILE" else exc.field, exc.expected) from None


def _digest_trace(args: argparse.Namespace, step: int | None) -> tuple[dict[str, Any], str]:
    """``regime trace`` on a rank's digest: the reading it holds, as the trace's own reading said it."""
    held = _digest_held(args.file, "FILE", step, args.gpu, args.dtype)
    if args.digest:
        document = rank_digest(held)
        return document, dump_json_text(document)
    if args.svg:
        picture, said = ops_roofline(held["trace"])
        if not picture:
            raise RegimeError("--svg", said.removeprefix("No roofline: "))
        return {"svg": picture}, picture
    return held, (f"{_verdict_text(verdict_of(held))}\n\n{facts_text(held['trace'])}"
                  "\n(read from a digest: the reading it holds, without the trace's events)")


def _trace(args: argparse.Namespace) -> tuple[dict[str, Any], str]:
    step = _whole(args.step, "--step") if args.step is not None else None
    if _is_digest_file(args.file, "FILE"):  # a rank's reading, written where its trace was: said as it was read
        return _digest_trace(args, step)
    reading: TraceReading | CounterReading = _read_file(args.file, step, "FILE",
                                                        functools.partial(read_profile, gpu=args.gpu,
                                                                          dtype=args.dtype))
    if isinstance(reading, CounterReading):
        if args.digest or args.svg:
            raise RegimeError("--digest" if args.digest else "--svg", "an Nsight Compute report holds kernels"
                              " counted one at a time, with no timeline or steps to digest and no FLOPs and bytes"
                              " per op to place on the roofline: read it without this option")
        return reading.to_json(), f"{_verdict_text(reading.verdict)}\n\n{counter_text(reading)}"
    if args.digest:
        document = rank_digest(reading.to_json())
        return document, dump_json_text(document)
    if args.svg:
        picture, said = ops_roofline(reading.facts)
        if not picture:
            raise RegimeError("--svg", said.removeprefix("No roofline: "))
        return {"svg": picture}, picture
    return reading.to_json(), f"{_verdict_text(reading.verdict)}\n\n{trace_text(reading)}"


def cmd_diff(args: argparse.Namespace) -> tuple[dict[str, Any], str, int]:
    """Two traces, before and after a change: the change's verdict, and the CI gate's exit status."""
    step = _whole(args.step, "--step") if args.step is not None else None
    expect = None
    if args.expect_regime is not None:
        expect = regime_named(args.expect_regime)
        if expect is None:
            raise RegimeError("--expect-regime", "expected compute, memory, overhead or communication")
    most = _percent(args.max_slowdown, "--max-slowdown") if args.max_slowdown is not None else None
    if args.before == "-" and args.after == "-":
        raise RegimeError("AFTER", "expected a file: only one of the two may be read from stdin ('-')")
    before = _reading_json(args.before, step, "BEFORE", args.gpu, args.dtype)  # any format, or a rank's digest
    after = _reading_json(args.after, step, "AFTER", args.gpu, args.dtype)
    result = diff(before, after)
    failed = gate(result["change"], max_slowdown=most, expect_regime=expect)
    result["change"]["gate"] = {"max_slowdown": most, "expect_regime": expect, "failed": failed}
    text = diff_markdown(result).removesuffix("\n") if args.markdown else diff_text(result)  # the terminal adds it
    if failed:
        text += "\n" + "\n".join(f"gate: {line}" for line in failed)
    return result, text, 1 if failed else 0


def _percent(value: str, field: str) -> float:
    """'5%', '5' or '0.05%': a share, as a fraction."""
    raw = value.strip().removesuffix("%").strip()
    try:
        share = float(raw) / 100
    except ValueError:
        raise RegimeError(field, f"expected a percentage such as 5%, got {value[:20]!r}") from None
    if not 0 <= share < 100:
        raise RegimeError(field, f"expected a percentage from 0% up, got {value[:20]!r}")
    return share


#: What a folder of ranks is read for: traces (any format the reader tells by content) and digests.
_RANK_SUFFIXES = (".json", ".gz", ".sqlite", ".csv")


def rank_reading(path: str, gpu: str | None = None) -> tuple[str, dict[str, Any] | None, str]:
    """One rank's file read into its reading (a digest is its reading already), or why not; for a process pool.

    ``gpu``: the card a trace is read on where it names none the catalogue holds; a digest keeps its own.
    """
    try:
        return path, _reading_json(path, None, path, gpu, digest_keeps_card=True), ""
    except RegimeError as exc:
        return path, None, exc.expected
    except OSError as exc:
        return path, None, f"cannot read it: {exc.strerror or exc}"


def _reading_json(path: str, step: int | None, field: str, gpu: str | None = None, dtype: str | None = None, *,
                  digest_keeps_card: bool = False) -> dict[str, Any]:
    """A trace's reading (on the card ``gpu`` where given), or the reading a digest holds (said in its first bytes).

    A digest was read already: given ``gpu`` it is refused, unless ``digest_keeps_card`` (a folder of ranks may mix
    digests and traces).
    """
    if _is_digest_file(path, field):
        return _digest_held(path, field, step, None if digest_keeps_card else gpu, dtype)
    with no_cycle_collection():
        return _read_file(path, step, field, functools.partial(read_trace, gpu=gpu, dtype=dtype)).to_json()


def _digest_held(path: str, field: str, step: int | None, gpu: str | None, dtype: str | None) -> dict[str, Any]:
    """The reading a digest holds; an option that would read its trace again (a step, a card, a dtype) is refused."""
    if step is not None or gpu is not None or dtype is not None:
        raise RegimeError("--step" if step is not None else "--gpu" if gpu is not None else "--dtype",
                          f"{path} is a digest: it was read already, on its own card and steps; leave the option out")
    return rank_reading_of(parse_json_text(_text_of(path), field, limit=MAX_FILE_BYTES))


def _is_digest_file(path: str, field: str) -> bool:
    """Whether the file (never stdin, read once) is a rank's digest, by its first bytes."""
    if path == "-":
        return False
    try:
        with open(path, "rb") as handle:
            return looks_like_digest(handle.read(256))
    except OSError as exc:
        raise RegimeError(field, f"cannot read {path!r}: {exc.strerror or exc}") from None


def _text_of(path: str) -> str:
    with open(path, encoding="utf-8") as handle:
        return handle.read(MAX_FILE_BYTES + 1)


def cmd_ranks(args: argparse.Namespace) -> tuple[dict[str, Any], str]:
    """Every rank's trace or digest, read in parallel, merged into the job's reading."""
    files = _named_files(args.paths, _RANK_SUFFIXES)
    if not files:
        raise RegimeError("PATH", f"no traces or digests in {', '.join(args.paths)}")
    jobs = _whole(args.jobs, "--jobs") if args.jobs is not None else (os.cpu_count() or 1)
    if jobs < 1:
        raise RegimeError("--jobs", "expected at least 1")
    engine = args.engine.strip().lower()
    if args.address is not None and engine == "local":
        raise RegimeError("--address", "expected --engine ray with it: the local engine joins no cluster")
    if args.gpu is not None:
        hardware.get(args.gpu, "--gpu")  # an unknown card is said once, not once for every rank
    read = functools.partial(rank_reading, gpu=args.gpu)
    if engine != "local":
        results = _engine(engine)(files, jobs=jobs, address=args.address, gpu=args.gpu)
    elif jobs == 1 or len(files) == 1:
        results = [read(f) for f in files]
    else:
        with concurrent.futures.ProcessPoolExecutor(max_workers=min(jobs, len(files))) as pool:
            results = list(pool.map(read, files, chunksize=max(1, len(files) // (jobs * 4))))
    merged = merge_ranks([(p, r) for p, r, _ in results if r is not None],
                         [(p, why) for p, r, why in results if r is None])
    if args.svg:
        drawn = ranks_picture(merged)
        if not drawn:
            raise RegimeError("--svg", "no steps in these traces to draw (profile with a schedule: ProfilerStep#N)")
        return {"svg": drawn}, drawn
    if args.markdown:
        return merged, ranks_markdown(merged).removesuffix("\n")
    rows = ranks_table(merged)
    width = [max(len(c), *(len(r[i]) for r in rows)) for i, c in enumerate(RANK_COLUMNS)]
    lines = [merged["job"]["text"], *(f"note: {n}" for n in merged["notes"]), "",
             "  ".join(c.ljust(w) for c, w in zip(RANK_COLUMNS, width, strict=True)).rstrip()]
    lines += ["  ".join(c.ljust(w) for c, w in zip(row, width, strict=True)).rstrip() for row in rows]
    lines += [f"not read: {r['file']}: {r['reason']}" for r in merged["refused"]]
    return merged, "\n".join(lines)


def _engine(name: str) -> Callable[..., list[tuple[str, dict[str, Any] | None, str]]]:
    """An optional engine's reader of many ranks, found by the entry point its extra installs (``regime.engines``).

    The core never imports an engine: the engine imports the core, and registers itself to be found here.
    """
    if name != "ray":
        raise RegimeError("--engine", f"expected local or ray, got {name[:20]!r}")
    found = [point for point in entry_points(group="regime.engines") if point.name == name]
    if not found:
        raise RegimeError("--engine", "expected Ray's engine installed for --engine ray: pip install 'regime-core[ray]'")
    reader: Callable[..., list[tuple[str, dict[str, Any] | None, str]]] = found[0].load()
    return reader


def _whole(value: str, field: str) -> int:
    if not value.isascii() or not value.isdigit() or len(value) > 12:
        raise RegimeError(field, f"expected a step number such as 3, got {value[:20]!r}")
    return int(value)


def _named_files(paths: Sequence[str], suffixes: tuple[str, ...]) -> list[str]:
    """The files named: each path as it is, a folder's files with ``suffixes``, a glob's matches, sorted within each."""
    out: list[str] = []
    for path in paths:
        if os.path.isdir(path):
            out += sorted(os.path.join(path, name) for name in os.listdir(path) if name.lower().endswith(suffixes))
        elif any(c in path for c in "*?[") and not os.path.exists(path):
            out += sorted(glob.glob(path))
        else:
            out.append(path)
    return out


def _submission(path: str) -> Submission:
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read(MAX_IMPORT_BYTES + 1)
    except (OSError, UnicodeDecodeError) as exc:
        return Submission(path, unreadable=f"cannot read it: {getattr(exc, 'strerror', None) or exc}")
    return submission(path, text)


def cmd_grade(args: argparse.Namespace) -> tuple[dict[str, Any], str]:
    paths = list(args.files)
    as_class = args.as_class or args.markdown or args.csv or len(paths) > 1 or any(os.path.isdir(p) for p in paths)
    if as_class:
        files = _named_files(paths, (".json",))
        if not files:
            raise RegimeError("ATTEMPT", f"no attempt files in {', '.join(paths)} (expected .json files)")
        # One file read at a time, each into its small entry: a class is never all in memory at once.
        whole = class_report(_submission(f) if at < MAX_CLASS_FILES else too_many(f) for at, f in enumerate(files))
        # The terminal ends the text with its newline: what is saved is the page's download, byte for byte.
        if args.csv:
            return whole, class_csv(whole).removesuffix("\n")
        return whole, class_markdown(whole).removesuffix("\n")
    raw = _read_json(paths[0], "ATTEMPT")
    if is_practice_attempt(raw):
        practised = grade_practice(raw)
        return practised, grade_text(practised)
    result = grade(raw)
    return result, report(result)


def cmd_practice(args: argparse.Namespace) -> tuple[dict[str, Any], str]:
    seed = check_seed(args.seed, "--seed") if args.seed is not None else secrets.randbelow(1_000_000)
    item = practice(seed, check_level(args.level, "--level"))
    attempt = json.dumps({"practice": {"seed": item.seed, "level": item.level}, "regime": "", "evidence": "",
                          "helps": "", "wastes": ""})
    text = (f"{item.id} (level {item.level}; again: regime practice --seed {item.seed} --level {item.level})\n\n"
            f"{item.statement}\n\nWrite four lines: Regime, Evidence, Lever that helps, Lever that wastes the week."
            f"\nTo grade them, fill in {attempt}\nand run: regime grade FILE")
    return item.to_json(), text


def cmd_gpus(_args: argparse.Namespace) -> tuple[dict[str, Any], str]:
    cards = hardware.catalogue().values()
    rows = [f"{c.id:<14} {format_quantity(c.bandwidth.value, Dim.BYTE_RATE):>9}  "
            + ", ".join(f"{d} {format_quantity(f.value, Dim.FLOP_RATE)}" for d, f in c.peaks.items())
            + (f"  (also: {', '.join(c.aliases)})" if c.aliases else "")
            for c in cards]
    head = "dense peaks; bandwidth first; names ignore case, spaces and dashes; add --count N for N GPUs"
    return {"gpus": [c.summary() for c in cards]}, head + "\n" + "\n".join(rows)


def _add_shape(k: argparse.ArgumentParser) -> None:
    for opt in ("m", "n", "k"):
        k.add_argument(f"--{opt}", help=f"matmul dimension {opt}")
    k.add_argument("--shape", help="elementwise: tensor shape, e.g. 8x4096x4096")
    k.add_argument("--ops", help="elementwise: number of ops in the chain")
    k.add_argument("--inputs", help="elementwise: full-size input tensors of the first op")
    k.add_argument("--fused", action="store_true", help="elementwise/attention: fused (one read, one write)")
    k.add_argument("--params", help="decode/prefill: parameter count, e.g. 7e9 or 7B")
    k.add_argument("--active-params", help="decode/prefill: MoE parameters active per token, e.g. 12.9B")
    k.add_argument("--weight-dtype", help="decode/prefill: how weights are stored (int4, nf4, q4_0, int8, ...)")
    k.add_argument("--causal", action="store_true", help="attention: causal mask (half the scores)")
    k.add_argument("--batch", help="decode/attention: batch size; matmul: how many matmuls")
    k.add_argument("--context", help="decode: context length")
    k.add_argument("--kv-bytes-per-token", help="decode: KV-cache bytes per token")
    k.add_argument("--tokens", help="prefill: prompt tokens")
    k.add_argument("--heads", help="attention: heads")
    k.add_argument("--seq", help="attention: query length")
    k.add_argument("--kv-seq", help="attention: key/value length (default: --seq)")
    k.add_argument("--head-dim", help="attention: head dimension")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser."""
    parser = _Parser(prog="regime", description="Read a GPU performance problem's regime from its symptoms.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    commands: dict[str, tuple[Callable[[argparse.Namespace], tuple[Any, ...]], str]] = {
        "ridge": (cmd_ridge, "ridge point of a card in FLOP/byte"),
        "place": (cmd_place, "place FLOPs and bytes against a card's ridge"),
        "kernel": (cmd_kernel, "FLOPs, bytes and placement of a kernel from its shape"),
        "plot": (cmd_plot, "draw the roofline with the kernel on it, as SVG on stdout"),
        "classify": (cmd_classify, "classify a JSON symptoms file ('-' reads stdin)"),
        "incident": (cmd_incident, "one drill incident (A1..A8), its derived verdict and arithmetic"),
        "case": (cmd_case, "one published case from the casebook, its derived verdict and its source"),
        "grade": (cmd_grade, "grade a write-up (JSON attempt file; '-' reads stdin) against the drill's acceptance,"
                             " or a class of them at once"),
        "gpus": (cmd_gpus, "the hardware catalogue"),
        "trace": (cmd_trace, "read a profiler trace (torch.profiler / Kineto / ROCm JSON, or .json.gz; '-' reads stdin)"
                             " into a regime"),
        "ranks": (cmd_ranks, "a distributed run's traces (or digests), one per rank, read together: stragglers told"
                             " apart from a slow network"),
        "diff": (cmd_diff, "two traces, before and after a change: did the step get faster, and did the change"
                           " attack its regime (a gate for CI with --max-slowdown and --expect-regime)"),
        "practice": (cmd_practice, "a new incident to practise on, generated from a seed (grade it with regime grade)"),
    }
    subs = {}
    for name, (func, help_text) in commands.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        p.add_argument("--json", action="store_true", help="print JSON")
        p.set_defaults(func=func)
        subs[name] = p
    for name in ("ridge", "place", "kernel"):
        _add_card(subs[name])
    subs["place"].add_argument("--flops", required=True, help="FLOP count, e.g. 1.37e11")
    subs["place"].add_argument("--bytes", required=True, help="bytes moved, e.g. '101 MB'")
    subs["kernel"].add_argument("kind", choices=[c for c in work.KINDS if c != "raw"])
    _add_shape(subs["kernel"])
    plot = subs["plot"]
    plot.add_argument("kind", nargs="?", choices=work.KINDS, help="kernel kind (raw takes --flops and --bytes)")
    _add_card(plot)
    _add_shape(plot)
    plot.add_argument("--flops", help="raw: FLOP count")
    plot.add_argument("--bytes", help="raw: bytes moved")
    plot.add_argument("--time", help="measured time, e.g. '12 us', to mark the measured point")
    plot.add_argument("--label", help="the point's label")
    plot.add_argument("--symptoms", metavar="FILE", help="a symptoms file instead of the options above")
    subs["classify"].add_argument("file", metavar="FILE")
    subs["incident"].add_argument("id", metavar="ID", help="A1..A8")
    subs["case"].add_argument("id", metavar="ID", nargs="?", help="a case id; none lists them")
    subs["grade"].add_argument("files", metavar="ATTEMPT", nargs="+",
                               help="attempt files, folders of them or globs; several make one class report")
    subs["grade"].add_argument("--class", dest="as_class", action="store_true",
                               help="one report for the class, even of one file")
    subs["grade"].add_argument("--markdown", action="store_true", help="the class report as Markdown (the default text)")
    subs["grade"].add_argument("--csv", action="store_true", help="the class report as CSV, one row per learner")
    subs["trace"].add_argument("--digest", action="store_true", help="print the rank's digest (JSON, kilobytes) that"
                               " regime ranks merges")
    subs["ranks"].add_argument("paths", nargs="+", metavar="PATH", help="traces or digests, folders of them, or globs")
    subs["ranks"].add_argument("--jobs", help="traces read at once (default: the CPUs)")
    for name, ran in (("trace", "the run used"), ("diff", "both runs used"), ("ranks", "the ranks ran on (a digest keeps"
                                                                                   " its own)")):
        subs[name].add_argument("--gpu", help=f"the card {ran}, where a trace names none the catalogue holds (an id"
                                              " from regime gpus, such as v100-sxm2)")
    for name in ("trace", "diff"):
        subs[name].add_argument("--dtype", help="the math's dtype, whose dense peak every placed op is held to (tf32"
                                " where fp32 matmuls ran as TF32; a trace without its ops' types): " + ", ".join(hardware.DTYPES))
    subs["ranks"].add_argument("--engine", default="local", help="local (a process pool on this machine) or ray (Ray"
                               " tasks where the traces lie: pip install 'regime-core[ray]')")
    subs["ranks"].add_argument("--address", help="--engine ray: the Ray cluster to join (as ray.init takes it, e.g."
                               " auto); default: a local Ray of --jobs CPUs, started and stopped")
    subs["ranks"].add_argument("--markdown", action="store_true", help="the job's reading as Markdown")
    subs["ranks"].add_argument("--svg", action="store_true", help="ranks × steps as SVG, the stragglers labelled")
    subs["diff"].add_argument("before", metavar="BEFORE", help="the trace before the change")
    subs["diff"].add_argument("after", metavar="AFTER", help="the trace after it")
    subs["diff"].add_argument("--step", help="read only ProfilerStep#N of each (default: every step)")
    subs["diff"].add_argument("--markdown", action="store_true", help="a pull-request comment: a table, the verdicts,"
                              " the paragraph")
    subs["diff"].add_argument("--max-slowdown", metavar="PCT", help="exit 1 when the step is slower by more than PCT"
                              " (beyond the step-to-step spread), e.g. 5%%")
    subs["diff"].add_argument("--expect-regime", metavar="REGIME", help="exit 1 when the after trace reads another"
                              " regime (compute, memory, overhead, communication)")
    subs["trace"].add_argument("file", metavar="FILE")
    subs["trace"].add_argument("--step", help="read only ProfilerStep#N (default: the whole trace)")
    subs["trace"].add_argument("--svg", action="store_true", help="print the top ops on the card's roofline, as SVG")
    subs["practice"].add_argument("--seed", help="which incident (a whole number); none draws a new one")
    subs["practice"].add_argument("--level", default="1", help="1 (one deciding symptom) to 3 (distractors and a"
                                  " misleading proposal)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    prog = f"regime {args.command}"
    try:
        data, text, *status = args.func(args)  # a gate (regime diff) adds its exit status
        out = _rendered(data, text, as_json=args.json)
    except RegimeError as exc:
        terminal.warn(f"{prog}: {exc}")
        return 2
    return terminal.write(out, prog) or (status[0] if status else 0)


def _rendered(data: dict[str, Any], text: str, *, as_json: bool) -> str:
    """What the terminal gets: JSON or text, its control characters escaped, in ASCII where it must be.

    Raises:
        RegimeError: A result JSON cannot carry (a number past what a float holds), in either form.

    """
    document = dump_json_text(data, indent=2)  # checks the numbers for the text form too
    if as_json:
        if not terminal.encodable(document):
            document = dump_json_text(data, indent=2, ensure_ascii=True)
        return terminal.escape_controls(document, json_string=True)
    shown = terminal.escape_controls(text)
    return shown if terminal.encodable(shown) else terminal.ascii_safe(shown)
