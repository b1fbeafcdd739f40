"""The SVM by subgradient descent, the soft margin and the generalization helpers.

References: the exact maximum margin (core.max_margin.max_margin, itself tested against a
brute-force search and SVC), core.perceptron, a direct loop of the seeds' update,
scikit-learn's SVC and an independent solve of the soft-margin dual with SciPy.
"""

from __future__ import annotations

import math
from collections import deque

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from scipy.optimize import minimize
from sklearn.svm import SVC

from core.descent import margin_sgd, svm_sgd, svm_step_size
from core.evaluation import (
    epochs_to_converge,
    error_rate,
    leave_one_out_errors,
    margins_over_lambda,
    split,
    trained,
)
from core.generalization import generalization, theorem_2_6
from core.geometry import geometric_margin, mistake_bound
from core.max_margin import max_margin
from core.perceptron import ORDERS, perceptron
from core.soft_margin import lam_to_C, primal_objective, soft_margin
from core.trace import align, record
from datasets.builtin import BUILTIN, iris, noisy, separable


def last_step(steps):
    return deque(steps, maxlen=1)[0]


def notes_update(X, y, lam, eta0, epochs):
    """The seeds' SVM step, written out plainly: cyclic order, eta_t = eta0/sqrt(t)."""
    w, b, t, out = np.zeros(X.shape[1]), 0.0, 0, []
    for _ in range(epochs):
        for i in range(len(y)):
            t += 1
            eta = eta0 / math.sqrt(t)
            violated = y[i] * (X[i] @ w + b) < 1
            grad_w = lam * w - (y[i] * X[i] if violated else 0.0)
            grad_b = -y[i] if violated else 0.0
            w, b = w - eta * grad_w, b - eta * grad_b
            out.append((w.copy(), b, violated))
    return out


lattice = st.lists(st.tuples(st.integers(-4, 4), st.integers(-4, 4)), min_size=2, max_size=14)


def lattice_data(points, labels):
    X = np.array(points, dtype=float)
    y = np.array(labels[: len(points)], dtype=float)
    return X, y


# ---------------------------------------------------------------- the maximum margin, approached


@pytest.mark.parametrize("name", ["Lecture notes' example: 2 points",
                                  "Lecture notes' example: 4 points", "AND (±1)", "OR (±1)"])
