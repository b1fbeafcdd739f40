"""Counts in words: one plural helper, and the messages that use it read singular at 1."""

from __future__ import annotations

import numpy as np
import pytest

from core.perceptron import perceptron
from core.trace import outcome, record
from core.words import plural


@pytest.mark.parametrize(("count", "said"), [(0, "0 mistakes"), (1, "1 mistake"),
                                             (2, "2 mistakes"), (12345, "12,345 mistakes")])
def test_plural(count, said):
    assert plural(count, "mistake") == said
    assert plural(np.int64(count), "mistake") == said


def test_irregular_plural():
    assert plural(1, "example is", "examples are") == "1 example is"
    assert plural(3, "example is", "examples are") == "3 examples are"


def test_run_endings_say_one_mistake_and_one_example():
    X, y = np.array([[1.0, 0.0], [2.0, 0.0]]), np.array([1.0, 1.0])
    said = outcome(record(perceptron(X, y)), X, y, max_epochs=50).message
    assert said == "Converged after 1 mistake in 2 epochs."
    X, y = np.array([[1.0, 0.0], [-1.0, 0.0], [2.0, 0.0]]), np.array([1.0, 1.0, -1.0])
    said = outcome(record(perceptron(X, y, max_epochs=1)), X, y, max_epochs=1).message
    assert said == "Max epochs (1) reached: 1 example still misclassified after 3 mistakes."
