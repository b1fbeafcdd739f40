"""The averaged perceptron against a direct sum over the visit stream."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.perceptron import ORDERS, perceptron
from core.variants import FIXED_ORDERS, Voted, averaged_perceptron, through_max_epochs


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


def algorithm_2(X, y, max_iter, rows):
    """The notes' Algorithm 2 as written, in exact fractions: mu after max_iter epochs."""
    from fractions import Fraction
    w, b = [Fraction(0)] * X.shape[1], Fraction(0)
    mu, mu_b = [Fraction(0)] * X.shape[1], Fraction(0)
    data = [([Fraction(v) for v in X[i]], int(y[i])) for i in rows]
    for _ in range(max_iter):
        for x, label in data:
            if label * (sum(wj * xj for wj, xj in zip(w, x, strict=True)) + b) <= 0:
                w = [wj + label * xj for wj, xj in zip(w, x, strict=True)]
                b += label
            mu = [m + wj for m, wj in zip(mu, w, strict=True)]
            mu_b += b
    return mu, mu_b


@settings(max_examples=60, deadline=None)
@given(points=st.lists(st.tuples(st.integers(-4, 4), st.integers(-4, 4)), min_size=2,
                       max_size=10, unique=True),
       cut=st.integers(-6, 6), max_iter=st.integers(1, 30),
       order=st.sampled_from(FIXED_ORDERS), seed=st.integers(0, 50))
def test_all_epochs_average_is_algorithm_2(points, cut, max_iter, order, seed):
    # separable lattice data, so the perceptron stops early; Algorithm 2 does not
    X = np.array(points, dtype=float)
    y = np.where(X[:, 0] + 2 * X[:, 1] > cut + 0.5, 1.0, -1.0)
    steps = list(through_max_epochs(perceptron(X, y, order=order, seed=seed,
                                               max_epochs=max_iter), X, y,
                                    max_epochs=max_iter))
    rows = [s.index for s in steps[:len(y)]]  # the fixed order of every epoch
    assert len(steps) == max_iter * len(y)
    assert [s.t for s in steps] == list(range(1, len(steps) + 1))
    assert all(s.index == rows[k % len(y)] for k, s in enumerate(steps))
    mu, mu_b = algorithm_2(X, y, max_iter, rows)
    total = np.sum([s.w for s in steps], axis=0)
    np.testing.assert_allclose(total, [float(m) for m in mu], rtol=0, atol=1e-9)
    assert sum(s.b for s in steps) == pytest.approx(float(mu_b), abs=1e-9)
    # the voted counts follow the same visits: they sum to t
    assert Voted.from_steps(steps, start=(np.zeros(2), 0.0)).counts.sum() == len(steps)


def test_a_run_that_never_converges_is_passed_on_unchanged():
    X = np.array([[0.0, 0.0], [1.0, 1.0], [0.0, 1.0], [1.0, 0.0]])
    y = np.array([-1.0, -1.0, 1.0, 1.0])  # XOR: every epoch errs
    plain = list(perceptron(X, y, max_epochs=7))
    assert list(through_max_epochs(iter(plain), X, y, max_epochs=7)) == plain