@pytest.mark.parametrize("order", ["cyclic", "shuffle_each_epoch", "random"])
def test_small_lambda_reaches_within_two_percent_of_the_maximum_margin(name, order):
    data = BUILTIN[name]()
    mm = max_margin(data.X, data.y)
    # lambda = 0.01 is below 1/(N max alpha) on all four sets, so the minimiser IS the
    # maximum-margin separator; 40 000 steps of eta0/sqrt(t) get the last iterate there.
    step = last_step(svm_sgd(data.X, data.y, lam=0.01, eta=1.0, order=order, seed=3,
                             max_epochs=40_000 // len(data), every="update"))
    assert geometric_margin(data.X, data.y, step.w, step.b) >= 0.98 * mm.gamma


def test_the_minimiser_for_that_lambda_is_the_maximum_margin():
    # why 0.01 works: the exact minimiser of the seeds' cost (SVC with C = 1/(lambda N))
    for name in ("Lecture notes' example: 2 points", "Lecture notes' example: 4 points",
                 "AND (±1)", "OR (±1)"):
        data = BUILTIN[name]()
        mm = max_margin(data.X, data.y)
        sm = soft_margin(data.X, data.y, C=lam_to_C(0.01, n=len(data)))
        np.testing.assert_allclose(sm.w, mm.w, atol=1e-7)
        assert sm.b == pytest.approx(mm.b, abs=1e-7)


def test_larger_lambda_gives_a_narrower_separator_or_none():
    data = separable(40, 0.2, 0)
    mm = max_margin(data.X, data.y)
    margins = []
    for lam in (1.0, 0.1, 0.01):
        sm = soft_margin(data.X, data.y, C=lam_to_C(lam, n=len(data)))
        margins.append(max(geometric_margin(data.X, data.y, sm.w, sm.b), 0.0))
    assert margins[0] < margins[1] < margins[2] <= mm.gamma * (1 + 1e-9)


# ---------------------------------------------------------------- the update itself


@pytest.mark.parametrize(("lam", "eta0"), [(0.1, 1.0), (0.01, 0.3), (0.0, 2.0)])
def test_svm_sgd_follows_the_notes_update_step_by_step(lam, eta0):
    data = separable(12, 0.1, 4)
    steps = list(svm_sgd(data.X, data.y, lam=lam, eta=eta0, max_epochs=6))
    reference = notes_update(data.X, data.y, lam, eta0, 6)
    if lam == 0.0:
        reference = reference[: len(steps)]  # without a penalty the run may stop early
    assert len(steps) == len(reference)
    for step, (w, b, violated) in zip(steps, reference, strict=True):
        np.testing.assert_allclose(step.w, w, rtol=1e-12, atol=1e-12)
        assert step.b == pytest.approx(b, abs=1e-12)
        assert step.updated == violated


def test_the_two_point_example_by_hand():
    # t=1: a = 0, y a = 0 < 1: w = (1 - 0.1)*0 + 1*(-1)*(1, 1), b = -1
    # t=2: a = (-1,-1).(2,1) - 1 = -4, y a = -4 < 1, eta = 1/sqrt(2):
    #      w = (1 - 0.1/sqrt 2)(-1, -1) + (2, 1)/sqrt 2, b = -1 + 1/sqrt 2
    s1, s2 = list(svm_sgd([[1.0, 1.0], [2.0, 1.0]], [-1, 1], lam=0.1, max_epochs=1))
    assert (s1.activation, s1.updated, s1.w.tolist(), s1.b) == (0.0, True, [-1.0, -1.0], -1.0)
    r = 1 / math.sqrt(2)
    assert s2.activation == -4.0 and s2.updated and s2.mistakes == 2
    np.testing.assert_allclose(s2.w, (1 - 0.1 * r) * np.array([-1.0, -1.0]) + r * np.array([2, 1]))
    assert s2.b == pytest.approx(-1 + r)
    assert svm_step_size(2, 1.0) == pytest.approx(r)


def test_steps_record_what_the_contract_says():
    data = noisy(30, 0.6, 1)
    lam, eta0 = 0.05, 0.5
    steps = list(svm_sgd(data.X, data.y, lam=lam, eta=eta0, max_epochs=3, order="shuffle_once",
                         seed=2))
    assert len(steps) == 90 and [s.t for s in steps] == list(range(1, 91))
    w, b, violations = np.zeros(2), 0.0, 0
    for step in steps:
        i = step.index
        assert step.epoch == (step.t - 1) // 30 + 1
        assert step.activation == pytest.approx(data.X[i] @ w + b)
        assert step.updated == (data.y[i] * step.activation < 1)
        violations += step.updated
        assert step.mistakes == violations
        if not step.updated:
            # only the penalty acts: w shrinks by (1 - eta_t lambda), b stays
            np.testing.assert_allclose(step.w, (1 - svm_step_size(step.t, eta0) * lam) * w)
            assert step.b == b
        assert not step.w.flags.writeable
        w, b = step.w, step.b


@pytest.mark.parametrize("order", ORDERS)
def test_every_update_yields_exactly_the_updating_visits(order):
    data = noisy(20, 0.8, 5)
    kwargs = dict(lam=0.02, eta=0.7, order=order, seed=11, max_epochs=4)
    visits = [s for s in svm_sgd(data.X, data.y, **kwargs) if s.updated]
    updates = list(svm_sgd(data.X, data.y, **kwargs, every="update"))
    assert [s.t for s in updates] == [s.t for s in visits]
    for a, b in zip(updates, visits, strict=True):
        np.testing.assert_array_equal(a.w, b.w)


def test_no_bias_keeps_b_at_zero_and_seeds_reproduce():
    data = noisy(20, 0.8, 5)
    steps = list(svm_sgd(data.X, data.y, bias=False, max_epochs=3))
    assert all(s.b == 0.0 for s in steps)
    first = [s.index for s in svm_sgd(data.X, data.y, order="random", seed=9, max_epochs=2)]
    again = [s.index for s in svm_sgd(data.X, data.y, order="random", seed=9, max_epochs=2)]
    assert first == again


# ---------------------------------------------------------------- stopping


def test_with_a_penalty_the_run_uses_every_epoch():
    data = BUILTIN["AND (±1)"]()
    assert len(list(svm_sgd(data.X, data.y, lam=0.01, max_epochs=7))) == 7 * 4


def test_without_a_penalty_it_stops_after_an_epoch_with_no_violation():
    data = BUILTIN["AND (±1)"]()
    steps = list(svm_sgd(data.X, data.y, lam=0.0, eta=1.0, max_epochs=500))
    assert len(steps) < 500 * 4 and len(steps) % 4 == 0
    assert not any(s.updated for s in steps[-4:])
    final = steps[-1]
    assert np.all(data.y * (data.X @ final.w + final.b) >= 1)


@pytest.mark.parametrize("order", ["random", "random_misclassified"])
def test_random_orders_stop_once_no_example_violates(order):
    data = BUILTIN["OR (±1)"]()
    steps = list(svm_sgd(data.X, data.y, lam=0.0, order=order, seed=1, max_epochs=500))
    assert len(steps) < 500 * 4
    final = steps[-1]
    assert final.updated  # the last step is the one that cleared the last violation
    assert np.all(data.y * (data.X @ final.w + final.b) >= 1)


# ---------------------------------------------------------------- one loop for both


@settings(max_examples=60, deadline=None)
@given(points=lattice, labels=st.lists(st.sampled_from([-1, 1]), min_size=14, max_size=14),
       order=st.sampled_from(["cyclic", "shuffle_once", "shuffle_each_epoch",
                              "random_misclassified"]),
       bias=st.booleans(), eta=st.sampled_from([1.0, 0.5, 2.0]), seed=st.integers(0, 99))
def test_threshold_zero_no_penalty_constant_step_is_the_perceptron(points, labels, order, bias,
                                                                    eta, seed):
    X, y = lattice_data(points, labels)
    kwargs = dict(order=order, bias=bias, seed=seed, max_epochs=8)
    ours = list(margin_sgd(X, y, loss="perceptron", lam=0.0, eta=eta, schedule="constant",
                           **kwargs))
    theirs = list(perceptron(X, y, eta=eta, **kwargs))
    assert [(s.t, s.epoch, s.index, s.updated, s.mistakes) for s in ours] == \
        [(s.t, s.epoch, s.index, s.updated, s.mistakes) for s in theirs]
    for a, b in zip(ours, theirs, strict=True):
        np.testing.assert_allclose(a.w, b.w, rtol=1e-12, atol=1e-12)
        assert a.b == pytest.approx(b.b, abs=1e-12)
        assert a.activation == pytest.approx(b.activation, abs=1e-12)


# ---------------------------------------------------------------- validation


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (dict(lam=-0.1), "lam must be >= 0"),
        (dict(lam=float("nan")), "lam must be >= 0"),
        (dict(eta=0.0), "eta must be > 0"),
        (dict(order="sorted"), "order must be one of"),
        (dict(every="step"), "every must be 'visit' or 'update'"),
        (dict(max_epochs=0), "max_epochs must be a whole number >= 1"),
        (dict(max_epochs=2.5), "max_epochs must be a whole number >= 1"),
    ],
)
def test_svm_sgd_rejects_bad_settings(kwargs, message):
    with pytest.raises(ValueError, match=message):
        svm_sgd([[0.0, 0.0], [1.0, 1.0]], [-1, 1], **kwargs)


