"""The exact best-line search against an exhaustive reference."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import linprog

from core.line_labelings import MAX_POINTS, best_line, labelings
from core.max_margin import max_margin
from datasets.builtin import separable

XOR = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
XOR_Y = np.array([-1.0, 1.0, 1.0, -1.0])

# ---------------------------------------------------------------- an independent reference


def strictly_separable(X: np.ndarray, signs: np.ndarray) -> bool:
    """Some (w, b) has signs_n (w.x_n + b) >= 1 for all n: a feasibility LP."""
    A = -signs[:, None] * np.hstack([X, np.ones((len(X), 1))])
    res = linprog(np.zeros(3), A_ub=A, b_ub=-np.ones(len(X)), bounds=[(None, None)] * 3,
                  method="highs")
    return res.status == 0


def reference_labelings(X: np.ndarray) -> set[tuple[int, ...]]:
    """Every one of the 2^N sign vectors that a line realises, each checked by the LP."""
    return {signs for signs in itertools.product((-1, 1), repeat=len(X))
            if strictly_separable(X, np.array(signs, dtype=float))}


def reference_best(X: np.ndarray, y: np.ndarray) -> int:
    """The most agreements of a realisable labeling with y."""
    return max(int(np.sum(np.array(s) == y)) for s in reference_labelings(X))


# A few points, generic (three decimals in [-5, 5]: the LP reference cannot tell points
# 1e-14 apart, the search can) or on a small integer grid (collinear triples and repeated
# points with either label).
coordinate = st.integers(-5000, 5000).map(lambda k: k / 1000)
generic = st.integers(1, 7).flatmap(lambda n: st.tuples(
    st.lists(st.tuples(coordinate, coordinate), min_size=n, max_size=n),
    st.lists(st.sampled_from([-1.0, 1.0]), min_size=n, max_size=n)))
gridded = st.integers(1, 7).flatmap(lambda n: st.tuples(
    st.lists(st.tuples(st.integers(-2, 2), st.integers(-2, 2)), min_size=n, max_size=n),
    st.lists(st.sampled_from([-1.0, 1.0]), min_size=n, max_size=n)))


# ---------------------------------------------------------------- XOR and hand cases


@pytest.mark.parametrize("scale", [1.0, 2.0, -1.0])
def test_xor_best_line_gets_three_of_four(scale):
    X = XOR if scale > 0 else 2 * XOR - 1
    found = best_line(X * abs(scale), XOR_Y)
    assert (found.correct, found.total) == (3, 4)
    assert found.accuracy == 0.75
    # the returned line really gets those three right, and has unit normal
    assert int(np.sum(XOR_Y * (X * abs(scale) @ found.w + found.b) > 0)) == 3
    assert np.linalg.norm(found.w) == pytest.approx(1.0)


def test_square_corners_have_fourteen_labelings_missing_xor_and_its_negation():
    found = {tuple(row) for row in labelings(XOR)}
    assert len(found) == 14
    everything = set(itertools.product((-1, 1), repeat=4))
    assert everything - found == {(-1, 1, 1, -1), (1, -1, -1, 1)}


@pytest.mark.parametrize(("function", "y"), [("AND", [-1, -1, -1, 1]), ("OR", [-1, 1, 1, 1]),
                                              ("NAND", [1, 1, 1, -1])])
def test_and_or_nand_are_four_of_four(function, y):
    assert best_line(XOR, y).correct == 4, function


def test_repeated_point_with_both_labels_caps_the_score():
    X = [[1.0, 1.0], [1.0, 1.0], [1.0, 1.0], [3.0, 0.0]]
    assert best_line(X, [1, -1, -1, 1]).correct == 3
    assert labelings([[1.0, 1.0]] * 3).tolist() == [[-1, -1, -1], [1, 1, 1]]


def test_collinear_points_allow_only_the_threshold_labelings():
    X = np.array([[0.0, 0.0], [1.0, 1.0], [2.0, 2.0], [3.0, 3.0]])
    assert len(labelings(X)) == 8  # 2 * (N + 1) - 2: a cut at each of 5 places, both ways
    assert best_line(X, [1, -1, 1, -1]).correct == 3


@pytest.mark.parametrize("n", [1, 2, 5, 9, 20])
def test_points_in_general_position_have_n_squared_minus_n_plus_two_labelings(n):
    X = np.random.default_rng(n).normal(size=(n, 2))
    assert len(labelings(X)) == n * n - n + 2


# ---------------------------------------------------------------- against the reference


@settings(max_examples=60, deadline=None)
@given(data=st.one_of(generic, gridded))
def test_best_line_matches_the_exhaustive_reference(data):
    points, y = data
    X, y = np.array(points, dtype=float), np.array(y)
    found = best_line(X, y)
    assert found.correct == reference_best(X, y)
    assert int(np.sum(y * (X @ found.w + found.b) > 0)) == found.correct


@settings(max_examples=40, deadline=None)
@given(data=st.one_of(generic, gridded))
def test_labelings_match_the_exhaustive_reference(data):
    points, _ = data
    X = np.array(points, dtype=float)
    assert {tuple(row) for row in labelings(X)} == reference_labelings(X)


@settings(max_examples=80, deadline=None)
@given(data=st.one_of(generic, gridded))
def test_four_of_four_exactly_when_the_max_margin_separator_exists(data):
    points, y = data
    X, y = np.array(points, dtype=float), np.array(y)
    if len(np.unique(y)) < 2:
        y[0] = -y[0] if len(y) > 1 else y[0]
    if len(np.unique(y)) < 2:
        return  # a single point: max_margin needs two classes
    assert (best_line(X, y).correct == len(y)) == (max_margin(X, y) is not None)


@pytest.mark.parametrize("seed", range(4))
def test_larger_random_sets_agree_with_max_margin(seed):
    rng = np.random.default_rng(seed)
    data = separable(60, 0.05, seed)
    assert best_line(data.X, data.y).correct == 60
    flipped = data.y.copy()
    flipped[rng.choice(60, 3, replace=False)] *= -1
    assert (best_line(data.X, flipped).correct == 60) == (max_margin(data.X, flipped)
                                                         is not None)


@pytest.mark.parametrize(
    ("X", "y", "message"),
    [
        (np.zeros((3, 3)), [1, 1, 1], r"X must have shape \(N, 2\)"),
        ([1.0, 2.0], [1, 1], r"X must have shape \(N, 2\)"),
        ([[0.0, np.nan]], [1], "X must be finite"),
        ([[0.0, 0.0]], [2], r"y must contain only -1 and \+1"),
        (np.zeros((MAX_POINTS + 1, 2)), np.ones(MAX_POINTS + 1), "at most 100 points"),
    ],
)
def test_bad_input_is_refused_with_a_message(X, y, message):
    with pytest.raises(ValueError, match=message):
        best_line(X, y)
