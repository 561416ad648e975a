"""onnxcost: predict the run time of ONNX models, over the C library.

    >>> import onnxcost
    >>> r = onnxcost.predict("model.onnx", batch=8)
    >>> r["totals"]["time_ms"], r["target"]["label"]
    >>> onnxcost.analyze("model.onnx", dims={"sequence": 128})["totals"]["macs"]
    >>> onnxcost.sweep("model.onnx", batches=[1, 8, 64], memory_limit="2GiB")

Every function returns plain dicts and lists in the shapes of the command's
JSON ('onnxcost predict -f json'): "model" an object, "unbound_dims" a list.
Errors raise onnxcost.Error with the library's message; what choosing the
target warns about (a model measured on another machine) is issued as an
onnxcost.TargetWarning.

The shared library is looked for in $ONNXCOST_LIBRARY (a path), next to this
package, in the source checkout's build/ folder, then by the system's loader.
"""

import ctypes
import ctypes.util
import os
import re
import warnings

__all__ = ["analyze", "predict", "sweep", "annotate", "library_version", "Error",
           "TargetWarning"]

_SONAME = "libonnxcost.so.0"


class Error(Exception):
    """A failure the library reported: .status is its code's name ("I/O
    error"), str() its one-line message."""

    def __init__(self, message, status=None):
        super().__init__(message)
        self.status = status


class TargetWarning(UserWarning):
    """What choosing a target warns about: predictions for another machine,
    a thread count the timing model was not trained at, a calibration
    ignored."""


_c_str = ctypes.c_char_p
_u64 = ctypes.c_uint64
_i64 = ctypes.c_int64
_dbl = ctypes.c_double
_size = ctypes.c_size_t
_int = ctypes.c_int


class _Totals(ctypes.Structure):
    _fields_ = [(n, _u64) for n in (
        "nodes", "macs", "flops", "params", "bytes_read", "bytes_written",
        "peak_activation_bytes", "weight_bytes", "unknown_shape_nodes", "unsupported_nodes")]


class _Node(ctypes.Structure):
    _fields_ = [("name", _c_str), ("op", _c_str), ("domain", _c_str), ("output_shape", _c_str),
                ("macs", _u64), ("flops", _u64), ("params", _u64), ("bytes_read", _u64),
                ("bytes_written", _u64), ("shapes_known", _int), ("supported", _int)]


class _Target(ctypes.Structure):
    _fields_ = [(n, _c_str) for n in (
        "name", "runtime", "cpu", "mode", "optimizer", "machine", "model_machine",
        "calibration", "label")] + [("threads", _int), ("calibrated", _int),
                                     ("this_machine", _int), ("in_graph_fit", _c_str),
                                     ("threads_measured", _int), ("nearest", _int)]


class _Summary(ctypes.Structure):
    _fields_ = ([("batch", _i64)]
                + [(n, _dbl) for n in ("time_ms", "time_ms_low", "time_ms_high",
                                       "throughput_per_s", "overhead_ms", "output_ms",
                                       "kernels_raw_ms", "linear_ms", "roofline_ms")]
                + [(n, _u64) for n in ("output_bytes", "memory_bytes", "weights_bytes",
                                       "gradients_bytes", "optimizer_state_bytes",
                                       "activations_bytes")]
                + [("kernels", _size), ("uncounted_nodes", _size),
                   ("extrapolated_kernels", _size), ("extrapolated_ms", _dbl),
                   ("profiler_ms", _dbl), ("fresh_bytes", _u64), ("fault_ms", _dbl),
                   ("fresh_large_bytes", _u64), ("heap_churn_bytes", _u64)])


class _NodeTime(ctypes.Structure):
    _fields_ = [("name", _c_str), ("op", _c_str), ("time_us", _dbl), ("time_us_low", _dbl),
                ("time_us_high", _dbl), ("kernel", _c_str), ("fused_into", _c_str),
                ("runs_as", _c_str), ("unknown", _c_str), ("extrapolated", _c_str)]


class _KernelTime(ctypes.Structure):
    _fields_ = [("name", _c_str), ("op", _c_str), ("n_nodes", _size), ("time_us", _dbl),
                ("time_us_low", _dbl), ("time_us_high", _dbl), ("extrapolated", _c_str)]


