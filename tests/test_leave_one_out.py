"""The leave-one-out count trains apart only the points the full run updated on: the same count.

The reference trains every one of the N runs, each to convergence (Novikoff's epochs for its own
N - 1 points) or for the same max_epochs, as Theorem 2.6's proof counts them.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import core.evaluation
from core.evaluation import leave_one_out, leave_one_out_errors, split, trained
from datasets.builtin import BUILTIN, separable

points = st.lists(st.tuples(st.integers(-40, 40), st.integers(-40, 40)), min_size=2, max_size=16,
                  unique=True)


def every_run(X, y, max_epochs=None) -> int:
    """Train on all but i, test on i, for every i: N runs."""
    errors = 0
    for i in range(len(y)):
        keep = np.arange(len(y)) != i
        w, b, _ = trained(X[keep], y[keep], max_epochs=max_epochs)
        errors += int(y[i] * (X[i] @ w + b) <= 0)
    return errors


def separable_labels(X, direction, offset):
    """Labels of the points by a line that misses every one of them."""
    return np.where(X @ np.asarray(direction, dtype=float) > offset + 0.5, 1.0, -1.0)


# 20 examples: each trains every leave-one-out run to convergence (margins down to 0.5 among
# points up to 40 away, so some 10^5 updates a run at worst), most of the fast loop's slowest test;
# runs to convergence are also counted on Iris and a generated set below
@settings(max_examples=20, deadline=None)
@given(points, st.tuples(st.integers(-3, 3), st.integers(-3, 3)), st.integers(-40, 40),
       st.sampled_from([1, 10, 0.1]))
def test_trained_to_convergence_the_count_is_every_runs(points, direction, offset, scale):
    assume(direction != (0, 0))
    X = np.array(points, dtype=float) * scale  # 0.1: decimals, still exact
    y = separable_labels(np.array(points, dtype=float), direction, offset)
    assume(0 < (y > 0).sum() < len(y))
    assert leave_one_out_errors(X, y) == every_run(X, y)


@settings(max_examples=40, deadline=None)
@given(points, st.lists(st.sampled_from([-1.0, 1.0]), min_size=16, max_size=16),
       st.integers(1, 30))
def test_with_max_epochs_on_any_labels_the_count_is_every_runs(points, labels, epochs):
    X, y = np.array(points, dtype=float), np.array(labels[: len(points)])
    assert leave_one_out_errors(X, y, max_epochs=epochs) == every_run(X, y, epochs)


@settings(max_examples=20, deadline=None)
@given(st.integers(2, 14), st.integers(0, 10**6), st.sampled_from([None, 5]))
def test_numbers_that_are_not_short_decimals_train_every_run(n, seed, epochs):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2))  # floats: the tie tolerance depends on the data
    y = np.where(X[:, 0] + 0.3 * X[:, 1] > 0, 1.0, -1.0)
    assume(0 < (y > 0).sum() < n)
    assert leave_one_out_errors(X, y, max_epochs=epochs) == every_run(X, y, epochs)


def test_iris_trains_apart_only_the_points_its_full_run_updated_on(monkeypatch):
    # Iris setosa/versicolor, split seed 0: the full run updates on 11 of the 70 points
    data = BUILTIN["Iris: setosa vs versicolor (sepal)"]()
    train, _ = split(data.y, test_fraction=0.3, seed=0)
    X, y = data.X[train], data.y[train]
    runs = []

    def counted(*args, **kwargs):
        runs.append(1)
        return trained(*args, **kwargs)

    monkeypatch.setattr(core.evaluation, "trained", counted)
    assert leave_one_out_errors(X, y) == 2 == every_run(X, y)
    assert len(runs) == 11


def test_a_generated_set_gives_every_runs_count():
    data = separable(60, 0.05, 4)
    assert leave_one_out_errors(data.X, data.y) == every_run(data.X, data.y)


def fraction_wrong(x, label, w, b) -> bool:
    """y (w.x + b) <= 0 in the decimals the floats stand for (a tie is a mistake)."""
    a = sum(Fraction(repr(float(wi))) * Fraction(repr(float(xi)))
            for wi, xi in zip(w, x, strict=True))
    return int(label) * (a + Fraction(repr(float(b)))) <= 0


@settings(max_examples=40, deadline=None)
@given(points, st.lists(st.sampled_from([-1.0, 1.0]), min_size=16, max_size=16),
       st.integers(1, 8), st.sampled_from([1, 0.1]))
def test_each_run_says_whether_it_converged_and_the_counts_split_by_it(points, labels, epochs,
                                                                      scale):
    X, y = np.array(points, dtype=float) * scale, np.array(labels[: len(points)])
    assume(0 < (y > 0).sum() < len(y))
    found = leave_one_out(X, y, max_epochs=epochs)
    for i in range(len(y)):
        keep = np.arange(len(y)) != i
        w, b, _ = trained(X[keep], y[keep], max_epochs=epochs)
        done = not any(fraction_wrong(x, t, w, b) for x, t in zip(X[keep], y[keep], strict=True))
        assert found.converged[i] == done
        assert found.wrong[i] == fraction_wrong(X[i], y[i], w, b)
    assert found.errors == found.converged_errors + found.unconverged_errors
    assert found.unconverged == int(np.sum(~found.converged))
