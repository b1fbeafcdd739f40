"""The perceptron stream: the seeds' numbers, scikit-learn epoch by epoch, and the rule itself."""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.perceptron import ORDERS, initial_weights, perceptron
from datasets.builtin import NOTES_ETA, NOTES_INIT, notes_four_points, notes_two_points

# ---------------------------------------------------------------- the seeds' worked example


def test_notes_two_point_example_gives_the_notes_numbers():
    data = notes_two_points()
    steps = list(perceptron(data.X, data.y, eta=NOTES_ETA, init=NOTES_INIT))
    first, second = steps[0], steps[1]
    # y(0.2 x1 + 0.0 x2 - 0.1) = -0.1 <= 0 for x = (1, 1), y = -1
    assert first.activation == pytest.approx(0.1) and first.updated
    np.testing.assert_allclose(first.w, [0.1, -0.1])
    assert first.b == pytest.approx(-0.2)
    # y(0.1 x1 - 0.1 x2 - 0.2) = -0.1 <= 0 for x = (2, 1), y = +1
    assert second.activation == pytest.approx(-0.1) and second.updated
    np.testing.assert_allclose(second.w, [0.3, 0.0], atol=1e-15)
    assert second.b == pytest.approx(-0.1)


def test_notes_continuation_third_point_correct_fourth_updates():
    data = notes_four_points()
    steps = list(perceptron(data.X, data.y, eta=NOTES_ETA, init=NOTES_INIT))
    third, fourth = steps[2], steps[3]
    assert data.y[2] * third.activation == pytest.approx(0.35)
    assert not third.updated
    assert fourth.updated and data.y[3] * fourth.activation <= 0
    # The continued example is separable, so the run ends with every point correct.
    last = steps[-1]
    assert np.all(data.y * (data.X @ last.w + last.b) > 0)


# ---------------------------------------------------------------- against scikit-learn


def _epoch_ends(steps):
    """Weights at the end of each epoch, from a visit stream."""
    ends = {}
    for s in steps:
        ends[s.epoch] = (s.w, s.b)
    return ends


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("kind", ["separable", "overlapping"])
def test_matches_scikit_learn_epoch_by_epoch(seed, kind):
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.linear_model import Perceptron

    rng = np.random.default_rng(seed)
    n = 30
    X = rng.normal(size=(n, 2)) * 2
    if kind == "separable":
        y = np.where(X @ [1.0, -2.0] + 0.5 > 0, 1.0, -1.0)
    else:
        y = np.where(X[:, 0] + rng.normal(size=n) > 0, 1.0, -1.0)
    epochs = 12
    ends = _epoch_ends(perceptron(X, y, eta=1.0, max_epochs=epochs))
    w, b = np.zeros(2), 0.0
    for k in range(1, epochs + 1):
        w, b = ends.get(k, (w, b))  # after convergence the weights stay put
        reference = Perceptron(max_iter=k, tol=None, shuffle=False, eta0=1.0,
                               fit_intercept=True, penalty=None)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            reference.fit(X, y)
        np.testing.assert_allclose(w, reference.coef_[0], rtol=1e-9, atol=1e-9)
        assert b == pytest.approx(reference.intercept_[0], abs=1e-9)


# ---------------------------------------------------------------- properties of the rule


@st.composite
def problems(draw, separable=None):
    """A small random data set with a random way to train on it."""
    n = draw(st.integers(1, 25))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    X = np.round(rng.normal(size=(n, 2)) * draw(st.sampled_from([0.5, 1, 5])), 2)
    X = X + draw(st.sampled_from([0.0, 3.0]))  # sometimes far from the origin
    sep = draw(st.booleans()) if separable is None else separable
    if sep:
        normal = rng.normal(size=2)
        score = X @ normal - np.median(X @ normal)
        keep = np.abs(score) > 0.2 * np.std(score) + 1e-9
        X, score = X[keep], score[keep]
        if len(X) == 0:
            X, score = np.array([[0.0, 0.0], [1.0, 1.0]]), np.array([-1.0, 1.0])
        y = np.where(score > 0, 1.0, -1.0)
    else:
        y = rng.choice([-1.0, 1.0], size=len(X))
    kwargs = dict(
        eta=draw(st.sampled_from([0.1, 0.5, 1.0, 2.0])),
        order=draw(st.sampled_from(ORDERS)),
        init=draw(st.sampled_from(["zeros", "random", ((0.3, -0.2), 0.1)])),
        bias=draw(st.booleans()),
        seed=draw(st.integers(0, 10_000)),
        max_epochs=draw(st.integers(1, 8)),
    )
    if not kwargs["bias"] and not isinstance(kwargs["init"], str):
        kwargs["init"] = ((0.3, -0.2), 0.0)
    return X, y, kwargs


