"""The kernel perceptron: the seeds' dual form, one count alpha_i per example.

The rule, one example at a time (the seeds' kernelised training rule)::

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

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import numpy as np

from core._visits import FIRST_BLOCK, Walk, check_walk
from core.perceptron import check_data

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


@dataclass(frozen=True)
class KernelStep:
    """The state after one visited example of the kernel perceptron.

    Attributes
    ----------
    t : int
        Examples visited so far (1-based).
    epoch : int
        Pass over the data (1-based); an epoch is N steps.
    index : int
        Row of X visited at this step.
    activation : float
        s_i = sum_j alpha_j y_j K(x_j, x_i) (+ sum_j alpha_j y_j with the bias),
        computed BEFORE the update.
    updated : bool
        True when y_i s_i <= 0 and alpha_i grew by eta.
    alpha : ndarray of shape (N,)
        The counts AFTER this step, read-only.
    mistakes : int
        Updates made so far.
    """

    t: int
    epoch: int
    index: int
    activation: float
    updated: bool
    alpha: np.ndarray
    mistakes: int


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
) -> Iterator[KernelStep]:
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
    KernelStep
        The state after the step; ``alpha`` is a read-only copy.

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
    >>> steps[-1].alpha.tolist(), steps[-1].mistakes
    ([8.0, 6.0, 6.0, 5.0], 25)
    """
    X, y = check_data(X, y)
    kernel = Kernel() if kernel is None else kernel
    if not isinstance(kernel, Kernel):
        raise ValueError(f"kernel must be a Kernel, got {type(kernel).__name__}")
    if not (np.isfinite(eta) and eta > 0):
        raise ValueError(f"eta must be > 0, got {eta}")
    check_walk(order=order, every=every, max_epochs=max_epochs)
    gram = kernel(X, X) + (1.0 if bias else 0.0)
    if not np.all(np.isfinite(gram)):
        raise ValueError("the kernel overflows on this data: lower the degree or the offset")
    rng = np.random.default_rng(seed)
    run = _DualRun(gram, y, eta=float(eta), visits=every == "visit")
    return run.walk(order, rng, int(max_epochs))


class _DualRun(Walk):
    """The counts alpha of one run and the scores s they give.

    The ways of walking the data are core._visits.Walk's, the primal run's own, so both
    draw the same numbers (the tests hold them to it).
    """

    def __init__(self, gram, y, *, eta, visits):
        super().__init__(len(y))
        self.gram, self.y, self.eta, self.visits = gram, y, eta, visits
        self.alpha = np.zeros(self.n)
        self.s = np.zeros(self.n)  # s_i for every i, kept equal to gram @ (alpha * y)
        self.mistakes = 0

    def _step(self, t: int, i: int, a: float, updated: bool) -> KernelStep:
        """Apply the rule to example i, whose score before the step is a, and record it."""
        a = float(a)
        if updated:
            self.alpha[i] += self.eta
            self.s += self.eta * self.y[i] * self.gram[:, i]
            self.mistakes += 1
        alpha = self.alpha.copy()
        alpha.setflags(write=False)
        t = int(t)
        return KernelStep(t, (t - 1) // self.n + 1, int(i), a, updated, alpha, self.mistakes)

    def _scan(self, rows: np.ndarray, t0: int):
        """Visit ``rows`` in turn from step t0 + 1, yielding steps; return whether any updated."""
        any_update = False
        start, block = 0, FIRST_BLOCK
        while start < len(rows):
            idx = rows[start:start + block]
            hits = np.flatnonzero(self.y[idx] * self.s[idx] <= 0)
            stop = hits[0] if hits.size else len(idx)
            if self.visits:
                for k in range(stop):
                    yield self._step(t0 + start + k + 1, idx[k], self.s[idx[k]], False)
            if hits.size:
                yield self._step(t0 + start + stop + 1, idx[stop], self.s[idx[stop]], True)
                any_update = True
                start, block = start + stop + 1, FIRST_BLOCK
            else:
                start, block = start + len(idx), block * 2
        return any_update

    def _all_correct(self) -> bool:
        """True when every example has y_i s_i > 0."""
        return bool(np.all(self.y * self.s > 0))

    def _violators(self) -> tuple[np.ndarray, np.ndarray]:
        """The rows with y_i s_i <= 0, and the scores s of all rows."""
        return np.flatnonzero(self.y * self.s <= 0), self.s


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


@dataclass(frozen=True)
class KernelTrace:
    """Every step of a kernel run as columns; row 0 is the state before the first visit.

    The same columns as :class:`core.trace.Trace` but for the weights: the
    counts at any position come from the updates so far (:meth:`alpha`), so a
    long run over many examples stays small.
    """

    t: np.ndarray
    epoch: np.ndarray
    index: np.ndarray
    activation: np.ndarray
    updated: np.ndarray
    mistakes: np.ndarray
    n: int
    eta: float
    complete: bool

    @property
    def steps(self) -> int:
        """How many steps were recorded (the last valid position)."""
        return len(self.t) - 1

    @property
    def update_positions(self) -> np.ndarray:
        """Positions k (1-based) of the steps that updated alpha."""
        return np.flatnonzero(self.updated)

    def alpha(self, k: int) -> np.ndarray:
        """The counts after k steps: eta times each example's mistakes so far."""
        rows = self.index[1:k + 1][self.updated[1:k + 1]]
        return self.eta * np.bincount(rows, minlength=self.n).astype(float)


def record_kernel(steps: Iterable[KernelStep], n: int, eta: float, *,
                  limit: int = 20_000) -> KernelTrace:
    """Collect at most ``limit`` steps of a kernel run over n examples into a KernelTrace."""
    rows = [(0, 0, -1, np.nan, False, 0)]
    complete = True
    for step in steps:
        if len(rows) > limit:
            complete = False
            break
        rows.append((step.t, step.epoch, step.index, step.activation, step.updated,
                     step.mistakes))
    t, epoch, index, activation, updated, mistakes = zip(*rows, strict=True)
    return KernelTrace(
        t=np.array(t, dtype=int), epoch=np.array(epoch, dtype=int),
        index=np.array(index, dtype=int), activation=np.array(activation, dtype=float),
        updated=np.array(updated, dtype=bool), mistakes=np.array(mistakes, dtype=int),
        n=int(n), eta=float(eta), complete=complete,
    )
