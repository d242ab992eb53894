"""Practice without end: new incidents in the drill's voice, generated from a seed.

``practice(seed, level)`` draws a family of incident (weighted per level, ``data/practice.json``), a
realistic run of it on a catalogue card, then what someone proposes and, at higher levels,
measurements that decide nothing. The same (seed, level, :data:`GENERATOR_VERSION`) always gives the
same incident: the generator uses only its own ``random.Random``, never global state.

Each incident carries the regime its family *intends* (None where the symptoms cannot decide), its
trap and whether a measurement in it is impossible. The verdict a learner is shown is never stored:
:meth:`PracticeIncident.verdict` classifies the symptoms, and the tests hold the two paths to agree.

Levels: 1 — the deciding symptom, stated plainly, and at most a proposal that fits; 2 — the symptom
in the units people report (tok/s, MFU, TFLOP/s) and usually a proposal that does not fit; 3 — the
symptom as a time or a rate to work from, a misleading proposal, and distractors (occupancy, a GPU
utilisation of 100%, SM activity) that decide nothing.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from regime_core.errors import RegimeError
from regime_core.judgment.classify import Verdict, classify
from regime_core.judgment.symptoms import parse_symptoms
from regime_core.practice import edge, idle, interconnect
from regime_core.practice import families as fam
from regime_core.practice.draw import GPU_VENDORS, Draft, Family
from regime_core.practice.text import data, fill, pct, pick

GENERATOR_VERSION = 2
LEVELS = (1, 2, 3)
#: What each level asks of the learner, as the Practice page offers them.
LEVEL_NAMES = {1: "one deciding symptom", 2: "the units people report, and a proposal",
               3: "distractors and a misleading proposal"}
MAX_SEED = 2**53 - 1  # the largest integer a browser's JSON keeps exactly
#: Every trap an incident may set: the mistake it is built to catch.
TRAPS = ("fusion_on_compute", "mma_on_memory", "occupancy_theatre", "kernel_work_on_overhead",
         "too_good_to_be_true", "no_verdict_yet", "kernel_work_on_communication")
FAMILIES: dict[str, Family] = {
    "matmul_compute": fam.matmul_compute, "prefill_compute": fam.prefill_compute,
    "attention_compute": fam.attention_compute, "decode_memory": fam.decode_memory,
    "gemv_memory": fam.gemv_memory, "elementwise_memory": fam.elementwise_memory,
    "attention_decode_memory": fam.attention_decode_memory, "launch_storm": idle.launch_storm,
    "small_decode_graphs": idle.small_decode_graphs, "host_sync": idle.host_sync, "loader_stall": idle.loader_stall,
    "tiny_tensor": idle.tiny_tensor, "matmul_too_good": edge.matmul_too_good, "decode_too_good": edge.decode_too_good,
    "elementwise_too_good": edge.elementwise_too_good, "undecided_far": edge.undecided_far,
    "undecided_unmeasured": edge.undecided_unmeasured, "collective_exposed": interconnect.collective_exposed,
}
#: Families whose trap is the incident itself, whatever is proposed.
INHERENT_TRAP = {"matmul_too_good": "too_good_to_be_true", "decode_too_good": "too_good_to_be_true",
                 "elementwise_too_good": "too_good_to_be_true", "undecided_far": "no_verdict_yet",
                 "undecided_unmeasured": "no_verdict_yet"}
#: Where a GPU-utilisation figure would contradict the story (a starved or host-stalled GPU reads low). A job
#: waiting on collectives reads high (NCCL's kernels count as busy): its GPU-Util is the distractor it deserves.
_NO_UTILIZATION = ("loader_stall", "host_sync")
_ROOF_FAMILIES = ("matmul_compute", "prefill_compute", "attention_compute", "decode_memory", "gemv_memory",
                  "elementwise_memory", "attention_decode_memory")
_DRAWS = 2000  # draws of one family before giving up: the tests see every seed they cover succeed in far fewer


@dataclass(frozen=True)
class PracticeIncident:
    """One generated incident: what the learner reads, its symptoms, and what the generator intended."""

    id: str
    seed: int
    level: int
    family: str
    statement: str
    symptoms: Mapping[str, Any]
    regime: str | None  # the intended regime; None where the symptoms cannot decide
    trap: str | None
    anomaly: bool  # the generator put in a measurement the roofs forbid

    @property
    def url(self) -> str:
        """The incident's address on the site, relative to the site root."""
        return f"practice/?seed={self.seed}&level={self.level}&v={GENERATOR_VERSION}"

    def verdict(self) -> Verdict:
        """The classifier's reading of the symptoms: derived, never stored."""
        return classify(parse_symptoms(self.symptoms))

    def to_json(self) -> dict[str, Any]:
        """``regime practice --json``: id, seed, level, statement, symptoms, regime, trap, url."""
        return {"id": self.id, "seed": self.seed, "level": self.level, "statement": self.statement,
                "symptoms": dict(self.symptoms), "regime": self.regime, "trap": self.trap, "url": self.url}


#: A whole number written in ASCII digits, no longer than a seed: ``isdigit()`` also passes "²", which int() refuses,
#: and int() refuses more than 4,300 digits.
_WHOLE = re.compile(r"\s*([0-9]{1,16})\s*", re.ASCII)


