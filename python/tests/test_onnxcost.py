"""The Python module against the command: the same numbers in the same
shapes, errors as onnxcost.Error, and an install with pip into a venv."""

import json
import os
import shutil
import subprocess
import sys
import warnings

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(HERE))
import onnxcost  # noqa: E402

SAMPLES = os.path.join(ROOT, "samples")
SQ = os.path.join(SAMPLES, "squeezenet1_1.onnx")
MB = os.path.join(SAMPLES, "mobilenet_v2.onnx")
ENC = os.path.join(SAMPLES, "tiny_encoder.onnx")
CAL = os.path.join(ROOT, "data", "machines", "cpu-AuthenticAMD-f26-m2",
                   "ort-cpu-inference-calibration.json")
BIN = os.environ.get("ONNXCOST_BIN", os.path.join(ROOT, "build", "onnxcost"))


@pytest.fixture(autouse=True)
def no_cached_calibration(tmp_path, monkeypatch):
    # both sides choose the target alike: no calibration cached
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("ONNXCOST_MACHINE", raising=False)


def command(*args):
    p = subprocess.run([BIN, *args, "-f", "json"], capture_output=True, text=True,
                       env=os.environ.copy())
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


@pytest.mark.parametrize("model,kw,args", [
    (SQ, {}, []),
    (MB, {"batch": 4, "threads": 2}, ["-b", "4", "-T", "2"]),
    (SQ, {"target": CAL}, ["--target", CAL]),
    (ENC, {"dims": {"L": 32}, "batch": 2}, ["--dim", "L=32", "-b", "2"]),
    (SQ, {"mode": "training", "optimizer": "adam"}, ["--mode", "training", "--optimizer", "adam"]),
])
def test_predict_is_the_commands(model, kw, args):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", onnxcost.TargetWarning)
        got = onnxcost.predict(model, **kw)
    want = command("predict", *args, model)
    assert got["model"] == want["model"]
    assert got["unbound_dims"] == want["unbound_dims"]
    want["target"].pop("baseline")
    assert got["target"] == want["target"]
    for k, v in got["totals"].items():
        assert want["totals"][k] == v, k
    assert len(got["nodes"]) == len(want["nodes"])
    for g, w in zip(got["nodes"], want["nodes"]):
        for k in ("name", "op", "domain", "macs", "flops", "params", "bytes_read",
                  "bytes_written", "shapes_known", "supported", "time_us", "time_us_low",
                  "time_us_high", "kernel", "fused_into", "runs_as", "unknown",
                  "extrapolated"):
            assert g.get(k) == w.get(k), (g["name"], k)
    assert got["kernels"] == [{k: v for k, v in w.items() if k not in ("tensor", "costed_as")}
                              for w in want["kernels"]]
    assert got["warnings"] == want["warnings"]


def test_analyze_is_the_commands():
    got = onnxcost.analyze(ENC, dims={"L": 16}, batch=3)
    want = command("analyze", "--dim", "L=16", "-b", "3", ENC)
    assert got["model"] == want["model"] and got["unbound_dims"] == want["unbound_dims"] == []
    assert got["totals"] == want["totals"]
    assert [(n["name"], n["macs"], n["bytes_read"]) for n in got["nodes"]] == \
        [(n["name"], n["macs"], n["bytes_read"]) for n in want["nodes"]]
    # an input shape binds as --input does
    a = onnxcost.analyze(ENC, inputs={"input_ids": [2, 8]})
    assert a["totals"]["batch"] == 2 and a["unbound_dims"] == []
    assert a["nodes"][-1]["output_shape"].startswith("[")


def test_assume_sizes_that_depend_on_the_data():
    nz = os.path.join(ROOT, "tests", "data", "unknown", "nonzero.onnx")
    a = onnxcost.analyze(nz)
    assert a["data_dims"] == ["nz:1"] and a["totals"]["unknown_shape_nodes"] > 0
    b = onnxcost.analyze(nz, assume={"nz:1": 7})
    assert b["data_dims"] == [] and b["totals"]["unknown_shape_nodes"] == 0
    p = onnxcost.predict(nz, assume={"nz:1": 7})
    assert p["data_dims"] == [] and p["totals"]["uncounted_nodes"] == 0
    with pytest.raises(onnxcost.Error, match="nz:1"):
        onnxcost.analyze(nz, assume={"nz:2": 3})


def test_sweep_is_the_commands():
    got = onnxcost.sweep(MB, batches=[1, 2, 4, 8, 16], memory_limit="60MB")
    want = command("sweep", "-b", "1,2,4,8,16", "-M", "60MB", MB)
    assert got == want
    assert got["largest_fitting_batch"] == 4 and not got["sweep"][-1]["fits"]
    assert onnxcost.sweep(MB, batches=[1, 2], memory_limit=1000)["largest_fitting_batch"] is None
    t = onnxcost.sweep(SQ, batches=[1, 2], mode="training")
    assert t["target"]["name"] == "torch-cpu" and t["optimizer"] == "sgd"


