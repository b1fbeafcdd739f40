"""One-vs-rest perceptrons: against scikit-learn's own one-vs-rest Perceptron, the binary
runs they are made of, and direct computations of scores, argmax and claims."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.multiclass import OneVsOne, one_vs_one, one_vs_rest
from core.perceptron import ORDERS, perceptron
from core.variants import averaged_perceptron
from datasets.builtin import iris_three


@pytest.mark.parametrize("epochs", [1, 3, 20])
def test_matches_scikit_learns_one_vs_rest_perceptron_on_iris(epochs):
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.linear_model import Perceptron

    X, labels, names = iris_three()
    model = one_vs_rest(X, labels, names=names, max_epochs=epochs)
    reference = Perceptron(max_iter=epochs, tol=None, shuffle=False, eta0=1.0, penalty=None)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        reference.fit(X, labels)
    np.testing.assert_allclose(model.W, reference.coef_, rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(model.b, reference.intercept_, rtol=1e-9, atol=1e-9)
    np.testing.assert_array_equal(model.predict(X), reference.predict(X))


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 1000), order=st.sampled_from(ORDERS), C=st.integers(2, 4),
       weights=st.sampled_from(["last", "averaged"]))
def test_each_class_is_its_own_binary_run(seed, order, C, weights):
    rng = np.random.default_rng(seed)
    labels = np.concatenate([np.arange(C), rng.integers(0, C, size=12)])
    X = rng.normal(size=(len(labels), 2)) + labels[:, None]
    kwargs = dict(order=order, seed=seed, max_epochs=4, eta=0.5)
    model = one_vs_rest(X, labels, weights=weights, **kwargs)
    for c in range(C):
        y = np.where(labels == c, 1.0, -1.0)
        if weights == "averaged":
            steps = list(averaged_perceptron(X, y, **kwargs, until="max_epochs"))
            w, b = (steps[-1].w_avg, steps[-1].b_avg) if steps else (np.zeros(2), 0.0)
        else:
            steps = list(perceptron(X, y, **kwargs))
            w, b = (steps[-1].w, steps[-1].b) if steps else (np.zeros(2), 0.0)
        np.testing.assert_allclose(model.W[c], w, atol=1e-12)
        assert model.b[c] == pytest.approx(b, abs=1e-12)
        assert model.mistakes[c] == (steps[-1].mistakes if steps else 0)
        assert model.errors[c] == np.sum(y * (X @ w + b) <= 0)
    Z = rng.normal(size=(30, 2)) * 3
    scores = np.array([[z @ model.W[c] + model.b[c] for c in range(C)] for z in Z])
    np.testing.assert_allclose(model.scores(Z), scores, atol=1e-12)
    assert model.predict(Z).tolist() == [int(np.argmax(s)) for s in scores]
    assert model.claims(Z).tolist() == [int(sum(v > 0 for v in s)) for s in scores]


def test_setosa_is_separable_from_the_rest_but_versicolor_is_not():
    X, labels, names = iris_three()
    model = one_vs_rest(X, labels, names=names, max_epochs=50)
    assert model.names == ("setosa", "versicolor", "virginica")
    assert model.errors[0] == 0 and model.errors[1] > 0  # the middle class has no line of its own


def test_scaling_a_score_keeps_its_own_boundary_but_moves_the_argmax():
    X, labels, names = iris_three()
    model = one_vs_rest(X, labels, names=names, max_epochs=50)
    xs = np.linspace(0, 8, 60)
    Z = np.array([(a, b) for a in xs for b in np.linspace(-1, 4, 60)])
    for c in range(3):
        scaled = model.scaled(c, 4.0)
        assert np.array_equal(scaled.scores(Z)[:, c] > 0, model.scores(Z)[:, c] > 0)
        assert np.array_equal(scaled.claims(Z), model.claims(Z))
    moved = [np.any(model.scaled(c, 4.0).predict(Z) != model.predict(Z)) for c in range(3)]
    assert any(moved)
    with pytest.raises(ValueError, match="scale factor must be > 0"):
        model.scaled(0, 0.0)
    with pytest.raises(ValueError, match="class must be between 0 and 2"):
        model.scaled(3, 2.0)


@pytest.mark.parametrize(("labels", "kwargs", "message"), [
    ([0, 0, 0], {}, "every class present and C >= 2"),
    ([0, 2, 2], {}, "every class present"),
    ([0, 1], {}, r"labels must have shape \(3,\)"),
    ([0.5, 1, 0], {}, "whole numbers"),
    ([0, 1, 1], {"weights": "best"}, "weights must be 'last' or 'averaged'"),
    ([0, 1, 1], {"names": ["a"]}, "names must have 2 entries"),
    ([0, 1, 1], {"every": "update"}, "every must be 'visit'"),
    ([0, 1, 1], {"eta": -1.0}, "eta must be > 0"),
])
def test_bad_arguments_say_what_is_wrong(labels, kwargs, message):
    with pytest.raises(ValueError, match=message):
        one_vs_rest(np.eye(3, 2), labels, **kwargs)


def test_iris_is_scikit_learns_copy_read_without_importing_it():
    from sklearn.datasets import load_iris

    X, labels, names = iris_three()
    bunch = load_iris()
    np.testing.assert_array_equal(X, bunch.data[:, [2, 3]])
    np.testing.assert_array_equal(labels, bunch.target)
    assert names == tuple(bunch.target_names)


# ---------------------------------------------------------------- one-vs-one


@pytest.mark.parametrize("epochs", [1, 20, 50, 100])
def test_one_vs_one_matches_scikit_learns_one_vs_one_classifier_on_iris(epochs):
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.linear_model import Perceptron
    from sklearn.multiclass import OneVsOneClassifier

    X, labels, names = iris_three()
    model = one_vs_one(X, labels, names=names, max_epochs=epochs)
    reference = OneVsOneClassifier(
        Perceptron(max_iter=epochs, tol=None, shuffle=False, eta0=1.0, penalty=None))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        reference.fit(X, labels)
    # scikit-learn's pair (i, j) scores +1 for class j: ours scores +1 for class i
    assert [tuple(e.classes_) for e in reference.estimators_] == [(0, 1), (0, 1), (0, 1)]
    np.testing.assert_allclose(model.W, [-e.coef_[0] for e in reference.estimators_],
                               rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(model.b, [-e.intercept_[0] for e in reference.estimators_],
                               rtol=1e-9, atol=1e-9)
    lo, hi = X.min(axis=0) - 1, X.max(axis=0) + 1
    grid = np.stack(np.meshgrid(np.linspace(lo[0], hi[0], 60), np.linspace(lo[1], hi[1], 60)),
                    axis=-1).reshape(-1, 2)
    for points in (X, grid):
        np.testing.assert_array_equal(model.predict(points), reference.predict(points))
        np.testing.assert_allclose(model.decision(points), reference.decision_function(points),
                                   rtol=1e-9, atol=1e-9)


def fraction_perceptron(X, y, epochs: int):
    """The notes' rule (cyclic, eta = 1, from 0, with a bias) in fractions."""
    from fractions import Fraction

    rows = [[Fraction(str(v)) for v in x] + [Fraction(1)] for x in np.asarray(X).tolist()]
    w = [Fraction(0)] * len(rows[0])
    for _ in range(epochs):
        clean = True
        for z, label in zip(rows, y, strict=True):
            if label * sum(a * b for a, b in zip(w, z, strict=True)) <= 0:
                w = [a + int(label) * b for a, b in zip(w, z, strict=True)]
                clean = False
        if clean:
            break
    return w


