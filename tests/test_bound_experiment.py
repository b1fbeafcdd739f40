"""The bound experiment: every run within Novikoff's bound, the cyclic one as a plain loop."""

from __future__ import annotations

import math

import numpy as np
import pytest

from core.bound_experiment import mistakes_against_bound
from core.geometry import mistake_bound
from core.max_margin import max_margin
from datasets.builtin import separable

XOR = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
XOR_Y = np.array([-1.0, 1.0, 1.0, -1.0])


def reference_cyclic_mistakes(X, y) -> int:
    """The notes' Algorithm 1 from w = 0, b = 0, eta = 1, written out plainly."""
    w, b, mistakes = np.zeros(2), 0.0, 0
    while True:
        clean = True
        for x, label in zip(X, y, strict=True):
            if label * (w @ x + b) <= 0:
                w, b, mistakes, clean = w + label * x, b + label, mistakes + 1, False
        if clean:
            return mistakes


def test_experiment_runs_stay_within_the_bound_and_match_a_reference():
    make = lambda m, s: separable(30, m, s)
    orders = ["cyclic", "shuffle_each_epoch", "random", "random_misclassified"]
    runs = mistakes_against_bound(make, margins=[0.1, 0.4], seeds=[0, 1, 2], orders=orders)
    assert len(runs) == 2 * 3 * len(orders)
    for run in runs:
        data = make(run.margin, run.seed)
        assert run.converged
        assert run.bound == pytest.approx(mistake_bound(data.X, data.y))
        assert run.gamma == pytest.approx(max_margin(data.X, data.y).gamma)
        assert 1 <= run.mistakes <= run.bound
        if run.order == "cyclic":
            assert run.mistakes == reference_cyclic_mistakes(data.X, data.y)


def test_experiment_refuses_an_unknown_order_and_non_separable_data():
    make = lambda m, s: separable(10, m, s)
    with pytest.raises(ValueError, match="order must be one of"):
        mistakes_against_bound(make, margins=[0.2], seeds=[0], orders=["sideways"])

    class Xor:
        X, y = XOR, XOR_Y

    with pytest.raises(ValueError, match="not linearly separable"):
        mistakes_against_bound(lambda m, s: Xor, margins=[0.2], seeds=[0], orders=["cyclic"])
    assert math.isinf(mistake_bound(XOR, XOR_Y))
