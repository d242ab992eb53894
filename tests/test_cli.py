import json
import subprocess
import sys
from pathlib import Path

import pytest


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "regime_core", *args], capture_output=True, text=True,
                          input=stdin, timeout=60, check=False)


def test_ridge_json_contract() -> None:
    out = run("ridge", "--peak-flops", "312 TFLOP/s", "--bandwidth", "2.0 TB/s", "--json")
    assert out.returncode == 0
    assert json.loads(out.stdout)["ridge"] == pytest.approx(156)


def test_place_and_kernel_json_contract() -> None:
    for args in (["place", "--flops", "1.4e10", "--bytes", "1.4e10", "--peak-flops", "312T", "--bandwidth", "2TB/s"],
                 ["kernel", "matmul", "--m", "4096", "--n", "4096", "--k", "4096", "--dtype", "fp16", "--gpu", "h100-sxm"]):
        out = run(*args, "--json")
        assert out.returncode == 0, out.stderr
        data = json.loads(out.stdout)
        assert {"intensity", "ridge", "side", "floor_seconds"} <= set(data)
        assert data["side"] in ("below", "above")


def test_classify_file_and_stdin(tmp_path: Path) -> None:
    symptoms = {"observed": {"kernel_time": "2 us", "gap_time": "8 us", "launches": 40000}}
    path = tmp_path / "s.json"
    path.write_text(json.dumps(symptoms))
    for out in (run("classify", str(path), "--json"), run("classify", "-", "--json", stdin=json.dumps(symptoms))):
        assert out.returncode == 0
        data = json.loads(out.stdout)
        assert data["regime"] == "overhead"
        assert {"regime", "evidence", "lever", "waste", "anomalies"} <= set(data)


def test_incident_human_and_json() -> None:
    out = run("incident", "A4")
    assert out.returncode == 0
    assert "Regime: memory" in out.stdout
    assert "46.7 ms" in out.stdout
    data = json.loads(run("incident", "a1", "--json").stdout)
    assert data["regime"] == "compute"


def test_gpus_lists_the_catalogue() -> None:
    data = json.loads(run("gpus", "--json").stdout)
    assert len(data["gpus"]) >= 17


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["ridge", "--gpu", "nope"], "--gpu: unknown GPU"),
        (["ridge", "--gpu", "t4", "--dtype", "bf16"], "--dtype"),
        (["ridge", "--peak-flops", "NaN", "--bandwidth", "2 TB/s"], "--peak-flops"),
        (["ridge", "--peak-flops", "312 TFLOP/s", "--bandwidth", "0"], "--bandwidth"),
        (["ridge", "--peak-flops", "312 TFLOP/s", "--bandwidth", "2 parsecs"], "unknown unit"),
        (["ridge"], "--gpu"),
        (["place", "--flops", "1e400", "--bytes", "1", "--gpu", "l4"], "--flops"),
        (["kernel", "matmul", "--m", "4", "--gpu", "l4"], "--n"),
        (["kernel", "elementwise", "--shape", "<img src=x>", "--gpu", "l4"], "--shape"),
        (["incident", "A9"], "incident"),
        (["classify", "/nonexistent.json"], "FILE"),
        (["nonsense"], "invalid choice"),
    ],
)
def test_bad_input_is_one_line_exit_2(args: list[str], fragment: str) -> None:
    out = run(*args)
    assert out.returncode == 2
    assert fragment in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1
    assert "Traceback" not in out.stderr


@pytest.mark.parametrize("content", ["not json", "[1, 2", json.dumps({"observed": {"time": []}}), "x" * 1_100_000])
def test_bad_files_are_one_line_exit_2(tmp_path: Path, content: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    out = run("classify", str(path))
    assert out.returncode == 2
    assert len(out.stderr.strip().splitlines()) == 1
    assert "Traceback" not in out.stderr
