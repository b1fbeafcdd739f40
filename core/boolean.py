"""Boolean functions as perceptrons: truth tables, hand-made weights, training, a feature lift.

Two encodings of true and false are used, as in the notes: ``"01"`` (the slides:
inputs and output in {0, 1}, output 0 is class -1) and ``"pm1"`` (the book
chapter: +1 is true, -1 is false). A perceptron computes a function when the
sign of its activation a = w1 x1 + w2 x2 + b is the output's class on every row;
a = 0 is neither true nor false, so it counts as wrong (as in the update rule).

NOT has one input. To keep every function in the same plane it is given a second
input x2 that it ignores: its table has four rows, each value of x1 twice, and
any line that computes it is vertical in spirit (the notes' -x1 has w2 = 0).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from core.cycles import Cycle, find_cycle
from core.validation import check_X
from core.words import plural

__all__ = [
    "ENCODINGS",
    "FUNCTIONS",
    "HandWeights",
    "Training",
    "TruthTable",
    "activations",
    "check_encoding",
    "hand_weights",
    "lift",
    "rows_right",
    "train",
    "truth_table",
]

FUNCTIONS = ("AND", "OR", "NAND", "NOT", "XOR")
ENCODINGS = ("01", "pm1")

# Outputs on the rows (x1, x2) = (0, 0), (0, 1), (1, 0), (1, 1), with 1 for true.
_TRUTH = {
    "AND": (0, 0, 0, 1),
    "OR": (0, 1, 1, 1),
    "NAND": (1, 1, 1, 0),
    "NOT": (1, 1, 0, 0),  # NOT x1; x2 is ignored
    "XOR": (0, 1, 1, 0),
}
_BITS = np.array([[0, 0], [0, 1], [1, 0], [1, 1]])


@dataclass(frozen=True)
class TruthTable:
    """A Boolean function of (x1, x2) in one encoding.

    Attributes
    ----------
    function : str
        One of ``FUNCTIONS``.
    encoding : str
        ``"01"`` or ``"pm1"``.
    X : ndarray, shape (4, 2)
        The inputs in the encoding, rows (F, F), (F, T), (T, F), (T, T) (read-only).
    outputs : ndarray, shape (4,)
        The outputs in the encoding: 0/1 or -1/+1 (read-only).
    y : ndarray, shape (4,)
        The outputs as classes in {-1, +1}: true is +1 (read-only).
    inputs : int
        How many inputs the function uses (1 for NOT).
    """

    function: str
    encoding: str
    X: np.ndarray
    outputs: np.ndarray
    y: np.ndarray
    inputs: int


def _readonly(values, dtype=float) -> np.ndarray:
    """A read-only copy."""
    array = np.array(values, dtype=dtype)
    array.setflags(write=False)
    return array


def check_encoding(encoding: str) -> None:
    """Raise ValueError for an unknown encoding of true and false."""
    if encoding not in ENCODINGS:
        raise ValueError(f"encoding must be '01' or 'pm1', got {encoding!r}")


def _check(function: str, encoding: str) -> None:
    """Raise ValueError for an unknown function or encoding."""
    if function not in FUNCTIONS:
        raise ValueError(f"function must be one of {', '.join(FUNCTIONS)}; got {function!r}")
    check_encoding(encoding)


def truth_table(function: str, *, encoding: str = "01") -> TruthTable:
    """The truth table of AND, OR, NAND, NOT or XOR.

    Parameters
    ----------
    function : {"AND", "OR", "NAND", "NOT", "XOR"}
        The function; NOT negates x1 and ignores x2.
    encoding : {"01", "pm1"}, default "01"
        Truth values as 0/1 (the slides) or as -1/+1 (the book chapter).

    Returns
    -------
    TruthTable

    Raises
    ------
    ValueError
        If the function or the encoding is unknown.

    Examples
    --------
    >>> table = truth_table("XOR", encoding="pm1")
    >>> table.X.tolist(), table.y.tolist()
    ([[-1.0, -1.0], [-1.0, 1.0], [1.0, -1.0], [1.0, 1.0]], [-1.0, 1.0, 1.0, -1.0])
    """
    _check(function, encoding)
    bits = np.array(_TRUTH[function])
    X = _BITS if encoding == "01" else 2 * _BITS - 1
    outputs = bits if encoding == "01" else 2 * bits - 1
    return TruthTable(function, encoding, _readonly(X), _readonly(outputs),
                      _readonly(2 * bits - 1), 1 if function == "NOT" else 2)


@dataclass(frozen=True)
class HandWeights:
    """Weights written by hand for a function: a = w1 x1 + w2 x2 + b.

    Attributes
    ----------
    w : ndarray, shape (2,)
        (w1, w2), read-only.
    b : float
        The bias.
    source : str
        Where they come from: the notes' slides, the notes' Example 2.2, or this
        app (for the cases the notes leave out).
    """

    w: np.ndarray
    b: float
    source: str


_SLIDES = "from the lecture slides (Representing Boolean functions)"
_BOOK = "from the lecture notes' Example 2.2"
_OURS = "chosen for this app (not in the lecture notes)"
_HAND = {
    ("AND", "01"): ((20, 20), -30, _SLIDES),
    ("OR", "01"): ((20, 20), -10, _OURS),
    ("NAND", "01"): ((-20, -20), 30, _OURS),
    ("NOT", "01"): ((-20, 0), 10, _OURS),
    # No line computes XOR: OR's line is one of the best, right on 3 rows of 4.
    ("XOR", "01"): ((20, 20), -10, _OURS + "; the OR line, 3 rows of 4"),
    ("AND", "pm1"): ((1, 1), -1, _BOOK),
    ("OR", "pm1"): ((1, 1), 1, _BOOK),
    ("NAND", "pm1"): ((-1, -1), 1, _OURS),
    ("NOT", "pm1"): ((-1, 0), 0, _BOOK),
    ("XOR", "pm1"): ((1, 1), 1, _OURS + "; the OR line, 3 rows of 4"),
}


def hand_weights(function: str, *, encoding: str = "01") -> HandWeights:
    """The hand-made weights for a function, the notes' where they give them.

    Parameters
    ----------
    function : {"AND", "OR", "NAND", "NOT", "XOR"}
    encoding : {"01", "pm1"}, default "01"

    Returns
    -------
    HandWeights
        For 0/1 inputs, AND is the slides' 20 x1 + 20 x2 - 30; for -1/+1 inputs,
        AND, OR and NOT are Example 2.2's x1 + x2 - 1, x1 + x2 + 1 and -x1. The
        others are this app's; XOR gets a best line, which is still wrong on one row.

    Raises
    ------
    ValueError
        If the function or the encoding is unknown.

    Examples
    --------
    >>> hand = hand_weights("AND")
    >>> activations(truth_table("AND").X, hand.w, hand.b).tolist()
    [-30.0, -10.0, -10.0, 10.0]
    """
    _check(function, encoding)
    w, b, source = _HAND[(function, encoding)]
    return HandWeights(_readonly(w), float(b), source)


def activations(X, w, b: float) -> np.ndarray:
    """The activations of a perceptron on every row.

    Parameters
    ----------
    X : array_like, shape (N, D)
    w : array_like, shape (D,)
    b : float

    Returns
    -------
    ndarray, shape (N,)
        a_n = w.x_n + b.

    Examples
    --------
    >>> activations([[1.0, 1.0], [0.0, 1.0]], [20.0, 20.0], -30.0).tolist()
    [10.0, -10.0]
    """
    return np.asarray(X, dtype=float) @ np.asarray(w, dtype=float) + float(b)


def rows_right(table: TruthTable, w, b: float) -> np.ndarray:
    """Which rows of a truth table the perceptron (w, b) gets right.

    Parameters
    ----------
    table : TruthTable
    w : array_like, shape (2,)
    b : float

    Returns
    -------
    ndarray of bool, shape (4,)
        y_n a_n > 0 for each row; a = 0 is neither true nor false, so it is wrong.

    Examples
    --------
    >>> rows_right(truth_table("XOR"), [20.0, 20.0], -10.0).tolist()
    [True, True, True, False]
    """
    return table.y * activations(table.X, w, b) > 0


def lift(X) -> np.ndarray:
    """Add the feature x1 x2: (x1, x2) -> (x1, x2, x1 x2).

    Parameters
    ----------
    X : array_like, shape (N, 2)

    Returns
    -------
    ndarray, shape (N, 3)

    Raises
    ------
    ValueError
        If X is not an (N, 2) array of finite numbers.

    Notes
    -----
    In the lifted space XOR is linearly separable: with 0/1 inputs,
    x1 + x2 - 2 x1 x2 is XOR itself, and with -1/+1 inputs XOR is -x1 x2. A
    plane there, w1 x1 + w2 x2 + w3 x1 x2 + b = 0, is a hyperbola (or a pair of
    lines) back in the plane.

    Examples
    --------
    >>> lift([[1.0, -1.0]]).tolist()
    [[1.0, -1.0, -1.0]]
    """
    X = check_X(X)
    if X.shape[1] != 2:
        raise ValueError(f"X must have shape (N, 2), got {X.shape}")
    return np.column_stack([X, X[:, 0] * X[:, 1]])


@dataclass(frozen=True)
class Training:
    """How the perceptron (cyclic order, eta = 1, w = 0, b = 0) fares on a data set.

    Attributes
    ----------
    converged : bool
        True when an epoch went by without a mistake.
    mistakes : int
        Updates made (until convergence, the first repeat, or the epoch limit).
    epochs : int
        Epochs run (for a cycle: up to the start of the epoch that repeats).
    w : ndarray
        The last weights (read-only).
    b : float
        The last bias.
    cycle : Cycle or None
        The exact search's repeat (:func:`core.cycles.find_cycle`): epochs
        ``cycle.first < cycle.repeat`` start from the same weights, so from
        there the run repeats itself forever. None when nothing repeated.
    """

    converged: bool
    mistakes: int
    epochs: int
    w: np.ndarray
    b: float
    cycle: Cycle | None

    @property
    def ending(self) -> str:
        """How the run ends, in words."""
        if self.converged:
            return f"converged after {plural(self.epochs, 'epoch')}"
        if self.cycle and self.cycle.first == 1:
            return (f"cycles: every {plural(self.cycle.period, 'epoch')} the weights are back at "
                    "w = 0, b = 0")
        if self.cycle:
            return (f"cycles: the weights at the start of epoch {self.cycle.repeat} equal those "
                    f"at the start of epoch {self.cycle.first}")
        return f"no convergence in {plural(self.epochs, 'epoch')}"


def train(X, y, *, max_epochs: int = 100) -> Training:
    """Run the notes' perceptron (cyclic order, eta = 1, zeros) and say how it ends.

    Parameters
    ----------
    X : array_like, shape (N, D)
        Inputs, any dimension (the lifted (x1, x2, x1 x2) included), short
        decimals (a truth table's 0, 1 and -1 are).
    y : array_like, shape (N,)
        Labels in {-1, +1}.
    max_epochs : int, default 100
        Stop after this many epochs if it neither converges nor repeats.

    Returns
    -------
    Training

    Raises
    ------
    ValueError
        If the data or max_epochs are invalid, or a number is not a short decimal.

    Notes
    -----
    The run is :func:`core.cycles.find_cycle`'s, in exact arithmetic: with the
    cyclic order the weights at the start of an epoch decide the whole epoch,
    so once they repeat, the run cycles with that period and can never
    converge. On XOR, from w = 0, every epoch makes four mistakes whose
    updates cancel: each epoch starts from w = 0 again.

    Examples
    --------
    >>> table = truth_table("AND", encoding="pm1")
    >>> run = train(table.X, table.y)
    >>> run.converged, run.mistakes, run.w.tolist(), run.b
    (True, 1, [1.0, 1.0], -1.0)
    >>> xor = truth_table("XOR", encoding="pm1")
    >>> train(xor.X, xor.y).ending
    'cycles: every 1 epoch the weights are back at w = 0, b = 0'
    """
    found = find_cycle(X, y, max_epochs=max_epochs)
    if found.status == "inexact":
        raise ValueError(f"exact arithmetic needs short decimals: {found.reason}")
    w = np.array([float(v) for v in found.w])
    w.setflags(write=False)
    return Training(found.status == "converged", found.mistakes, found.epochs, w,
                    float(found.b), found if found.status == "cycle" else None)
