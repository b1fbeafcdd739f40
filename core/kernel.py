"""The kernel perceptron: the notes' dual form, one count alpha_i per example.

The rule, one example at a time (the notes' kernelised training rule)::

    s_i = sum_j alpha_j y_j K(x_j, x_i)
    if y_i * s_i <= 0:
        alpha_i += eta

The Gram matrix K(x_j, x_i) is computed once; the scores s of all examples
are kept up to date (an update adds eta y_i K(., x_i) to them), so a visit
costs O(1) and an update O(N). Visiting orders and the stopping rule are the
ones of :func:`core.perceptron.perceptron`, drawn from the generator in the
same way, so with the linear kernel the run is the ordinary perceptron's.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from core.decimals import (
    as_integers,
    decimals,
    integers_for,
    scaled,
    tie_tolerance,
    to_float,
    widen,
)
from core.runs import Rule, Walk, check_data, check_walk, read_only

KERNELS = ("linear", "polynomial", "rbf")

# Points a model scores at once: a block of the kernel matrix stays small.
_SCORE_BLOCK = 4096


@dataclass(frozen=True)
class Kernel:
    """A kernel K(a, b) with its parameters.

    Attributes
    ----------
    name : {"linear", "polynomial", "rbf"}
        ``linear``: a.b; ``polynomial``: (a.b + offset)^degree;
        ``rbf``: exp(-||a - b||^2 / (2 width^2)).
    degree : int, default 2
        Degree of the polynomial kernel (>= 1).
    offset : float, default 1.0
        The constant c added in the polynomial kernel (>= 0).
    width : float, default 1.0
        The RBF kernel's width sigma (> 0).

    Examples
    --------
    >>> Kernel("polynomial", degree=2, offset=1.0)([[1.0, 2.0]], [[3.0, 1.0]])
    array([[36.]])
    """

    name: str = "linear"
    degree: int = 2
    offset: float = 1.0
    width: float = 1.0

    def __post_init__(self) -> None:
        if self.name not in KERNELS:
            raise ValueError(f"kernel must be one of {', '.join(KERNELS)}; got {self.name!r}")
        if isinstance(self.degree, bool) or int(self.degree) != self.degree or self.degree < 1:
            raise ValueError(f"degree must be a whole number >= 1, got {self.degree}")
        if not (np.isfinite(self.offset) and self.offset >= 0):
            raise ValueError(f"offset must be >= 0, got {self.offset}")
        if not (np.isfinite(self.width) and self.width > 0):
            raise ValueError(f"width must be > 0, got {self.width}")
        object.__setattr__(self, "degree", int(self.degree))
        object.__setattr__(self, "offset", float(self.offset))
        object.__setattr__(self, "width", float(self.width))

    def __call__(self, A, B) -> np.ndarray:
        """The matrix K[m, n] = K(A[m], B[n])."""
        A = np.atleast_2d(np.asarray(A, dtype=float))
        B = np.atleast_2d(np.asarray(B, dtype=float))
        if self.name == "rbf":
            # ||a - b||^2 = ||a||^2 + ||b||^2 - 2 a.b, clipped: rounding can make it < 0
            squared = (np.sum(A**2, axis=1)[:, None] + np.sum(B**2, axis=1)[None, :]
                       - 2 * A @ B.T)
            return np.exp(-np.maximum(squared, 0.0) / (2 * self.width**2))
        dot = A @ B.T
        if self.name == "polynomial":
            return (dot + self.offset) ** self.degree
        return dot

    def describe(self) -> str:
        """The kernel with its parameters, in words."""
        if self.name == "polynomial":
            return f"polynomial (degree {self.degree}, offset {self.offset:g})"
        if self.name == "rbf":
            return f"RBF (width {self.width:g})"
        return "linear"


def kernel_perceptron(
    X,
    y,
    *,
    kernel: Kernel | None = None,
    eta: float = 1.0,
    order: str = "cyclic",
    bias: bool = True,
    max_epochs: int = 100,
    seed: int | None = None,
    every: str = "visit",
) -> Walk:
    """Train the kernel perceptron in its dual form, yielding the state after every step.

    Parameters
    ----------
    X : array_like of shape (N, D)
        Finite coordinates.
    y : array_like of shape (N,)
        Labels in {-1, +1}.
    kernel : Kernel, default Kernel("linear")
        The kernel K; it is evaluated once, on X against X.
    eta : float, default 1.0
        Learning rate, > 0: the amount an update adds to alpha_i.
    order, max_epochs, seed, every
        As for :func:`core.perceptron.perceptron`; the random orders draw the
        same numbers from ``seed``.
    bias : bool, default True
        Learn a bias as the weight of a constant feature 1, that is with the
        kernel K(a, b) + 1; then b = sum_j alpha_j y_j.

    Yields
    ------
    Step
        The state after the step: ``w`` holds the counts alpha (one per
        example, read-only), ``b`` = sum_j alpha_j y_j with the bias (else 0),
        ``activation`` the score s_i before the step.

    Raises
    ------
    ValueError
        If an argument is invalid; the message says which and why.

    Notes
    -----
    Started from alpha = 0 (the dual form has no other start), the weights
    in feature space are always w = sum_j alpha_j y_j phi(x_j), so
    s_i = w^T phi(x_i) = sum_j alpha_j y_j K(x_j, x_i). With the linear
    kernel, phi(x) = x, the run makes the same mistakes at the same steps as
    :func:`core.perceptron.perceptron` from w = 0, b = 0 with the same
    arguments, and w = sum_j alpha_j y_j x_j, b = sum_j alpha_j y_j.

    Examples
    --------
    >>> X = [[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]]; y = [-1, 1, 1, -1]
    >>> steps = list(kernel_perceptron(X, y, kernel=Kernel("polynomial")))
    >>> steps[-1].w.tolist(), steps[-1].mistakes
    ([8.0, 6.0, 6.0, 5.0], 25)
    """
    X, y = check_data(X, y)
    kernel = Kernel() if kernel is None else kernel
    if not isinstance(kernel, Kernel):
        raise ValueError(f"kernel must be a Kernel, got {type(kernel).__name__}")
    check_walk(eta=eta, order=order, every=every, max_epochs=max_epochs)
    rule = Dual(X, y, kernel, eta=float(eta), bias=bool(bias))
    return Walk(rule, order=order, every=every, max_epochs=max_epochs, seed=seed)


def integer_gram(kernel: Kernel, X: np.ndarray, bias: bool):
    """The Gram matrix (+ 1 with the bias) as integers G / 10^k, or None when not exact.

    Linear and polynomial kernels of short decimals are integers once scaled;
    the RBF kernel's exponentials are not.
    """
    dx, dc = decimals(X), decimals([kernel.offset])
    if kernel.name == "rbf" or dx is None or dc is None:
        return None
    xi = scaled(X, dx)
    top = int(np.max(np.abs(xi), initial=0))
    dot_bound = X.shape[1] * top * top
    xi = widen(xi, dot_bound)
    dot, k = xi @ xi.T, 2 * dx
    if kernel.name == "polynomial":
        m = max(k, dc)
        c = int(scaled([kernel.offset], dc)[0]) * 10 ** (m - dc)
        base = dot_bound * 10 ** (m - k) + abs(c)
        dot = widen(dot, base) * 10 ** (m - k) + c
        dot, k = widen(dot, base**kernel.degree) ** kernel.degree, m * kernel.degree
    return (dot + 10**k if bias else dot), k


class Dual(Rule):
    """The kernel perceptron's rule on the counts c (alpha = eta c) and the scores they give.

    Plainly, for example i::

        s_i = sum_j alpha_j y_j K(x_j, x_i)         # margins(): y_i s_i
        if y_i s_i <= 0:                            # wrong()
            alpha_i += eta                          # apply()

    Since alpha = eta c with eta > 0, the signs come from S = G (c y), kept up to
    date (an update adds y_i G[:, i]); G is the Gram matrix in integers when the
    kernel of the data is (:func:`integer_gram`), else in floats with a tie
    tolerance scaled to the sums.
    """

    def __init__(self, X, y, kernel: Kernel, *, eta: float, bias: bool):
        self.n, self.eta, self.bias, self.y = len(y), eta, bias, y
        self.start = (read_only(np.zeros(self.n)), 0.0)
        integer = integer_gram(kernel, X, bias)
        self.de = decimals([eta])
        self.exact = integer is not None
        if self.exact:
            self.gram, self.k = integer
            self.g_max = int(np.max(np.abs(self.gram), initial=0))
            self.yi = y.astype(np.int64)
            self.S = np.zeros(self.n, dtype=self.gram.dtype)
            self.tie = 0
        else:
            self.gram = kernel(X, X) + (1.0 if bias else 0.0)
            if not np.all(np.isfinite(self.gram)):
                raise ValueError("the kernel overflows on this data: lower the degree or the "
                                 "offset")
            self.yi, self.S = y, np.zeros(self.n)
            self.size = np.zeros(self.n)  # sum_j c_j |G_ji|: how large the rounding can be
            self.tie = np.zeros(self.n)
        self.c = np.zeros(self.n, dtype=np.int64)
        self.mistakes = 0
        self._rows = None

    def order(self, rows: np.ndarray) -> None:
        """Remember the order being walked."""
        self._rows = rows

    def margins(self, start: int, end: int) -> np.ndarray:
        """y_i s_i (in units of eta) for the rows start..end-1 of the current order."""
        idx = slice(start, end) if self._rows is None else self._rows[start:end]
        self._ties = self.tie if self.exact else self.tie[idx]
        return self.yi[idx] * self.S[idx]

    def all_margins(self) -> np.ndarray:
        """y_i s_i of every row."""
        self._ties = self.tie
        return self.yi * self.S

    def wrong(self, margins: np.ndarray) -> np.ndarray:
        """y_i s_i <= 0 for the margins just computed (within rounding, in floats)."""
        return margins <= self._ties

    def apply(self, i: int, t: int, updated: bool) -> None:
        """alpha_i += eta: the scores of all examples move by eta y_i K(., x_i)."""
        if not updated:
            return
        self.c[i] += 1
        self.mistakes += 1
        self.S = self.S + self.yi[i] * self.gram[:, i]
        if not self.exact:
            self.size += np.abs(self.gram[:, i])
            self.tie = tie_tolerance(self.size)

    def activation(self, i: int, margin) -> float:
        """s_i as a float."""
        if self.exact and self.de is not None:
            e = int(scaled([self.eta], self.de)[0])
            return int(self.yi[i]) * int(margin) * e / 10 ** (self.k + self.de)
        if self.exact:
            return self.eta * (int(self.yi[i]) * int(margin) / 10**self.k)
        return float(self.eta * self.yi[i] * margin)

    def view(self) -> tuple[np.ndarray, float]:
        """(alpha, b): alpha = eta c, b = sum_j alpha_j y_j with the bias."""
        signed = int(self.c @ self.y.astype(np.int64)) if self.bias else 0
        if self.de is not None:
            e = int(scaled([self.eta], self.de)[0])
            return read_only(to_float(self.c * e, self.de)), e * signed / 10**self.de
        return read_only(self.eta * self.c), self.eta * signed

    def room(self, k: int) -> None:
        """Integers held as float64, int64 or Python ints, by what |G| and |S| can reach."""
        if self.exact:
            bound = max(1, self.mistakes + k) * self.g_max
            kind = integers_for(bound)  # float64 while exact: the updates then run in BLAS
            self.gram, self.S = as_integers(self.gram, kind), as_integers(self.S, kind)
            self.yi = as_integers(self.yi, kind)


@dataclass(frozen=True)
class KernelModel:
    """A trained (or half-trained) kernel perceptron: the examples, their counts, the kernel.

    Attributes
    ----------
    X : ndarray of shape (N, D)
    y : ndarray of shape (N,)
    alpha : ndarray of shape (N,)
        The count of each example (eta times its mistakes).
    kernel : Kernel
    bias : bool
        Whether the constant feature was used (kernel K + 1).
    """

    X: np.ndarray
    y: np.ndarray
    alpha: np.ndarray
    kernel: Kernel
    bias: bool = True

    @property
    def support(self) -> np.ndarray:
        """Indices of the examples with alpha_j > 0 (the only ones the decision needs)."""
        return np.flatnonzero(np.asarray(self.alpha) > 0)

    def decision(self, Z) -> np.ndarray:
        """s(z) = sum_j alpha_j y_j K(x_j, z) (+ sum_j alpha_j y_j with the bias), shape (M,)."""
        Z = np.atleast_2d(np.asarray(Z, dtype=float))
        keep = self.support
        X = np.asarray(self.X, dtype=float)[keep]
        coef = np.asarray(self.alpha, dtype=float)[keep] * np.asarray(self.y, dtype=float)[keep]
        offset = float(coef.sum()) if self.bias else 0.0
        out = np.empty(len(Z))
        for start in range(0, len(Z), _SCORE_BLOCK):
            block = Z[start:start + _SCORE_BLOCK]
            out[start:start + len(block)] = self.kernel(block, X) @ coef + offset
        return out

    def predict(self, Z) -> np.ndarray:
        """sign of :meth:`decision`: +1, -1, or 0 exactly on the boundary."""
        return np.sign(self.decision(Z))

    def primal(self) -> tuple[np.ndarray, float]:
        """The linear kernel's weights: w = sum_j alpha_j y_j x_j, b = sum_j alpha_j y_j (or 0)."""
        if self.kernel.name != "linear":
            raise ValueError("only the linear kernel has weights w in the input space")
        coef = np.asarray(self.alpha, dtype=float) * np.asarray(self.y, dtype=float)
        return coef @ np.asarray(self.X, dtype=float), float(coef.sum()) if self.bias else 0.0
