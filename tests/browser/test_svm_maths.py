"""The SVM's step maths written in the page carry the numbers of the lesson's svm_step_lines."""

from __future__ import annotations

import re

import numpy as np
import pytest

from core.descent import svm_sgd, svm_step_size
from core.trace import STEP_LIMIT, record
from datasets.builtin import BUILTIN, separable
from lessons.svm.figures import svm_step_lines
from testkit.stepper import numbers, ready, wait_status
from tests.browser.conftest import page_errors, wait_idle
from viz.maths import num

pytestmark = pytest.mark.browser


@pytest.fixture
def page(tab):
    """Each test here opens its own address first: no lesson is opened before it."""
    return tab
FOLLOWER = ".pl-follower"
# LaTeX names whose subscripts and arguments are letters or a 0 that is not a number shown
NAMES = re.compile(r"\\eta_[0t]|\\sqrt\{t\}|\\top")
NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:e-?\d+)?")


def latex_numbers(lines: list[str]) -> list[str]:
    """Every number of viz's LaTeX lines, in order, as written."""
    return [n for line in lines for n in NUMBER.findall(NAMES.sub("", line))]


def expected(data, trace, k: int, lam: float, eta0: float) -> list[str]:
    """The numbers of step k: svm_step_lines's maths, then the boundary w·x + b = 0 after it when
    the maths do not show b after the step (beside the perceptron, rows are dear)."""
    i = int(trace.index[k])
    lines = svm_step_lines(
        x=data.X[i], y=float(data.y[i]), w_before=trace.W[k - 1], b_before=trace.b[k - 1],
        w_after=trace.W[k], b_after=trace.b[k], a=trace.activation[k],
        updated=bool(trace.updated[k]), eta=svm_step_size(k, eta0), lam=lam, t=k, eta0=eta0)
    w, b = trace.W[k], trace.b[k]
    shown = bool(trace.updated[k])
    boundary = [num(w[0]), num(abs(w[1])), num(abs(b)), "0"] if np.any(w != 0) and not shown \
        else []
    return latex_numbers(lines) + boundary


@pytest.mark.parametrize(("query", "data", "lam", "eta0"), [
    ("", BUILTIN["Lecture notes' example: 4 points"](), 0.01, 1.0),
    ("data=separable-generator&n=30&lam=0.1&eta0=0.5", separable(30, 0.2, 0), 0.1, 0.5),
])
def test_the_svm_maths_in_the_page_are_viz_svms(tab, server_url, query, data, lam, eta0):
    page = tab  # opened on its own link first: no lesson opened before it
    trace = record(svm_sgd(data.X, data.y, lam=lam, eta=eta0, max_epochs=200))
    page.goto(f"{server_url}/svm?part=Train+side+by+side&{query}")
    wait_idle(page)
    ready(page)
    quiet = int(np.flatnonzero(~trace.updated[1:])[0]) + 1  # a step with only the penalty
    picks = sorted({1, 2, 3, quiet, trace.steps // 2, trace.steps})
    for k in picks:
        # the leader's slider (the follower's is hidden) moves the SVM's run too
        page.locator(".pl-stepper:not(.pl-follower) .pl-slider").first.fill(str(k))
        wait_status(page, f"Step {k} / ", FOLLOWER)
        assert numbers(page, FOLLOWER) == expected(data, trace, k, lam, eta0), k
    assert not page_errors(page)


# The follower's columns as the page holds them after unpacking, as raw bytes
COLUMNS = """() => {
  const s = document.querySelector('.pl-follower').parentElement.__plStepper;
  const raw = (name) => {
    const v = s.run.columns[name].values;
    return Array.from(new Uint8Array(v.buffer, v.byteOffset, v.byteLength));
  };
  return {steps: s.K, W: raw('W'), b: raw('b'), activation: raw('activation'), X: raw('X'),
          y: Array.from(s.run.columns.y.values)};
}"""


def floats(raw: list[int], width: int = 1) -> np.ndarray:
    """float64s from their bytes."""
    values = np.frombuffer(bytes(raw), dtype=np.float64)
    return values.reshape(-1, width) if width > 1 else values


@pytest.mark.parametrize(("query", "settings"), [
    ("", dict(lam=0.01, eta=1.0, order="cyclic", bias=True, seed=0, epochs=200)),
    ("data=separable-generator&n=200", dict(lam=0.01, eta=1.0, order="cyclic", bias=True,
                                            seed=0, epochs=200)),
    ("data=noisy-blobs-generator&n=60&order=shuffle_each_epoch&bias=0&seed=4&lam=0.1&eta0=2",
     dict(lam=0.1, eta=2.0, order="shuffle_each_epoch", bias=False, seed=4, epochs=200)),
    ("data=iris-setosa-vs-versicolor-sepal&order=random&seed=2&lam=0.001&eta0=0.3",
     dict(lam=0.001, eta=0.3, order="random", bias=True, seed=2, epochs=200)),
])
def test_the_page_rebuilds_the_svms_weights_bit_for_bit(tab, server_url, query, settings):
    """Only W[0] and b[0] travel: the page takes every step of the descent itself, and every
    weight, bias and activation it holds is the server's to the last bit."""
    page = tab  # opened on its own link first: no lesson opened before it
    page.goto(f"{server_url}/svm?part=Train+side+by+side&{query}")
    wait_idle(page)
    ready(page)
    # the follower (the SVM's run) mounts after its leader on a busy machine: wait for its run
    page.wait_for_function("() => document.querySelector('.pl-follower')?.parentElement"
                           "?.__plStepper?.run")
    held = page.evaluate(COLUMNS)
    X, y = floats(held["X"], 2), np.asarray(held["y"], dtype=float)
    epochs = min(settings.pop("epochs"), max(1, STEP_LIMIT // len(y)))
    trace = record(svm_sgd(X, y, max_epochs=epochs, **settings)).padded(held["steps"])
    assert trace.steps == held["steps"] > 100
    assert floats(held["W"], 2).tobytes() == np.asarray(trace.W, dtype=np.float64).tobytes()
    assert floats(held["b"]).tobytes() == np.asarray(trace.b, dtype=np.float64).tobytes()
    page_a, server_a = floats(held["activation"]), np.asarray(trace.activation, dtype=float)
    visited = trace.index >= 0
    assert page_a[visited].tobytes() == server_a[visited].tobytes()
    assert np.isnan(page_a[~visited]).all()
    assert not page_errors(page)