class _Step(ctypes.Structure):
    _fields_ = [("batch", _i64), ("time_ms", _dbl), ("time_ms_low", _dbl),
                ("time_ms_high", _dbl), ("throughput_per_s", _dbl), ("memory_bytes", _u64),
                ("macs", _u64), ("fits", _int), ("uncounted_nodes", _size)]


_P = ctypes.c_void_p
_PP = ctypes.POINTER(ctypes.c_void_p)
# name: (restype, argtypes)
_PROTOS = {
    "onnxcost_version": (_c_str, []),
    "onnxcost_status_str": (_c_str, [_int]),
    "onnxcost_last_error": (_c_str, []),
    "onnxcost_model_load": (_int, [_c_str, _PP]),
    "onnxcost_model_free": (None, [_P]),
    "onnxcost_model_source": (_c_str, [_P]),
    "onnxcost_model_ir_version": (_i64, [_P]),
    "onnxcost_model_producer": (_c_str, [_P]),
    "onnxcost_model_opset": (_i64, [_P, _c_str]),
    "onnxcost_model_n_nodes": (_size, [_P]),
    "onnxcost_bindings_new": (_P, []),
    "onnxcost_bindings_free": (None, [_P]),
    "onnxcost_bindings_set_batch": (_int, [_P, _i64]),
    "onnxcost_bindings_set_dim": (_int, [_P, _c_str, _i64]),
    "onnxcost_bindings_set_assume": (_int, [_P, _c_str, _i64]),
    "onnxcost_bindings_set_input": (_int, [_P, _c_str, ctypes.POINTER(_i64), _size]),
    "onnxcost_analyze": (_int, [_P, _P, _PP]),
    "onnxcost_analysis_free": (None, [_P]),
    "onnxcost_analysis_totals": (None, [_P, ctypes.POINTER(_Totals)]),
    "onnxcost_analysis_batch": (_i64, [_P]),
    "onnxcost_analysis_n_unbound": (_size, [_P]),
    "onnxcost_analysis_unbound": (_c_str, [_P, _size]),
    "onnxcost_analysis_n_data_dims": (_size, [_P]),
    "onnxcost_analysis_data_dim": (_c_str, [_P, _size]),
    "onnxcost_analysis_node": (_int, [_P, _size, ctypes.POINTER(_Node)]),
    "onnxcost_analysis_n_warnings": (_size, [_P]),
    "onnxcost_analysis_warning": (_c_str, [_P, _size, ctypes.POINTER(_c_str)]),
    "onnxcost_predictor_open": (_int, [_c_str, _int, _int, _PP]),
    "onnxcost_predictor_free": (None, [_P]),
    "onnxcost_predictor_target": (None, [_P, ctypes.POINTER(_Target)]),
    "onnxcost_predictor_n_warnings": (_size, [_P]),
    "onnxcost_predictor_warning": (_c_str, [_P, _size]),
    "onnxcost_predict": (_int, [_P, _P, _PP]),
    "onnxcost_prediction_free": (None, [_P]),
    "onnxcost_prediction_summary": (None, [_P, ctypes.POINTER(_Summary)]),
    "onnxcost_prediction_node": (_int, [_P, _size, ctypes.POINTER(_NodeTime)]),
    "onnxcost_prediction_n_kernels": (_size, [_P]),
    "onnxcost_prediction_kernel": (_int, [_P, _size, ctypes.POINTER(_KernelTime)]),
    "onnxcost_prediction_kernel_node": (_c_str, [_P, _size, _size]),
    "onnxcost_sweep": (_int, [_P, _P, _P, ctypes.POINTER(_i64), _size, _u64,
                              ctypes.POINTER(_Step), ctypes.POINTER(_size),
                              ctypes.POINTER(_size)]),
    "onnxcost_annotate": (_int, [_P, _P, _c_str]),
}

_lib = None


def _candidates():
    env = os.environ.get("ONNXCOST_LIBRARY")
    if env:
        yield env
        return  # named explicitly: nothing else
    here = os.path.dirname(os.path.abspath(__file__))
    yield os.path.join(here, _SONAME)
    yield os.path.join(os.path.dirname(os.path.dirname(here)), "build", _SONAME)
    yield ctypes.util.find_library("onnxcost") or _SONAME