def test_margin_sgd_rejects_bad_loss_and_schedule_and_data():
    with pytest.raises(ValueError, match="loss must be 'hinge' or 'perceptron'"):
        margin_sgd([[0.0]], [1], loss="logistic")
    with pytest.raises(ValueError, match="schedule must be 'sqrt' or 'constant'"):
        margin_sgd([[0.0]], [1], schedule="linear")
    with pytest.raises(ValueError, match=r"y must contain only -1 and \+1"):
        svm_sgd([[0.0], [1.0]], [0, 1])


# ---------------------------------------------------------------- the soft margin


def dual_objective(X, y, C):
    """max_a sum a - 1/2 a^T Q a, 0 <= a <= C, y.a = 0, solved by SLSQP.

    SLSQP starts from a rough libsvm answer (tol 0.1) only to save iterations: the
    problem is convex, so where it stops does not depend on where it starts.
    """
    Q = (y[:, None] * X) @ (y[:, None] * X).T
    rough = SVC(kernel="linear", C=C, tol=0.1).fit(X, y)
    start = np.zeros(len(y))
    start[rough.support_] = np.abs(rough.dual_coef_[0])
    res = minimize(lambda a: 0.5 * a @ Q @ a - a.sum(), start,
                   jac=lambda a: Q @ a - 1.0, method="SLSQP", bounds=[(0.0, C)] * len(y),
                   constraints=[dict(type="eq", fun=lambda a: y @ a, jac=lambda a: y)],
                   options=dict(ftol=1e-15, maxiter=2000))
    return -float(res.fun)