def _same(a, b):
    return (a.t, a.epoch, a.index, a.updated, a.mistakes) == (
        b.t, b.epoch, b.index, b.updated, b.mistakes
    ) and np.array_equal(a.w, b.w) and a.b == b.b and a.activation == b.activation


@settings(max_examples=300, deadline=None)
@given(problems())
def test_update_stream_is_the_filtered_visit_stream(problem):
    X, y, kwargs = problem
    visits = [s for s in perceptron(X, y, **kwargs) if s.updated]
    updates = list(perceptron(X, y, every="update", **kwargs))
    assert len(visits) == len(updates)
    assert all(_same(a, b) for a, b in zip(visits, updates, strict=True))


@settings(max_examples=300, deadline=None)
@given(problems())
def test_every_step_follows_the_rule(problem):
    X, y, kwargs = problem
    n = len(y)
    w, b = initial_weights(2, init=kwargs["init"], bias=kwargs["bias"], seed=kwargs["seed"])
    eta, mistakes = kwargs["eta"], 0
    run = perceptron(X, y, **kwargs)
    steps = list(run)
    for k, s in enumerate(steps, start=1):
        x, label = X[s.index], y[s.index]
        assert s.t == k and s.epoch == (k - 1) // n + 1
        assert s.activation == pytest.approx(w @ x + b, rel=1e-12, abs=1e-12)
        # a float run (data such as 3.0700000000000003) takes a margin within rounding of 0
        # for the tie it probably is: there the rule's own test is its tie tolerance
        if run.exact or abs(s.activation) > 1e-9:
            assert s.updated == (label * s.activation <= 0)
        if s.updated:
            w, b = w + eta * label * x, (b + eta * label if kwargs["bias"] else 0.0)
            mistakes += 1
        np.testing.assert_allclose(s.w, w, rtol=1e-12, atol=1e-12)
        assert s.b == pytest.approx(b, rel=1e-12, abs=1e-12)
        assert s.mistakes == mistakes
        assert not s.w.flags.writeable
        if not kwargs["bias"]:
            assert s.b == 0.0
    assert len(steps) <= kwargs["max_epochs"] * n
    _check_order(steps, n, kwargs)
    _check_stop(steps, X, y, n, kwargs)


def _check_order(steps, n, kwargs):
    """The visited rows follow the chosen order."""
    order = kwargs["order"]
    by_epoch = {}
    for s in steps:
        by_epoch.setdefault(s.epoch, []).append(s.index)
    if order == "cyclic":
        assert all(s.index == (s.t - 1) % n for s in steps)
    if order in ("shuffle_once", "shuffle_each_epoch"):
        full = [rows for rows in by_epoch.values() if len(rows) == n]
        assert all(sorted(rows) == list(range(n)) for rows in full)
        if order == "shuffle_once" and len(full) > 1:
            assert all(rows == full[0] for rows in full)
    if order == "random_misclassified":
        assert all(s.updated for s in steps)


def _check_stop(steps, X, y, n, kwargs):
    """The run stops after a clean epoch, when all are correct (random orders), or at the limit."""
    if not steps:
        w, b = initial_weights(2, init=kwargs["init"], bias=kwargs["bias"], seed=kwargs["seed"])
        assert kwargs["order"] in ("random", "random_misclassified")
        assert np.all(y * (X @ w + b) > 0)
        return
    last = steps[-1]
    hit_limit = last.t == kwargs["max_epochs"] * n
    if kwargs["order"] in ("random", "random_misclassified"):
        assert hit_limit or np.all(y * (X @ last.w + last.b) > 0)
    else:
        clean = [e for e in range(1, last.epoch + 1)
                 if not any(s.updated for s in steps if s.epoch == e)]
        assert clean in ([], [last.epoch])
        assert last.t == last.epoch * n
        assert clean == [last.epoch] or last.epoch == kwargs["max_epochs"]


