"""Non-separable data: the perceptron's cycling, found exactly, and two remedies.

The seeds' cycling theorem: if the training data is not linearly separable,
the perceptron eventually repeats the same set of weights and loops forever.
In the cyclic order the state at the start of an epoch decides the whole
epoch, so the first time an epoch starts from weights seen at an earlier
epoch start, the run has entered its loop.

Floating point cannot see that repeat reliably (0.1 + 0.2 != 0.3), so
:func:`find_cycle` runs the same rule in exact integer arithmetic on data,
eta and initial weights that are short decimals (at most six places): every
number is scaled by a power of ten to an integer, activations keep their
sign, and the epoch-start weights compare exactly.

Beside it, :func:`pocket` keeps the best weights seen (the pocket algorithm)
over any visit stream, and :func:`epoch_report` puts the training error of
the last, the pocket and the averaged weights (``core.variants``) per epoch
next to the largest ||w|| in each epoch: bounded, while the errors oscillate.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import islice, zip_longest

import numpy as np

from core._visits import FIRST_BLOCK, check_walk
from core.perceptron import Step, check_data, initial_weights, perceptron
from core.trace import training_errors
from core.variants import averaged_perceptron

__all__ = [
    "CYCLE_EPOCHS",
    "CYCLE_VISITS",
    "Cycle",
    "Departure",
    "EpochReport",
    "PocketStep",
    "decimals",
    "epoch_report",
    "exact_perceptron",
    "find_cycle",
    "fixed_rows",
    "float_departure",
    "linearly_separable",
    "pocket",
]

MAX_DECIMALS = 6
# A value counts as a short decimal when value * 10^k is this close to an integer
# (or within a few float spacings of one, for large values).
DECIMAL_TOL = 1e-9
# The search for a repeat stops after this many epochs or visited examples, whichever first.
CYCLE_EPOCHS = 10_000
CYCLE_VISITS = 2_000_000
# Weights recorded along the exact run (for drawing the trajectory).
PATH_LIMIT = 100_000
# Activations in int64 stay exact below this bound; beyond it the run uses Python ints.
_INT64_SAFE = 2**62


# ---------------------------------------------------------------- short decimals


def decimals(values, *, max_decimals: int = MAX_DECIMALS, tol: float = DECIMAL_TOL) -> int | None:
    """The fewest decimal places k <= max_decimals that write every value exactly, or None.

    Parameters
    ----------
    values : array_like
        Finite numbers.
    max_decimals : int, default 6
        Largest k tried.
    tol : float, default 1e-9
        A value v has k decimals when v 10^k is within tol (or 8 float spacings,
        if larger) of an integer.

    Returns
    -------
    int or None
        The smallest such k, or None when none up to ``max_decimals`` works
        (or a scaled value is too large to be an exact float integer).

    Examples
    --------
    >>> decimals([1.5, 0.25, 3])
    2
    >>> decimals([0.1234567]) is None
    True
    """
    v = np.asarray(values, dtype=float).ravel()
    for k in range(max_decimals + 1):
        scaled = v * 10.0**k
        if np.any(np.abs(scaled) >= 2.0**53):
            return None
        # float spacing grows with the value: allow a few units of it beyond tol
        slack = np.maximum(tol, 8 * np.finfo(float).eps * np.abs(scaled))
        if np.all(np.abs(scaled - np.round(scaled)) <= slack):
            return k
    return None


def _scaled(values, k: int) -> list[int]:
    """Round values * 10^k to Python ints (exact once :func:`decimals` said k is enough)."""
    return [round(float(v) * 10**k) for v in np.asarray(values, dtype=float).ravel()]


def _not_short(name: str, values, max_decimals: int) -> str:
    """Say which value needs more than max_decimals places."""
    v = np.asarray(values, dtype=float)
    for index in np.ndindex(v.shape):
        if decimals([v[index]], max_decimals=max_decimals) is None:
            where = f"row {index[0]}, column x{index[1] + 1}" if v.ndim == 2 else name
            return (f"{where} = {float(v[index])!r} is not a decimal with at most "
                    f"{max_decimals} places")
    return f"{name} is not a short decimal"


# ---------------------------------------------------------------- the exact run


class _Exact:
    """The cyclic perceptron on integers: w = W / 10^dw, b = B / 10^db, x = Xi / 10^dx.

    With eta = E / 10^de, an update adds E y Xi 10^(dw - de - dx) to W and
    E y 10^(db - de) to B, and the activation a = A / 10^da with
    A = W.Xi 10^(da - dw - dx) + B 10^(da - db). Every quantity is an integer,
    so the sign of a and the equality of two weight vectors are exact.
    """

    def __init__(self, X, y, rows, *, eta, w0, b0, bias, max_decimals):
        self.problem = None
        dx = decimals(X, max_decimals=max_decimals)
        de = decimals([eta], max_decimals=max_decimals)
        d0w = decimals(w0, max_decimals=max_decimals)
        d0b = decimals([b0], max_decimals=max_decimals)
        for d, name, values in ((dx, "X", X), (de, "eta", [eta]), (d0w, "initial w", w0),
                                (d0b, "initial b", [b0])):
            if d is None:
                self.problem = _not_short(name, values, max_decimals)
                return
        self.dw, self.db = max(dx + de, d0w), max(de, d0b)
        self.dx, self.da = dx, max(self.dw + dx, self.db)
        n, dim = X.shape
        self.n, self.bias = n, bias
        self.rows = np.asarray(rows)
        xi = _scaled(X, dx)
        e = _scaled([eta], de)[0]
        self.w_step = e * 10 ** (self.dw - de - dx)  # times y * Xi
        self.b_step = e * 10 ** (self.db - de) if bias else 0
        self.a_w, self.a_b = 10 ** (self.da - self.dw - dx), 10 ** (self.da - self.db)
        self.x_max = max((abs(v) for v in xi), default=0)
        self.Xi = np.array(xi, dtype=object).reshape(n, dim)
        self.y = np.array([int(v) for v in y], dtype=object)
        self.W = np.array(_scaled(w0, self.dw), dtype=object)
        self.B = _scaled([b0], self.db)[0]
        self.small, self._Xk, self._yk = None, None, None
        self._choose_dtype()

    def _choose_dtype(self) -> None:
        """Use int64 while no activation this epoch can reach 2^62, else Python ints."""
        dim = self.Xi.shape[1]
        grow_w = self.n * abs(self.w_step) * self.x_max
        grow_b = self.n * abs(self.b_step)
        w_bound = max((abs(int(v)) for v in self.W), default=0) + grow_w
        a_bound = dim * w_bound * self.x_max * self.a_w + (abs(int(self.B)) + grow_b) * self.a_b
        small = a_bound < _INT64_SAFE and w_bound < _INT64_SAFE
        if small != self.small:
            kind = np.int64 if small else object
            self._Xk, self._yk = self.Xi.astype(kind), self.y.astype(kind)
            self.W = np.array([int(v) for v in self.W], dtype=kind)
            self.small = small
        self.B = int(self.B)

    @property
    def key(self) -> tuple:
        """The exact state, hashable."""
        return (*(int(v) for v in self.W), int(self.B))

    def weights(self) -> tuple[np.ndarray, float]:
        """The current (w, b) as the nearest floats."""
        w = np.array([float(Fraction(int(v), 10**self.dw)) for v in self.W])
        return w, float(Fraction(self.B, 10**self.db))

    def exact_weights(self) -> tuple[tuple[Fraction, ...], Fraction]:
        """The current (w, b) as fractions."""
        return (tuple(Fraction(int(v), 10**self.dw) for v in self.W),
                Fraction(int(self.B), 10**self.db))

    def activation(self, i: int, W, B) -> Fraction:
        """The exact activation a = w.x_i + b of the integer weights (W, B)."""
        A = sum(int(w) * int(x) for w, x in zip(W, self.Xi[i], strict=True))
        return Fraction(A * self.a_w + int(B) * self.a_b, 10**self.da)

    def epoch(self, t0: int, visits: bool):
        """Visit every row once; yield (t, i, A, updated) for each visit (or each update)."""
        self._choose_dtype()
        rows = self.rows
        start, block = 0, FIRST_BLOCK
        while start < self.n:
            idx = rows[start:start + block]
            A = (self._Xk[idx] @ self.W) * self.a_w + self.B * self.a_b
            hits = np.flatnonzero(self._yk[idx] * A <= 0)
            stop = int(hits[0]) if hits.size else len(idx)
            if visits:
                for k in range(stop):
                    yield t0 + start + k + 1, int(idx[k]), int(A[k]), False
            if hits.size:
                i = int(idx[stop])
                self.W = self.W + self.w_step * self._yk[i] * self._Xk[i]
                self.B = self.B + self.b_step * int(self.y[i])
                yield t0 + start + stop + 1, i, int(A[stop]), True
                start, block = start + stop + 1, FIRST_BLOCK
            else:
                start, block = start + len(idx), block * 2


def _start(X, y, eta, init, bias, rows, max_decimals):
    """Validate like :func:`perceptron` and build the exact run."""
    X, y = check_data(X, y)
    if not (np.isfinite(eta) and eta > 0):
        raise ValueError(f"eta must be > 0, got {eta}")
    n = X.shape[0]
    rows = np.arange(n) if rows is None else np.asarray(rows)
    if sorted(rows.tolist()) != list(range(n)):
        raise ValueError(f"rows must be an ordering of 0..{n - 1}")
    if isinstance(init, str) and init != "zeros":
        w0, b0 = None, None
    else:
        w0, b0 = initial_weights(X.shape[1], init=init, bias=bias)
    if w0 is None:
        run = None
        problem = "the initial weights are random, not short decimals"
    else:
        run = _Exact(X, y, rows, eta=float(eta), w0=w0, b0=b0, bias=bias,
                     max_decimals=max_decimals)
        problem = run.problem
    return X, y, run, problem


def exact_perceptron(X, y, *, eta: float = 1.0, init="zeros", bias: bool = True, rows=None,
                     max_epochs: int = 100, every: str = "update", from_epoch: int = 1,
                     max_decimals: int = MAX_DECIMALS) -> Iterator[Step]:
    """The cyclic perceptron in exact arithmetic, as a stream of :class:`Step`.

    Parameters
    ----------
    X, y : array_like
        As for :func:`core.perceptron.perceptron`; every coordinate a decimal
        with at most ``max_decimals`` places.
    eta : float, default 1.0
        Learning rate, a short decimal > 0.
    init : "zeros" or (w, b), default "zeros"
        Starting weights, short decimals.
    bias : bool, default True
        Learn b.
    rows : array_like of int, optional
        The fixed visiting order (a permutation of 0..N-1); default 0, 1, ..., N-1.
    max_epochs : int, default 100
        Stop after this many epochs; the run also stops after an epoch with no update.
    every : "update" or "visit", default "update"
        Yield only the updating steps, or every visit.
    from_epoch : int, default 1
        Run the epochs before this one without yielding them (steps keep their
        real t, epoch and mistakes), to watch a late part of a long run.
    max_decimals : int, default 6
        Most decimal places accepted.

    Yields
    ------
    Step
        As from :func:`perceptron`, with ``w``, ``b`` and ``activation`` the
        floats nearest the exact values.

    Raises
    ------
    ValueError
        If an argument is invalid or a number is not a short decimal.

    Notes
    -----
    The rule is the seeds': a = w^T x_n + b; if y_n a <= 0 then
    w <- w + eta y_n x_n, b <- b + eta y_n, with every number an integer
    multiple of a power of ten, so y_n a <= 0 is decided without rounding.

    Examples
    --------
    >>> [s.t for s in exact_perceptron([[0, 0], [1, 1]], [-1, 1])]
    [1, 2]
    """
    X, y, run, problem = _start(X, y, eta, init, bias, rows, max_decimals)
    if problem:
        raise ValueError(f"exact arithmetic needs short decimals: {problem}")
    check_walk(every=every, max_epochs=max_epochs)
    return _exact_steps(run, int(max_epochs), every == "visit", int(from_epoch))


def _exact_steps(run: _Exact, max_epochs: int, visits: bool, from_epoch: int) -> Iterator[Step]:
    """Walk the exact run epoch by epoch, yielding float views of its steps."""
    mistakes = 0
    for epoch in range(max_epochs):
        quiet = epoch + 1 < from_epoch
        any_update = False
        for t, i, A, updated in run.epoch(epoch * run.n, visits and not quiet):
            mistakes += updated
            any_update |= updated
            if quiet:
                continue
            w, b = run.weights()
            w.setflags(write=False)
            yield Step(t, epoch + 1, i, float(Fraction(A, 10**run.da)), updated, w, b, mistakes)
        if not any_update:
            return


@dataclass(frozen=True)
class Departure:
    """The first step where floating point and exact arithmetic decide differently.

    ``exact_activation`` is the exact a = w.x + b of the exact run there (often
    0: a tie, so a mistake), ``float_activation`` what the float run computed.
    """

    t: int
    epoch: int
    index: int
    exact_activation: Fraction
    float_activation: float


def float_departure(X, y, *, max_epochs: int = 100, **settings) -> Departure | None:
    """Where :func:`core.perceptron.perceptron` leaves the exact run, or None if it never does.

    Parameters
    ----------
    X, y : array_like
        Training data (short decimals).
    max_epochs : int, default 100
        Epochs compared.
    **settings
        ``eta``, ``order`` ("cyclic" or "shuffle_once"), ``init``, ``bias``, ``seed``.

    Returns
    -------
    Departure or None

    Raises
    ------
    ValueError
        If the order is not fixed or a number is not a short decimal.

    Notes
    -----
    Both runs apply the same rule; they can differ only at a visit whose
    activation rounds across 0, e.g. an exact a = 0 (a mistake, since
    y a <= 0) computed in floats as 1e-14 (no mistake).
    """
    X, y = check_data(X, y)
    rows = fixed_rows(X, y, **settings)
    if rows is None:
        raise ValueError("order must be 'cyclic' or 'shuffle_once' to compare with exact runs")
    eta, init, bias = (settings.get(k, d) for k, d in (("eta", 1.0), ("init", "zeros"),
                                                         ("bias", True)))
    X, y, run, problem = _start(X, y, eta, init, bias, rows, MAX_DECIMALS)
    if problem:
        raise ValueError(f"exact arithmetic needs short decimals: {problem}")
    fast = perceptron(X, y, max_epochs=max_epochs, every="update", **settings)
    w, b = initial_weights(X.shape[1], init=init, bias=bias, seed=settings.get("seed"))
    for event, step in zip_longest(_exact_events(run, int(max_epochs)), fast):
        if event is not None and step is not None and event[0] == step.t:
            w, b = step.w, step.b
            continue
        t_exact = event[0] if event is not None else math.inf
        t_float = step.t if step is not None else math.inf
        at = int(min(t_exact, t_float))
        k = int(run.rows[(at - 1) % run.n])
        a_float = step.activation if t_float == at else float(X[k] @ w + b)
        if t_exact == at:
            a_exact = Fraction(event[2], 10**run.da)
        else:
            a_exact = run.activation(k, *(event[3] if event is not None else (run.W, run.B)))
        return Departure(at, (at - 1) // run.n + 1, k, a_exact, a_float)
    return None


def _exact_events(run: _Exact, max_epochs: int):
    """Each update of the exact run as (t, i, exact A, (W, B) before the update)."""
    before = (run.W.copy(), run.B)
    for epoch in range(max_epochs):
        updated = False
        for t, i, A, _ in run.epoch(epoch * run.n, visits=False):
            yield t, i, A, before
            before = (run.W.copy(), run.B)
            updated = True
        if not updated:
            return


# ---------------------------------------------------------------- the cycle


@dataclass(frozen=True)
class Cycle:
    """What the search for a repeat found.

    Attributes
    ----------
    status : str
        ``"cycle"`` (a repeat), ``"converged"`` (an epoch with no update),
        ``"none"`` (no repeat within the budget) or ``"inexact"`` (the numbers
        are not short decimals: no exact search).
    epochs : int
        Epochs run (for a cycle: up to the start of epoch ``repeat``).
    mistakes : int
        Updates made in those epochs.
    first, repeat : int or None
        Epochs j < k whose starting weights are equal (1-based); the first repeat.
    period : int or None
        k - j epochs.
    updates : int or None
        Updates in one period.
    w, b : tuple of Fraction, Fraction, or None
        The repeated weights, exactly, in the original units.
    path_w, path_b : ndarray
        The weights before the first update and after each one (floats), up to
        the repeat; at most ``PATH_LIMIT + 1`` rows.
    cycle_start : int or None
        Row of ``path_w`` where the loop starts; rows ``cycle_start`` to
        ``cycle_start + updates`` go once round it (the last equals the first).
    path_complete : bool
        False when the path was cut at ``PATH_LIMIT``.
    reason : str
        Why the search was not exact (``status == "inexact"``).
    budget : int
        The epoch budget of the search.
    """

    status: str
    epochs: int = 0
    mistakes: int = 0
    first: int | None = None
    repeat: int | None = None
    period: int | None = None
    updates: int | None = None
    w: tuple | None = None
    b: Fraction | None = None
    path_w: np.ndarray = field(default_factory=lambda: np.zeros((0, 2)))
    path_b: np.ndarray = field(default_factory=lambda: np.zeros(0))
    cycle_start: int | None = None
    path_complete: bool = True
    reason: str = ""
    budget: int = CYCLE_EPOCHS

    @property
    def message(self) -> str:
        """One sentence for the page."""
        if self.status == "cycle":
            return (f"Cycle found: the weights at the start of epoch {self.repeat} equal those "
                    f"at epoch {self.first} (period {self.period} "
                    f"epoch{'s' if self.period != 1 else ''}, {self.updates} updates).")
        if self.status == "converged":
            return (f"No cycle: the run converged after {self.mistakes} mistakes "
                    f"in {self.epochs} epochs.")
        if self.status == "none":
            return f"No repeat within {self.epochs:,} epochs (the search budget)."
        return f"No exact cycle search: {self.reason}."


def find_cycle(X, y, *, eta: float = 1.0, init="zeros", bias: bool = True, rows=None,
               max_epochs: int = CYCLE_EPOCHS, max_visits: int = CYCLE_VISITS,
               max_decimals: int = MAX_DECIMALS) -> Cycle:
    """Run the cyclic perceptron exactly until an epoch starts from weights seen before.

    Parameters
    ----------
    X, y, eta, init, bias, rows, max_decimals
        As for :func:`exact_perceptron`; ``init="random"`` or numbers with
        more decimals give ``status="inexact"`` instead of an error.
    max_epochs : int, default 10_000
        Epoch budget of the search.
    max_visits : int, default 2_000_000
        Budget in visited examples; the search stops at whichever budget comes first.

    Returns
    -------
    Cycle
        The first repeat (epochs j < k with equal starting weights), the
        period k - j, the updates in one period and the repeated weights; or
        convergence; or no repeat within the budget.

    Raises
    ------
    ValueError
        If the data, eta or rows are invalid.

    Notes
    -----
    In a fixed order, the weights w_e, b_e at the start of epoch e determine
    every later step, so w_k = w_j (and b_k = b_j) for j < k implies
    w_{k+m} = w_{j+m} for every m >= 0: the run loops with period k - j. The
    first such k is found by keeping every epoch-start state in a dictionary.

    Examples
    --------
    >>> c = find_cycle([[0, 0], [0, 1], [1, 0], [1, 1]], [-1, 1, 1, -1])
    >>> c.first, c.repeat, c.period, c.updates
    (1, 2, 1, 4)
    """
    X, y, run, problem = _start(X, y, eta, init, bias, rows, max_decimals)
    epochs_budget = max(1, min(int(max_epochs), int(max_visits) // X.shape[0]))
    if problem:
        return Cycle("inexact", reason=problem, budget=epochs_budget)
    seen: dict[tuple, tuple[int, int]] = {}
    w, b = run.weights()
    path_w, path_b = [w], [b]
    mistakes = 0
    for epoch in range(1, epochs_budget + 1):
        key = run.key
        if key in seen:
            first, before = seen[key]
            w_exact, b_exact = run.exact_weights()
            complete = len(path_w) <= PATH_LIMIT
            return Cycle("cycle", epochs=epoch - 1, mistakes=mistakes, first=first,
                         repeat=epoch, period=epoch - first, updates=mistakes - before,
                         w=w_exact, b=b_exact, path_w=np.array(path_w),
                         path_b=np.array(path_b), cycle_start=before if complete else None,
                         path_complete=complete, budget=epochs_budget)
        seen[key] = (epoch, mistakes)
        any_update = False
        for _t, _i, _A, _updated in run.epoch((epoch - 1) * run.n, visits=False):
            any_update = True
            mistakes += 1
            if len(path_w) <= PATH_LIMIT:
                w, b = run.weights()
                path_w.append(w)
                path_b.append(b)
        if not any_update:
            return Cycle("converged", epochs=epoch, mistakes=mistakes, path_w=np.array(path_w),
                         path_b=np.array(path_b), path_complete=len(path_w) <= PATH_LIMIT,
                         budget=epochs_budget)
    return Cycle("none", epochs=epochs_budget, mistakes=mistakes, path_w=np.array(path_w),
                 path_b=np.array(path_b), path_complete=len(path_w) <= PATH_LIMIT,
                 budget=epochs_budget)


def fixed_rows(X, y, *, order: str = "cyclic", seed: int | None = None, init="zeros",
               bias: bool = True, **_ignored) -> np.ndarray | None:
    """The visiting order of a run whose order repeats every epoch, else None.

    ``"cyclic"`` gives 0..N-1; ``"shuffle_once"`` the permutation
    :func:`perceptron` draws for this seed (read off its first epoch, which
    always visits every row). The other orders change from epoch to epoch.
    """
    X, y = check_data(X, y)
    if order == "cyclic":
        return np.arange(X.shape[0])
    if order != "shuffle_once":
        return None
    first = perceptron(X, y, order=order, seed=seed, init=init, bias=bias, max_epochs=1)
    return np.array([step.index for step in islice(first, X.shape[0])])


def linearly_separable(X, y, *, bias: bool = True) -> bool:
    """Whether some (w, b) (b = 0 when ``bias=False``) has y_n (w^T x_n + b) > 0 for all n.

    A feasibility linear programme (HiGHS): find (w, b) with y_n (w^T x_n + b) >= 1,
    which exists exactly when a strict separator does (scale it up).
    """
    from scipy.optimize import linprog

    X, y = check_data(X, y)
    Z = np.hstack([X, np.ones((len(y), 1))]) if bias else X
    scale = max(1.0, float(np.max(np.abs(Z))))
    result = linprog(np.zeros(Z.shape[1]), A_ub=-(y[:, None] * Z / scale), b_ub=-np.ones(len(y)),
                     bounds=[(None, None)] * Z.shape[1], method="highs")
    return result.status == 0


# ---------------------------------------------------------------- remedies


@dataclass(frozen=True)
class PocketStep:
    """One step of a stream with the pocket beside it.

    Attributes
    ----------
    step : Step
        The incoming step, unchanged (an ``AveragedStep`` keeps its average).
    errors : int
        Training errors of the step's own weights.
    w_pocket, b_pocket : ndarray, float
        The best weights seen so far (the initial ones included).
    pocket_errors : int
        Their training errors.
    """

    step: Step
    errors: int
    w_pocket: np.ndarray
    b_pocket: float
    pocket_errors: int


def pocket(X, y, steps: Iterable[Step], w0, b0: float) -> Iterator[PocketStep]:
    """The pocket algorithm over a stream: keep the weights with the fewest training errors.

    Parameters
    ----------
    X, y : array_like
        The training set the errors are counted on.
    steps : iterable of Step
        Any stream of steps (every visit or only the updates).
    w0, b0 : array_like, float
        The weights before the first step (they are "seen" too).

    Yields
    ------
    PocketStep
        The step, its training errors, and the pocket weights with theirs.

    Notes
    -----
    The pocket changes only when weights w_t, b_t make strictly fewer
    training errors #{n : y_n (w_t^T x_n + b_t) <= 0} than every weight before
    them, so it holds the first minimiser of the training error along the run.

    Examples
    --------
    >>> X, y = [[0, 0], [0, 1], [1, 0], [1, 1]], [-1, 1, 1, -1]
    >>> last = list(pocket(X, y, perceptron(X, y, max_epochs=3), [0, 0], 0.0))[-1]
    >>> last.errors, last.pocket_errors
    (4, 2)
    """
    X, y = check_data(X, y)
    best_w = np.array(w0, dtype=float)
    best_w.setflags(write=False)
    best_b = float(b0)
    best = errors = training_errors(X, y, best_w, best_b)
    for step in steps:
        if step.updated:  # weights that did not change keep their error count
            errors = training_errors(X, y, step.w, step.b)
            if errors < best:
                best, best_w, best_b = errors, step.w, step.b
        yield PocketStep(step, errors, best_w, best_b, best)


@dataclass(frozen=True)
class EpochReport:
    """Per-epoch summary of a run; entry e describes epoch e + 1.

    Attributes
    ----------
    epoch : ndarray of int
        1, 2, ..., E.
    updates : ndarray of int
        Updates made in the epoch.
    errors_last, errors_pocket, errors_averaged : ndarray of int
        Training errors at the end of the epoch of the last weights, the
        pocket weights and the averaged weights.
    max_norm : ndarray of float
        The largest ||w|| reached in the epoch.
    n : int
        Examples in the training set.
    complete : bool
        False when the report stopped at its visit budget before the run ended.
    """

    epoch: np.ndarray
    updates: np.ndarray
    errors_last: np.ndarray
    errors_pocket: np.ndarray
    errors_averaged: np.ndarray
    max_norm: np.ndarray
    n: int
    complete: bool


def epoch_report(X, y, *, max_visits: int = 200_000, **kwargs) -> EpochReport:
    """Training errors per epoch of the last, pocket and averaged weights, and max ||w||.

    Parameters
    ----------
    X, y : array_like
        Training data.
    max_visits : int, default 200_000
        Stop reading the stream after this many visits.
    **kwargs
        Settings of :func:`core.perceptron.perceptron` (``every`` must stay "visit").

    Returns
    -------
    EpochReport

    Notes
    -----
    One pass over :func:`core.variants.averaged_perceptron` (so the average is
    the seeds' Algorithm 2) fed through :func:`pocket`; the training error of
    weights (w, b) is #{n : y_n (w^T x_n + b) <= 0}.
    """
    X, y = check_data(X, y)
    w0, b0 = initial_weights(X.shape[1], init=kwargs.get("init", "zeros"),
                             bias=kwargs.get("bias", True), seed=kwargs.get("seed"))
    rows: list[list] = []
    complete, last = True, None
    norm = float(np.linalg.norm(w0))  # the first epoch starts from these weights
    updates, top = 0, norm
    for p in pocket(X, y, averaged_perceptron(X, y, **kwargs), w0, b0):
        step = p.step
        if step.t > max_visits:
            complete = False
            break
        if last is not None and step.epoch != last.step.epoch:
            rows.append(_epoch_row(X, y, last, updates, top))
            updates, top = 0, norm
        if step.updated:
            updates += 1
            norm = float(np.linalg.norm(step.w))
            top = max(top, norm)
        last = p
    if last is not None:
        rows.append(_epoch_row(X, y, last, updates, top))
    table = np.array(rows, dtype=float).reshape(-1, 6)
    return EpochReport(
        epoch=table[:, 0].astype(int), updates=table[:, 1].astype(int),
        errors_last=table[:, 2].astype(int), errors_pocket=table[:, 3].astype(int),
        errors_averaged=table[:, 4].astype(int), max_norm=table[:, 5], n=len(y),
        complete=complete,
    )


def _epoch_row(X, y, last: PocketStep, updates: int, top: float) -> list:
    """The report's row for the epoch that ``last`` ends."""
    step = last.step
    averaged = training_errors(X, y, step.w_avg, step.b_avg)
    return [step.epoch, updates, last.errors, last.pocket_errors, averaged, top]