def test_one_vs_one_against_a_plain_reimplementation_on_iris_past_scikit_learns_floats():
    # at 1000 epochs versicolor vs virginica meets ties y*a = 0 that floats miss; the
    # notes' rule in fractions agrees with the exact runs
    X, labels, names = iris_three()
    model = one_vs_one(X, labels, names=names, max_epochs=1000)
    votes = np.zeros((len(X), 3), dtype=int)
    totals = np.zeros((len(X), 3))
    for k, (i, j) in enumerate(((0, 1), (0, 2), (1, 2))):
        rows = (labels == i) | (labels == j)
        w = fraction_perceptron(X[rows], np.where(labels[rows] == i, 1, -1), 1000)
        assert [float(v) for v in w] == [*model.W[k], model.b[k]]
        score = X @ np.array([float(v) for v in w[:2]]) + float(w[2])
        votes[:, i] += score >= 0
        votes[:, j] += score < 0
        totals[:, i] += score
        totals[:, j] -= score
    np.testing.assert_array_equal(model.votes(X), votes)
    best = votes == votes.max(axis=1, keepdims=True)
    expected = np.argmax(np.where(best, totals, -np.inf), axis=1)  # a tie: the larger total
    np.testing.assert_array_equal(model.predict(X), expected)
    np.testing.assert_array_equal(model.tied(X), best.sum(axis=1) > 1)