@pytest.mark.parametrize(
    ("data", "C"),
    [(iris("versicolor", "virginica", (2, 3)), 0.1),
     # duplicated points and large alphas: libsvm alone is off by ~1e-4 here
     (iris("versicolor", "virginica", (2, 3)), 1000.0),
     (noisy(60, 0.5, 0), 1.0)],
    ids=["iris-0.1", "iris-1000", "noisy-1"],
)
def test_soft_margin_objective_matches_an_independent_dual_solve(data, C):
    sm = soft_margin(data.X, data.y, C=C)
    primal = primal_objective(data.X, data.y, sm.w, sm.b, C=C)
    # strong duality: the primal optimum equals the dual optimum
    assert primal == pytest.approx(dual_objective(data.X, data.y, C), rel=1e-6)
    assert sm.exact


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(6, 24), spread=st.floats(0.3, 1.5),
       C=st.sampled_from([0.05, 0.5, 5.0, 50.0]))
def test_soft_margin_on_random_sets(seed, n, spread, C):
    data = noisy(n, spread, seed)
    sm = soft_margin(data.X, data.y, C=C)
    f = data.X @ sm.w + sm.b
    # the slack IS the hinge loss of every point
    np.testing.assert_allclose(sm.slack, np.maximum(0.0, 1.0 - data.y * f), atol=1e-9)
    assert sm.violations.tolist() == np.flatnonzero(sm.slack > 0).tolist()
    assert set(sm.violations) <= set(sm.support)  # a violator has alpha = C > 0
    primal = primal_objective(data.X, data.y, sm.w, sm.b, C=C)
    assert primal == pytest.approx(dual_objective(data.X, data.y, C), rel=1e-5, abs=1e-9)
    # and it agrees with SVC itself, to SVC's own tolerance
    svc = SVC(kernel="linear", C=C, tol=1e-8).fit(data.X, data.y)
    assert primal <= primal_objective(data.X, data.y, svc.coef_[0], svc.intercept_[0], C=C) + 1e-9
    np.testing.assert_allclose(sm.w, svc.coef_[0], atol=1e-3 * max(1.0, np.abs(sm.w).max()))


def test_soft_margin_on_a_worked_example():
    # (0,0) in -1, (1,1) and (0.2,0.2) in +1 with C = 1: all three cannot sit outside the
    # margin cheaply; the optimum keeps w = (0.2, 0.2) and pays slacks 1.76 and 0.16
    sm = soft_margin([[0.0, 0.0], [1.0, 1.0], [0.2, 0.2]], [-1, 1, 1], C=1.0)
    np.testing.assert_allclose(sm.w, [0.2, 0.2], atol=1e-9)
    np.testing.assert_allclose(sm.slack, [1.76, 0.0, 0.16], atol=1e-6)
    assert sm.violations.tolist() == [0, 2] and sm.support.tolist() == [0, 2]


def test_large_C_on_separable_data_is_the_hard_margin():
    data = separable(40, 0.2, 1)
    mm = max_margin(data.X, data.y)
    sm = soft_margin(data.X, data.y, C=1e4)
    np.testing.assert_allclose(sm.w, mm.w, atol=1e-7)
    assert sm.violations.size == 0
    assert sm.support.tolist() == mm.support.tolist()


def test_soft_margin_minimises_the_notes_cost_for_lambda():
    data = noisy(40, 0.7, 3)
    lam = 0.05
    sm = soft_margin(data.X, data.y, C=lam_to_C(lam, n=len(data)))

    def cost(w, b):
        return np.mean(np.maximum(0, 1 - data.y * (data.X @ w + b))) + lam / 2 * w @ w

    best = cost(sm.w, sm.b)
    sgd = last_step(svm_sgd(data.X, data.y, lam=lam, eta=1.0, max_epochs=500, every="update"))
    assert best <= cost(sgd.w, sgd.b) + 1e-12
    assert cost(sgd.w, sgd.b) == pytest.approx(best, rel=0.02)  # and SGD gets close
    rng = np.random.default_rng(0)
    for _ in range(200):
        dw, db = rng.normal(scale=0.05, size=2), rng.normal(scale=0.05)
        assert cost(sm.w + dw, sm.b + db) >= best - 1e-12


