"""At least 200 hostile inputs through every bridge op field, the CLI's flags and files, the widgets'
fields and the stretch link: never a traceback, always one line naming the field, payloads inert."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import quote

import pytest
from playwright.sync_api import Page, expect

from hostile_inputs import HOSTILE
from regime_core.bridge.api import handle
from regime_core.cli.main import main

# (op request builder, the field the error must name)
API_FIELDS = [
    (lambda x: {"op": "ridge", "hardware": {"id": x}}, "hardware.id"),
    (lambda x: {"op": "ridge", "hardware": {"id": "custom", "peak_flops": x, "bandwidth": "2 TB/s"}},
     "hardware.peak_flops"),
    (lambda x: {"op": "ridge", "hardware": {"id": "custom", "peak_flops": "312 TFLOP/s", "bandwidth": x}},
     "hardware.bandwidth"),
    (lambda x: {"op": "ridge", "hardware": {"id": "l4"}, "dtype": x}, "dtype"),
    (lambda x: {"op": "kernel", "hardware": {"id": "l4"}, "work": {"kernel": "matmul", "m": x, "n": 4, "k": 4}}, "work.m"),
    (lambda x: {"op": "kernel", "hardware": {"id": "l4"}, "work": {"kernel": "elementwise", "shape": x}}, "work.shape"),
    (lambda x: {"op": "kernel", "hardware": {"id": "l4"}, "work": {"kernel": "decode", "params": x}}, "work.params"),
    (lambda x: {"op": "kernel", "hardware": {"id": "l4"}, "work": {"kernel": "prefill", "params": "7e9", "tokens": x}},
     "work.tokens"),
    (lambda x: {"op": "kernel", "hardware": {"id": "l4"}, "work": {"kernel": "attention", "heads": x, "seq": 8, "head_dim": 8}},
     "work.heads"),
    (lambda x: {"op": "kernel", "hardware": {"id": "l4"}, "work": {"kernel": "raw", "flops": "1", "bytes": x}}, "work.bytes"),
    (lambda x: {"op": "kernel", "hardware": {"id": "l4"}, "work": {"kernel": "matmul", "m": 4, "n": 4, "k": 4},
                "observed": {"time": x}}, "observed.time"),
    (lambda x: {"op": "part_b_attempt", "ridge": x}, "ridge"),
    (lambda x: {"op": "part_b_attempt", "ridge": "156", "kernels": {"add": {"intensity": x}}},
     "kernels.add.intensity"),
    (lambda x: {"op": "explore", "item": "a3", "form": {"hardware": {"id": "custom", "peak_flops": "1 TFLOP/s",
                                                                      "bandwidth": "1 TB/s"},
                                                         "work": {"shape": x}}}, "work.shape"),
    (lambda x: {"op": "classify", "symptoms": {"observed": {"gap_time": "1 us", "kernel_time": x}}},
     "observed.kernel_time"),
]


OPTIONAL = {"dtype", "observed.time", "kernels.add.intensity"}  # blank: card default, not measured, not answered


ZERO_OK = {"ridge", "kernels.add.intensity"}  # a learner's zero is a wrong answer, graded, not refused


def _blank_is_skipped(field: str, value: str) -> bool:
    if field in ZERO_OK and value in ("0", "-0", "1e-400"):
        return True
    if field == "hardware.id" and not value:
        return True  # an empty id is a custom card: the error then names its missing peak_flops
    return not value.strip() and field in OPTIONAL


@pytest.mark.parametrize("value", HOSTILE)
def test_every_bridge_field_answers_in_one_line(value: str) -> None:
    checked = 0
    for builder, field in API_FIELDS:
        if _blank_is_skipped(field, value):
            continue
        response = json.loads(handle(json.dumps(builder(value))))
        checked += 1
        assert response["ok"] is False, (field, value[:40])
        assert response["field"] == field
        assert response["error"].startswith(f"{field}: ")
        assert "\n" not in response["error"]
        assert "Traceback" not in response["error"]
        assert len(response["error"]) < 400
    assert checked >= len(API_FIELDS) - len(OPTIONAL | ZERO_OK) - 1


def test_the_bridge_never_raises_on_garbage_requests() -> None:
    for raw in ["", "[]", "null", '{"op": 5}', '{"op": "kernel", "work": []}', '{"op": "classify", "symptoms": 1}',
                '{"op": "import_attempt", "text": 5}', '{"op": "grade", "items": []}', "{" * 10_000, "x" * 300_000]:
        response = json.loads(handle(raw))
        assert response["ok"] is False
        assert "\n" not in response["error"]


CLI_FLAGS = [
    (["ridge", "--peak-flops", "{}", "--bandwidth", "2 TB/s"], "--peak-flops"),
    (["ridge", "--peak-flops", "312 TFLOP/s", "--bandwidth", "{}"], "--bandwidth"),
    (["place", "--flops", "{}", "--bytes", "1 GB", "--gpu", "l4"], "--flops"),
    (["kernel", "matmul", "--m", "{}", "--n", "4", "--k", "4", "--gpu", "l4"], "--m"),
    (["kernel", "elementwise", "--shape", "{}", "--gpu", "l4"], "--shape"),
]


@pytest.mark.parametrize("value", HOSTILE)
def test_every_cli_flag_answers_in_one_line(value: str, capsys: pytest.CaptureFixture[str]) -> None:
    for template, flag in CLI_FLAGS:
        if flag == "--flops" and value in ("0", "-0", "1e-400"):
            continue  # a kernel may do no math at all: a copy
        args = [a.replace("{}", value) if a == "{}" else a for a in template]
        with pytest.raises(SystemExit) if value.startswith("-") and value not in ("-0", "-1") else _nothing():
            status = main(args)
            assert status == 2, (flag, value[:40])
        err = capsys.readouterr().err
        assert err.count("\n") == 1, err[:200]
        assert "Traceback" not in err


class _nothing:  # noqa: N801 - a stand-in context manager, named like contextlib's
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> bool:
        return False


@pytest.mark.parametrize("value", HOSTILE[::3])
def test_cli_files_with_hostile_values(value: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "s.json"
    for content in ({"observed": {"time": value}}, {"hardware": value}, {"part_a": {"a1": {"regime": [value]}}}):
        path.write_text(json.dumps(content))
        command = "grade" if "part_a" in content else "classify"
        assert main([command, str(path)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1
        assert "Traceback" not in err


# What only a browser can show: the error lands as text in its field's slot, on one line, nothing is
# injected, and the answer stays locked. Every value of HOSTILE goes through the same fields at the
# API level (test_every_bridge_field_answers_in_one_line); here one of each kind is enough, in the
# fields and in a shared stretch link.
WIDGET_INPUTS = {
    "markup": '"><svg onload=alert(1)><img src=x onerror=alert(1)><script>alert(1)</script>',
    "very long": "x" * 100_000,
    "right-to-left and control characters": "\u202e123\u200b\x07",
    "blank": " ",
}


def test_widget_fields_refuse_hostile_input(page: Page, base_url: str) -> None:
    page.goto(base_url + "drill/")
    explorer = page.locator(".regime-explorer")
    stretch = page.locator(".regime-stretch")
    part_b = page.locator('[data-item="part-b"] form.regime-attempt')
    fields = [
        (explorer, 'input[name="hardware.bandwidth"]', "hardware.bandwidth", explorer.locator('button[type="submit"]')),
        (stretch, 'input[name="work.m"]', "work.m", stretch.locator('button[type="submit"]')),
        (stretch, 'input[name="observed.time"]', "observed.time", stretch.locator('button[type="submit"]')),
        # Part B's check: a field the grader cannot read is marked, and graded "could not tell" (submitting it would
        # open the answer: an attempt, however written, is one)
        (part_b, 'input[name="ridge"]', "ridge", part_b.locator('[data-action="check"]')),
    ]
    explorer.locator('input[name="hardware.peak_flops"]').fill("312 TFLOP/s")
    originals = {selector: scope.locator(selector).input_value() for scope, selector, _, _ in fields}
    for kind, value in WIDGET_INPUTS.items():
        for scope, selector, field, button in fields:
            if _blank_is_skipped(field, value):
                continue  # a blank measurement is no measurement: nothing to refuse
            scope.locator(selector).fill(value)
            button.click()
            if field == "ridge" and not value.strip():  # Part B with nothing in it: an empty attempt opens nothing
                expect(page.locator('[data-item="part-b"] .regime-feedback')).to_contain_text("Write something first")
                continue
            error = scope.locator(f'[data-field="{field}"] .regime-field__error')
            expect(error).to_be_visible()
            expect(error).not_to_contain_text(f"{field}:")  # the label says which field: no key in the line
            assert "\n" not in error.inner_text(), (kind, field)
            scope.locator(selector).fill(originals[selector])
    assert page.locator("article img, article svg[onload], article script:not([src])").count() == 0
    assert "Traceback" not in page.locator("article").inner_text()
    expect(page.locator('[data-regime-answer="part-b"]')).to_be_hidden()


@pytest.mark.parametrize("value", [v for v in WIDGET_INPUTS.values() if v.strip()],
                         ids=[k for k, v in WIDGET_INPUTS.items() if v.strip()])
def test_hostile_stretch_links_open_with_the_defaults(page: Page, base_url: str, value: str) -> None:
    page.goto(f"{base_url}drill/?work.kernel=matmul&work.m={quote(value[:2000])}&hardware.id=h100-sxm#stretch")
    line = page.locator(".regime-stretch__link")
    expect(line).to_contain_text("showing the defaults", timeout=60_000)
    expect(line).to_contain_text("work.m")


@pytest.mark.parametrize("evidence", ["2 × 4 = 0", "0 / 0 = 1", "1/0 = 5 ms", "(0-0)/0 = 3%", "1 − 1/0 ≈ 74%",
                                      "0 µs on, 0 µs off: busy 0/0 = 0%", "0 GB / 0 GB/s = 0 ms"])
def test_arithmetic_with_zeros_grades_without_a_traceback(evidence: str) -> None:
    # A fresh set of learner answers had a sum whose result was 0: it divided by zero in every version before.
    from regime_core.grading.grade import grade

    check = grade({"part_a": {"a6": {"regime": "overhead", "evidence": evidence}}})["items"]["a6"]["checks"]["evidence"]
    assert check["passed"] in (False, None), check
    assert check["why"], check
