"""The voted perceptron, the averaged one from a recorded run, and the train/test split.

References are computed straight from the visit stream of ``core.perceptron``
(the weights after every visit), and a plain transcription of Freund and
Schapire's algorithm.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from core.perceptron import ORDERS, initial_weights, perceptron
from core.trace import record
from core.variants import (
    Voted,
    averaged_perceptron,
    errors,
    rule_run,
    running_average,
    train_test_split,
)
from tests.reference.voted import voted_perceptron

runs = dict(seed=st.integers(0, 10_000), order=st.sampled_from(ORDERS), n=st.integers(1, 16),
            init=st.sampled_from(["zeros", "random"]))


def _data(seed: int, n: int):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(n, 2)), rng.choice([-1.0, 1.0], size=n), rng.normal(size=(25, 2))


def _freund_schapire(X, y, w0, b0, visits):
    """Their algorithm as written: k, v_k, c_k; visits is the run's sequence of rows."""
    V, B, C = [np.array(w0, float)], [float(b0)], [0]
    for i in visits:
        if y[i] * (X[i] @ V[-1] + B[-1]) <= 0:
            V.append(V[-1] + y[i] * X[i])
            B.append(B[-1] + y[i])
            C.append(1)
        else:
            C[-1] += 1
    return np.array(V), np.array(B), np.array(C)


@settings(max_examples=80, deadline=None)
@given(**runs)
def test_counts_follow_freund_and_schapire(seed, order, n, init):
    X, y, _ = _data(seed, n)
    kwargs = dict(order=order, seed=seed, max_epochs=4, init=init)
    steps = list(voted_perceptron(X, y, **kwargs))
    w0, b0 = initial_weights(2, init=init, seed=seed)
    V, B, C = _freund_schapire(X, y, w0, b0, [s.index for s in steps])
    model = Voted.from_steps(steps, start=(w0, b0))
    np.testing.assert_allclose(model.W, V, atol=1e-12)
    np.testing.assert_allclose(model.b, B, atol=1e-12)
    assert model.counts.tolist() == C.tolist()
    # the stream's own counters say the same at every step
    for k, step in enumerate(steps, start=1):
        partial = Voted.from_steps(steps[:k], start=(w0, b0))
        assert step.vote == partial.counts[-1] and step.vectors == len(partial.counts)


@settings(max_examples=80, deadline=None)
@given(**runs)
def test_votes_weighted_vectors_sum_to_mu(seed, order, n, init):
    """sum_k c_k w_k = mu (the sum of w after every visit), sum_k c_k = t, and for b too."""
    X, y, _ = _data(seed, n)
    kwargs = dict(order=order, seed=seed, max_epochs=4, init=init)
    steps = list(perceptron(X, y, **kwargs))
    w0, b0 = initial_weights(2, init=init, seed=seed)
    for k in range(1, len(steps) + 1):
        model = Voted.from_steps(steps[:k], start=(w0, b0))
        mu = np.sum([s.w for s in steps[:k]], axis=0)
        mu_b = sum(s.b for s in steps[:k])
        np.testing.assert_allclose(model.counts @ model.W, mu, rtol=1e-12, atol=1e-12)
        assert model.counts @ model.b == pytest.approx(mu_b, abs=1e-12)
        assert model.counts.sum() == k


@settings(max_examples=80, deadline=None)
@given(**runs)
def test_voted_and_averaged_predictions_from_the_visit_stream(seed, order, n, init):
    """Voted: sum over visits of sign(w_t.x + b_t); averaged: sign of the sum of w_t.x + b_t."""
    X, y, Z = _data(seed, n)
    kwargs = dict(order=order, seed=seed, max_epochs=4, init=init)
    steps = list(perceptron(X, y, **kwargs))
    trace = record(perceptron(X, y, **kwargs))
    W_avg, b_avg = running_average(trace)
    assume(steps)  # a random order may start with nothing to correct: no visit at all
    for k in sorted({1, len(steps) // 2 or 1, len(steps)}):
        activations = np.array([Z @ s.w + s.b for s in steps[:k]])  # (k, M)
        by_visit = np.sign(activations).sum(axis=0)
        voted = Voted.from_trace(trace, k)
        np.testing.assert_array_equal(voted.decision(Z), by_visit)
        np.testing.assert_array_equal(voted.predict(Z), np.sign(by_visit))
        averaged = Z @ W_avg[k] + b_avg[k]
        np.testing.assert_allclose(averaged * k, activations.sum(axis=0), rtol=1e-9, atol=1e-9)
        np.testing.assert_array_equal(np.sign(averaged)[np.abs(averaged) > 1e-9],
                                      np.sign(activations.sum(axis=0))[np.abs(averaged) > 1e-9])


@settings(max_examples=40, deadline=None)
@given(**runs)
def test_a_recorded_run_gives_the_streams_models(seed, order, n, init):
    X, y, _ = _data(seed, n)
    kwargs = dict(order=order, seed=seed, max_epochs=3, init=init)
    w0, b0 = initial_weights(2, init=init, seed=seed)
    steps = list(perceptron(X, y, **kwargs))
    trace = record(perceptron(X, y, **kwargs))
    W_avg, b_avg = running_average(trace)
    for k, step in enumerate(averaged_perceptron(X, y, **kwargs), start=1):
        np.testing.assert_allclose(W_avg[k], step.w_avg, rtol=1e-12, atol=1e-12)
        assert b_avg[k] == pytest.approx(step.b_avg, abs=1e-12)
        from_trace = Voted.from_trace(trace, k)
        from_steps = Voted.from_steps(steps[:k], start=(w0, b0))
        np.testing.assert_array_equal(from_trace.W, from_steps.W)
        np.testing.assert_array_equal(from_trace.counts, from_steps.counts)
    assert np.all(W_avg[0] == 0) and b_avg[0] == 0  # mu = 0 before the first visit


def test_the_run_gives_its_own_start_and_the_vectors_that_vote():
    X, y = np.array([[1.0, 0.0], [-1.0, 0.0]]), np.array([1.0, -1.0])
    steps = list(voted_perceptron(X, y))
    model = Voted.from_steps(voted_perceptron(X, y))  # the zero start, with no vote
    assert model.counts.tolist() == [0, 1, 3]
    assert model.W.tolist() == [[0.0, 0.0], [1.0, 0.0], [2.0, 0.0]]
    assert [s.vote for s in steps] == [1, 1, 2, 3]
    assert model.predict([[3.0, 1.0], [-3.0, 0.0]]).tolist() == [1.0, -1.0]


def test_decision_in_blocks_and_with_repeated_vectors_is_the_plain_sum():
    rng = np.random.default_rng(1)
    W = rng.normal(size=(6, 2))
    W[3] = W[1]  # a run that comes back to the same vector
    b = rng.normal(size=6)
    b[3] = b[1]
    counts = np.array([0, 2, 5, 1, 3, 7])
    model = Voted(W, b, counts)
    Z = rng.normal(size=(10_000, 2))  # more rows than one block
    direct = sum(c * np.sign(Z @ w + bk) for w, bk, c in zip(W, b, counts, strict=True))
    np.testing.assert_array_equal(model.decision(Z), direct)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), K=st.integers(1, 40))
