"""Generated sets no line separates: XOR blobs, two circles, two moons.

Each generator has the sidebar's signature ``(n, noise, seed) -> Dataset``:
n points, Gaussian noise of standard deviation ``noise`` added to every
coordinate, and a seed. Coordinates are rounded to two decimals, as in the
other generators, so a set saved as CSV reloads exactly.
"""

from __future__ import annotations

import numpy as np

from datasets.dataset import Dataset

NOISE_RANGE = (0.0, 0.5, 0.1, 0.01)  # min, max, default, step: shared by the three sliders


def _check(n: int, noise: float) -> None:
    """Refuse sizes the pages cannot draw and negative noise."""
    if not 4 <= n <= 5000:
        raise ValueError(f"n must be between 4 and 5000, got {n}")
    if not (np.isfinite(noise) and noise >= 0):
        raise ValueError(f"noise must be >= 0, got {noise}")


def _halves(n: int) -> tuple[int, int]:
    """Sizes of the class -1 and +1 parts (+1 gets the odd point, as in scikit-learn)."""
    return n // 2, n - n // 2


def xor_blobs(n: int = 40, noise: float = 0.1, seed: int = 0) -> Dataset:
    """Four clusters at (+-1, +-1); class +1 where the two signs differ (XOR), -1 where they agree.

    The points are spread evenly over the four corners; ``noise`` is the
    clusters' standard deviation.
    """
    _check(n, noise)
    rng = np.random.default_rng(seed)
    # going round the corners alternates the classes, so they differ in size by at most 1
    corners = np.array([[1.0, 1.0], [-1.0, 1.0], [-1.0, -1.0], [1.0, -1.0]])
    which = np.arange(n) % 4
    X = corners[which] + noise * rng.standard_normal((n, 2))
    y = np.where(which % 2 == 0, -1.0, 1.0)
    return Dataset(f"XOR blobs (n={n}, noise {noise:g}, seed {seed})", np.round(X, 2), y,
                   ("same signs", "signs differ"))


def circles(n: int = 40, noise: float = 0.1, seed: int = 0, factor: float = 0.5) -> Dataset:
    """A ring of radius 1 (class -1) around a ring of radius ``factor`` (class +1).

    Angles are evenly spaced on each ring (scikit-learn's ``make_circles``
    without shuffling), then ``noise`` is added.
    """
    _check(n, noise)
    if not 0 < factor < 1:
        raise ValueError(f"factor must be in (0, 1), got {factor}")
    rng = np.random.default_rng(seed)
    n_out, n_in = _halves(n)
    outer = np.linspace(0, 2 * np.pi, n_out, endpoint=False)
    inner = np.linspace(0, 2 * np.pi, n_in, endpoint=False)
    X = np.vstack([np.column_stack([np.cos(outer), np.sin(outer)]),
                   factor * np.column_stack([np.cos(inner), np.sin(inner)])])
    X = X + noise * rng.standard_normal(X.shape)
    y = np.concatenate([-np.ones(n_out), np.ones(n_in)])
    return Dataset(f"Circles (n={n}, noise {noise:g}, seed {seed})", np.round(X, 2), y,
                   ("outer ring", "inner ring"))


def moons(n: int = 40, noise: float = 0.1, seed: int = 0) -> Dataset:
    """Two interleaved half circles (scikit-learn's ``make_moons`` shape), centred on 0.

    The upper moon (class -1) is the upper half of the unit circle; the lower
    one (class +1) is the same half flipped and shifted by (1, 0.5). Both are
    then shifted by (-0.5, -0.25) so the set is centred, and ``noise`` is added.
    """
    _check(n, noise)
    rng = np.random.default_rng(seed)
    n_up, n_down = _halves(n)
    up = np.linspace(0, np.pi, n_up)
    down = np.linspace(0, np.pi, n_down)
    X = np.vstack([np.column_stack([np.cos(up), np.sin(up)]),
                   np.column_stack([1 - np.cos(down), 0.5 - np.sin(down)])])
    X = X - [0.5, 0.25] + noise * rng.standard_normal(X.shape)
    y = np.concatenate([-np.ones(n_up), np.ones(n_down)])
    return Dataset(f"Moons (n={n}, noise {noise:g}, seed {seed})", np.round(X, 2), y,
                   ("upper moon", "lower moon"))