@pytest.mark.parametrize(
    ("X", "y", "C", "message"),
    [
        ([[0.0, 0.0], [1.0, 1.0]], [1, 1], 1.0, "two classes are needed"),
        ([[0.0, 0.0], [1.0, 1.0]], [1, -1], 0.0, "C must be > 0"),
        ([[0.0, 0.0], [1.0, 1.0]], [1, -1], -1.0, "C must be > 0"),
        ([[0.0, 0.0], [1.0, 1.0]], [1, -1], float("inf"), "C must be > 0"),
        ([[0.0, np.nan], [1.0, 1.0]], [1, -1], 1.0, "X must be finite"),
    ],
)
def test_soft_margin_rejects_bad_input(X, y, C, message):
    with pytest.raises(ValueError, match=message):
        soft_margin(X, y, C=C)


def test_lam_to_C():
    assert lam_to_C(0.01, n=4) == pytest.approx(25.0)
    with pytest.raises(ValueError, match="lam must be > 0"):
        lam_to_C(0.0, n=4)


# ---------------------------------------------------------------- side by side, generalization


def test_align_pads_the_shorter_run_with_its_last_state():
    data = separable(20, 0.3, 2)
    perc = record(perceptron(data.X, data.y))
    svm = record(svm_sgd(data.X, data.y, max_epochs=10))
    assert perc.steps < svm.steps
    p, s = align(perc, svm)
    assert p.steps == s.steps == svm.steps and s is svm
    extra = slice(perc.steps + 1, None)
    np.testing.assert_array_equal(p.W[extra], np.repeat(perc.W[-1:], svm.steps - perc.steps, 0))
    assert np.all(p.index[extra] == -1) and not p.updated[extra].any()
    assert np.all(p.mistakes[extra] == perc.mistakes[-1])
    np.testing.assert_array_equal(p.W[: perc.steps + 1], perc.W)


@settings(max_examples=50, deadline=None)
@given(n_neg=st.integers(1, 30), n_pos=st.integers(1, 30), fraction=st.floats(0.05, 0.95),
       seed=st.integers(0, 1000))
def test_split_is_stratified_and_keeps_both_classes_for_training(n_neg, n_pos, fraction, seed):
    y = np.r_[-np.ones(n_neg), np.ones(n_pos)]
    np.random.default_rng(seed).shuffle(y)
    try:
        train, test = split(y, test_fraction=fraction, seed=seed)
    except ValueError as error:
        assert "test set is empty" in str(error)
        return
    assert np.intersect1d(train, test).size == 0
    assert np.union1d(train, test).tolist() == list(range(len(y)))
    assert set(y[train]) == {-1.0, 1.0}
    for label, count in ((-1.0, n_neg), (1.0, n_pos)):
        held = np.sum(y[test] == label)
        assert held == min(round(fraction * count), count - 1)


def test_split_rejects_bad_fractions():
    with pytest.raises(ValueError, match="test fraction must be between 0 and 1"):
        split([1, -1], test_fraction=1.0)
    with pytest.raises(ValueError, match="the test set is empty"):
        split([1, -1, 1, -1], test_fraction=0.1)


def test_error_rate_counts_ties_as_errors():
    X = np.array([[0.0, 0.0], [1.0, 0.0], [2.0, 0.0], [3.0, 0.0]])
    y = np.array([-1.0, -1.0, 1.0, 1.0])
    assert error_rate(X, y, [1.0, 0.0], -1.5) == 0.0
    assert error_rate(X, y, [1.0, 0.0], -1.0) == 0.25  # (1, 0) sits on the boundary
    assert error_rate(X, y, [-1.0, 0.0], 1.5) == 1.0


def brute_leave_one_out(X, y, max_epochs):
    """Train on all but i, test on i: the plain loop, from the perceptron's rule."""
    errors = 0
    for i in range(len(y)):
        Xi, yi = np.delete(X, i, axis=0), np.delete(y, i)
        w, b = np.zeros(X.shape[1]), 0.0
        for _ in range(max_epochs):
            changed = False
            for x, label in zip(Xi, yi, strict=True):
                if label * (w @ x + b) <= 0:
                    w, b, changed = w + label * x, b + label, True
            if not changed:
                break
        errors += y[i] * (X[i] @ w + b) <= 0
    return int(errors)


