"""wire.js's unpack against tests/reference/wire.py, column for column and bit for bit."""

from __future__ import annotations

import base64

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from core.descent import svm_sgd
from core.exact_runs import exact_perceptron
from core.perceptron import perceptron
from core.trace import outcome, record
from datasets.builtin import BUILTIN, noisy, separable
from tests.reference.wire import unpack
from ui.stepper import Run, pack, perceptron_run, with_companion

pytestmark = pytest.mark.browser

TYPES = {"Float64Array": np.float64, "Float32Array": np.float32, "Int32Array": np.int32,
         "Int16Array": np.int16, "Int8Array": np.int8, "Uint8Array": np.uint8}
UNPACK = """(text) => {
  const { header, columns } = pl.unpack(pl.bytes(text));
  const out = {};
  for (const [name, { values, width }] of Object.entries(columns)) {
    out[name] = { type: values.constructor.name, width, data: pl.base64(values) };
  }
  return { header, columns: out };
}"""


def page_unpack(page, blob: bytes) -> tuple[dict, dict[str, np.ndarray]]:
    """What the page's unpack makes of the bytes: its header, and its columns as arrays."""
    got = page.evaluate(UNPACK, base64.b64encode(blob).decode())
    columns = {}
    for name, column in got["columns"].items():
        values = np.frombuffer(base64.b64decode(column["data"]), dtype=TYPES[column["type"]])
        columns[name] = values.reshape(-1, column["width"]) if column["width"] > 1 else values
    return got["header"], columns


def same(page_values: np.ndarray, reference: np.ndarray) -> bool:
    """The same shape and numbers; doubles bit for bit (a -0.0 is not 0.0), NaN as NaN."""
    reference = np.asarray(reference)
    if page_values.shape != reference.shape:
        return False
    if page_values.dtype.kind != "f":
        return bool(np.array_equal(page_values, reference))
    p = page_values.astype(np.float64)
    q = reference.astype(np.float64)
    return bool(((p.view(np.int64) == q.view(np.int64)) | (np.isnan(p) & np.isnan(q))).all())


def assert_as_reference(page, blob: bytes) -> dict[str, np.ndarray]:
    """The page unpacks the bytes as the reference does; the page's columns."""
    header, columns = page_unpack(page, blob)
    ref_header, ref_columns = unpack(blob)
    assert header == ref_header
    assert set(columns) == set(ref_columns)
    for name, values in columns.items():
        assert same(values, ref_columns[name]), name
    return columns


column = st.sampled_from(list(TYPES.values())).flatmap(lambda dtype: hnp.arrays(
    dtype, st.one_of(st.integers(0, 40).map(lambda n: (n,)),
                     st.tuples(st.integers(0, 20), st.integers(2, 3)))))


@settings(max_examples=40, deadline=None)
@given(columns=st.dictionaries(st.text("abcXYZ_", min_size=1, max_size=8), column, max_size=6),
       header=st.dictionaries(st.text(max_size=8).filter(
           lambda key: key not in {"held", "averaged", "t0", "descent", "scale"}),
           st.integers(-2**40, 2**40) | st.text(max_size=20), max_size=4))
def test_any_columns_arrive_whole(js, columns, header):
    assert_as_reference(js, pack(header, columns))


def packed(run: Run) -> bytes:
    return pack({**run.header, "run": run.id, "start": 0, "keys": True}, run.columns)


SETTINGS = dict(eta=0.1, bias=True, init="zeros", seed=3, max_epochs=5)


@pytest.mark.parametrize("order", ["cyclic", "random", "random_misclassified"])
def test_a_perceptrons_held_weights_activations_and_epochs(js, order):
    data = noisy(60, 0.8, 2)
    trace = record(perceptron(data.X, data.y, order=order, **SETTINGS))
    run = perceptron_run(data, trace, {**SETTINGS, "order": order},
                         outcome(trace, data.X, data.y, max_epochs=5))
    assert "held" in run.header and "mistakes0" in run.columns
    assert "activation" not in run.columns and run.header["scale"]  # exact: the page writes a
    columns = assert_as_reference(js, packed(run))
    assert same(columns["W"], trace.W) and same(columns["activation"], trace.activation)


def test_a_window_of_a_run_counts_from_its_own_t(js):
    data = BUILTIN["XOR (±1)"]()
    window = record(exact_perceptron(data.X, data.y, max_epochs=4, every="visit", from_epoch=3))
    run = perceptron_run(data, window, {**SETTINGS, "eta": 1.0, "max_epochs": 4},
                         outcome(window, data.X, data.y, max_epochs=4))
    assert run.header["t0"] and "mistakes" in run.columns
    columns = assert_as_reference(js, packed(run))
    assert np.array_equal(columns["epoch"], window.epoch)


