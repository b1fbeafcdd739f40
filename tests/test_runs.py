"""The one walk: exact decisions against a plain loop in fractions, and every order the same
for every algorithm with one seed."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.descent import margin_sgd, svm_sgd
from core.kernel import Kernel, kernel_perceptron
from core.perceptron import ORDERS, perceptron
from core.runs import final
from core.trace import record
from core.variants import averaged_perceptron
from datasets.builtin import NOTES_ETA, NOTES_INIT, boolean, iris, notes_four_points
from tests.reference.voted import voted_perceptron

# ---------------------------------------------------------------- the reference


def exact(value) -> Fraction:
    """A short decimal float as the decimal it stands for (0.1 -> 1/10); a Fraction as itself."""
    return value if isinstance(value, Fraction) else Fraction(repr(float(value)))


def reference(X, y, rows, *, eta, w0=None, b0=0.0, bias=True):
    """The rule in fractions, one visit at a time, over the given sequence of rows.

    Yields (index, a, updated, w, b) after each visit, all exact.
    """
    X = [[exact(v) for v in row] for row in X]
    eta = exact(eta)
    w = [Fraction(0)] * len(X[0]) if w0 is None else [exact(v) for v in w0]
    b = exact(b0)
    for i in rows:
        a = sum(wj * xj for wj, xj in zip(w, X[i], strict=True)) + b
        updated = int(y[i]) * a <= 0
        if updated:
            w = [wj + eta * int(y[i]) * xj for wj, xj in zip(w, X[i], strict=True)]
            if bias:
                b += eta * int(y[i])
        yield i, a, updated, w, b


def cyclic_reference(X, y, *, max_epochs=100_000, **rule):
    """The cyclic run in fractions to convergence: the list of visits."""
    n, visits = len(y), []
    for _ in range(max_epochs):
        epoch = list(reference(X, y, range(n), **{**rule, **_state(visits)}))
        visits.extend(epoch)
        if not any(updated for _, _, updated, _, _ in epoch):
            break
    return visits


def _state(visits):
    """The starting weights of the next epoch (the rule's own start for the first)."""
    if not visits:
        return {}
    _, _, _, w, b = visits[-1]
    return {"w0": w, "b0": b}


def assert_follows(steps, visits):
    """Each step is the reference's visit: same row, decision, and the floats nearest a, w, b."""
    assert len(steps) == len(visits)
    for step, (i, a, updated, w, b) in zip(steps, visits, strict=True):
        assert (step.index, step.updated) == (i, updated)
        assert step.activation == float(a)
        assert step.w.tolist() == [float(v) for v in w]
        assert step.b == float(b)


# ---------------------------------------------------------------- exact against fractions


@pytest.mark.parametrize("function", ["AND", "OR", "NAND", "XOR"])
@pytest.mark.parametrize("encoding", ["01", "pm1"])
@pytest.mark.parametrize("eta", [1.0, 0.1, 0.25, 0.3, 0.01])
def test_boolean_tables_step_for_step(function, encoding, eta):
    data = boolean(function, encoding)
    steps = list(perceptron(data.X, data.y, eta=eta, max_epochs=30))
    assert_follows(steps, cyclic_reference(data.X, data.y, eta=eta, max_epochs=30))


def test_and_at_eta_one_tenth_makes_the_same_mistakes_as_at_one():
    """From w = 0 eta only scales the weights: 18 mistakes, 0.1 x the eta = 1 run (issue 14)."""
    data = boolean("AND", "01")
    tenth = list(perceptron(data.X, data.y, eta=0.1))
    one = list(perceptron(data.X, data.y, eta=1.0))
    assert [s.updated for s in tenth] == [s.updated for s in one]
    assert tenth[-1].mistakes == len([v for v in cyclic_reference(data.X, data.y, eta=0.1)
                                      if v[2]]) == 18
    np.testing.assert_allclose(tenth[-1].w, 0.1 * one[-1].w, rtol=0, atol=1e-15)
    assert tenth[-1].b == pytest.approx(0.1 * one[-1].b, abs=1e-15)


def test_the_notes_four_points():
    data = notes_four_points()
    from_zero = list(perceptron(data.X, data.y, eta=0.1))
    visits = cyclic_reference(data.X, data.y, eta=0.1)
    assert_follows(from_zero, visits)
    assert from_zero[-1].mistakes == 22
    worked = list(perceptron(data.X, data.y, eta=NOTES_ETA, init=NOTES_INIT))
    (w0, b0) = NOTES_INIT
    assert_follows(worked, cyclic_reference(data.X, data.y, eta=NOTES_ETA, w0=w0, b0=b0))


def test_iris_setosa_versicolor_update_for_update():
    data = iris("setosa", "versicolor", (0, 1))
    updates = list(perceptron(data.X, data.y, every="update", max_epochs=10_000))
    wanted = [v for v in cyclic_reference(data.X, data.y, eta=1.0) if v[2]]
    assert len(updates) == len(wanted) == 1518
    assert [s.index for s in updates] == [i for i, *_ in wanted]
    _, _, _, w, b = wanted[-1]
    assert updates[-1].w.tolist() == [float(v) for v in w] and updates[-1].b == float(b)


@st.composite
def short_decimals(draw):
    """Random data, eta and start written with one to three decimals, in a fixed order."""
    n = draw(st.integers(1, 12))
    seed = draw(st.integers(0, 10**6))
    rng = np.random.default_rng(seed)
    places = draw(st.integers(1, 3))
    X = np.round(rng.normal(size=(n, 2)) * draw(st.sampled_from([1, 5])), places)
    y = rng.choice([-1.0, 1.0], size=n)
    eta = draw(st.sampled_from([0.1, 0.3, 0.05, 1.0, 0.007]))
    bias = draw(st.booleans())
    w0 = np.round(rng.normal(size=2), places)
    b0 = float(np.round(rng.normal(), places)) if bias else 0.0
    init = draw(st.sampled_from(["zeros", (tuple(w0), b0)]))
    order = draw(st.sampled_from(["cyclic", "shuffle_once", "shuffle_each_epoch", "random"]))
    return X, y, dict(eta=eta, bias=bias, init=init, order=order, seed=seed, max_epochs=6)


@settings(max_examples=200, deadline=None)
@given(short_decimals())
def test_random_short_decimals_step_for_step(problem):
    X, y, kwargs = problem
    run = perceptron(X, y, **kwargs)
    assert run.exact
    steps = list(run)
    w0, b0 = (None, 0.0) if kwargs["init"] == "zeros" else kwargs["init"]
    visits = list(reference(X, y, [s.index for s in steps], eta=kwargs["eta"], w0=w0, b0=b0,
                            bias=kwargs["bias"]))
    assert_follows(steps, visits)


def test_other_data_run_in_floats_and_say_so():
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(30, 2)), rng.choice([-1.0, 1.0], size=30)
    assert not perceptron(X, y).exact
    assert not record(perceptron(X, y, max_epochs=2)).exact
    assert perceptron(np.round(X, 2), y).exact and record(perceptron(np.round(X, 2), y)).exact
    assert not perceptron(np.round(X, 2), y, eta=1 / 3).exact
    assert perceptron(np.round(X, 2), y, init="random", seed=3).exact  # a short random start
    assert kernel_perceptron(np.round(X, 2), y, kernel=Kernel("polynomial", degree=3)).exact
    assert not kernel_perceptron(np.round(X, 2), y, kernel=Kernel("rbf")).exact
    assert averaged_perceptron(np.round(X, 2), y).exact
    assert margin_sgd(np.round(X, 2), y, loss="hinge", schedule="constant").exact
    assert not svm_sgd(np.round(X, 2), y).exact  # eta / sqrt(t) is not a decimal