def _load():
    global _lib
    if _lib is not None:
        return _lib
    tried = []
    for path in _candidates():
        if os.sep in path and not os.path.exists(path):
            tried.append(path + " (missing)")
            continue
        try:
            lib = ctypes.CDLL(path)
        except OSError as e:
            tried.append(f"{path} ({e})")
            continue
        for name, (res, args) in _PROTOS.items():
            f = getattr(lib, name)
            f.restype, f.argtypes = res, args
        _lib = lib
        return lib
    raise Error("libonnxcost not found: tried " + "; ".join(tried)
                + " (set ONNXCOST_LIBRARY to the path of libonnxcost.so.0)")


def library_version():
    """The loaded library's version ("0.1.0")."""
    return _load().onnxcost_version().decode()


def _s(b):
    return None if b is None else b.decode("utf-8", "replace")


def _check(status):
    if status != 0:
        lib = _load()
        raise Error(_s(lib.onnxcost_last_error()), _s(lib.onnxcost_status_str(status)))


class _Handle:
    """A library handle freed by `free` on exit, in reverse order of opening."""

    def __init__(self):
        self.owned = []

    def __enter__(self):
        return self

    def own(self, ptr, free):
        self.owned.append((ptr, free))
        return ptr

    def __exit__(self, *exc):
        for ptr, free in reversed(self.owned):
            if ptr:
                free(ptr)
        return False


def _path(p):
    if not isinstance(p, (str, bytes, os.PathLike)):
        raise TypeError(f"model path: expected str or os.PathLike, not {type(p).__name__}")
    return os.fsencode(p)


def _model(h, lib, path):
    m = _P()
    _check(lib.onnxcost_model_load(_path(path), ctypes.byref(m)))
    return h.own(m, lib.onnxcost_model_free)


def _int_arg(name, v, lo):
    if isinstance(v, bool) or not isinstance(v, int):
        raise TypeError(f"{name}: expected an int, not {type(v).__name__}")
    if v < lo:
        raise ValueError(f"{name}: {v} is less than {lo}")
    return v


def _bindings(h, lib, batch=None, dims=None, inputs=None, assume=None):
    b = lib.onnxcost_bindings_new()
    if not b:
        raise MemoryError("onnxcost_bindings_new")
    h.own(b, lib.onnxcost_bindings_free)
    if batch is not None:
        _check(lib.onnxcost_bindings_set_batch(b, _int_arg("batch", batch, 1)))
    for name, value in (dims or {}).items():
        _check(lib.onnxcost_bindings_set_dim(b, str(name).encode(),
                                             _int_arg(f"dims[{name!r}]", value, 0)))
    for name, value in (assume or {}).items():
        _check(lib.onnxcost_bindings_set_assume(b, str(name).encode(),
                                                _int_arg(f"assume[{name!r}]", value, 0)))
    for name, shape in (inputs or {}).items():
        shape = [_int_arg(f"inputs[{name!r}]", d, 0) for d in shape]
        arr = (_i64 * max(1, len(shape)))(*shape)
        _check(lib.onnxcost_bindings_set_input(b, str(name).encode(), arr, len(shape)))
    return b


def _model_dict(lib, m):
    return {"file": _s(lib.onnxcost_model_source(m)),
            "ir_version": lib.onnxcost_model_ir_version(m),
            "producer": _s(lib.onnxcost_model_producer(m)),
            "opset": lib.onnxcost_model_opset(m, None)}


def _analysis(h, lib, m, b):
    a = _P()
    _check(lib.onnxcost_analyze(m, b, ctypes.byref(a)))
    return h.own(a, lib.onnxcost_analysis_free)


def _listed(a, count, item):
    """The strings item(a, 0 .. count(a) - 1)."""
    return [_s(item(a, i)) for i in range(count(a))]


def _unbound(lib, a):
    return _listed(a, lib.onnxcost_analysis_n_unbound, lib.onnxcost_analysis_unbound)


def _data_dims(lib, a):
    return _listed(a, lib.onnxcost_analysis_n_data_dims, lib.onnxcost_analysis_data_dim)