def test_errors_carry_the_librarys_message(tmp_path):
    with pytest.raises(onnxcost.Error) as e:
        onnxcost.predict(str(tmp_path / "missing.onnx"))
    assert "missing.onnx" in str(e.value) and e.value.status == "I/O error"
    with pytest.raises(onnxcost.Error, match="predicts training steps"):
        onnxcost.predict(SQ, target="torch-cpu")
    with pytest.raises(onnxcost.Error, match="no inference target 'nope@x'"):
        onnxcost.predict(SQ, target="nope@x")
    with pytest.raises(onnxcost.Error, match="NOPE"):
        onnxcost.analyze(ENC, dims={"NOPE": 3})
    with pytest.raises(onnxcost.Error, match="binds the batch dim"):
        onnxcost.sweep(ENC, batches=[1, 2], dims={"N": 4})
    bad = tmp_path / "bad.onnx"
    bad.write_bytes(b"\x08\x07garbage" * 10)
    with pytest.raises(onnxcost.Error) as e:
        onnxcost.analyze(str(bad))
    assert "bad.onnx" in str(e.value)
    # arguments Python can judge itself
    with pytest.raises(ValueError):
        onnxcost.predict(SQ, batch=0)
    with pytest.raises(TypeError):
        onnxcost.predict(SQ, batch="8")
    with pytest.raises(ValueError):
        onnxcost.predict(SQ, mode="fast")
    with pytest.raises(ValueError):
        onnxcost.sweep(SQ, memory_limit="lots")
    with pytest.raises(ValueError):
        onnxcost.sweep(SQ, batches=[])


def test_target_warnings_are_issued(monkeypatch):
    monkeypatch.setenv("ONNXCOST_MACHINE", "other-box")
    monkeypatch.setenv("ONNXCOST_ISA", "avx2 fma")  # no shipped calibration has its block
    with pytest.warns(onnxcost.TargetWarning, match="this machine is other-box"):
        r = onnxcost.predict(SQ)
    assert r["target"]["this_machine"] is False and r["target"]["calibrated"] is False
    assert r["target"]["nearest"] is False
    monkeypatch.setenv("ONNXCOST_ISA", "avx2 fma avx512f avx512_vnni avx512_bf16")
    with pytest.warns(onnxcost.TargetWarning, match="the measured machine nearest it"):
        r = onnxcost.predict(SQ)
    t = r["target"]
    assert t["nearest"] and t["calibrated"] and not t["this_machine"]
    assert t["machine"] == "cpu-AuthenticAMD-f26-m2"


def test_annotate(tmp_path):
    import onnx  # Debian's python3-onnx, installed by scripts/setup.sh
    out = tmp_path / "ann.onnx"
    r = onnxcost.annotate(SQ, str(out), batch=2)
    assert r["batch"] == 2
    m = onnx.load(str(out))
    meta = {p.key: p.value for p in m.metadata_props}
    assert meta["onnxcost.batch"] == "2" and float(meta["onnxcost.time_ms"]) > 0
    assert len(m.graph.node) == r["nodes"]
    assert "onnxcost: time_us=" in m.graph.node[0].doc_string


def test_library_lookup_names_what_it_tried(tmp_path):
    env = dict(os.environ, ONNXCOST_LIBRARY=str(tmp_path / "libnothing.so"))
    p = subprocess.run([sys.executable, "-c",
                        "import sys; sys.path.insert(0, sys.argv[1]); import onnxcost\n"
                        "try:\n onnxcost.library_version()\n"
                        "except onnxcost.Error as e: print(e)", os.path.dirname(HERE)],
                       capture_output=True, text=True, env=env)
    assert "libnothing.so" in p.stdout and "ONNXCOST_LIBRARY" in p.stdout, p.stdout + p.stderr
    assert onnxcost.library_version() == "0.1.0"


def test_pip_install_into_a_venv(tmp_path):
    """pip install ./python with Debian's venv and setuptools, offline: the
    library travels inside the package."""
    lib = os.environ.get("ONNXCOST_LIBRARY") or os.path.join(ROOT, "build", "libonnxcost.so.0")
    src = tmp_path / "src"
    shutil.copytree(os.path.dirname(HERE), src, ignore=shutil.ignore_patterns("tests", "__pycache__", "build", "*.egg-info"))
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    env = dict(os.environ, ONNXCOST_LIBRARY=lib, PIP_NO_INDEX="1",
               PIP_DISABLE_PIP_VERSION_CHECK="1")
    p = subprocess.run([str(venv / "bin" / "pip"), "install", str(src)], capture_output=True,
                       text=True, env=env)
    assert p.returncode == 0, p.stdout + p.stderr
    env.pop("ONNXCOST_LIBRARY")
    p = subprocess.run([str(venv / "bin" / "python"), "-c",
                        "import onnxcost, os, sys\n"
                        "print(os.path.dirname(onnxcost.__file__))\n"
                        "print(onnxcost.predict(sys.argv[1])['totals']['time_ms'])", SQ],
                       capture_output=True, text=True, env=env, cwd=str(tmp_path))
    assert p.returncode == 0, p.stderr
    where, ms = p.stdout.split()
    assert where.startswith(str(venv)) and os.path.exists(os.path.join(where, "libonnxcost.so.0"))
    assert float(ms) == onnxcost.predict(SQ)["totals"]["time_ms"]
