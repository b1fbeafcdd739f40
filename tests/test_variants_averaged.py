"""The averaged perceptron against a direct sum over the visit stream."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.perceptron import ORDERS, perceptron
from core.variants import Voted, averaged_perceptron


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 10_000), order=st.sampled_from(ORDERS), n=st.integers(1, 20))
def test_average_is_the_mean_of_the_weights_after_every_visit(seed, order, n):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2))
    y = rng.choice([-1.0, 1.0], size=n)
    kwargs = dict(order=order, seed=seed, max_epochs=5, init="random")
    plain = list(perceptron(X, y, **kwargs))
    averaged = list(averaged_perceptron(X, y, **kwargs))
    assert len(plain) == len(averaged)
    for k, step in enumerate(averaged, start=1):
        np.testing.assert_allclose(step.w_avg, np.mean([s.w for s in plain[:k]], axis=0),
                                   rtol=1e-12, atol=1e-12)
        assert step.b_avg == pytest.approx(np.mean([s.b for s in plain[:k]]), abs=1e-12)
        assert np.array_equal(step.w, plain[k - 1].w)


def test_the_average_needs_every_visit():
    with pytest.raises(ValueError, match="every must be 'visit'"):
        next(averaged_perceptron([[0.0, 1.0]], [1], every="update"))


def algorithm_2(X, y, visits):
    """The notes' Algorithm 2 as written, in exact fractions: mu after the given visits."""
    from fractions import Fraction
    w, b = [Fraction(0)] * X.shape[1], Fraction(0)
    mu, mu_b = [Fraction(0)] * X.shape[1], Fraction(0)
    for i in visits:
        x, label = [Fraction(v) for v in X[i]], int(y[i])
        if label * (sum(wj * xj for wj, xj in zip(w, x, strict=True)) + b) <= 0:
            w = [wj + label * xj for wj, xj in zip(w, x, strict=True)]
            b += label
        mu = [m + wj for m, wj in zip(mu, w, strict=True)]
        mu_b += b
    return mu, mu_b


def _fields(step):
    return (step.t, step.epoch, step.index, step.activation, step.updated, step.mistakes,
            step.w.tolist(), step.b)


ALL_EPOCH_ORDERS = [order for order in ORDERS if order != "random_misclassified"]


@settings(max_examples=80, deadline=None)
@given(points=st.lists(st.tuples(st.integers(-4, 4), st.integers(-4, 4)), min_size=2,
                       max_size=10, unique=True),
       cut=st.integers(-6, 6), max_iter=st.integers(1, 30),
       order=st.sampled_from(ALL_EPOCH_ORDERS), seed=st.integers(0, 50))
def test_all_epochs_average_is_algorithm_2(points, cut, max_iter, order, seed):
    # separable lattice data, so the perceptron stops early; Algorithm 2 does not
    X = np.array(points, dtype=float)
    y = np.where(X[:, 0] + 2 * X[:, 1] > cut + 0.5, 1.0, -1.0)
    kwargs = dict(order=order, seed=seed, max_epochs=max_iter)
    steps = list(perceptron(X, y, **kwargs, until="max_epochs"))
    assert len(steps) == max_iter * len(y)
    assert [s.t for s in steps] == list(range(1, len(steps) + 1))
    # until convergence it is the perceptron's own run, step for step
    converged = list(perceptron(X, y, **kwargs))
    assert [_fields(s) for s in steps[:len(converged)]] == [_fields(s) for s in converged]
    if order in ("cyclic", "shuffle_once"):  # one order of the rows for every epoch
        rows = [s.index for s in steps[:len(y)]]
        assert all(s.index == rows[k % len(y)] for k, s in enumerate(steps))
    mu, mu_b = algorithm_2(X, y, [s.index for s in steps])
    total = np.sum([s.w for s in steps], axis=0)
    np.testing.assert_allclose(total, [float(m) for m in mu], rtol=0, atol=1e-9)
    assert sum(s.b for s in steps) == pytest.approx(float(mu_b), abs=1e-9)
    # the voted counts follow the same visits: they sum to t
    assert Voted.from_steps(steps, start=(np.zeros(2), 0.0)).counts.sum() == len(steps)


def test_picking_misclassified_examples_ends_when_there_are_none():
    X, y = np.array([[1.0, 0.0], [-1.0, 0.0]]), np.array([1.0, -1.0])
    run = list(perceptron(X, y, order="random_misclassified", seed=0, max_epochs=50,
                          until="max_epochs"))
    assert 0 < len(run) < 100 and all(s.updated for s in run)


def test_until_is_checked():
    with pytest.raises(ValueError, match="until must be 'converged' or 'max_epochs'"):
        perceptron([[0.0, 1.0]], [1], until="forever")