def _analysis_dicts(lib, m, a):
    t = _Totals()
    lib.onnxcost_analysis_totals(a, ctypes.byref(t))
    totals = {n: getattr(t, n) for n, _ in _Totals._fields_}
    totals["batch"] = lib.onnxcost_analysis_batch(a)
    nodes = []
    nd = _Node()
    for i in range(lib.onnxcost_model_n_nodes(m)):
        _check(lib.onnxcost_analysis_node(a, i, ctypes.byref(nd)))
        d = {n: getattr(nd, n) for n, _ in _Node._fields_}
        for k in ("name", "op", "domain", "output_shape"):
            d[k] = _s(d[k])
        d["shapes_known"], d["supported"] = bool(nd.shapes_known), bool(nd.supported)
        nodes.append(d)
    warns = []
    node = _c_str()
    for i in range(lib.onnxcost_analysis_n_warnings(a)):
        msg = lib.onnxcost_analysis_warning(a, i, ctypes.byref(node))
        warns.append({"node": _s(node.value), "message": _s(msg)})
    return totals, nodes, warns


def analyze(path, dims=None, batch=None, inputs=None, assume=None):
    """Shapes and costs of the model at `path`.

    dims: {"NAME": value} binds symbolic dims by name; batch: the leading
    symbolic dim of every input (default 1); inputs: {"input": [d0, d1, ...]}
    whole input shapes; assume: {"OUTPUT:DIM": size} the sizes that depend
    on the data (NonZero's count: "data_dims" lists those left).  Returns
    {"model", "unbound_dims", "data_dims", "nodes" (in
    topological order; each with "output_shape", a string, where the
    command's JSON lists inputs and outputs), "totals", "warnings"}.
    """
    lib = _load()
    with _Handle() as h:
        m = _model(h, lib, path)
        a = _analysis(h, lib, m, _bindings(h, lib, batch, dims, inputs, assume))
        totals, nodes, warns = _analysis_dicts(lib, m, a)
        return {"model": _model_dict(lib, m), "unbound_dims": _unbound(lib, a),
                "data_dims": _data_dims(lib, a),
                "nodes": nodes, "totals": totals, "warnings": warns}


_MODES = {("inference", None): 0, ("training", None): 1, ("training", "sgd"): 1,
          ("training", "adam"): 2}


def _predictor(h, lib, target, threads, mode, optimizer):
    if target is not None and not isinstance(target, (str, bytes, os.PathLike)):
        raise TypeError(f"target: expected a name or a path, not {type(target).__name__}")
    key = (mode, optimizer)
    if key not in _MODES:
        raise ValueError(f"mode={mode!r}, optimizer={optimizer!r}: mode is 'inference' or "
                         "'training', optimizer (training only) 'sgd' or 'adam'")
    threads = 0 if threads is None else _int_arg("threads", threads, 1)
    p = _P()
    _check(lib.onnxcost_predictor_open(None if target is None else os.fsencode(target),
                                       _MODES[key], threads, ctypes.byref(p)))
    h.own(p, lib.onnxcost_predictor_free)
    for i in range(lib.onnxcost_predictor_n_warnings(p)):
        warnings.warn(_s(lib.onnxcost_predictor_warning(p, i)), TargetWarning, stacklevel=3)
    return p


def _target_dict(lib, p):
    t = _Target()
    lib.onnxcost_predictor_target(p, ctypes.byref(t))
    d = {n: _s(getattr(t, n)) for n in ("name", "runtime", "cpu")}
    d["threads"] = t.threads
    d["mode"] = _s(t.mode)
    d["optimizer"] = _s(t.optimizer)
    d["machine"] = _s(t.machine) or None
    d["model_machine"] = _s(t.model_machine) or None
    d["calibrated"] = bool(t.calibrated)
    d["calibration"] = _s(t.calibration)
    d["this_machine"] = bool(t.this_machine)
    d["nearest"] = bool(t.nearest)
    d["label"] = _s(t.label)
    d["in_graph_fit"] = _s(t.in_graph_fit)
    d["threads_measured"] = bool(t.threads_measured)
    d["warnings"] = [_s(lib.onnxcost_predictor_warning(p, i))
                     for i in range(lib.onnxcost_predictor_n_warnings(p))]
    return d


