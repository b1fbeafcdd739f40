"""Built-in data sets: the notes' worked examples, Boolean functions, Iris, and generators."""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from datasets.dataset import Dataset
from datasets.shapes import NOISE_RANGE, circles, moons, xor_blobs

# The notes' Example 2 (COMP slides) starts from these weights with eta = 0.1.
NOTES_INIT = ((0.2, 0.0), -0.1)
NOTES_ETA = 0.1


def notes_two_points() -> Dataset:
    """The notes' two-point example: x1 = (1, 1) in class -1, x2 = (2, 1) in class +1."""
    return Dataset("Lecture notes' example: 2 points", [[1.0, 1.0], [2.0, 1.0]], [-1, 1])


def notes_four_points() -> Dataset:
    """The two-point example continued as in the notes.

    From w = (0.2, 0), b = -0.1, eta = 0.1, the third point (1.5, 0) of class +1
    gets y*a = 0.35 > 0 (no update) and the fourth, (2, 2) of class -1, forces one.
    """
    return Dataset(
        "Lecture notes' example: 4 points",
        [[1.0, 1.0], [2.0, 1.0], [1.5, 0.0], [2.0, 2.0]],
        [-1, 1, 1, -1],
    )


_TRUTH = {
    "AND": (0, 0, 0, 1),
    "OR": (0, 1, 1, 1),
    "NAND": (1, 1, 1, 0),
    "XOR": (0, 1, 1, 0),
}
_INPUTS01 = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])


def boolean(function: str, encoding: str = "01") -> Dataset:
    """The truth table of AND, OR, NAND or XOR.

    ``encoding="01"`` uses inputs and outputs in {0, 1} (output 0 is class -1);
    ``encoding="pm1"`` uses -1 for false and +1 for true, as in the book chapter.
    """
    if function not in _TRUTH:
        raise ValueError(f"function must be one of {', '.join(_TRUTH)}; got {function!r}")
    y = np.where(np.array(_TRUTH[function]) == 1, 1.0, -1.0)
    if encoding == "01":
        return Dataset(f"{function} (0/1)", _INPUTS01, y, ("0", "1"))
    if encoding == "pm1":
        return Dataset(f"{function} (±1)", 2 * _INPUTS01 - 1, y, ("-1", "+1"))
    raise ValueError(f"encoding must be '01' or 'pm1', got {encoding!r}")


@cache
def _iris():
    """Scikit-learn's bundled copy of Iris (no download), read without importing scikit-learn
    (which costs a second or two of the first lesson that shows Iris)."""
    folder = importlib.util.find_spec("sklearn").submodule_search_locations[0]
    path = Path(folder) / "datasets" / "data" / "iris.csv"
    with open(path, encoding="utf-8") as file:
        names = tuple(file.readline().strip().split(",")[2:])
        table = np.loadtxt(file, delimiter=",")
    return table[:, :4], table[:, 4].astype(int), names


def iris(negative: str, positive: str, features: tuple[int, int]) -> Dataset:
    """Two Iris species on two features (0 sepal length, 1 sepal width, 2 petal length,
    3 petal width, in cm)."""
    data, target, names = _iris()
    codes = names.index(negative), names.index(positive)
    keep = np.isin(target, codes)
    y = np.where(target[keep] == codes[1], 1.0, -1.0)
    label = ("sepal", "petal")[features[0] // 2]
    return Dataset(
        f"Iris: {negative} vs {positive} ({label})",
        data[keep][:, list(features)],
        y,
        (negative, positive),
    )


def iris_three() -> tuple[np.ndarray, np.ndarray, tuple[str, ...]]:
    """All three species on petal length and width: X, labels 0..2 and the species names."""
    data, target, names = _iris()
    return data[:, [2, 3]], target.copy(), names


def separable(n: int = 40, margin: float = 0.2, seed: int = 0) -> Dataset:
    """n points in [-1, 1]^2, split by a random line with no point closer to it than margin.

    Coordinates are rounded to two decimals (so they stay exact in a CSV), and
    the points keep at least ``margin`` from the line after rounding.
    """
    _check_n(n)
    if not 0 < margin <= 0.5:
        raise ValueError(f"margin must be in (0, 0.5], got {margin}")
    rng = np.random.default_rng(seed)
    angle = rng.uniform(0, 2 * np.pi)
    normal = np.array([np.cos(angle), np.sin(angle)])
    offset = rng.uniform(-0.3, 0.3)
    points = np.empty((0, 2))
    while len(points) < n or len(np.unique(np.sign(points @ normal - offset))) < 2:
        draw = np.round(rng.uniform(-1, 1, size=(4 * n, 2)), 2)
        keep = np.abs(draw @ normal - offset) >= margin
        points = np.vstack([points, draw[keep]])
    side = points @ normal - offset > 0
    X = points[:n]
    if np.all(side[:n] == side[0]):  # a line near a corner: bring in the other class
        X[-1] = points[np.argmax(side != side[0])]
    y = np.where(X @ normal - offset > 0, 1.0, -1.0)
    return Dataset(f"Separable (n={n}, margin {margin:g}, seed {seed})", X, y)


def noisy(n: int = 60, spread: float = 0.5, seed: int = 0) -> Dataset:
    """Two overlapping Gaussian blobs centred at (-0.5, -0.5) and (0.5, 0.5)."""
    _check_n(n)
    if not spread > 0:
        raise ValueError(f"spread must be > 0, got {spread}")
    rng = np.random.default_rng(seed)
    y = np.where(np.arange(n) % 2 == 0, -1.0, 1.0)
    X = np.round(0.5 * y[:, None] + spread * rng.standard_normal((n, 2)), 2)
    return Dataset(f"Noisy blobs (n={n}, spread {spread:g}, seed {seed})", X, y)


def _check_n(n: int) -> None:
    """Refuse sizes the pages cannot draw."""
    if not 2 <= n <= 5000:
        raise ValueError(f"n must be between 2 and 5000, got {n}")


@dataclass(frozen=True)
class Generator:
    """A seeded generator with one size and one shape parameter, for the sidebar."""

    label: str
    make: object
    shape_name: str
    shape_range: tuple[float, float, float, float]  # min, max, default, step


BUILTIN = {
    "Lecture notes' example: 2 points": notes_two_points,
    "Lecture notes' example: 4 points": notes_four_points,
    **{
        f"{f} ({'0/1' if enc == '01' else '±1'})": (lambda f=f, enc=enc: boolean(f, enc))
        for f in _TRUTH
        for enc in ("01", "pm1")
    },
    "Iris: setosa vs versicolor (sepal)": lambda: iris("setosa", "versicolor", (0, 1)),
    "Iris: versicolor vs virginica (petal)": lambda: iris("versicolor", "virginica", (2, 3)),
}

# Names the built-in sets had before, still understood in links (data=seeds-example-4-points).
FORMER_NAMES = {
    "Seeds' example: 2 points": "Lecture notes' example: 2 points",
    "Seeds' example: 4 points": "Lecture notes' example: 4 points",
}

GENERATORS = {
    "Separable (generator)": Generator("Separable", separable, "margin", (0.01, 0.5, 0.2, 0.01)),
    "Noisy blobs (generator)": Generator("Noisy blobs", noisy, "spread", (0.05, 1.5, 0.5, 0.05)),
    "XOR blobs (generator)": Generator("XOR blobs", xor_blobs, "noise", NOISE_RANGE),
    "Circles (generator)": Generator("Circles", circles, "noise", NOISE_RANGE),
    "Moons (generator)": Generator("Moons", moons, "noise", NOISE_RANGE),
}
