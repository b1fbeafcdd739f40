"""A seeded random sample of a data set, for lessons that teach with fewer points than it has."""

from __future__ import annotations

import numpy as np

from datasets.dataset import Dataset


def subsample(data: Dataset, *, size: int, seed: int = 0) -> Dataset:
    """Return ``size`` rows of the data, drawn at random with a fixed seed.

    Parameters
    ----------
    data : Dataset
        The full data set.
    size : int
        Rows to keep; at least 2. A data set of ``size`` rows or fewer is
        returned as it is.
    seed : int, default 0
        The sample is the same for the same data, size and seed.

    Returns
    -------
    Dataset
        The chosen rows in the data's own order (a cyclic run visits them
        as the full data orders them), each class in proportion to its
        share of the data and at least one row of each; the name says it is
        a sample (``"iris (a sample of 1,000 of 20,000)"``).

    Raises
    ------
    ValueError
        When ``size`` is below 2.

    Examples
    --------
    >>> full = Dataset("d", np.arange(20.0).reshape(10, 2), [-1, 1] * 5)
    >>> sample = subsample(full, size=4)
    >>> sample.name, int((sample.y > 0).sum())
    ('d (a sample of 4 of 10)', 2)
    """
    if size < 2:
        raise ValueError(f"size must be at least 2, got {size}")
    n = len(data)
    if n <= size:
        return data
    rng = np.random.default_rng(seed)
    positive = np.flatnonzero(data.y > 0)
    negative = np.flatnonzero(data.y < 0)
    take_positive = round(size * len(positive) / n)
    take_positive = min(max(take_positive, 1 if len(positive) else 0), len(positive))
    take_positive = max(take_positive, size - len(negative))
    if len(negative) and size - take_positive < 1:
        take_positive = size - 1
    rows = np.sort(np.concatenate([
        rng.choice(positive, size=take_positive, replace=False),
        rng.choice(negative, size=size - take_positive, replace=False),
    ]))
    return Dataset(f"{data.name} (a sample of {size:,} of {n:,})", data.X[rows], data.y[rows],
                   data.classes, data.columns)
