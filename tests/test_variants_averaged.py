"""The averaged perceptron against a direct sum over the visit stream."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.perceptron import ORDERS, perceptron
from core.variants import averaged_perceptron


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