def test_a_float_tie_still_counts_as_a_mistake():
    """Floats: y*a within rounding of 0 is the rule's tie, a mistake, as in exact arithmetic."""
    # on the line x1 + x2 = 0, up to rounding
    x = [0.1 * 3 * np.pi + 0.2 * 3 * np.pi, -(0.3 * 3 * np.pi)]
    assert x[0] + x[1] > 0  # rounding alone would call it correct
    run = perceptron([x], [1.0], init=((1.0, 1.0), 0.0), bias=False, max_epochs=1)
    assert not run.exact
    step = next(run)
    assert 0 < step.activation < 1e-14 and step.updated


# ---------------------------------------------------------------- one walk for every algorithm


def _data(seed):
    rng = np.random.default_rng(seed)
    X = np.round(rng.normal(size=(25, 2)), 1)
    y = np.where(X[:, 0] + 0.4 * rng.normal(size=25) > 0, 1.0, -1.0)
    return X, y


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_every_algorithm_visits_the_same_examples(order, seed):
    X, y = _data(seed)
    kwargs = dict(order=order, seed=seed, max_epochs=5)
    streams = {
        "perceptron": perceptron(X, y, **kwargs),
        "kernel": kernel_perceptron(X, y, kernel=Kernel("linear"), **kwargs),
        "descent": margin_sgd(X, y, loss="perceptron", schedule="constant", **kwargs),
        "averaged": averaged_perceptron(X, y, **kwargs),
        "voted": voted_perceptron(X, y, **kwargs),
        "svm": svm_sgd(X, y, lam=0.05, **kwargs),
    }
    visits = {name: [(s.t, s.index) for s in run] for name, run in streams.items()}
    same_rule = [visits[name] for name in ("perceptron", "kernel", "descent", "averaged",
                                           "voted")]
    assert all(v == same_rule[0] for v in same_rule)  # same decisions: the same whole run
    if order != "random_misclassified":  # the visited rows do not depend on the decisions
        common = min(len(visits["svm"]), len(visits["perceptron"]))
        assert common > 0
        assert visits["svm"][:common] == visits["perceptron"][:common]


