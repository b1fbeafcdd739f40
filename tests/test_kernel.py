"""The kernel perceptron against the primal run, an explicit feature map, scikit-learn's
kernels and direct sums; XOR, circles and moons solved; the generators behind them."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import pairwise

from core.kernel import Kernel, KernelModel, kernel_perceptron
from core.perceptron import ORDERS, perceptron
from core.trace import record
from datasets.builtin import boolean
from datasets.shapes import circles, moons, xor_blobs

# ---------------------------------------------------------------- linear kernel = the primal run


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 10_000), order=st.sampled_from(ORDERS), n=st.integers(1, 20),
       bias=st.booleans(), eta=st.sampled_from([0.25, 0.5, 1.0, 2.0]),
       every=st.sampled_from(["visit", "update"]))
def test_linear_kernel_reproduces_the_primal_run_exactly(seed, order, n, bias, eta, every):
    # Small integer coordinates keep every sum exact in both forms, ties at 0 included.
    rng = np.random.default_rng(seed)
    X = rng.integers(-4, 5, size=(n, 2)).astype(float)
    y = rng.choice([-1.0, 1.0], size=n)
    kwargs = dict(order=order, seed=seed, max_epochs=4, bias=bias, eta=eta, every=every)
    primal = list(perceptron(X, y, **kwargs))
    dual = list(kernel_perceptron(X, y, kernel=Kernel("linear"), **kwargs))
    assert [(s.t, s.epoch, s.index, s.updated, s.mistakes, s.activation) for s in primal] == \
        [(s.t, s.epoch, s.index, s.updated, s.mistakes, s.activation) for s in dual]
    for p, d in zip(primal, dual, strict=True):
        coef = d.w * y
        assert np.array_equal(coef @ X, p.w)
        assert (coef.sum() if bias else 0.0) == p.b


@pytest.mark.parametrize("order", ORDERS)
def test_linear_kernel_follows_the_primal_on_real_valued_data(order):
    rng = np.random.default_rng(3)
    X = rng.normal(size=(40, 2))
    y = np.where(X[:, 0] - 0.5 * X[:, 1] + 0.3 * rng.normal(size=40) > 0, 1.0, -1.0)
    primal = list(perceptron(X, y, order=order, seed=5, max_epochs=10))
    dual = list(kernel_perceptron(X, y, order=order, seed=5, max_epochs=10))
    assert [s.updated for s in primal] == [s.updated for s in dual]
    assert [s.index for s in primal] == [s.index for s in dual]
    np.testing.assert_allclose([s.activation for s in dual], [s.activation for s in primal],
                               rtol=1e-9, atol=1e-9)
    w, b = KernelModel(X, y, dual[-1].w, Kernel("linear")).primal()
    np.testing.assert_allclose(w, primal[-1].w, atol=1e-9)
    assert b == pytest.approx(primal[-1].b)


# ---------------------------------------------------------------- other references


def _phi(X, offset):
    """The explicit feature map of (x.z + c)^2 in two dimensions."""
    x1, x2 = X[:, 0], X[:, 1]
    r = np.sqrt(2 * offset)
    return np.column_stack([x1**2, x2**2, np.sqrt(2) * x1 * x2, r * x1, r * x2,
                            np.full(len(X), offset)])


@pytest.mark.parametrize("bias", [True, False])
def test_polynomial_kernel_is_the_primal_perceptron_on_its_feature_map(bias):
    rng = np.random.default_rng(11)
    X = rng.normal(size=(30, 2))
    y = np.where(X[:, 0] ** 2 + X[:, 1] ** 2 < 1.0, 1.0, -1.0)
    primal = list(perceptron(_phi(X, 1.0), y, bias=bias, max_epochs=30))
    dual = list(kernel_perceptron(X, y, kernel=Kernel("polynomial", degree=2, offset=1.0),
                                  bias=bias, max_epochs=30))
    assert [s.updated for s in primal] == [s.updated for s in dual]
    np.testing.assert_allclose([s.activation for s in dual], [s.activation for s in primal],
                               rtol=1e-8, atol=1e-8)


@pytest.mark.parametrize(("kernel", "reference"), [
    (Kernel("linear"), lambda A, B: pairwise.linear_kernel(A, B)),
    (Kernel("polynomial", degree=3, offset=0.5),
     lambda A, B: pairwise.polynomial_kernel(A, B, degree=3, gamma=1.0, coef0=0.5)),
    (Kernel("rbf", width=0.7), lambda A, B: pairwise.rbf_kernel(A, B, gamma=1 / (2 * 0.7**2))),
])
def test_kernels_match_scikit_learn(kernel, reference):
    rng = np.random.default_rng(0)
    A, B = rng.normal(size=(7, 2)), rng.normal(size=(5, 2))
    np.testing.assert_allclose(kernel(A, B), reference(A, B), rtol=1e-12, atol=1e-12)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), name=st.sampled_from(["linear", "polynomial", "rbf"]),
       order=st.sampled_from(ORDERS), bias=st.booleans())
def test_activations_are_the_notes_sum_over_examples(seed, name, order, bias):
    """s_i = sum_j alpha_j y_j K(x_j, x_i) (+ sum_j alpha_j y_j), with alpha before the step."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(12, 2))
    y = rng.choice([-1.0, 1.0], size=12)
    kernel = Kernel(name, degree=3, offset=1.0, width=0.8)
    alpha = np.zeros(12)
    for step in kernel_perceptron(X, y, kernel=kernel, order=order, bias=bias, seed=seed,
                                  max_epochs=3):
        i = step.index
        s_i = sum(alpha[j] * y[j] * (kernel(X[j], X[i])[0, 0] + bias) for j in range(12))
        assert step.activation == pytest.approx(s_i, rel=1e-9, abs=1e-9)
        assert step.updated == (y[i] * s_i <= 0) or abs(s_i) < 1e-9
        assert not step.w.flags.writeable
        alpha = np.array(step.w)