@settings(max_examples=40, deadline=None)
@given(points=lattice, labels=st.lists(st.sampled_from([-1, 1]), min_size=14, max_size=14))
def test_leave_one_out_matches_a_plain_loop(points, labels):
    X, y = lattice_data(points, labels)
    assert leave_one_out_errors(X, y, max_epochs=20) == brute_leave_one_out(X, y, 20)


@settings(max_examples=40, deadline=None)
@given(points=lattice, a=st.tuples(st.integers(-3, 3), st.integers(-3, 3)),
       c=st.integers(-4, 4))
def test_leave_one_out_errors_are_within_the_proofs_bound(points, a, c):
    # Theorem 2.6's proof: (*) <= mistakes of a run on all the data <= R^2/gamma^2
    assume(a != (0, 0))
    X = np.array(points, dtype=float)
    y = np.where(X @ np.array(a, dtype=float) > c + 0.5, 1.0, -1.0)
    assume(0 < (y > 0).sum() < len(y))
    full = last_step(perceptron(X, y, max_epochs=10_000, every="update"))
    loo = leave_one_out_errors(X, y, max_epochs=10_000)
    assert loo <= full.mistakes <= mistake_bound(X, y) + 1e-9


@settings(max_examples=40, deadline=None)
@given(points=lattice, a=st.tuples(st.integers(-3, 3), st.integers(-3, 3)),
       c=st.integers(-4, 4), order=st.sampled_from(["cyclic", "shuffle_once",
                                                      "shuffle_each_epoch"]))
def test_the_bound_caps_the_epochs_a_run_needs(points, a, c, order):
    # every epoch before the clean one errs at least once, and there are at most R^2/gamma^2
    assume(a != (0, 0))
    X = np.array(points, dtype=float)
    y = np.where(X @ np.array(a, dtype=float) > c + 0.5, 1.0, -1.0)
    assume(0 < (y > 0).sum() < len(y))
    epochs = epochs_to_converge(X, y)
    steps = list(perceptron(X, y, order=order, seed=1, max_epochs=10_000, every="update"))
    with_mistakes = len({s.epoch for s in steps})
    assert with_mistakes + 1 <= epochs
    w, b, converged = trained(X, y, order=order, seed=1)
    assert converged and np.all(y * (X @ w + b) > 0)
    np.testing.assert_array_equal(w, steps[-1].w if steps else np.zeros(2))


def test_leave_one_out_on_iris_counts_runs_trained_to_convergence():
    # Iris setosa/versicolor, the 70 training points of split seed 0: cut off at 50 epochs
    # the runs leave 7 points wrong; trained to convergence, as Theorem 2.6 says, only 2
    data = BUILTIN["Iris: setosa vs versicolor (sepal)"]()
    train, _ = split(data.y, test_fraction=0.3, seed=0)
    X, y = data.X[train], data.y[train]
    assert len(train) == 70
    assert leave_one_out_errors(X, y) == 2
    assert leave_one_out_errors(X, y, max_epochs=50) == 7
    assert leave_one_out_errors(X, y) <= last_step(
        perceptron(X, y, max_epochs=epochs_to_converge(X, y), every="update")).mistakes


def test_margins_over_lambda_approach_the_maximum():
    data = separable(30, 0.2, 3)
    gamma = max_margin(data.X, data.y).gamma
    lams = [1.0, 0.1, 0.01, 0.001]
    exact, sgd = margins_over_lambda(data.X, data.y, lams, eta=1.0, max_epochs=100)
    assert np.all(np.diff(exact) >= -1e-9)  # shrinking lambda never narrows the exact margin
    assert exact[-1] == pytest.approx(gamma, rel=1e-6)
    assert np.all((sgd >= 0) & (sgd <= gamma * (1 + 1e-9)))
    run = last_step(svm_sgd(data.X, data.y, lam=0.01, eta=1.0, max_epochs=100))
    assert sgd[2] == pytest.approx(max(geometric_margin(data.X, data.y, run.w, run.b), 0.0))


