"""Margins, radius and the mistake bound: hand cases, a reference perceptron, a brute force."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import linprog, minimize

from core.decimals import exact_decimals
from core.geometry import (
    best_unit_separator,
    geometric_margin,
    linearly_separable,
    mistake_bound,
    proof_quantities,
    radius,
)
from core.line_labelings import best_line
from core.max_margin import max_margin
from core.perceptron import perceptron
from core.trace import exact_weights, record
from core.update_effect import update_effect, updates_to_flip
from tests.fraction_rule import fraction_visits

XOR_X = [[0.0, 0.0], [1.0, 1.0], [0.0, 1.0], [1.0, 0.0]]
XOR_Y = [-1, -1, 1, 1]

# ---------------------------------------------------------------- independent references


def reference_perceptron(X, y, *, bias, eta=1.0, max_mistakes=10**6):
    """The seeds' Algorithm 1: cyclic order, w = 0, b = 0, update when y a <= 0.

    Returns the number of mistakes and the weights (w, b) after each update.
    Stops after a clean epoch, or once max_mistakes is exceeded.
    """
    rows = [[float(v) for v in x] + ([1.0] if bias else []) for x in np.asarray(X)]
    labels = [float(v) for v in y]
    w = [0.0] * len(rows[0])
    history = []
    while True:
        clean = True
        for z, label in zip(rows, labels, strict=True):
            if label * sum(wi * zi for wi, zi in zip(w, z, strict=True)) <= 0:
                w = [wi + eta * label * zi for wi, zi in zip(w, z, strict=True)]
                history.append(w)
                clean = False
                if len(history) > max_mistakes:
                    return len(history), np.array(history)
        if clean:
            return len(history), np.array(history).reshape(-1, len(w))


def brute_force_gamma(P: np.ndarray) -> float:
    """max over unit u of min_n P_n.u, in 2 or 3 dimensions: a fine grid, then refinement."""
    dim = P.shape[1]
    if dim == 2:
        angles = np.linspace(0.0, 2.0 * np.pi, 20001)
        U = np.stack([np.cos(angles), np.sin(angles)], axis=1)
    else:
        # Fibonacci sphere: nearly uniform directions.
        k = np.arange(200_000) + 0.5
        polar = np.arccos(1.0 - 2.0 * k / k.size)
        azimuth = np.pi * (1.0 + 5.0**0.5) * k
        U = np.stack(
            [np.sin(polar) * np.cos(azimuth), np.sin(polar) * np.sin(azimuth), np.cos(polar)],
            axis=1,
        )
    scores = (P @ U.T).min(axis=0)
    best = float(scores.max())

    def negative_margin(v: np.ndarray) -> float:
        return -float(np.min(P @ v) / np.linalg.norm(v))

    for i in np.argsort(scores)[-4:]:
        res = minimize(
            negative_margin,
            U[i],
            method="Nelder-Mead",
            options={"xatol": 1e-12, "fatol": 1e-15, "maxiter": 20_000},
        )
        best = max(best, -float(res.fun))
    return best


def separable_set(rng, n, margin, *, through_origin, shift=0.0):
    """n points in [-5, 5]^2, labelled by a random line (through the origin if asked),
    none within `margin` of it; then shifted by `shift` ALONG the line, so they sit far
    from the origin while the line still separates them."""
    theta = rng.uniform(0.0, 2.0 * np.pi)
    u = np.array([np.cos(theta), np.sin(theta)])
    along = np.array([-u[1], u[0]])
    offset = 0.0 if through_origin else rng.uniform(-2.0, 2.0)
    X = rng.uniform(-5.0, 5.0, size=(n, 2))
    s = X @ u - offset
    y = np.where(s >= 0, 1.0, -1.0)
    X = X + np.where(np.abs(s) < margin, y * margin - s, 0.0)[:, None] * u
    return X + shift * along, y


# ---------------------------------------------------------------- geometric margin


def test_geometric_margin_hand_computed():
    X, y = [[1.0, 1.0], [2.0, 1.0]], [-1, 1]
    assert geometric_margin(X, y, [2.0, 0.0], -3.0) == pytest.approx(0.5)
    # y(w.x + b) = 0.5 for both points, ||w|| = sqrt(2)
    assert geometric_margin(X, y, [1.0, 1.0], -2.5) == pytest.approx(0.5 / math.sqrt(2))
    # scaling (w, b) leaves the geometric margin unchanged
    assert geometric_margin(X, y, [20.0, 0.0], -30.0) == pytest.approx(0.5)


@pytest.mark.parametrize(
    ("w", "b", "why"),
    [
        ([1.0, 0.0], -2.0, "a point on the boundary"),
        ([-2.0, 0.0], 3.0, "every point on the wrong side"),
        ([1.0, 0.0], -2.5, "one point on the wrong side"),
        ([0.0, 0.0], 0.0, "w = 0"),
        ([0.0, 0.0], 1.0, "w = 0 with a bias"),
    ],
)
def test_geometric_margin_is_minus_infinity_when_not_separating(w, b, why):
    X, y = [[1.0, 1.0], [2.0, 1.0]], [-1, 1]
    assert geometric_margin(X, y, w, b) == -math.inf, why


def test_geometric_margin_rejects_mismatched_w():
    with pytest.raises(ValueError, match=r"w must have shape \(2,\)"):
        geometric_margin([[1.0, 1.0]], [1], [1.0, 0.0, 0.0])


# ---------------------------------------------------------------- radius


@pytest.mark.parametrize(
    ("X", "bias", "expected"),
    [
        ([[3.0, 4.0]], False, 5.0),
        ([[3.0, 4.0]], True, math.sqrt(26.0)),
        ([[1.0, 0.0], [0.0, -2.0]], False, 2.0),
        ([[1.0, 0.0], [0.0, -2.0]], True, math.sqrt(5.0)),
        ([[0.0]], True, 1.0),
    ],
)
def test_radius(X, bias, expected):
    assert radius(X, bias=bias) == pytest.approx(expected)


def test_radius_rejects_bad_shapes():
    with pytest.raises(ValueError, match=r"X must be a 2-D array"):
        radius([1.0, 2.0])


# ---------------------------------------------------------------- mistake bound: hand cases


def test_mistake_bound_hand_computed():
    # Without a bias: R = 2, and u = 1 gives gamma = min(1, 2) = 1.
    assert mistake_bound([[1.0], [-2.0]], [1, -1], bias=False) == pytest.approx(4.0)
    # With a bias, the rows y z are (1, 1) and (2, -1); the point of their segment nearest
    # the origin is (1.2, 0.6), so gamma^2 = 1.8 and R^2 = 5.
    assert mistake_bound([[1.0], [-2.0]], [1, -1]) == pytest.approx(5.0 / 1.8)
    u, gamma = best_unit_separator([[1.0], [-2.0]], [1, -1])
    np.testing.assert_allclose(u, np.array([1.2, 0.6]) / math.sqrt(1.8))
    assert gamma == pytest.approx(math.sqrt(1.8))


@pytest.mark.parametrize("bias", [True, False])
def test_mistake_bound_is_infinite_for_xor(bias):
    assert mistake_bound(XOR_X, XOR_Y, bias=bias) == math.inf
    assert best_unit_separator(XOR_X, XOR_Y, bias=bias) is None


@pytest.mark.parametrize(
    ("X", "y"),
    [
        ([[1.0], [2.0]], [-1, 1]),  # needs the threshold at 1.5
        ([[1.0, 1.0], [2.0, 2.0]], [-1, 1]),  # one ray from the origin, two labels
        ([[0.0, 0.0], [1.0, 0.0]], [1, -1]),  # a zero vector is never classified through 0
    ],
)
def test_without_bias_data_not_separable_through_origin_has_infinite_bound(X, y):
    assert mistake_bound(X, y, bias=False) == math.inf
    assert math.isfinite(mistake_bound(X, y, bias=True))


def test_single_class_is_fine_for_the_bound():
    # The perceptron with a bias makes one mistake and stops; the bound covers it.
    X, y = [[1.0, 2.0], [3.0, -1.0]], [1, 1]
    bound = mistake_bound(X, y)
    assert reference_perceptron(X, y, bias=True)[0] <= bound < math.inf


# ---------------------------------------------------------------- mistake bound: property


@settings(max_examples=80, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(1, 30),
    margin=st.floats(0.3, 3.0),
    bias=st.booleans(),
    shift=st.sampled_from([0.0, 50.0, -50.0]),
)
def test_perceptron_mistakes_never_exceed_the_bound(seed, n, margin, bias, shift):
    X, y = separable_set(
        np.random.default_rng(seed), n, margin, through_origin=not bias, shift=shift
    )
    bound = mistake_bound(X, y, bias=bias)
    assert math.isfinite(bound)
    mistakes, _ = reference_perceptron(X, y, bias=bias, max_mistakes=math.floor(bound) + 1)
    assert mistakes <= bound * (1 + 1e-12)  # the bound is a float: allow its last bits


@pytest.mark.parametrize("seed", range(6))
def test_bound_holds_far_from_the_origin_in_any_direction(seed):
    # Shifted by 50 in a random direction the bound grows large; keep the sets whose bound
    # is small enough for a Python reference loop, and let the loop stop just past it.
    rng = np.random.default_rng(seed)
    while True:
        X, y = separable_set(rng, 12, 3.0, through_origin=False)
        X = X + 50.0 * rng.normal(size=2) / math.sqrt(2.0)
        bound = mistake_bound(X, y)
        if bound < 3e4:
            break
    mistakes, _ = reference_perceptron(X, y, bias=True, max_mistakes=math.floor(bound) + 1)
    assert mistakes <= bound * (1 + 1e-12)
    # The augmented gamma never exceeds the geometric margin, so the bound is at least R^2/margin^2.
    assert bound >= radius(X) ** 2 / max_margin(X, y).gamma ** 2 * (1 - 1e-9)


# ---------------------------------------------------------------- tightness


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize(
    ("bias", "dim"), [(True, 2), (False, 2), (False, 3)], ids=["bias-2d", "origin-2d", "origin-3d"]
)
def test_gamma_is_the_best_margin_through_the_origin(seed, bias, dim):
    rng = np.random.default_rng(seed)
    if dim == 2:
        X, y = separable_set(rng, 25, 0.2, through_origin=not bias, shift=3.0 * seed)
    else:
        normal = rng.normal(size=3)
        X = rng.normal(size=(40, 3))
        X = X[np.abs(X @ normal) > 0.1]
        y = np.sign(X @ normal)
    P = y[:, None] * (np.hstack([X, np.ones((len(X), 1))]) if bias else X)
    u, gamma = best_unit_separator(X, y, bias=bias)
    assert np.linalg.norm(u) == pytest.approx(1.0, abs=1e-12)
    assert gamma == pytest.approx(float(np.min(P @ u)), rel=1e-12)
    reference = brute_force_gamma(P)
    assert gamma >= reference - 1e-9
    assert gamma == pytest.approx(reference, abs=1e-4)
    assert mistake_bound(X, y, bias=bias) == pytest.approx(
        radius(X, bias=bias) ** 2 / gamma**2, rel=1e-12
    )


@pytest.mark.parametrize("seed", range(5))
def test_augmented_gamma_is_at_most_the_geometric_margin(seed):
    # ||(w, b)|| >= ||w||: the bias coordinate can only shrink the margin the bound uses.
    X, y = separable_set(np.random.default_rng(seed), 30, 0.5, through_origin=False)
    _, gamma = best_unit_separator(X, y)
    assert gamma <= max_margin(X, y).gamma * (1 + 1e-12)


def test_bound_without_bias_is_scale_invariant():
    X, y = separable_set(np.random.default_rng(7), 30, 0.5, through_origin=True)
    assert mistake_bound(10.0 * X, y, bias=False) == pytest.approx(
        mistake_bound(X, y, bias=False), rel=1e-9
    )


def test_bound_with_bias_grows_far_from_the_origin():
    X, y = separable_set(np.random.default_rng(7), 30, 0.5, through_origin=False)
    near, far = mistake_bound(X, y), mistake_bound(X + np.array([50.0, 50.0]), y)
    assert far > 10.0 * near


# ---------------------------------------------------------------- the proof's quantities


@pytest.mark.parametrize("eta", [1.0, 0.5, 3.0])
@pytest.mark.parametrize("bias", [True, False])
def test_proof_quantities_follow_novikoffs_two_claims(eta, bias):
    X, y = separable_set(np.random.default_rng(11), 40, 0.2, through_origin=not bias)
    u, gamma = best_unit_separator(X, y, bias=bias)
    R = radius(X, bias=bias)
    mistakes, ws = reference_perceptron(X, y, bias=bias, eta=eta)
    projections, squared_norms = proof_quantities(ws, u)
    t = np.arange(1, mistakes + 1)
    assert projections.shape == squared_norms.shape == (mistakes,)
    assert np.all(projections >= t * eta * gamma * (1 - 1e-9))
    assert np.all(squared_norms <= t * eta**2 * R**2 * (1 + 1e-9))
    np.testing.assert_allclose(squared_norms, np.sum(ws**2, axis=1))


def test_proof_quantities_by_hand():
    projections, squared_norms = proof_quantities([[1.0, 0.0], [1.0, 2.0]], [0.6, 0.8])
    np.testing.assert_allclose(projections, [0.6, 2.2])
    np.testing.assert_allclose(squared_norms, [1.0, 5.0])


@pytest.mark.parametrize(
    ("ws", "u", "message"),
    [
        ([1.0, 2.0], [1.0, 0.0], r"ws must be a 2-D array"),
        ([[1.0, 2.0]], [1.0, 0.0, 0.0], r"u must have shape \(2,\)"),
        ([[np.inf, 2.0]], [1.0, 0.0], "must be finite"),
    ],
)
def test_proof_quantities_reject_bad_input(ws, u, message):
    with pytest.raises(ValueError, match=message):
        proof_quantities(ws, u)


@pytest.mark.parametrize(
    ("X", "y", "message"),
    [
        ([[0.0, 0.0]], [2], r"y must contain only -1 and \+1"),
        ([[0.0, 0.0]], [1, -1], r"y must have shape \(1,\)"),
        ([[0.0, np.inf]], [1], "X must be finite"),
        (np.zeros((3, 0)), [1, 1, 1], "X has no columns"),
    ],
)
def test_mistake_bound_rejects_bad_input(X, y, message):
    with pytest.raises(ValueError, match=message):
        mistake_bound(X, y)


# ---------------------------------------------------------------- one separability test


def feasible_separator(X, y, *, bias):
    """Reference: is y_n (w.x_n + b) >= 1 feasible? (an LP with no margin threshold)."""
    Z = np.hstack([X, np.ones((len(y), 1))]) if bias else X
    result = linprog(np.zeros(Z.shape[1]), A_ub=-(y[:, None] * Z), b_ub=-np.ones(len(y)),
                     bounds=[(None, None)] * Z.shape[1], method="highs")
    return result.status == 0


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 10**6), st.integers(2, 9), st.booleans())
def test_every_lesson_asks_one_separability_test(seed, n, bias):
    rng = np.random.default_rng(seed)
    X = rng.integers(-4, 5, size=(n, 2)).astype(float)
    y = rng.choice([-1.0, 1.0], size=n)
    y[0], y[1] = -1.0, 1.0
    answer = linearly_separable(X, y, bias=bias)
    assert answer == feasible_separator(X, y, bias=bias)
    assert answer == math.isfinite(mistake_bound(X, y, bias=bias))
    if bias:
        # brute force: the best line over every labeling a line can make
        assert answer == (best_line(X, y).correct == n)
        assert answer == (max_margin(X, y) is not None)


def test_one_class_is_separable_and_a_point_with_both_labels_is_not():
    assert linearly_separable([[3.0, 4.0], [5.0, 6.0]], [1, 1])
    assert not linearly_separable([[3.0, 4.0], [3.0, 4.0]], [1, -1])
    assert not linearly_separable([[0.0, 0.0], [0.0, 0.0]], [1, -1], bias=False)


@settings(max_examples=60, deadline=None)
@given(points=st.lists(st.tuples(st.integers(-4, 4), st.integers(-4, 4)), min_size=2,
                       max_size=10),
       labels=st.lists(st.sampled_from([-1, 1]), min_size=10, max_size=10),
       u=st.tuples(st.integers(-3, 3), st.integers(-3, 3), st.integers(-3, 3)),
       passes=st.integers(1, 6))
def test_freund_schapire_bounds_the_mistakes_of_real_runs(points, labels, u, passes):
    # the theorem's claim, checked against the run itself: any data, any u, any passes
    from core.geometry import non_separable_bound
    from core.perceptron import perceptron
    X = np.array(points, dtype=float)
    y = np.array(labels[:len(points)], dtype=float)
    if not any(u):
        return
    bound, gamma = non_separable_bound(X, y, np.array(u, dtype=float), passes=passes)
    made = sum(1 for _ in perceptron(X, y, max_epochs=passes, every="update"))
    assert made <= bound * (1 + 1e-9)
    if math.isfinite(bound):
        assert gamma > 0


# ---------------------------------------------------------------- why an update helps, exactly


def repeated_updates(margin: Fraction, gain: Fraction) -> int:
    """Add the gain until y*a > 0, one update at a time (a tie y*a = 0 is still a mistake)."""
    count = 0
    while margin <= 0:
        margin += gain
        count += 1
    return count


@given(margin=st.integers(-2000, 300), gain=st.integers(1, 90), places=st.integers(0, 3))
def test_updates_to_flip_is_the_number_of_repeated_updates(margin, gain, places):
    m, g = Fraction(margin, 10**places), Fraction(gain, 10**places)
    assert updates_to_flip(m, g) == repeated_updates(m, g)


def test_a_tie_reached_by_tenths_needs_one_more_update():
    # -2.1 + 7 * 0.3 is exactly 0: still a mistake, an eighth update flips it (in floats,
    # 7 * 0.30000000000000004 passes 2.1 and says 7)
    assert updates_to_flip(Fraction(-21, 10), Fraction(3, 10)) == 8
    assert updates_to_flip(Fraction(-3, 10), Fraction(3, 10)) == 2
    assert updates_to_flip(Fraction(0), Fraction(3, 10)) == 1
    # x = 0 without a bias: an update changes nothing, no count of them is enough
    assert updates_to_flip(Fraction(0), Fraction(0)) is None
    assert updates_to_flip(Fraction(1, 10), Fraction(0)) == 0
    with pytest.raises(ValueError, match="gain"):
        updates_to_flip(-1, -1)


tenths = st.integers(-30, 30)


@settings(max_examples=60, deadline=None)
@given(points=st.lists(st.tuples(tenths, tenths, st.sampled_from([-1, 1])), min_size=2,
                       max_size=7),
       eta=st.sampled_from(["0.1", "0.2", "0.3", "0.05", "0.7", "1", "1.5"]),
       bias=st.booleans())
def test_every_update_of_a_run_counts_its_flips_like_the_fraction_rule(points, eta, bias):
    X = [[Fraction(a, 10), Fraction(c, 10)] for a, c, _ in points]
    y = [label for *_, label in points]
    e = Fraction(eta)
    visits, _ = fraction_visits(X, y, eta=e, bias=bias, epochs=8)
    Xf = np.array(X, dtype=float)
    trace = record(perceptron(Xf, y, eta=float(eta), bias=bias, max_epochs=8))
    assert trace.steps == len(visits)
    for k, (n, w, b, wrong) in enumerate(visits, start=1):
        assert bool(trace.updated[k]) == wrong
        if not wrong:
            continue
        exact = exact_weights(trace, Xf, y, k - 1, eta=float(eta), bias=bias)
        assert exact == (tuple(w), b)
        *x, step = exact_decimals(np.r_[Xf[n], [float(eta)]]).tolist()
        effect = update_effect(x, y[n], *exact, eta=step, bias=bias)
        before = y[n] * (sum(wi * xi for wi, xi in zip(w, X[n], strict=True)) + b)
        gain = e * (sum(xi * xi for xi in X[n]) + (1 if bias else 0))
        assert effect.exact and (effect.before, effect.gain) == (before, gain)
        assert effect.needed == (repeated_updates(before, gain) if gain else None)
        assert effect.flipped == (before + gain > 0)


def test_exact_weights_are_none_for_a_run_in_floats():
    X = [[0.1 + 0.2, 1.0], [-1.0, 0.5]]
    trace = record(perceptron(X, [1, -1]))
    assert not trace.exact and exact_weights(trace, X, [1, -1], 1, eta=1.0) is None
    effect = update_effect(np.array(X[0]), 1, np.zeros(2), 0.0, eta=1.0)
    assert not effect.exact