@pytest.mark.parametrize("name", ["linear", "polynomial", "rbf"])
@pytest.mark.parametrize("bias", [True, False])
def test_model_decision_is_the_direct_sum(name, bias):
    rng = np.random.default_rng(2)
    X, y = rng.normal(size=(9, 2)), rng.choice([-1.0, 1.0], size=9)
    alpha = rng.integers(0, 3, size=9).astype(float)
    kernel = Kernel(name, degree=2, offset=0.5, width=0.6)
    model = KernelModel(X, y, alpha, kernel, bias)
    Z = rng.normal(size=(5000, 2))  # more rows than one scoring block
    direct = np.array([sum(alpha[j] * y[j] * (kernel(X[j], z)[0, 0] + bias) for j in range(9))
                       for z in Z[:50]])
    np.testing.assert_allclose(model.decision(Z)[:50], direct, rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(model.decision(Z), kernel(Z, X) @ (alpha * y) + bias *
                               np.sum(alpha * y), rtol=1e-10, atol=1e-10)
    assert model.support.tolist() == np.flatnonzero(alpha > 0).tolist()


def test_the_gram_matrix_is_computed_once():
    calls = []

    class Counting(Kernel):
        def __call__(self, A, B):
            calls.append((len(A), len(B)))
            return super().__call__(A, B)

    data = moons(60, 0.1, 0)
    steps = list(kernel_perceptron(data.X, data.y, kernel=Counting("rbf", width=0.4),
                                   order="random", seed=1, max_epochs=20))
    assert len(steps) > 60 and calls == [(60, 60)]


def test_the_trace_gives_the_streams_alpha_at_every_step():
    data = xor_blobs(40, 0.3, 2)
    kernel = Kernel("rbf", width=0.5)
    steps = list(kernel_perceptron(data.X, data.y, kernel=kernel, eta=0.5, order="shuffle_once",
                                   seed=4))
    again = dict(kernel=kernel, eta=0.5, order="shuffle_once", seed=4)
    trace = record(kernel_perceptron(data.X, data.y, **again))
    assert trace.complete and trace.steps == len(steps)
    assert np.array_equal(trace.w(0), np.zeros(40))
    for k, step in enumerate(steps, start=1):
        np.testing.assert_array_equal(trace.w(k), step.w)
        assert trace.b[k] == step.b
    assert trace.update_positions.tolist() == [s.t for s in steps if s.updated]
    short = record(kernel_perceptron(data.X, data.y, **again), limit=10)
    assert not short.complete and short.steps == 10


# ---------------------------------------------------------------- what kernels buy


def _separates(data, kernel, **kwargs):
    steps = list(kernel_perceptron(data.X, data.y, kernel=kernel, **kwargs))
    model = KernelModel(data.X, data.y, steps[-1].w, kernel, kwargs.get("bias", True))
    return bool(np.all(data.y * model.decision(data.X) > 0)), steps


@pytest.mark.parametrize("encoding", ["01", "pm1"])
@pytest.mark.parametrize("kernel", [Kernel("polynomial", degree=2, offset=1.0),
                                    Kernel("rbf", width=1.0), Kernel("rbf", width=0.3)])
def test_xor_is_separated_by_a_degree_2_polynomial_and_by_rbf(encoding, kernel):
    data = boolean("XOR", encoding)
    separated, steps = _separates(data, kernel, max_epochs=100)
    assert separated
    assert not any(s.updated for s in steps[-len(data):])  # the last epoch made no update


@pytest.mark.parametrize("encoding", ["01", "pm1"])
def test_xor_is_not_separated_by_the_linear_kernel(encoding):
    data = boolean("XOR", encoding)
    separated, steps = _separates(data, Kernel("linear"), max_epochs=100)
    assert not separated and steps[-1].epoch == 100


@pytest.mark.parametrize(("data", "kernel"), [
    (xor_blobs(200, 0.3, 0), Kernel("rbf", width=0.5)),
    (xor_blobs(200, 0.2, 1), Kernel("polynomial", degree=2, offset=1.0)),
    (circles(200, 0.08, 0), Kernel("polynomial", degree=2, offset=1.0)),
    (moons(200, 0.1, 0), Kernel("rbf", width=0.4)),
])
def test_generated_shapes_are_separated_by_a_suitable_kernel(data, kernel):
    assert _separates(data, kernel, max_epochs=100)[0]
    assert not _separates(data, Kernel("linear"), max_epochs=100)[0]


# ---------------------------------------------------------------- errors


@pytest.mark.parametrize(("make", "message"), [
    (lambda: Kernel("sigmoid"), "kernel must be one of linear, polynomial, rbf"),
    (lambda: Kernel("polynomial", degree=0), "degree must be a whole number >= 1"),
    (lambda: Kernel("polynomial", degree=1.5), "degree must be a whole number >= 1"),
    (lambda: Kernel("polynomial", offset=-1), "offset must be >= 0"),
    (lambda: Kernel("rbf", width=0), "width must be > 0"),
    (lambda: next(kernel_perceptron([[0.0, 1.0]], [1], eta=0)), "eta must be > 0"),
    (lambda: next(kernel_perceptron([[0.0, 1.0]], [1], order="backwards")), "order must be"),
    (lambda: next(kernel_perceptron([[0.0, 1.0]], [1], every="epoch")), "every must be"),
    (lambda: next(kernel_perceptron([[0.0, 1.0]], [1], max_epochs=0)), "max_epochs must be"),
    (lambda: next(kernel_perceptron([[0.0, 1.0]], [2])), r"y must contain only -1 and \+1"),
    (lambda: next(kernel_perceptron([[0.0, 1.0]], [1], kernel="rbf")), "kernel must be a Kernel"),
    (lambda: next(kernel_perceptron([[1e200, 1.0]], [1],
                                    kernel=Kernel("polynomial", degree=6))), "overflows"),
    (lambda: KernelModel(np.eye(2), np.ones(2), np.ones(2), Kernel("rbf")).primal(),
     "only the linear kernel"),
])
def test_bad_arguments_say_what_is_wrong(make, message):
    with pytest.raises(ValueError, match=message), np.errstate(over="ignore"):
        make()


# ---------------------------------------------------------------- the generators


@pytest.mark.parametrize("n", [7, 40, 201])
def test_noise_free_circles_and_moons_are_scikit_learns(n):
    from sklearn.datasets import make_circles, make_moons

    X, y = make_circles(n, shuffle=False, noise=None, factor=0.5)
    data = circles(n, 0.0, 0)
    np.testing.assert_allclose(data.X, X, atol=0.005)  # rounded to two decimals
    assert np.array_equal(data.y, np.where(y == 1, 1.0, -1.0))
    X, y = make_moons(n, shuffle=False, noise=None)
    data = moons(n, 0.0, 0)
    np.testing.assert_allclose(data.X, X - [0.5, 0.25], atol=0.005)
    assert np.array_equal(data.y, np.where(y == 1, 1.0, -1.0))


def test_xor_blobs_label_by_the_signs():
    data = xor_blobs(80, 0.0, 0)
    assert set(map(tuple, data.X)) == {(1.0, 1.0), (-1.0, -1.0), (-1.0, 1.0), (1.0, -1.0)}
    np.testing.assert_array_equal(data.y, np.where(data.X[:, 0] * data.X[:, 1] < 0, 1.0, -1.0))
    noisy = xor_blobs(400, 0.2, 0)
    corner = np.sign(noisy.X).prod(axis=1)  # with small noise points stay near their corner
    assert np.mean(noisy.y == -corner) > 0.95


@pytest.mark.parametrize("make", [xor_blobs, circles, moons])
def test_generators_are_seeded_balanced_and_checked(make):
    a, b, c = make(50, 0.1, 3), make(50, 0.1, 3), make(50, 0.1, 4)
    assert np.array_equal(a.X, b.X) and not np.array_equal(a.X, c.X)
    assert len(a) == 50 and abs(np.sum(a.y)) <= 1
    assert np.array_equal(a.X, np.round(a.X, 2))
    with pytest.raises(ValueError, match="n must be between 4 and 5000"):
        make(3, 0.1, 0)
    with pytest.raises(ValueError, match="noise must be >= 0"):
        make(10, -0.1, 0)