def _digits(value: object) -> object:
    """``value`` as an int when it is text of ASCII digits; anything else as it came, for the caller to refuse."""
    if isinstance(value, str):
        match = _WHOLE.fullmatch(value)
        return int(match[1]) if match else value
    return value


def check_seed(value: object, field: str = "seed") -> int:
    """A seed: a whole number from 0 to 2⁵³ − 1, given as a number or as digits."""
    value = _digits(value)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_SEED:
        raise RegimeError(field, f"expected a whole number from 0 to {MAX_SEED:,}")
    return value


def check_level(value: object, field: str = "level") -> int:
    """A level: 1, 2 or 3."""
    value = _digits(value)
    if isinstance(value, bool) or value not in LEVELS:
        raise RegimeError(field, "expected 1, 2 or 3")
    assert isinstance(value, int)
    return value


def _draft(rng: random.Random, level: int) -> Draft:
    weights: dict[str, int] = data()["weights"][str(level)]
    names = list(weights)
    family = rng.choices(names, [weights[n] for n in names])[0]
    templates = data()["families"][family]["templates"]
    for _ in range(_DRAWS):
        draft = FAMILIES[family](rng, level, templates)
        if draft is not None:
            return draft
    raise RuntimeError(f"practice: no {family} incident after {_DRAWS} draws")  # pragma: no cover


def _for_card(proposals: list[str], vendor: str) -> list[str]:
    """The proposals that make sense on this vendor's hardware (no CUTLASS on a TPU)."""
    if vendor == "nvidia":
        return proposals
    return [p for p in proposals if not any(word in p for word in data()["nvidia_only"])]


def _proposal(rng: random.Random, draft: Draft, level: int) -> tuple[str | None, str | None]:
    """What someone proposes and the trap it sets: none or one that fits at level 1, a misfit later."""
    spec = data()["families"][draft.family]
    vendor = draft.card.vendor
    fitting = _for_card(spec["fits"], vendor)
    inherent = INHERENT_TRAP.get(draft.family)
    roll = rng.random()
    if inherent is not None:
        if level == 1 and roll < 0.6:
            return None, inherent
        if level == 1 and fitting:
            return pick(rng, fitting), inherent
        return pick(rng, _for_card(spec["traps"][inherent], vendor)), inherent
    traps = sorted(t for t in spec["traps"] if t != "occupancy_theatre" or vendor in GPU_VENDORS)
    if (False, roll < 0.7, True)[level - 1]:
        trap = pick(rng, traps)
        return pick(rng, _for_card(spec["traps"][trap], vendor)), trap
    if roll < (0.5, 0.85, 1.0)[level - 1]:
        return pick(rng, fitting), None
    return None, None


def _distractors(rng: random.Random, draft: Draft, level: int, taken: set[str]) -> dict[str, str]:
    """Measurements that decide nothing: none at level 1, sometimes one at 2, one or two at 3."""
    wanted = (0, 1 if rng.random() < 0.3 else 0, rng.randint(1, 2))[level - 1]
    kinds = []
    if draft.family not in _NO_UTILIZATION and draft.card.vendor != "google":
        kinds.append("gpu_utilization")
    if (draft.family in _ROOF_FAMILIES or draft.regime is None) and draft.card.vendor in GPU_VENDORS:
        kinds.append("occupancy")  # occupancy and SMs are GPU words; a TPU has neither
    if (draft.family in _ROOF_FAMILIES or draft.regime is None) and draft.card.vendor == "nvidia":
        kinds.append("sm_active")
    kinds = [k for k in kinds if k not in taken]
    chosen = []
    for _ in range(min(wanted, len(kinds))):
        kind = pick(rng, kinds)
        kinds.remove(kind)
        chosen.append(kind)
    ranges = {"gpu_utilization": (0.93, 1.0), "occupancy": (0.25, 0.62), "sm_active": (0.82, 0.99)}
    return {kind: pct(rng.uniform(*ranges[kind])) for kind in chosen}


def practice(seed: object, level: object = 1) -> PracticeIncident:
    """The incident for ``seed`` at ``level`` (1–3), the same every time for this generator version."""
    seed, level = check_seed(seed), check_level(level)
    rng = random.Random(f"regime-practice/{GENERATOR_VERSION}/{seed}/{level}")
    draft = _draft(rng, level)
    proposal, trap = _proposal(rng, draft, level)
    observed = dict(draft.symptoms["observed"])
    sentences = [draft.text]
    extra: dict[str, str] = {}
    if trap == "occupancy_theatre":
        low = (0.12, 0.35) if draft.regime == "compute" else (0.3, 0.6)
        extra["occupancy"] = pct(rng.uniform(*low))
    extra.update(_distractors(rng, draft, level, set(extra)))
    monitor = data()["monitors"][draft.card.vendor]
    for kind, value in extra.items():
        observed[kind] = value
        sentences.append(fill(data()["distractors"][kind], {"value": value, "monitor": monitor}))
    if proposal is not None:
        sentences.append(f"{pick(rng, data()['proposers'])} wants to {proposal}.")
    symptoms = {**draft.symptoms, "observed": observed}
    if proposal is not None:
        symptoms["proposal"] = proposal
    return PracticeIncident(f"p{GENERATOR_VERSION}-{seed}-l{level}", seed, level, draft.family, " ".join(sentences),
                            symptoms, draft.regime, trap, draft.anomaly)
