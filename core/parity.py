"""Parity of n bits: the function no hyperplane computes, for any n >= 2.

The n-bit parity is true when an odd number of inputs are true; XOR is its n = 2
case. :func:`parity` puts its facts side by side: no hyperplane separates it, the
best one gets ``parity_best(n)`` rows right, the perceptron's run cycles, and a
product of the bits, added as one more feature, separates it.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product
from math import comb

import numpy as np

from core.boolean import Training, TruthTable, check_encoding, train
from core.geometry import linearly_separable
from core.runs import read_only
from core.validation import check_X

__all__ = ["PARITY_BITS", "Parity", "parity", "parity_best", "parity_table", "product_lift"]

PARITY_BITS = (2, 3, 4, 5)


def parity_table(n: int, *, encoding: str = "01") -> TruthTable:
    """The n-bit parity function: true when an odd number of the inputs are true.

    Parameters
    ----------
    n : int
        Inputs, 1 to 10 (2 is XOR).
    encoding : {"01", "pm1"}, default "01"

    Returns
    -------
    TruthTable
        ``function`` is ``"PARITY<n>"``; 2^n rows in binary order (x1 the most
        significant bit), ``inputs = n``.

    Raises
    ------
    ValueError
        If n is out of range or the encoding unknown.

    Examples
    --------
    >>> table = parity_table(3)
    >>> table.X[:3].tolist(), table.y[:3].tolist()
    ([[0.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, 1.0, 0.0]], [-1.0, 1.0, 1.0])
    >>> from core.boolean import truth_table
    >>> parity_table(2, encoding="pm1").y.tolist() == truth_table("XOR", encoding="pm1").y.tolist()
    True
    """
    if isinstance(n, bool) or not isinstance(n, int | np.integer) or not 1 <= n <= 10:
        raise ValueError(f"n must be a whole number from 1 to 10, got {n!r}")
    check_encoding(encoding)
    bits = np.array(list(product((0, 1), repeat=int(n))), dtype=int).reshape(-1, int(n))
    odd = bits.sum(axis=1) % 2
    X = bits if encoding == "01" else 2 * bits - 1
    outputs = odd if encoding == "01" else 2 * odd - 1
    return TruthTable(f"PARITY{n}", encoding, read_only(X), read_only(outputs),
                      read_only(2 * odd - 1), int(n))


def product_lift(X, *, signed: bool = False) -> np.ndarray:
    """Add one feature, the product of every input: (x1, ..., xn) -> (x1, ..., xn, x1...xn).

    Parameters
    ----------
    X : array_like, shape (N, n)
    signed : bool, default False
        Multiply 2 x_i - 1 instead of x_i: the -1/+1 form of 0/1 inputs.

    Returns
    -------
    ndarray, shape (N, n + 1)

    Notes
    -----
    With -1/+1 inputs the product is (-1)^(number of false inputs), so n-bit
    parity is -(-1)^n times it: one weight separates it. With 0/1 inputs
    x1...xn is the AND of the inputs, which only helps for n = 2; the signed
    product prod(2 x_i - 1) is the -1/+1 one again.

    Examples
    --------
    >>> product_lift([[0.0, 1.0, 1.0]]).tolist()
    [[0.0, 1.0, 1.0, 0.0]]
    >>> product_lift([[0.0, 1.0, 1.0]], signed=True).tolist()
    [[0.0, 1.0, 1.0, -1.0]]
    """
    X = check_X(X)
    factors = 2 * X - 1 if signed else X
    return np.column_stack([X, np.prod(factors, axis=1)])


def parity_best(n: int) -> int:
    """The most rows of n-bit parity any hyperplane gets right: 2^(n-1) + C(n-1, (n-1)//2).

    Notes
    -----
    The same in both encodings (an affine change of the inputs maps
    hyperplanes to hyperplanes). Checked for n = 2..5 by an exact
    mixed-integer search over every hyperplane and, for small n, by trying
    every subset of rows for separability (tests/test_parity.py).

    Examples
    --------
    >>> [parity_best(n) for n in PARITY_BITS]
    [3, 6, 11, 22]
    """
    return 2 ** (n - 1) + comb(n - 1, (n - 1) // 2)


@dataclass(frozen=True)
class Parity:
    """What the perceptron can do with n-bit parity in one encoding.

    Attributes
    ----------
    table : TruthTable
    best : int
        The most rows any hyperplane gets right (:func:`parity_best`).
    separable : bool
        Whether a hyperplane separates the rows (never, for n >= 2).
    balance : ndarray
        sum_n y_n (x_n, 1): zero, so sum_n y_n a_n = 0 for every (w, b) and
        no hyperplane can have every y_n a_n > 0.
    run : Training
        The notes' perceptron on it (cyclic, eta = 1, w = 0).
    lifts : dict of str to (bool, Training)
        For each added feature (``"product"``, and ``"signed product"`` with
        0/1 inputs): whether the lifted rows are separable, and the run on them.
    """

    table: TruthTable
    best: int
    separable: bool
    balance: np.ndarray
    run: Training
    lifts: dict


def parity(n: int, *, encoding: str = "01") -> Parity:
    """n-bit parity against the perceptron: separable or not, the run, and the lifts.

    Parameters
    ----------
    n : int
        Inputs, 1 to 10.
    encoding : {"01", "pm1"}, default "01"

    Returns
    -------
    Parity

    Raises
    ------
    ValueError
        If n or the encoding is invalid.

    Examples
    --------
    >>> facts = parity(3, encoding="pm1")
    >>> facts.separable, facts.run.ending, facts.lifts["product"][0]
    (False, 'cycles: every 1 epoch the weights are back at w = 0, b = 0', True)
    >>> parity(3).lifts["product"][0], parity(3).lifts["signed product"][0]
    (False, True)
    """
    table = parity_table(n, encoding=encoding)
    X, y = table.X, table.y
    balance = y @ np.column_stack([X, np.ones(len(y))])
    kinds = {"product": False, **({"signed product": True} if encoding == "01" else {})}
    lifts = {}
    for name, signed in kinds.items():
        lifted = product_lift(X, signed=signed)
        lifts[name] = (linearly_separable(lifted, y), train(lifted, y))
    return Parity(table, parity_best(n), linearly_separable(X, y), read_only(balance),
                  train(X, y), lifts)
