"""The perceptron as a stream of steps.

The rule is the notes' Algorithm 1, one example at a time::

    a = w @ x + b
    if y * a <= 0:
        w += eta * y * x
        b += eta * y

:func:`perceptron` yields a :class:`Step` after every visited example (or only
after the updating ones), so a page can animate the run and a test can check
every single update.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from core.runs import ORDERS as ORDERS
from core.runs import (
    Rule,
    Run,
    Step,
    as_integers,
    check_data,
    check_walk,
    decimal_integers,
    decimals,
    integers_for,
    read_only,
    scaled,
    tie_tolerance,
    to_float,
)

__all__ = ["INITS", "LOSSES", "ORDERS", "Linear", "Step", "check_data", "initial_weights",
           "perceptron"]

INITS = ("zeros", "random")
_STALE = object()  # an order nothing was gathered for
# The margin losses the rule can descend: an update when y*a <= 0, or when y*a < 1.
LOSSES = ("perceptron", "hinge")
# Random starting weights are drawn from a standard normal and kept to this many
# decimals, so that runs from them stay exact.
RANDOM_DECIMALS = 3


def _initial_weights(init, dim: int, bias: bool, rng: np.random.Generator):
    """The starting (w, b) for ``init``."""
    if isinstance(init, str):
        if init == "zeros":
            return np.zeros(dim), 0.0
        if init == "random":
            w = np.round(rng.standard_normal(dim), RANDOM_DECIMALS)
            return w, float(np.round(rng.standard_normal(), RANDOM_DECIMALS)) if bias else 0.0
        raise ValueError(f"init must be 'zeros', 'random' or a (w, b) pair, got {init!r}")
    try:
        w0, b0 = init
    except (TypeError, ValueError):
        raise ValueError(
            f"init must be 'zeros', 'random' or a (w, b) pair, got {init!r}"
        ) from None
    w = np.array(w0, dtype=float).reshape(-1)
    if w.shape != (dim,):
        raise ValueError(f"init weights must have {dim} values, got {w.size}")
    b = float(b0)
    if not (np.all(np.isfinite(w)) and np.isfinite(b)):
        raise ValueError("init weights and bias must be finite")
    if not bias and b != 0.0:
        raise ValueError(f"init bias must be 0 when bias=False, got {b}")
    return w, b


def initial_weights(dim: int, *, init="zeros", bias: bool = True, seed: int | None = None):
    """The (w, b) that :func:`perceptron` starts from with the same arguments (``Run.start``)."""
    return _initial_weights(init, dim, bias, np.random.default_rng(seed))


def perceptron(
    X,
    y,
    *,
    eta: float = 1.0,
    order: str = "cyclic",
    init="zeros",
    bias: bool = True,
    max_epochs: int = 100,
    seed: int | None = None,
    every: str = "visit",
    until: str = "converged",
) -> Run:
    """Train a perceptron, yielding the state after every step.

    Parameters
    ----------
    X : array_like of shape (N, D)
        Finite coordinates.
    y : array_like of shape (N,)
        Labels in {-1, +1}.
    eta : float, default 1.0
        Learning rate, > 0.
    order : str, default "cyclic"
        How examples are visited: ``"cyclic"`` (rows in order, every epoch),
        ``"shuffle_once"`` (one random permutation, reused), ``"shuffle_each_epoch"``
        (a new permutation every epoch), ``"random"`` (N examples drawn with
        replacement each epoch) or ``"random_misclassified"`` (a random
        misclassified example each step, the PLA).
    init : "zeros", "random" or (w, b), default "zeros"
        Starting weights; ``"random"`` draws them from a standard normal,
        rounded to 3 decimals (so the run can stay exact).
    bias : bool, default True
        Learn b; with False, b stays 0 and the boundary passes through the origin.
    max_epochs : int, default 100
        Stop after this many epochs (of N steps each).
    seed : int or None
        Seed of the generator behind every random choice.
    every : "visit" or "update", default "visit"
        Yield every visited example, or only those that changed the weights.
    until : "converged" or "max_epochs", default "converged"
        Stop at convergence (below), or keep visiting for all ``max_epochs`` as
        the notes' Algorithm 2 does (the weights no longer change, but an
        average or a vote counts every visit).

    Returns
    -------
    Run
        An iterator of :class:`Step`, the state after each step (``w`` is
        read-only); the first step is the first visited example. ``run.start``
        holds the weights before it, ``run.exact`` whether every decision is
        exact.

    Raises
    ------
    ValueError
        If an argument is invalid; the message says which and why.

    Notes
    -----
    For the example (x_n, y_n) the activation is a = w^T x_n + b. When
    y_n a <= 0 the example is a mistake and w <- w + eta y_n x_n,
    b <- b + eta y_n. The run stops after an epoch with no update
    (converged) or after ``max_epochs``; with the random orders, as soon as no
    example is misclassified. ``every="update"`` yields exactly the updating
    steps of ``every="visit"`` for the same arguments, without a Python loop
    over the examples in between.

    When X, eta and the start are short decimals (at most 6 places), the
    decision y_n a <= 0 is made exactly, in integers (a tie a = 0 is a
    mistake, as the rule says), and w, b, a are the floats nearest the exact
    values. Otherwise the run is in floats and a margin within rounding of 0
    counts as the tie it probably is; ``run.exact`` is then False.

    Examples
    --------
    >>> X = [[1.0, 1.0], [2.0, 1.0]]; y = [-1, 1]
    >>> steps = list(perceptron(X, y, eta=0.1, init=([0.2, 0.0], -0.1)))
    >>> steps[0].w, steps[0].b
    (array([ 0.1, -0.1]), -0.2)
    """
    X, y = check_data(X, y)
    check_walk(eta=eta, order=order, every=every, max_epochs=max_epochs, until=until)
    w0, b0 = _initial_weights(init, X.shape[1], bias, np.random.default_rng(seed))
    rule = Linear(X, y, w0, b0, eta=float(eta), bias=bool(bias))
    return Run(rule, order=order, every=every, max_epochs=max_epochs, seed=seed, until=until)


class Linear(Rule):
    """The perceptron's rule on (w, b); with a threshold, a penalty and a step size that
    falls as eta / sqrt(t), the same rule is stochastic subgradient descent (the SVM).

    Plainly, for example i at step t::

        a = w.x_i + b                               # margins(): y*a of a block of rows
        if y_i * a <= 0 (hinge: y_i * a < 1):       # wrong()
            w += eta_t * y_i * x_i; b += eta_t * y_i  # apply()
        (with a penalty lambda, w shrinks by (1 - eta_t lambda) at every visit)

    w and b are kept as one vector wb = (w, b) and each row as y*(x, 1), so a
    block's margins are one product. When x, eta and the start are short
    decimals (and the step is constant with no penalty), wb and x are integers in
    units of powers of ten, so y*a is an exact integer; otherwise floats, and a
    margin within rounding of the threshold counts as a tie.
    """

    def __init__(self, X, y, w0, b0, *, eta, bias, loss="perceptron", lam=0.0, decay=False,
                 shift=None, naive=False, strict=False):
        self.n, self.dim = X.shape
        self.strict = strict  # the perceptron's test without its tie: y*a < 0
        self.eta, self.bias, self.lam, self.decay = eta, bias, lam, decay
        self.hinge, self.moves = loss == "hinge", bool(lam)
        self.shift = shift
        self.start = self._float_view(np.asarray(w0, dtype=float), float(b0))
        # naive: plain floats, no tie tolerance (what rounding alone decides, for comparison)
        found = None if lam or decay or naive else decimal_integers(X)
        places = None if found is None else [found[0], *(decimals(v) for v in ([eta], w0, [b0]))]
        self.naive = naive
        self.exact = places is not None and None not in places
        if self.exact:
            self._integers(found[1], y, w0, b0, *places)
        else:
            # y*(x, 1) once: then y*a = (y*(x, 1)).(w, b) is one product
            self.units = self.kind = None
            self.yx = np.empty((self.n, self.dim + 1))
            self.yx[:, :-1], self.yx[:, -1] = X * y[:, None], y
            self.wb = np.append(np.asarray(w0, dtype=float), float(b0))
            self.steps = np.append(np.full(self.dim, eta), eta if bias else 0.0)
            # sum_j |x_j| <= D max|x|: a bound on the size of a margin's terms
            self.x_size = self.dim * float(max(X.max(initial=0.0), -X.min(initial=0.0)))
            self.bar, self.tie = 1.0 if self.hinge else 0.0, 0.0
            self._tolerate()
        self._rows = _STALE

    def _integers(self, X_int, y, w0, b0, dx, de, dw0, db0) -> None:
        """x = X/10^dx, eta = E/10^de, w = W/10^dw, b = B/10^db and y*a in units of 10^-da.

        ``X_int`` is X * 10^dx, integers held exactly as float64 (below 2^53).
        """
        self.dw, self.db = max(dx + de, dw0), max(de, db0)
        self.da = max(self.dw + dx, self.db)
        e = int(scaled([self.eta], de)[0])
        self.y_int = y.astype(np.int64)
        yx = np.empty((self.n, self.dim + 1))  # y*(x, 1): exact integers, as float64
        yx[:, :-1], yx[:, -1] = X_int * y[:, None], y
        # wb += eta*y*(x, 1), in units: eta_w for w, eta_b for b
        eta_w, eta_b = e * 10 ** (self.dw - de - dx), e * 10 ** (self.db - de) if self.bias else 0
        self.steps = np.array([eta_w] * self.dim + [eta_b], dtype=object)
        # y*a in units of 10^-da: the w part scaled by a_w, the b part by a_b (applied to the
        # weights before each product, not to the N rows)
        self.units = np.array([10 ** (self.da - self.dw - dx)] * self.dim
                              + [10 ** (self.da - self.db)], dtype=object)
        self.yx = yx
        self.wb = np.append(scaled(w0, self.dw).astype(object), int(scaled([b0], self.db)[0]))
        self.x_max = int(np.max(np.abs(yx))) if yx.size else 0
        # the step and unit sizes as Python ints, for room() to bound what the integers reach
        self._limits = ((eta_w, eta_b), (int(self.units[0]), int(self.units[-1])))
        self.kind = self.wide = None  # how the integers are held; whether as Python ints
        self.bar = 10**self.da if self.hinge else 0
        self.tie = 0
        self.room(0)

    # --- the rule ---------------------------------------------------------------------

    def order(self, rows: np.ndarray | None) -> None:
        """y*(x, 1) in the order being walked: gathered once per new order, not per block."""
        if rows is None:
            self._rows, self._yx = rows, self.yx
        elif rows is not self._rows:
            self._rows, self._yx = rows, self.yx[rows]

    def _wb_units(self) -> np.ndarray:
        """(w, b) in the units of y*a: exact runs weigh w and b by powers of ten."""
        return self.wb if self.units is None else self.wb * self.units_k

    def margins(self, start: int, end: int) -> np.ndarray:
        """y*a = (y*(x, 1)).(w, b) of the rows start..end-1 of the current order."""
        return self._yx[start:end] @ self._wb_units()

    def all_margins(self) -> np.ndarray:
        """y*a of every row."""
        return self.yx @ self._wb_units()

    def wrong(self, margins: np.ndarray) -> np.ndarray:
        """The threshold test: y*a <= 0 for the perceptron (strict: y*a < 0), y*a < 1 for
        the hinge."""
        if self.hinge:
            return margins < self.bar - self.tie
        if self.strict:
            return margins < -self.tie
        return margins <= self.tie

    def apply(self, i: int, t: int, updated: bool) -> None:
        """w += eta*y*x, b += eta*y on example i (and the penalty's shrink at every step)."""
        eta = self.steps / math.sqrt(t) if self.decay else self.steps
        if self.lam:
            self.wb = np.append((1.0 - eta[0] * self.lam) * self.wb[:-1], self.wb[-1])
        if updated:
            self.wb = self.wb + eta * self.yx[i]
        if not self.exact:
            self._tolerate()

    def activation(self, i: int, margin) -> float:
        """a = w.x_i + b as a float, from y*a."""
        if self.exact:
            return int(self.y_int[i]) * int(margin) / 10**self.da
        return float(self.yx[i, -1] * margin)

    def view(self) -> tuple[np.ndarray, float]:
        """The current (w, b) as floats (nearest the exact values), w read-only."""
        if self.kind is np.float64:  # exact integers below 2^53: one correctly rounded division
            return self._float_view(self.wb[:-1] / 10.0**self.dw, float(self.wb[-1]) / 10**self.db)
        if self.exact:
            return self._float_view(to_float(self.wb[:-1], self.dw),
                                    int(self.wb[-1]) / 10**self.db)
        return self._float_view(self.wb[:-1], self.wb[-1])

    # --- keeping the numbers honest ---------------------------------------------------

    def room(self, k: int) -> None:
        """Integers: int64 while nothing can reach 2^62 within k more updates, else Python ints."""
        if not self.exact:
            return
        (eta_w, eta_b), (unit_w, unit_b) = self._limits
        w_bound = max(map(abs, self.wb[:-1].tolist()), default=0) + k * eta_w * self.x_max
        b_bound = abs(int(self.wb[-1])) + k * eta_b
        bound = max(w_bound, b_bound, self.dim * w_bound * self.x_max * unit_w + b_bound * unit_b)
        kind = integers_for(bound)
        if kind != self.kind:
            self.kind, self.wide = kind, kind is object
            self.wb, self.steps = as_integers(self.wb, kind), as_integers(self.steps, kind)
            self.yx = as_integers(self.yx, kind)
            self.units_k = as_integers(self.units, kind)
            self._rows = _STALE

    def _tolerate(self) -> None:
        """Floats: a margin this close to the threshold is a tie."""
        if not self.naive:
            w = self.wb[:-1]
            size = max(map(abs, w.tolist())) if self.dim <= 8 else np.abs(w).max()
            self.tie = tie_tolerance(self.x_size * size + abs(self.wb[-1]) + self.bar)

    # --- the exact state, for comparing runs ----------------------------------------------

    @property
    def key(self) -> tuple:
        """The exact state (integers W..., B), hashable; only for exact runs."""
        return tuple(int(v) for v in self.wb)

    def fractions(self, key: tuple | None = None) -> tuple[tuple[Fraction, ...], Fraction]:
        """The exact (w, b) of ``key`` (default: the current state) as fractions."""
        *w, b = self.key if key is None else key
        return tuple(Fraction(v, 10**self.dw) for v in w), Fraction(b, 10**self.db)

    def exact_activation(self, i: int, key: tuple | None = None) -> Fraction:
        """The exact a = w.x_i + b of the state ``key`` (default: the current state)."""
        key = self.key if key is None else key
        margin = sum(int(v) * int(x) * int(u)
                     for v, x, u in zip(key, self.yx[i], self.units, strict=True))
        return Fraction(int(self.y_int[i]) * margin, 10**self.da)

    def _float_view(self, w: np.ndarray, b: float) -> tuple[np.ndarray, float]:
        """(w, b) for the data as given (a centred run moves b back), w read-only."""
        if self.shift is not None:
            b = b - float(w @ self.shift)  # w.(x - c) + b = w.x + (b - w.c)
        return read_only(w), float(b)
