"""Seeded subsamples: the size asked, rows of the data in its order, both classes in proportion."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from datasets import Dataset
from datasets.sample import subsample


@settings(max_examples=200, deadline=None)
@given(st.integers(2, 400), st.integers(1, 399), st.integers(2, 300), st.integers(0, 5))
def test_a_sample_is_rows_of_the_data_in_order_with_both_classes(n, positives, size, seed):
    positives = min(positives, n - 1)
    X = np.column_stack([np.arange(n, dtype=float), np.zeros(n)])  # x1 is the row number
    y = np.where(np.arange(n) < positives, 1.0, -1.0)
    data = Dataset("d", X, np.random.default_rng(seed).permutation(y), ("a", "b"))
    sample = subsample(data, size=size, seed=seed)
    if n <= size:
        assert sample is data
        return
    rows = sample.X[:, 0].astype(int)
    assert len(rows) == size and len(set(rows)) == size
    assert np.all(np.diff(rows) > 0)  # the data's order
    np.testing.assert_array_equal(sample.y, data.y[rows])
    assert set(sample.y) == {-1.0, 1.0}
    share = np.mean(data.y > 0)
    assert abs(np.sum(sample.y > 0) - size * share) <= 1 or min(np.sum(sample.y > 0),
                                                                 np.sum(sample.y < 0)) == 1
    assert sample.classes == data.classes
    assert sample.name == f"d (a sample of {size:,} of {n:,})"
    again = subsample(data, size=size, seed=seed)
    np.testing.assert_array_equal(again.X, sample.X)


def test_size_below_two_is_refused():
    with pytest.raises(ValueError, match="size must be at least 2, got 1"):
        subsample(Dataset("d", [[0, 0], [1, 1], [2, 2]], [-1, 1, 1]), size=1)