def predict(path, batch=None, threads=None, mode="inference", optimizer=None, target=None,
            dims=None, inputs=None, assume=None):
    """The predicted time of the model at `path` on a target.

    target: None (the built-in model of the mode, with this machine's cached
    calibration), "ort-cpu", "torch-cpu", "ort-cpu@FINGERPRINT", or the path
    of a calibration or timing-model file; threads: intra-op threads (None:
    the model's); mode "inference" or "training" (optimizer "sgd" or "adam").
    Returns {"model", "unbound_dims", "nodes", "kernels", "totals", "target",
    "warnings"} as 'onnxcost predict -f json' does.
    """
    lib = _load()
    with _Handle() as h:
        p = _predictor(h, lib, target, threads, mode, optimizer)
        m = _model(h, lib, path)
        a = _analysis(h, lib, m, _bindings(h, lib, batch, dims, inputs, assume))
        r = _P()
        _check(lib.onnxcost_predict(p, a, ctypes.byref(r)))
        h.own(r, lib.onnxcost_prediction_free)
        totals, nodes, warns = _analysis_dicts(lib, m, a)
        nt = _NodeTime()
        for i, node in enumerate(nodes):
            _check(lib.onnxcost_prediction_node(r, i, ctypes.byref(nt)))
            node.update(time_us=nt.time_us, time_us_low=nt.time_us_low,
                        time_us_high=nt.time_us_high)
            for k in ("kernel", "fused_into", "runs_as", "unknown", "extrapolated"):
                if getattr(nt, k) is not None:
                    node[k] = _s(getattr(nt, k))
        kernels = []
        kt = _KernelTime()
        for k in range(lib.onnxcost_prediction_n_kernels(r)):
            _check(lib.onnxcost_prediction_kernel(r, k, ctypes.byref(kt)))
            kernels.append({"name": _s(kt.name), "op": _s(kt.op),
                            "nodes": [_s(lib.onnxcost_prediction_kernel_node(r, k, j))
                                      for j in range(kt.n_nodes)],
                            "time_us": kt.time_us, "time_us_low": kt.time_us_low,
                            "time_us_high": kt.time_us_high})
            if kt.extrapolated is not None:
                kernels[-1]["extrapolated"] = _s(kt.extrapolated)
        s = _Summary()
        lib.onnxcost_prediction_summary(r, ctypes.byref(s))
        training = mode == "training"
        for n in ("time_ms", "time_ms_low", "time_ms_high", "overhead_ms", "output_ms",
                  "kernels_raw_ms", "linear_ms", "roofline_ms", "output_bytes",
                  "memory_bytes", "throughput_per_s", "batch"):
            totals[n] = getattr(s, n)
        if training:
            totals["fault_ms"] = s.fault_ms
        totals["kernels"] = s.kernels
        totals["uncounted_nodes"] = s.uncounted_nodes
        totals["extrapolated_kernels"] = s.extrapolated_kernels
        totals["extrapolated_ms"] = s.extrapolated_ms
        totals["profiler_ms"] = s.profiler_ms
        if training:
            totals["training_memory"] = {
                "weights_bytes": s.weights_bytes, "gradients_bytes": s.gradients_bytes,
                "optimizer_state_bytes": s.optimizer_state_bytes,
                "activations_bytes": s.activations_bytes, "total_bytes": s.memory_bytes,
                "fresh_bytes": s.fresh_bytes, "fresh_large_bytes": s.fresh_large_bytes,
                "heap_churn_bytes": s.heap_churn_bytes}
        return {"model": _model_dict(lib, m), "unbound_dims": _unbound(lib, a),
                "data_dims": _data_dims(lib, a),
                "nodes": nodes, "kernels": kernels, "totals": totals,
                "target": _target_dict(lib, p), "warnings": warns}


_UNITS = {"": 1, "B": 1, "K": 10**3, "KB": 10**3, "KIB": 2**10, "M": 10**6, "MB": 10**6,
          "MIB": 2**20, "G": 10**9, "GB": 10**9, "GIB": 2**30, "T": 10**12, "TB": 10**12,
          "TIB": 2**40}


