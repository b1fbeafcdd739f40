"""The compiled inner loop of the walk (core/scan.py): exact runs against a plain loop in
fractions for every order and test, float runs bit for bit against the same loop run as plain
Python, and the same steps without numba."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core import scan
from core.descent import margin_sgd, svm_sgd
from core.perceptron import ORDERS, Linear, perceptron
from core.runs import Walk, final
from tests.apptest import ROOT

# ---------------------------------------------------------------- the reference, in fractions


def exact(value) -> Fraction:
    """A short decimal float as the decimal it stands for (0.1 -> 1/10)."""
    return Fraction(repr(float(value)))


class Reference:
    """The rule in fractions: a = w.x + b; a failing test (y*a <= 0, < 0 or < 1) updates."""

    def __init__(self, X, y, *, eta, w0, b0, bias, test):
        self.X = [[exact(v) for v in row] for row in X]
        self.y = [int(v) for v in y]
        self.eta, self.bias, self.test = exact(eta), bias, test
        self.w, self.b = [exact(v) for v in w0], exact(b0)

    def a(self, i: int) -> Fraction:
        return sum(wj * xj for wj, xj in zip(self.w, self.X[i], strict=True)) + self.b

    def fails(self, i: int) -> bool:
        margin = self.y[i] * self.a(i)
        return {"perceptron": margin <= 0, "strict": margin < 0, "hinge": margin < 1}[self.test]

    def visit(self, i: int) -> tuple:
        """(index, a, updated, w, b) after visiting row i."""
        a, updated = self.a(i), self.fails(i)
        if updated:
            step = self.eta * self.y[i]
            self.w = [wj + step * xj for wj, xj in zip(self.w, self.X[i], strict=True)]
            if self.bias:
                self.b += step
        return i, a, updated, list(self.w), self.b


def reference_run(X, y, *, order, seed, max_epochs, until="converged", **rule) -> list[tuple]:
    """Every visit of the walk in ``order``, drawn as core.runs.Walk draws it."""
    ref, n, rng = Reference(X, y, **rule), len(y), np.random.default_rng(seed)
    visits = []
    if order == "random_misclassified":
        for _ in range(max_epochs * n):
            wrong = [i for i in range(n) if ref.fails(i)]
            if not wrong:
                break
            visits.append(ref.visit(wrong[int(rng.integers(len(wrong)))]))
        return visits
    clean = order == "random" and until == "converged"
    if clean and not any(ref.fails(i) for i in range(n)):
        return visits
    rows = list(range(n))
    for epoch in range(max_epochs):
        if order == "random":
            rows = rng.integers(0, n, size=n).tolist()
        elif order == "shuffle_each_epoch" or (order == "shuffle_once" and epoch == 0):
            rows = rng.permutation(n).tolist()
        changed = False
        for i in rows:
            visits.append(ref.visit(i))
            changed |= visits[-1][2]
            if clean and visits[-1][2] and not any(ref.fails(k) for k in range(n)):
                return visits
        if until == "converged" and not changed and order != "random":
            break
    return visits


@st.composite
def short_decimal_runs(draw):
    """Short-decimal data, eta and start, every order and test; large numbers sometimes, so
    the integers outgrow int64 part of the way through a run."""
    n, dim = draw(st.integers(1, 10)), draw(st.integers(1, 3))
    rng = np.random.default_rng(draw(st.integers(0, 10**6)))
    places = draw(st.integers(0, 6))
    scale = draw(st.sampled_from([1.0, 7.0, 1e6]))
    X = np.round(rng.normal(size=(n, dim)) * scale, places)
    y = rng.choice([-1.0, 1.0], size=n)
    eta = draw(st.sampled_from([1.0, 0.1, 0.25, 0.007, 0.000003]))
    bias = draw(st.booleans())
    start = draw(st.booleans())
    w0 = np.round(rng.normal(size=dim), places) if start else np.zeros(dim)
    b0 = float(np.round(rng.normal(), places)) if start and bias else 0.0
    return X, y, dict(
        eta=eta, w0=w0, b0=b0, bias=bias, test=draw(st.sampled_from(["perceptron", "strict",
                                                                     "hinge"])),
        order=draw(st.sampled_from(ORDERS)), seed=draw(st.integers(0, 99)),
        max_epochs=draw(st.integers(1, 6)), until=draw(st.sampled_from(["converged",
                                                                        "max_epochs"])),
        every=draw(st.sampled_from(["visit", "update"])))


def walk(X, y, *, eta, w0, b0, bias, test, order, seed, max_epochs, until, every) -> Walk:
    """The walk on the linear rule with that test (the hinge without a penalty stays exact)."""
    rule = Linear(X, y, w0, b0, eta=eta, bias=bias, strict=test == "strict",
                  loss="hinge" if test == "hinge" else "perceptron")
    return Walk(rule, order=order, every=every, max_epochs=max_epochs, seed=seed, until=until)


@settings(max_examples=300, deadline=None)
@given(short_decimal_runs())
def test_exact_runs_are_the_fraction_reference_in_every_order(problem):
    X, y, kwargs = problem
    run = walk(X, y, **kwargs)
    assert run.exact
    steps = list(run)
    every = kwargs.pop("every")
    visits = reference_run(X, y, **kwargs)
    if every == "update":
        visits = [v for v in visits if v[2]]
    assert len(steps) == len(visits)
    for step, (i, a, updated, w, b) in zip(steps, visits, strict=True):
        assert (step.index, step.updated) == (i, updated)
        assert step.activation == float(a)
        assert step.w.tolist() == [float(v) for v in w] and step.b == float(b)
    kwargs["every"] = every
    w, b = final(walk(X, y, **kwargs))  # without recording the steps
    last_w, last_b = (steps[-1].w, steps[-1].b) if steps else run.start
    assert repr((w.tolist(), b)) == repr((last_w.tolist(), last_b))


def test_numbers_past_int64_switch_to_python_ints_and_back_to_the_compiled_loop():
    X = np.array([[370.370367, -751.5], [-599.999997, 1200.0], [151.5, 75.75], [300.0, 300.0]])
    y = np.array([1.0, -1.0, -1.0, 1.0])
    run = perceptron(X, y, eta=0.000001, max_epochs=40)
    assert run.exact
    steps, wide = [], []
    for step in run:
        steps.append(step)
        wide.append(run.rule.kind is object)
    # the margins near 2^62 need Python ints for a while, then int64 holds them again
    assert any(wide) and not wide[-1]
    visits = reference_run(X, y, eta=0.000001, w0=[0, 0], b0=0, bias=True, test="perceptron",
                           order="cyclic", seed=None, max_epochs=40)
    assert [(s.index, s.updated, s.activation, s.w.tolist(), s.b) for s in steps] == \
        [(i, u, float(a), [float(v) for v in w], float(b)) for i, a, u, w, b in visits]


# ---------------------------------------------------------------- floats: the steps made before


def float_data(case: int) -> tuple[np.ndarray, np.ndarray]:
    """Data that are not short decimals (so the runs are in floats), a few shapes and sizes."""
    rng = np.random.default_rng(case)
    n, d = 5 + case % 11, 1 + case % 3
    X = rng.normal(size=(n, d)) * (0.3, 4.0, 50.0)[case % 3] + (0.0, 20.0)[case % 2]
    return X, np.where(rng.normal(size=n) > 0, 1.0, -1.0)


FLOAT_RUNS = {
    "perceptron": lambda X, y, order, case: perceptron(X, y, eta=0.37, order=order, seed=case,
                                                       max_epochs=12),
    "svm": lambda X, y, order, case: svm_sgd(X, y, lam=0.03, eta=0.8, order=order, seed=case,
                                             max_epochs=4, center=case % 2 == 1),
    "decay": lambda X, y, order, case: margin_sgd(X, y, loss="perceptron", schedule="sqrt",
                                                  eta=0.5, order=order, seed=case, max_epochs=6),
}


def float_digest(case: int, name: str) -> str:
    """sha256 of every step's (t, index, updated, mistakes, w, b, a) of one float run, every order.

    Checks on the way that each run is in floats and that a perceptron's a is w.x + b of the
    weights before the step, within the walk's tie tolerance.
    """
    X, y = float_data(case)
    digest = hashlib.sha256()
    for order in ORDERS:
        run = FLOAT_RUNS[name](X, y, order, case)
        assert not run.exact
        start = run.start
        for step in run:
            digest.update(repr((step.t, step.index, step.updated, step.mistakes, step.w.tolist(),
                                step.b, step.activation)).encode())
            if name == "perceptron":  # a is w.x + b of the weights before, within rounding
                w, b = start
                a = sum(exact(v) * exact(x) for v, x in zip(w, X[step.index], strict=True))
                size = sum(abs(v * x) for v, x in zip(w, X[step.index], strict=True)) + abs(b)
                assert abs(Fraction(step.activation) - a - exact(b)) <= scan.TIE * size
            start = step.w, step.b
    return digest.hexdigest()


FLOAT_SCRIPT = """
import json, sys
from core import scan
from tests.test_scan import FLOAT_RUNS, float_digest
json.dump({"compiled": hasattr(scan.visit, "py_func"),
           "digests": {f"{case} {name}": float_digest(case, name)
                       for case in range(8) for name in FLOAT_RUNS}}, sys.stdout)