@pytest.mark.parametrize(("lam", "eta0", "order", "bias"), [
    (0.01, 1.0, "cyclic", True), (0.1, 0.5, "shuffle_each_epoch", True),
    (1e-4, 3.0, "random", False), (0.0, 0.3, "cyclic", True)])
def test_an_svms_descent_is_rebuilt_from_its_start(js, lam, eta0, order, bias):
    data = separable(80, 0.2, 1)
    settings = dict(lam=lam, eta=eta0, order=order, bias=bias, seed=5, max_epochs=30)
    trace = record(svm_sgd(data.X, data.y, **settings))
    trace = trace.padded(trace.steps + 7)  # as beside a longer perceptron run
    run = perceptron_run(data, trace, settings, outcome(trace, data.X, data.y, max_epochs=30),
                         descent={"lam": lam, "eta0": eta0})
    assert run.header["descent"] and len(run.columns["W"]) == 1
    columns = assert_as_reference(js, packed(run))
    assert same(columns["W"], trace.W) and same(columns["b"], trace.b)
    # a as the descent took it, to its sign at 0 (the first step's, from w = 0, b = 0)
    assert same(columns["activation"], trace.activation)


COMPANION = """(text) => {
  const { companion } = pl.unpack(pl.bytes(text));
  const out = {};
  for (const [name, { values, width }] of Object.entries(companion.columns)) {
    out[name] = { type: values.constructor.name, width, data: pl.base64(values) };
  }
  return { header: companion.header, columns: out };
}"""


def test_a_companion_is_rebuilt_as_the_run_it_was(js):
    """Two runs in one stepper (with_companion: the SVM on the perceptron's plane): the page
    rebuilds the second from its "companion." columns and the run's points, as it rebuilds
    that run alone (its descent's W and b bit for bit)."""
    data = separable(60, 0.2, 4)
    settings = dict(lam=0.01, eta=1.0, order="cyclic", bias=True, seed=5, max_epochs=5)
    svm = record(svm_sgd(data.X, data.y, **settings))
    perc = record(perceptron(data.X, data.y, order="cyclic", **SETTINGS)).padded(svm.steps)
    leader = perceptron_run(data, perc, {**SETTINGS, "order": "cyclic"},
                            outcome(perc, data.X, data.y, max_epochs=5))
    follower = perceptron_run(data, svm, settings, outcome(svm, data.X, data.y, max_epochs=5),
                              descent={"lam": 0.01, "eta0": 1.0})
    paired = with_companion(leader, follower)
    got = js.evaluate(COMPANION, base64.b64encode(packed(paired)).decode())
    alone_header, alone = page_unpack(js, packed(follower))
    for name, column in got["columns"].items():
        values = np.frombuffer(base64.b64decode(column["data"]), dtype=TYPES[column["type"]])
        values = values.reshape(-1, column["width"]) if column["width"] > 1 else values
        assert same(values, alone[name]), name
    assert set(got["columns"]) == set(alone)
    assert same(alone["W"], svm.W) and same(alone["b"], svm.b)
    assert got["header"]["svm"] == alone_header["svm"] and got["header"]["companionOf"]
    # and the run itself is the one it was alone
    header, columns = page_unpack(js, packed(paired))
    assert same(columns["W"], perc.W) and "companionOf" not in header


def test_the_averaged_weights_are_the_running_means(js):
    data = noisy(40, 0.8, 4)
    trace = record(perceptron(data.X, data.y, **SETTINGS))
    run = perceptron_run(data, trace, SETTINGS, outcome(trace, data.X, data.y, max_epochs=5))
    run = Run(run.id, run.steps, {**run.header, "averaged": True}, run.columns)
    columns = assert_as_reference(js, packed(run))
    k = np.arange(1, trace.steps + 1)
    assert same(columns["Wavg"][1:], np.cumsum(trace.W[1:], axis=0) / k[:, None])


def test_row_reads_one_step(js):
    rows = js.evaluate("""() => {
      const W = { values: new Float64Array([1, 2, 3, 4, 5, 6]), width: 2 };
      const b = { values: new Float64Array([7, 8, 9]), width: 1 };
      return [pl.row(W, 0), pl.row(W, 2), pl.row(b, 1)];
    }""")
    assert rows == [[1, 2], [5, 6], 8]