@settings(max_examples=150, deadline=None)
@given(problems(separable=True), st.sampled_from(ORDERS))
def test_converges_on_separable_data_in_every_order(problem, order):
    X, y, kwargs = problem
    if not kwargs["bias"] and not _separable_through_origin(X, y):
        kwargs.update(bias=True, init="zeros")  # without a bias this data has no separator
    kwargs.update(order=order, max_epochs=100_000)
    updates = list(perceptron(X, y, every="update", **kwargs))
    last = updates[-1] if updates else None
    w, b = (last.w, last.b) if last else initial_weights(
        2, init=kwargs["init"], bias=kwargs["bias"], seed=kwargs["seed"])
    assert np.all(y * (X @ w + b) > 0)


def _separable_through_origin(X, y):
    from scipy.optimize import linprog

    Z = X * y[:, None]
    result = linprog(np.zeros(2), A_ub=-Z, b_ub=-np.ones(len(y)), bounds=[(None, None)] * 2)
    return result.status == 0


def test_collected_steps_are_copies():
    steps = list(perceptron([[1.0, 0.0], [0.0, 1.0], [-1, -1]], [1, 1, -1]))
    assert len({s.w.tobytes() for s in steps if s.updated}) > 1


def lines_run_in_core(run) -> tuple[object, int]:
    """run()'s result and how many lines of core/ Python executed meanwhile."""
    core = str(Path(__file__).resolve().parents[1] / "core")
    count = 0

    def local(frame, event, arg):
        nonlocal count
        count += event == "line"
        return local

    sys.settrace(lambda frame, event, arg: local if frame.f_code.co_filename.startswith(core)
                 else None)
    try:
        result = run()
    finally:
        sys.settrace(None)
    return result, count


def test_update_stream_has_no_python_loop_per_visited_example():
    # The contract: every="update" skips correct stretches without a Python step per visit.
    n = 200_000
    rng = np.random.default_rng(0)
    X = rng.uniform(-1, 1, size=(n, 2))
    y = np.where(X[:, 0] > 0, 1.0, -1.0)
    X[:, 0] += 0.01 * y
    updates, lines = lines_run_in_core(
        lambda: list(perceptron(X, y, every="update", max_epochs=1000)))
    assert updates and np.all(y * (X @ updates[-1].w + updates[-1].b) > 0)
    visits = (updates[-1].epoch + 1) * n  # through the epoch of the last update, then a clean one
    assert lines < visits / 20
    # the reference: the every-visit stream does run Python for each of its steps
    _, visit_lines = lines_run_in_core(lambda: sum(1 for _ in perceptron(X[:2000], y[:2000])))
    assert visit_lines > 2000


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (dict(eta=0), "eta must be > 0, got 0"),
        (dict(eta=-1), "eta must be > 0, got -1"),
        (dict(order="sideways"), "order must be one of cyclic"),
        (dict(init="ones"), "init must be 'zeros', 'random' or a"),
        (dict(init=((1.0,), 0.0)), "init weights must have 2 values, got 1"),
        (dict(init=((1.0, 2.0), 1.0), bias=False), "init bias must be 0 when bias=False"),
        (dict(max_epochs=0), "max_epochs must be a whole number >= 1, got 0"),
        (dict(max_epochs=2.5), "max_epochs must be a whole number >= 1, got 2.5"),
        (dict(every="sometimes"), "every must be 'visit' or 'update'"),
    ],
)
def test_bad_arguments_say_what_is_wrong(kwargs, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        list(perceptron([[0.0, 1.0], [1.0, 0.0]], [1, -1], **kwargs))


@pytest.mark.parametrize(
    ("X", "y", "message"),
    [
        ([[0.0, 1.0]], [1, -1], r"y must have shape \(1,\)"),
        ([[0.0, np.nan]], [1], "X must be finite"),
        ([[0.0, 1.0]], [0], "y must contain only -1 and \\+1"),
        ([1.0, 2.0], [1, -1], "X must be a 2-D array"),
        (np.empty((0, 2)), [], "X has no rows"),
    ],
)
def test_bad_data_says_what_is_wrong(X, y, message):
    with pytest.raises(ValueError, match=message):
        list(perceptron(X, y))