"""


@pytest.fixture(scope="module")
def plain_float_digests() -> dict[str, str]:
    """The float runs' digests made by the readable Python loop, numba hidden."""
    out = subprocess.run([sys.executable, "-c", "import sys; sys.modules['numba'] = None\n"
                          + FLOAT_SCRIPT], cwd=ROOT, check=True, capture_output=True,
                         text=True).stdout
    made = json.loads(out)
    assert not made["compiled"]
    return made["digests"]


@pytest.mark.parametrize("case", range(8))
@pytest.mark.parametrize("name", FLOAT_RUNS)
def test_compiled_float_runs_make_the_steps_the_python_loop_makes(case, name,
                                                                   plain_float_digests):
    # bit for bit: the compiled loop does the same float operations in the same order as the
    # readable one (whatever numpy and numba versions are installed, both see the same ones)
    assert float_digest(case, name) == plain_float_digests[f"{case} {name}"]


# ---------------------------------------------------------------- without numba, and its cache


RUNS_SCRIPT = """
import json, sys
import numpy as np
from core import scan
from core.descent import svm_sgd
from core.perceptron import perceptron
X = np.array([[0.5, 1.25], [-1.5, 0.75], [2.0, -0.5], [-0.25, -1.0]]); y = [1, -1, 1, -1]
runs = [perceptron(X, y, eta=0.1, order="shuffle_each_epoch", seed=3),
        perceptron(X / 3, y, order="random", seed=3),
        svm_sgd(X / 3, y, lam=0.1, max_epochs=3)]
steps = [[(s.index, s.updated, s.activation, s.w.tolist(), s.b) for s in run] for run in runs]
json.dump({"compiled": hasattr(scan.visit, "py_func"), "steps": steps}, sys.stdout)
"""