def test_the_grid_sweep_gives_the_direct_votes(seed, K):
    rng = np.random.default_rng(seed)
    W = np.round(rng.normal(size=(K, 2)), 1)  # some w_1 = 0: lines parallel to the x axis
    W[rng.random(K) < 0.2, 0] = 0.0
    b = np.round(rng.normal(size=K), 1)
    counts = rng.integers(0, 5, size=K)
    model = Voted(W, b, counts)
    xs = np.sort(rng.uniform(-3, 3, size=17))
    ys = np.sort(rng.uniform(-3, 3, size=11))
    gx, gy = np.meshgrid(xs, ys)
    direct = model.decision(np.column_stack([gx.ravel(), gy.ravel()])).reshape(gx.shape)
    np.testing.assert_array_equal(model.decision_grid(xs, ys), direct)


def test_the_voted_perceptron_needs_every_visit():
    with pytest.raises(ValueError, match="every must be 'visit'"):
        next(voted_perceptron([[0.0, 1.0]], [1], every="update"))
    with pytest.raises(ValueError, match="counts >= 0"):
        Voted([[1.0, 0.0]], [0.0], [-1])
    trace = record(perceptron([[1.0, 1.0]], [1]))
    with pytest.raises(ValueError, match="k must be between 0 and"):
        Voted.from_trace(trace, trace.steps + 1)
    with pytest.raises(ValueError, match="a grid needs 2-D weights, got 3-D"):
        Voted([[1.0, 0.0, 2.0]], [0.0], [1]).decision_grid([0.0], [0.0])


def test_errors_count_ties_as_wrong():
    assert errors([1, -1, 1, -1], [2.0, -0.5, 0.0, 3.0]) == 2


@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 300), share=st.floats(0, 0.95), seed=st.integers(0, 1000))
def test_split_is_a_seeded_partition(n, share, seed):
    train, test = train_test_split(n, share, seed)
    assert np.array_equal(np.sort(np.concatenate([train, test])), np.arange(n))
    assert len(train) >= 1 and len(test) == min(round(share * n), n - 1)
    again = train_test_split(n, share, seed)
    assert np.array_equal(again[0], train) and np.array_equal(again[1], test)


def test_split_refuses_a_bad_share():
    with pytest.raises(ValueError, match=r"test share must be in \[0, 1\)"):
        train_test_split(10, 1.0, 0)


@settings(max_examples=80, deadline=None)
@given(points=st.lists(st.tuples(st.integers(-4, 4), st.integers(-4, 4)), min_size=1,
                       max_size=8),
       labels=st.lists(st.sampled_from([-1, 1]), min_size=8, max_size=8),
       start=st.tuples(st.integers(-3, 3), st.integers(-3, 3), st.integers(-3, 3)),
       strict=st.booleans(), tenths=st.booleans())
def test_either_rule_runs_as_written_out_in_fractions(points, labels, start, strict, tenths):
    from fractions import Fraction
    scale = Fraction(1, 10) if tenths else Fraction(1)  # short decimals stay exact
    X = np.array([[float(v * scale) for v in p] for p in points]).reshape(-1, 2)
    y = np.array(labels[:len(points)], dtype=float)
    w0, b0 = [float(v * scale) for v in start[:2]], float(start[2] * scale)
    rows = [([Fraction(v) * scale for v in p], label)
            for p, label in zip(points, labels, strict=False)]
    w, b, updates, stopped = [Fraction(v) * scale for v in start[:2]], start[2] * scale, 0, False
    for _ in range(40):
        changed = False
        for x, label in rows:
            m = label * (w[0] * x[0] + w[1] * x[1] + b)
            if m < 0 or (m == 0 and not strict):
                w, b = [w[0] + label * x[0], w[1] + label * x[1]], b + label
                updates, changed = updates + 1, True
        if not changed:
            stopped = True
            break
    got = rule_run(X, y, strict=strict, init=(w0, b0), max_epochs=40)
    assert got[0] == updates and got[3] == stopped
    assert got[1].tolist() == [float(v) for v in w] and got[2] == float(b)
