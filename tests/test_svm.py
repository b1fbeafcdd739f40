"""The exact hard-margin SVM against a brute-force margin search and scikit-learn's SVC."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from scipy.optimize import minimize_scalar
from sklearn.svm import SVC

import core.max_margin
from core.geometry import geometric_margin
from core.svm import MaxMargin, max_margin

# ---------------------------------------------------------------- independent references


def brute_force_margin(X: np.ndarray, y: np.ndarray) -> float:
    """Half the widest gap between the projected classes, over unit directions of the plane.

    For separable data the maximum-margin separator's margin equals
    max_u (min_{y=+1} u.x - max_{y=-1} u.x) / 2; search a fine grid of angles,
    then refine the best few with a bounded scalar minimisation.
    """
    X = X - X.mean(axis=0)  # the gap is translation invariant; centring keeps it accurate
    pos, neg = X[y > 0], X[y < 0]

    def half_gap(theta: float) -> float:
        u = np.array([np.cos(theta), np.sin(theta)])
        return (np.min(pos @ u) - np.max(neg @ u)) / 2.0

    thetas = np.linspace(0.0, 2.0 * np.pi, 7201)
    U = np.stack([np.cos(thetas), np.sin(thetas)])
    gaps = ((pos @ U).min(axis=0) - (neg @ U).max(axis=0)) / 2.0
    step = thetas[1] - thetas[0]
    best = float(gaps.max())
    for i in np.argsort(gaps)[-5:]:
        # Search the offset from the grid angle, so Brent's relative tolerance is tiny.
        res = minimize_scalar(
            lambda d, i=i: -half_gap(thetas[i] + d),
            bounds=(-step, step),
            method="bounded",
            options={"xatol": 1e-14},
        )
        best = max(best, -float(res.fun))
    return best


def separable_set(rng: np.random.Generator, n: int, margin: float, shift: float = 0.0):
    """n points in [-5, 5]^2 labelled by a random line, none within `margin` of it."""
    theta = rng.uniform(0.0, 2.0 * np.pi)
    u = np.array([np.cos(theta), np.sin(theta)])
    offset = rng.uniform(-2.0, 2.0)
    X = rng.uniform(-5.0, 5.0, size=(n, 2))
    s = X @ u - offset
    y = np.where(s >= 0, 1.0, -1.0)
    # Push the points inside the band out to its edges, so the margin is at least `margin`.
    push = np.where(np.abs(s) < margin, y * margin - s, 0.0)
    X = X + push[:, None] * u
    y[0], y[1] = 1.0, -1.0  # both classes present
    X[0] = (offset + margin + 1.0) * u
    X[1] = (offset - margin - 1.0) * u
    return X + shift, y


def check_canonical(X, y, mm: MaxMargin) -> None:
    """The invariants of the result, whatever the reference."""
    functional = y * (X @ mm.w + mm.b)
    assert functional.min() == pytest.approx(1.0, rel=1e-9)
    assert mm.gamma == pytest.approx(1.0 / np.linalg.norm(mm.w), rel=1e-12)
    assert geometric_margin(X, y, mm.w, mm.b) == pytest.approx(mm.gamma, rel=1e-9)
    assert mm.support.size >= 2
    assert np.all(np.diff(mm.support) > 0)
    np.testing.assert_allclose(functional[mm.support], 1.0, atol=1e-7)
    others = np.setdiff1d(np.arange(y.size), mm.support)
    assert np.all(functional[others] > 1.0)
    assert set(y[mm.support]) == {-1.0, 1.0}


# ---------------------------------------------------------------- the seeds' worked example


def test_two_point_worked_example():
    mm = max_margin([[1.0, 1.0], [2.0, 1.0]], [-1, 1])
    assert mm is not None
    np.testing.assert_allclose(mm.w, [2.0, 0.0], atol=1e-12)
    assert mm.b == pytest.approx(-3.0, abs=1e-12)
    assert mm.gamma == pytest.approx(0.5, rel=1e-12)
    assert mm.support.tolist() == [0, 1]


def test_result_is_frozen_and_read_only():
    mm = max_margin([[1.0, 1.0], [2.0, 1.0]], [-1, 1])
    with pytest.raises(AttributeError):
        mm.b = 0.0  # type: ignore[misc]
    with pytest.raises(ValueError):
        mm.w[0] = 1.0
    with pytest.raises(ValueError):
        mm.support[0] = 1


# ---------------------------------------------------------------- against the brute force


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(2, 60),
    margin=st.floats(0.01, 2.0),
    shift=st.sampled_from([0.0, 50.0, -1000.0]),
)
def test_gamma_matches_brute_force_on_random_sets(seed, n, margin, shift):
    X, y = separable_set(np.random.default_rng(seed), n, margin, shift)
    mm = max_margin(X, y)
    assert mm is not None
    assert mm.gamma == pytest.approx(brute_force_margin(X, y), rel=1e-6)
    check_canonical(X, y, mm)


lattice_points = st.lists(
    st.tuples(st.integers(-4, 4), st.integers(-4, 4)), min_size=2, max_size=40
)


@settings(max_examples=60, deadline=None)
@given(
    points=lattice_points,
    a=st.tuples(st.integers(-3, 3), st.integers(-3, 3)).filter(lambda a: a != (0, 0)),
    c=st.integers(-6, 6),
)
def test_gamma_matches_brute_force_on_degenerate_lattices(points, a, c):
    # Integer points and a half-integer offset: ties, duplicates and collinear support vectors.
    X = np.array(points, dtype=float)
    y = np.where(X @ np.array(a, dtype=float) > c + 0.5, 1.0, -1.0)
    assume(0 < (y > 0).sum() < y.size)
    mm = max_margin(X, y)
    assert mm is not None
    assert mm.gamma == pytest.approx(brute_force_margin(X, y), rel=1e-6)
    check_canonical(X, y, mm)


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("dim", [2, 3])
def test_separator_matches_sklearn_svc(seed, dim):
    rng = np.random.default_rng(seed)
    u = rng.normal(size=dim)
    u /= np.linalg.norm(u)
    X = rng.normal(size=(80, dim))
    s = X @ u - 0.3
    X, s = X[np.abs(s) > 0.2], s[np.abs(s) > 0.2]
    y = np.where(s > 0, 1.0, -1.0)
    mm = max_margin(X, y)
    svc = SVC(kernel="linear", C=1e8, tol=1e-10).fit(X, y)
    w_ref, b_ref = svc.coef_[0], float(svc.intercept_[0])
    norm = np.linalg.norm(w_ref)
    np.testing.assert_allclose(mm.w / np.linalg.norm(mm.w), w_ref / norm, atol=1e-5)
    assert mm.b / np.linalg.norm(mm.w) == pytest.approx(b_ref / norm, abs=1e-5)
    assert mm.gamma == pytest.approx(1.0 / norm, rel=1e-5)
    assert set(svc.support_) <= set(mm.support)


def test_support_vectors_alone_give_the_same_separator():
    X, y = separable_set(np.random.default_rng(3), 200, 0.3)
    full = max_margin(X, y)
    reduced = max_margin(X[full.support], y[full.support])
    np.testing.assert_allclose(reduced.w, full.w, rtol=1e-9)
    assert reduced.b == pytest.approx(full.b, rel=1e-9, abs=1e-9)


def test_translation_and_scaling():
    X, y = separable_set(np.random.default_rng(4), 50, 0.5)
    base = max_margin(X, y)
    moved = max_margin(3.0 * X + np.array([100.0, -7.0]), y)
    assert moved.gamma == pytest.approx(3.0 * base.gamma, rel=1e-9)
    np.testing.assert_allclose(moved.w, base.w / 3.0, rtol=1e-9)
    assert moved.support.tolist() == base.support.tolist()


@pytest.mark.parametrize(
    ("X", "y", "gamma"),
    [
        ([[0.0], [1.0]], [-1, 1], 0.5),
        ([[0.0, 0.0, 0.0], [0.0, 0.0, 4.0]], [1, -1], 2.0),
        ([[0.0, 0.0], [0.0, 0.0], [2.0, 0.0]], [-1, -1, 1], 1.0),  # a duplicated point
        ([[-1.0, -1.0], [1.0, 1.0], [-1.0, 1.0], [1.0, -1.0]], [-1, 1, 1, 1], np.sqrt(2) / 2),
    ],
)
def test_small_cases(X, y, gamma):
    mm = max_margin(X, y)
    assert mm.gamma == pytest.approx(gamma, rel=1e-12)
    check_canonical(np.asarray(X, float), np.asarray(y, float), mm)


# ---------------------------------------------------------------- small problems only
# What keeps max_margin fast on any input (timings are in bench/core_speed.py): the LP turns
# non-separable data away before any least-distance problem is solved, and the problems it
# does solve hold pairs from a small working set, never all N+ x N- pairs of the data.

# Pairs (i in class +1, j in class -1) in the largest least-distance problem allowed: about
# 20 points per class, where all pairs of the sets below would be about a million.
SMALL = 400


@pytest.fixture
def solves(monkeypatch):
    """The number of constraint rows of every least-distance problem max_margin solves."""
    sizes = []
    solve = core.max_margin.least_distance

    def counted(G, h):
        sizes.append(G.shape[0])
        return solve(G, h)

    monkeypatch.setattr(core.max_margin, "least_distance", counted)
    return sizes


def test_xor_is_not_separable(solves):
    assert max_margin([[0, 0], [1, 1], [0, 1], [1, 0]], [-1, -1, 1, 1]) is None
    assert solves == []


def test_noisy_blobs_are_turned_away_by_the_linear_programme(solves):
    rng = np.random.default_rng(0)
    X = np.vstack([rng.normal(0.0, 1.0, (1000, 2)), rng.normal(1.0, 1.0, (1000, 2))])
    y = np.r_[-np.ones(1000), np.ones(1000)]
    assert max_margin(X, y) is None
    assert solves == []


@pytest.mark.parametrize("margin", [1.0, 1e-2, 1e-4, 1e-6])
def test_large_separable_sets_solve_only_small_problems(margin, solves):
    # The case where a huge-C SVC crawls: many points, a thin margin, far from the origin.
    X, y = separable_set(np.random.default_rng(1), 2000, margin, shift=50.0)
    mm = max_margin(X, y)
    assert mm.gamma >= margin * (1 - 1e-9)
    check_canonical(X, y, mm)
    assert 0 < len(solves) <= 10 and max(solves) <= SMALL


def thin_triangle(margin: float, shift: float):
    """Wide classes and one + point 2*margin above a segment of two - points: margin exactly."""
    rng = np.random.default_rng(5)
    X = rng.uniform(-5.0, 5.0, (400, 2))
    X = X[np.abs(X[:, 1]) > 1.0]
    y = np.sign(X[:, 1])
    X = np.vstack([X, [[0.0, margin], [-3.0, -margin], [3.0, -margin]]])
    return X + shift, np.r_[y, 1.0, -1.0, -1.0]


@pytest.mark.parametrize("shift", [0.0, 50.0])
@pytest.mark.parametrize("margin", [1e-3, 1e-6, 1e-9])
def test_thin_margins_are_found(margin, shift, solves):
    X, y = thin_triangle(margin, shift)
    mm = max_margin(X, y)
    assert max(solves) <= SMALL
    # Far from the origin the input's own rounding (~1e-14) moves a 1e-9 margin by ~1e-5.
    assert mm.gamma == pytest.approx(margin, rel=1e-4)
    assert mm.support.tolist() == [y.size - 3, y.size - 2, y.size - 1]
    assert geometric_margin(X, y, mm.w, mm.b) > 0


@pytest.mark.parametrize("margin", [1e-12, 1e-15, 0.0])
def test_margins_below_resolution_never_fail(margin, solves):
    # Below ~1e-13 of the data's spread the answer may be None; it must come cheap and be valid.
    X, y = thin_triangle(margin, 0.0)
    mm = max_margin(X, y)
    assert max(solves, default=0) <= SMALL
    assert mm is None or geometric_margin(X, y, mm.w, mm.b) > 0
    if margin == 0.0:
        assert mm is None


def test_same_point_with_both_labels_is_not_separable():
    assert max_margin([[1.0, 2.0], [1.0, 2.0], [3.0, 3.0]], [1, -1, 1]) is None
    assert max_margin([[1.0, 2.0], [1.0, 2.0]], [1, -1]) is None


# ---------------------------------------------------------------- input validation


@pytest.mark.parametrize(
    ("X", "y", "message"),
    [
        ([[0.0, 0.0], [1.0, 1.0]], [1, 1], "two classes are needed"),
        ([0.0, 1.0], [1, -1], r"X must be a 2-D array \(N, D\)"),
        ([[0.0, 0.0], [1.0, 1.0]], [1, -1, 1], r"y must have shape \(2,\)"),
        ([[0.0, np.nan], [1.0, 1.0]], [1, -1], "X must be finite"),
        ([[0.0, 0.0], [1.0, 1.0]], [0, 1], r"y must contain only -1 and \+1"),
        (np.zeros((0, 2)), [], "X has no rows"),
    ],
)
def test_invalid_input_is_rejected_with_a_clear_message(X, y, message):
    with pytest.raises(ValueError, match=message):
        max_margin(X, y)