def test_random_order_draws_n_rows_per_epoch_whatever_the_rule():
    X, y = _data(4)
    svm = [s.index for s in svm_sgd(X, y, lam=0.1, order="random", seed=7, max_epochs=3)]
    rng = np.random.default_rng(7)
    draws = np.concatenate([rng.integers(0, 25, size=25) for _ in range(3)])
    assert svm == draws.tolist()


def test_final_is_the_last_step_or_the_start():
    X, y = _data(0)
    steps = list(perceptron(X, y, every="update"))
    w, b = final(perceptron(X, y, every="update"))
    assert w.tolist() == steps[-1].w.tolist() and b == steps[-1].b
    clean = final(perceptron([[1.0]], [1], init=((2.0,), 1.0), order="random"))
    assert clean[0].tolist() == [2.0] and clean[1] == 1.0


def test_a_trace_starts_from_the_run_and_keeps_every_weight():
    data = notes_four_points()
    steps = list(perceptron(data.X, data.y, eta=NOTES_ETA, init=NOTES_INIT))
    trace = record(perceptron(data.X, data.y, eta=NOTES_ETA, init=NOTES_INIT))
    assert trace.W[0].tolist() == list(NOTES_INIT[0]) and trace.b[0] == NOTES_INIT[1]
    assert trace.W[1:].tolist() == [s.w.tolist() for s in steps]
    assert all(trace.w(k).tolist() == trace.W[k].tolist() for k in range(trace.steps + 1))
    assert trace.exact


def test_the_outcome_says_when_a_run_is_not_exact():
    from core.trace import outcome

    rng = np.random.default_rng(5)
    X = rng.normal(size=(20, 2))
    y = np.where(X[:, 0] > 0, 1.0, -1.0)
    floats = record(perceptron(X, y))
    decimals = record(perceptron(np.round(X, 2), y))
    assert "Not exact" in outcome(floats, X, y, max_epochs=100).message
    assert "Not exact" not in outcome(decimals, np.round(X, 2), y, max_epochs=100).message


@settings(max_examples=80, deadline=None)
@given(numerators=st.lists(st.integers(-(10**9), 10**9), min_size=1, max_size=200),
       places=st.integers(0, 8), noise=st.booleans())
def test_the_decimal_check_hands_over_the_integers_it_checked(numerators, places, noise):
    from core.decimals import decimal_integers, decimals

    values = np.array([Fraction(m, 10**places) for m in numerators], dtype=float)
    if noise:
        values[len(values) // 2] = np.nextafter(values[len(values) // 2], np.inf)
    # the reference: a value is k-decimal exactly when the float nearest m/10^k is it
    reference = next((k for k in range(7) if all(
        float(Fraction(round(Fraction(v) * 10**k), 10**k)) == v for v in values.tolist())),
        None)
    found = decimal_integers(values)
    assert (None if found is None else found[0]) == reference == decimals(values)
    if found is not None:
        k, integers = found
        assert integers.dtype == np.float64
        assert integers.tolist() == [float(round(Fraction(v) * 10**k)) for v in values.tolist()]


# ---------------------------------------------------------------- errors decided exactly


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(st.integers(-30, 30), st.integers(-30, 30),
                          st.sampled_from([-1, 1])), min_size=1, max_size=12),
       st.tuples(st.integers(-30, 30), st.integers(-30, 30), st.integers(-30, 30)),
       st.sampled_from([1, 2]))
def test_misclassified_counts_like_fractions_ties_included(points, weights, places):
    from core.decimals import Misclassified

    X = np.array([[a / 10, c / 10] for a, c, _ in points])
    y = np.array([label for *_, label in points])
    w, b = np.array(weights[:2]) / 10**places, weights[2] / 10**places
    wrong = [label * (sum(exact(wi) * exact(xi) for wi, xi in zip(w, x, strict=True))
                      + exact(b)) <= 0 for x, label in zip(X, y, strict=True)]
    decide = Misclassified(X, y)
    assert decide.rows(w, b).tolist() == wrong
    assert decide.count(w, b) == sum(wrong)
    assert decide.counts([w, w], [b, b]).tolist() == [sum(wrong)] * 2
