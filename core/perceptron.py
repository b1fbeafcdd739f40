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

from core.decimals import INT64_SAFE, as_integers, decimal_integers, decimals, scaled, to_float
from core.runs import BATCH, Rule, Step, Walk, check_data, check_walk, read_only
from core.runs import ORDERS as ORDERS
from core.scan import HINGE, PERCEPTRON, STRICT, advance, move, python, tolerance

__all__ = ["INITS", "LOSSES", "ORDERS", "Linear", "Step", "check_data", "initial_weights",
           "perceptron"]

INITS = ("zeros", "random")
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
    """The (w, b) that :func:`perceptron` starts from with the same arguments (``Walk.start``)."""
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
) -> Walk:
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
    Walk
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
    return Walk(rule, order=order, every=every, max_epochs=max_epochs, seed=seed, until=until)


class Linear(Rule):
    """The perceptron's rule on (w, b); with a threshold, a penalty and a step size that
    falls as eta / sqrt(t), the same rule is stochastic subgradient descent (the SVM).

    Plainly, for example i at step t::

        a = w.x_i + b                               # advance(): y*a of the rows in turn
        if y_i * a <= 0 (hinge: y_i * a < 1):       # wrong()
            w += eta_t * y_i * x_i; b += eta_t * y_i  # apply()
        (with a penalty lambda, w shrinks by (1 - eta_t lambda) at every visit)

    w and b are kept as one vector wb = (w, b) and each row as y*(x, 1), so a
    margin is one dot product; the rows between two updates are visited by the
    compiled loop of :mod:`core.scan`. When x, eta and the start are short
    decimals (and the step is constant with no penalty), wb and x are integers in
    units of powers of ten, so y*a is an exact integer (int64, Python ints when
    they could outgrow it); otherwise floats, and a margin within rounding of the
    threshold counts as a tie.
    """

    def __init__(self, X, y, w0, b0, *, eta, bias, loss="perceptron", lam=0.0, decay=False,
                 shift=None, naive=False, strict=False):
        self.n, self.dim = X.shape
        self.strict = strict  # the perceptron's test without its tie: y*a < 0
        self.eta, self.bias, self.lam, self.decay = eta, bias, lam, decay
        self.hinge, self.moves = loss == "hinge", bool(lam)
        self.test = HINGE if self.hinge else STRICT if strict else PERCEPTRON
        self.shift = shift
        self.start = self._float_view(np.asarray(w0, dtype=float), float(b0))
        # naive: plain floats, no tie tolerance (what rounding alone decides, for comparison)
        found = None if lam or decay or naive else decimal_integers(X)
        places = None if found is None else [found[0], *(decimals(v) for v in ([eta], w0, [b0]))]
        self.naive = naive
        self.exact = places is not None and None not in places
        self._rows = None
        if self.exact:
            self._integers(found[1], y, w0, b0, *places)
        else:
            # y*(x, 1) once: then y*a = (y*(x, 1)).(w, b) is one dot product
            self.units, self.kind = None, np.float64
            self.yx = np.empty((self.n, self.dim + 1))
            self.yx[:, :-1], self.yx[:, -1] = X * y[:, None], y
            self.wb = np.append(np.asarray(w0, dtype=float), float(b0))
            self.steps = np.append(np.full(self.dim, eta), eta if bias else 0.0)
            self.units_k = np.ones(self.dim + 1)
            # sum_j |x_j| <= D max|x|: a bound on the size of a margin's terms
            self.x_size = self.dim * float(max(X.max(initial=0.0), -X.min(initial=0.0)))
            # the hinge's threshold, and how close to it a margin is a tie
            self.limits = np.array([1.0 if self.hinge else 0.0, 0.0])
            self._buffers(np.float64)
            self._left = math.inf
            self._tolerate()

    def _integers(self, X_int, y, w0, b0, dx, de, dw0, db0) -> None:
        """x = X/10^dx, eta = E/10^de, w = W/10^dw, b = B/10^db and y*a in units of 10^-da.

        ``X_int`` is X * 10^dx, integers held exactly as float64 (below 2^53).
        """
        self.dw, self.db = max(dx + de, dw0), max(de, db0)
        self.da = max(self.dw + dx, self.db)
        e = int(scaled([self.eta], de)[0])
        self.y_int = y.astype(np.int64)
        self.yx = np.empty((self.n, self.dim + 1), dtype=np.int64)  # y*(x, 1), exact
        np.multiply(X_int, y[:, None], out=self.yx[:, :-1], casting="unsafe")
        self.yx[:, -1] = y
        # wb += eta*y*(x, 1), in units: eta_w for w, eta_b for b
        eta_w, eta_b = e * 10 ** (self.dw - de - dx), e * 10 ** (self.db - de) if self.bias else 0
        self.steps = np.array([eta_w] * self.dim + [eta_b], dtype=object)
        # y*a in units of 10^-da: the w part scaled by a_w, the b part by a_b (applied to the
        # weights in each product, not to the N rows)
        self.units = np.array([10 ** (self.da - self.dw - dx)] * self.dim
                              + [10 ** (self.da - self.db)], dtype=object)
        self.wb = np.append(scaled(w0, self.dw).astype(object), int(scaled([b0], self.db)[0]))
        # the largest |y*(x, 1)| (1 for the bias column)
        self.x_max = int(max(X_int.max(initial=0.0), -X_int.min(initial=0.0), 1.0))
        # the step and unit sizes as Python ints, for room() to bound what the integers reach
        self._sizes = ((eta_w, eta_b), (int(self.units[0]), int(self.units[-1])))
        self.limits = np.array([10**self.da if self.hinge else 0, 0], dtype=object)
        self.x_size = 0.0
        self.kind, self._left = None, -1  # how the integers are held; updates they have room for
        self.room(0)

    # --- the rule ---------------------------------------------------------------------

    def order(self, rows: np.ndarray | None) -> None:
        """Remember the order being walked (None: the data's own)."""
        self._rows = rows

    def _wb_units(self) -> np.ndarray:
        """(w, b) in the units of y*a: exact runs weigh w and b by powers of ten."""
        return self.wb if self.units is None else self.wb * self.units_k

    def margins(self, start: int, end: int) -> np.ndarray:
        """y*a = (y*(x, 1)).(w, b) of the rows start..end-1 of the current order."""
        yx = self.yx[start:end] if self._rows is None else self.yx[self._rows[start:end]]
        return yx @ self._wb_units()

    def all_margins(self) -> np.ndarray:
        """y*a of every row."""
        return self.yx @ self._wb_units()

    def advance(self, rows: np.ndarray, start: int, end: int, t0: int,
                most: int) -> tuple[int, int]:
        """The compiled loop (core.scan.advance); Python ints take the slow path's blocks.

        ``states[0]`` keeps (w, b) before, ``states[k]`` after the k-th update.
        """
        if self.kind is object:
            self.states[0] = self.wb
            reached, count = super().advance(rows, start, end, t0, most)
            self.states[count] = self.wb
            return reached, count
        self.states[0] = self.wb
        reached, count = advance(
            self.yx, rows, start, end, self.wb, self.units_k, self.steps, self.seen, self.limits,
            self.test, self.lam, self.decay, t0, self.x_size, not (self.exact or self.naive),
            self.at, self.states[1:], min(most, self._left))
        self._left -= count
        return reached, count

    def updates(self, count: int) -> list[tuple[np.ndarray, float]]:
        """(w, b) as floats after each update of the last advance, w read-only."""
        states = self.states[1:count + 1]
        if self.exact:
            w, b = to_float(states[:, :-1], self.dw), to_float(states[:, -1], self.db)
        else:
            w, b = states[:, :-1].copy(), states[:, -1]
        w.setflags(write=False)
        if self.shift is None:
            return [(w[k], float(b[k])) for k in range(count)]
        return [(w[k], float(b[k] - float(w[k] @ self.shift))) for k in range(count)]

    def wrong(self, margins: np.ndarray) -> np.ndarray:
        """The threshold test: y*a <= 0 for the perceptron (strict: y*a < 0), y*a < 1 for
        the hinge, a margin within ``tie`` of the threshold counting as on it."""
        bar, tie = self.limits
        if self.hinge:
            return margins < bar - tie
        if self.strict:
            return margins < -tie
        return margins <= tie

    def apply(self, i: int, t: int, updated: bool) -> None:
        """w += eta*y*x, b += eta*y on example i (and the penalty's shrink at every step):
        core.scan.move, on the numbers as they are held."""
        (python(move) if self.kind is object else move)(
            self.wb, self.yx[i], self.steps, t, self.lam, self.decay, updated)
        if self.exact:
            self._left -= updated
        else:
            self._tolerate()

    def activation(self, i: int, margin) -> float:
        """a = w.x_i + b as a float, from y*a."""
        if self.exact:
            return int(self.y_int[i]) * int(margin) / 10**self.da
        return float(self.yx[i, -1] * margin)

    def activations(self, rows: np.ndarray, margins: np.ndarray) -> np.ndarray:
        """a = w.x + b as floats of many rows, from their y*a (correctly rounded when exact)."""
        if self.exact:
            return to_float(self.y_int[rows] * margins, self.da)
        return self.yx[rows, -1] * margins

    def view(self) -> tuple[np.ndarray, float]:
        """The current (w, b) as floats (nearest the exact values), w read-only."""
        if self.exact:
            return self._float_view(to_float(self.wb[:-1], self.dw),
                                    int(self.wb[-1]) / 10**self.db)
        return self._float_view(self.wb[:-1], self.wb[-1])

    # --- keeping the numbers honest ---------------------------------------------------

    def room(self, k: int) -> None:
        """Integers: int64 while nothing can reach 2^62 within k more updates, else Python ints."""
        if not self.exact or k <= self._left:
            return
        (eta_w, eta_b), (unit_w, unit_b) = self._sizes
        w = max(map(abs, self.wb[:-1].tolist()), default=0)
        b = abs(int(self.wb[-1]))
        # what |w|, |b| and |y*a| can reach: now + updates * per update
        reach = ((w, eta_w * self.x_max), (b, eta_b),
                 (self.dim * w * self.x_max * unit_w + b * unit_b,
                  self.dim * eta_w * self.x_max**2 * unit_w + eta_b * unit_b))
        left = min((INT64_SAFE - 1 - now) // per if per else
                   (math.inf if now < INT64_SAFE else -1) for now, per in reach)
        kind = np.int64 if left >= k else object
        self._left = left if kind is np.int64 else -1  # Python ints: look again every time
        if kind is not self.kind:
            self.kind, self.wide = kind, kind is object
            self.wb, self.steps = as_integers(self.wb, kind), as_integers(self.steps, kind)
            self.yx, self.limits = as_integers(self.yx, kind), as_integers(self.limits, kind)
            self.units_k = as_integers(self.units, kind)
            self._buffers(kind)

    def _buffers(self, kind) -> None:
        """Where advance() records: margins of the visits, positions and states of the updates."""
        self.seen = np.empty(self.n, dtype=kind)
        self.at = np.empty(BATCH, dtype=np.int64)
        self.states = np.empty((BATCH + 1, self.dim + 1), dtype=kind)

    def _tolerate(self) -> None:
        """Floats: a margin this close to the threshold is a tie."""
        if not self.naive:
            self.limits[1] = tolerance(self.wb, self.x_size, self.limits[0])

    # --- the exact state, for comparing runs ----------------------------------------------

    @property
    def key(self) -> tuple:
        """The exact state (integers W..., B) after the last step handed out, hashable; only
        for exact runs."""
        state = self.wb if self.showing is None else self.states[self.showing]
        return tuple(int(v) for v in state)

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