def steps_in_a_process(*, numba: bool) -> dict:
    """The steps of a few runs in a fresh process, with numba importable or not."""
    hide = "" if numba else "import sys; sys.modules['numba'] = None\n"
    out = subprocess.run([sys.executable, "-c", hide + RUNS_SCRIPT], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)


def test_without_numba_the_same_functions_run_as_python_with_the_same_steps():
    compiled, plain = steps_in_a_process(numba=True), steps_in_a_process(numba=False)
    assert compiled["compiled"] and not plain["compiled"]
    assert compiled["steps"] == plain["steps"]


def test_a_folder_where_no_cache_can_be_written_still_compiles(monkeypatch):
    numba = pytest.importorskip("numba")
    calls = []

    def njit(**options):
        calls.append(options)
        if options.get("cache"):
            raise RuntimeError("cannot cache function: no locator available")
        return lambda function: function

    monkeypatch.setattr(numba, "njit", njit)
    assert scan.compiled(abs) is abs
    assert [c.get("cache", False) for c in calls] == [True, False]


WARM = """
import json
from core import scan
from core.descent import svm_sgd
from core.perceptron import perceptron
from core.runs import ORDERS
from core.warm import warm

def compiled():
    return sorted(str(s) for name in scan.__all__ for s in getattr(getattr(scan, name),
                                                                  "signatures", ()))

warm()
warmed = compiled()
for X in ([[1.5, 2], [-1.0, 0.5], [0.5, -2]], [[1 / 3, 2], [-1.0, 0.1], [0.2, -2]]):
    for order in ORDERS:
        list(perceptron(X, [1, -1, 1], order=order, seed=1, eta=0.5, init="random"))
    list(svm_sgd(X, [1, -1, 1], lam=0.1, eta=0.5, max_epochs=3))
print(json.dumps([warmed, compiled()]))
"""


def test_warming_up_runs_every_kind_of_run_the_loop_is_compiled_for():
    # deploy/run.sh warms a fresh process's loop before the servers start: after it, runs of
    # every kind (exact and float, every order, the SVM's descent) compile nothing more
    pytest.importorskip("numba")
    out = subprocess.run([sys.executable, "-c", WARM], cwd=ROOT, capture_output=True,
                         text=True, check=True, timeout=600).stdout
    warmed, after = json.loads(out.splitlines()[-1])
    assert any("int64" in s for s in warmed) and any("float64" in s for s in warmed)
    assert after == warmed