def test_generalization_on_separable_data():
    data = separable(60, 0.1, 2)
    result = generalization(data.X, data.y, test_fraction=0.3, split_seed=5, runs=5,
                            order="random_misclassified", max_epochs=100)
    train, test = split(data.y, test_fraction=0.3, seed=5)
    assert result.train.tolist() == train.tolist() and result.test.tolist() == test.tolist()
    assert result.separable and len(result.runs) == 5 and all(result.converged)
    Xtr, ytr = data.X[train], data.y[train]
    for seed, (w, b, err) in enumerate(result.runs):
        final = last_step(perceptron(Xtr, ytr, order="random_misclassified", seed=seed,
                                     max_epochs=100, every="update"))
        np.testing.assert_array_equal(w, final.w)
        assert err == error_rate(data.X[test], data.y[test], w, b)
        assert error_rate(Xtr, ytr, w, b) == 0.0  # each run separates the training points
    mm = max_margin(Xtr, ytr)
    np.testing.assert_array_equal(result.svm[0], mm.w)
    assert result.svm_error == error_rate(data.X[test], data.y[test], mm.w, mm.b)
    assert result.ratio == mistake_bound(Xtr, ytr)
    assert result.loo.errors == leave_one_out_errors(Xtr, ytr, max_epochs=100)
    # the SVM does not depend on the perceptron runs
    other = generalization(data.X, data.y, test_fraction=0.3, split_seed=5, runs=2,
                           order="shuffle_once", max_epochs=100, loo_limit=10)
    np.testing.assert_array_equal(other.svm[0], result.svm[0])
    assert other.loo is None  # 42 training points > loo_limit


def test_generalization_on_overlapping_data_uses_the_soft_margin():
    data = noisy(50, 1.0, 4)
    result = generalization(data.X, data.y, test_fraction=0.4, split_seed=1, runs=3,
                            order="shuffle_each_epoch", max_epochs=20, C=0.5)
    Xtr, ytr = data.X[result.train], data.y[result.train]
    assert not result.separable and result.ratio == math.inf and result.loo is None
    np.testing.assert_allclose(result.svm[0], soft_margin(Xtr, ytr, C=0.5).w)


# ---------------------------------------------------------------- centring far from the origin


@pytest.mark.parametrize("order", ["cyclic", "shuffle_each_epoch"])
def test_centred_descent_reaches_the_maximum_margin_on_iris(order):
    data = iris("setosa", "versicolor", (0, 1))  # sepal features, about 5 cm from the origin
    exact = max_margin(data.X, data.y)
    steps = list(svm_sgd(data.X, data.y, lam=1e-4, eta=3.0, order=order, seed=1,
                         max_epochs=400, center=True))
    last = steps[-1]
    assert geometric_margin(data.X, data.y, last.w, last.b) >= 0.98 * exact.gamma


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(["cyclic", "random"]))
def test_centred_steps_speak_of_the_data_as_given(seed, order):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(12, 2)) + rng.uniform(-20, 20, size=2)
    y = rng.choice([-1.0, 1.0], size=12)
    previous_w, previous_b = np.zeros(2), 0.0
    for step in svm_sgd(X, y, lam=0.05, order=order, seed=seed, max_epochs=3, center=True):
        x = X[step.index]
        assert step.activation == pytest.approx(previous_w @ x + previous_b, abs=1e-9)
        assert step.updated == (y[step.index] * step.activation < 1)
        previous_w, previous_b = step.w, step.b


def test_centring_without_a_bias_is_refused():
    with pytest.raises(ValueError, match="center=True needs bias=True"):
        next(svm_sgd([[1.0, 2.0], [3.0, 4.0]], [1, -1], bias=False, center=True))


def test_theorem_2_6_draws_match_a_plain_loop_and_sit_under_the_bound():
    data = separable(30, 0.3, 2)
    result = theorem_2_6(data.X, data.y, n=12, draws=40, seed=7)
    rng = np.random.default_rng(7)
    for k in range(40):
        rows = rng.integers(0, 30, size=13)
        X, y = data.X[rows[:12]], data.y[rows[:12]]
        w, b = np.zeros(2), 0.0
        while True:  # the notes' rule, cyclic, to convergence
            changed = False
            for x, label in zip(X, y, strict=True):
                if label * (x @ w + b) <= 0:
                    w, b, changed = w + label * x, b + label, True
            if not changed:
                break
        test = rows[12]
        assert result.wrong[k] == (data.y[test] * (data.X[test] @ w + b) <= 0)
        assert result.ratios[k] == pytest.approx(mistake_bound(data.X[rows], data.y[rows]))
    assert result.converged == 40
    assert result.error == np.mean(result.wrong) <= result.bound
    assert result.bound == pytest.approx(np.mean(result.ratios) / 13)
    with pytest.raises(ValueError, match="not linearly separable"):
        theorem_2_6(noisy(30, 1.0, 0).X, noisy(30, 1.0, 0).y, n=5, draws=3)