def test_a_three_way_tie_goes_to_the_largest_summed_score():
    from sklearn.utils.multiclass import _ovr_decision_function

    # at x = (1, 1): 0 beats 1 (y_01 = 1), 2 beats 0 (y_02 = -1), 1 beats 2 (y_12 = 2)
    model = OneVsOne(np.array([[1.0, 0.0], [0.0, -1.0], [1.0, 1.0]]), np.zeros(3),
                     ("a", "b", "c"), np.zeros(3), np.zeros(3), ((0, 1), (0, 2), (1, 2)))
    x = [[1.0, 1.0]]
    assert model.votes(x).tolist() == [[1, 1, 1]] and model.tied(x)[0]
    # summed scores: a 1 - 1 = 0, b -1 + 2 = 1, c 1 - 2 = -1
    assert model.predict(x)[0] == 1
    points = np.random.default_rng(0).uniform(-3, 3, size=(500, 2))
    scores = model.scores(points)
    reference = _ovr_decision_function((scores < 0).astype(int), -scores, 3)
    np.testing.assert_allclose(model.decision(points), reference, rtol=1e-12, atol=1e-12)
    assert model.tied(points).any() and not model.tied(points).all()


def test_one_vs_one_trains_each_pair_on_its_own_two_classes():
    X, labels, names = iris_three()
    model = one_vs_one(X, labels, names=names, max_epochs=50)
    assert model.pairs == ((0, 1), (0, 2), (1, 2)) and len(model.W) == 3
    for k, (i, j) in enumerate(model.pairs):
        rows = (labels == i) | (labels == j)
        run = list(perceptron(X[rows], np.where(labels[rows] == i, 1.0, -1.0), max_epochs=50,
                              every="update"))
        np.testing.assert_array_equal(model.W[k], run[-1].w)
        assert model.mistakes[k] == run[-1].mistakes
    with pytest.raises(ValueError, match="labels must be 0, 1"):
        one_vs_one(X[:3], [0, 2, 2])


def test_averaged_one_vs_rest_is_algorithm_2_over_every_epoch_in_fractions():
    # setosa vs rest converges in 3 epochs (450 visits); Algorithm 2 keeps averaging over all
    # 50 epochs, 7,500 visits: mu / T = (-0.525, -0.799), not the (-0.914, -0.778) of 450
    from fractions import Fraction

    X, labels, names = iris_three()
    model = one_vs_rest(X, labels, names=names, weights="averaged", max_epochs=50)
    rows = [[Fraction(repr(float(v))) for v in x] for x in X]
    for c in range(3):
        y = [1 if label == c else -1 for label in labels]
        w, b = [Fraction(0)] * 2, Fraction(0)
        total_w, total_b, visits = [Fraction(0)] * 2, Fraction(0), 0
        for _ in range(50):
            for x, label in zip(rows, y, strict=True):
                if label * (w[0] * x[0] + w[1] * x[1] + b) <= 0:
                    w = [w[0] + label * x[0], w[1] + label * x[1]]
                    b += label
                total_w = [total_w[0] + w[0], total_w[1] + w[1]]
                total_b += b
                visits += 1
        assert visits == 7500
        np.testing.assert_allclose(model.W[c], [float(v / visits) for v in total_w], rtol=1e-12)
        assert model.b[c] == pytest.approx(float(total_b / visits), rel=1e-12)
    np.testing.assert_allclose(model.W[0], [-0.52485333, -0.79869333], atol=1e-8)