def _size_arg(v):
    if v is None:
        return 0
    if isinstance(v, int) and not isinstance(v, bool):
        if v < 1:
            raise ValueError(f"memory_limit: {v} is not a positive number of bytes")
        return v
    if isinstance(v, str):
        mt = re.fullmatch(r"\s*([0-9]+(?:\.[0-9]*)?(?:[eE][0-9]+)?)\s*([A-Za-z]*)\s*", v)
        if mt and mt.group(2).upper() in _UNITS:
            n = int(float(mt.group(1)) * _UNITS[mt.group(2).upper()])
            if n >= 1:
                return n
        raise ValueError(f"memory_limit: {v!r} is not a size such as 8GiB, 512MB or 1e9")
    raise TypeError(f"memory_limit: expected bytes (int) or a size (str), not "
                    f"{type(v).__name__}")


def sweep(path, batches=(1, 2, 4, 8, 16, 32, 64, 128, 256), memory_limit=None, threads=None,
          mode="inference", optimizer=None, target=None, dims=None, inputs=None,
          assume=None):
    """The model at `path` predicted at each batch size, with its memory
    against memory_limit (bytes, or a size such as "8GiB"; None: no limit).
    inputs keep their dims but take each step's batch; dims may not bind the
    batch dim.  Returns {"model", "mode", "unbound_dims", "data_dims", "target",
    "memory_limit_bytes", "memory_limit", "sweep": [...], "largest_fitting_batch",
    "best_throughput_batch"} as 'onnxcost sweep -f json' does.
    """
    batches = [_int_arg("batches", b, 1) for b in batches]
    if not batches:
        raise ValueError("batches: give at least one batch size")
    limit = _size_arg(memory_limit)
    lib = _load()
    with _Handle() as h:
        p = _predictor(h, lib, target, threads, mode, optimizer)
        m = _model(h, lib, path)
        b = _bindings(h, lib, None, dims, inputs, assume)
        n = len(batches)
        steps = (_Step * n)()
        fit, best = _size(), _size()
        _check(lib.onnxcost_sweep(p, m, b, (_i64 * n)(*batches), n, limit, steps,
                                  ctypes.byref(fit), ctypes.byref(best)))
        # the dims left unbound, as at the first step
        _check(lib.onnxcost_bindings_set_batch(b, batches[0]))
        a = _analysis(h, lib, m, b)
        none = ctypes.c_size_t(-1).value
        out = {"model": _model_dict(lib, m), "mode": mode, "unbound_dims": _unbound(lib, a),
               "data_dims": _data_dims(lib, a), "target": _target_dict(lib, p)}
        if mode == "training":
            out["optimizer"] = optimizer or "sgd"
        out["memory_limit_bytes"] = limit or None
        # the limit as given: a size string as written, bytes as a number
        out["memory_limit"] = (None if memory_limit is None else
                               memory_limit if isinstance(memory_limit, str) else str(limit))
        out["sweep"] = [{"batch": s.batch, "time_ms": s.time_ms, "time_ms_low": s.time_ms_low,
                         "time_ms_high": s.time_ms_high, "throughput_per_s": s.throughput_per_s,
                         "memory_bytes": s.memory_bytes, "macs": s.macs, "fits": bool(s.fits),
                         "uncounted_nodes": s.uncounted_nodes} for s in steps]
        out["largest_fitting_batch"] = None if fit.value == none else steps[fit.value].batch
        out["best_throughput_batch"] = None if fit.value == none else steps[best.value].batch
        return out


def annotate(path, output, batch=None, threads=None, mode="inference", optimizer=None,
             target=None, dims=None, inputs=None, assume=None):
    """Write a copy of the model at `path` to `output` whose nodes carry
    their predicted times and costs (as 'onnxcost annotate').  Returns the
    prediction's totals."""
    lib = _load()
    with _Handle() as h:
        p = _predictor(h, lib, target, threads, mode, optimizer)
        m = _model(h, lib, path)
        a = _analysis(h, lib, m, _bindings(h, lib, batch, dims, inputs, assume))
        _check(lib.onnxcost_annotate(p, a, _path(output)))
        t = _Totals()
        lib.onnxcost_analysis_totals(a, ctypes.byref(t))
        return {"output": os.fsdecode(output), "batch": lib.onnxcost_analysis_batch(a),
                "nodes": t.nodes}
