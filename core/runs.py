"""One walk over the data for every perceptron-like algorithm.

The perceptron, the kernel perceptron and stochastic subgradient descent (the
SVM) differ only in their rule: where they start, the margins y*a of a block
of rows, the threshold test on a margin, and the update. The walk owns
everything else, once: the visiting orders and their random draws, the
blocks, the stopping rules and the stream of :class:`Step` records. So runs
with one seed visit the same examples in the same sequence whatever the
algorithm (the tests hold them to it, order by order).

Exact decisions. When the data, eta and the start are short decimals (every
built-in set, every drawn point and nearly every CSV), a rule scales them by
powers of ten to integers (:class:`Scale`) and decides y*a <= 0 in integers:
int64 while no value can reach 2^62, Python ints beyond. The steps report the
floats nearest the exact values. Other data run in floats, with a tie
tolerance scaled to the numbers, and the run says it is not exact
(:attr:`Run.exact`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from core.validation import check_data, check_positive

__all__ = [
    "ORDERS", "Misclassified", "Rule", "Run", "Step", "Stream", "check_data", "check_walk",
    "decimal_integers", "decimals", "exact_decimals", "final", "is_exact", "running_sums",
]

ORDERS = ("cyclic", "shuffle_once", "shuffle_each_epoch", "random", "random_misclassified")
EVERY = ("visit", "update")
# When a run ends: at its first epoch without an update (the perceptron), or after all
# max_epochs whatever happens (the notes' Algorithm 2, which keeps averaging).
UNTIL = ("converged", "max_epochs")

# A rule's default search reads blocks of margins at once (the kernel perceptron's, and the
# linear rule's in Python ints); a block starts this small (an update often comes soon after
# another) and doubles while the search finds none.
FIRST_BLOCK = 16
# Updates a rule makes in one go before the walk records them.
BATCH = 1024
# Most decimal places a number may have for a run to be exact.
MAX_DECIMALS = 6
# Integers in int64 stay exact below this bound; beyond it a run uses Python ints.
INT64_SAFE = 2**62


@dataclass(frozen=True)
class Step:
    """The state after one visited example.

    Attributes
    ----------
    t : int
        Examples visited so far (1-based).
    epoch : int
        Pass over the data (1-based); an epoch is N steps.
    index : int
        Row of X visited at this step.
    activation : float
        a = w.x + b, computed BEFORE the update.
    updated : bool
        True when the threshold test failed (y*a <= 0 for the perceptron) and
        the weights changed.
    w : ndarray
        Weights AFTER this step, read-only: shape (D,) in the primal forms, the
        counts alpha of shape (N,) in the kernel perceptron's dual form.
    b : float
        Bias AFTER this step (0.0 and never updated when ``bias=False``).
    mistakes : int
        Updates made so far.
    """

    t: int
    epoch: int
    index: int
    activation: float
    updated: bool
    w: np.ndarray
    b: float
    mistakes: int


def check_walk(*, eta=1.0, order: str = "cyclic", every: str = "visit", max_epochs=1,
               until: str = "converged") -> None:
    """Raise ValueError naming the invalid setting: eta, order, every, max_epochs or until."""
    check_positive(eta, name="eta")
    if order not in ORDERS:
        raise ValueError(f"order must be one of {', '.join(ORDERS)}; got {order!r}")
    if every not in EVERY:
        raise ValueError(f"every must be 'visit' or 'update', got {every!r}")
    if until not in UNTIL:
        raise ValueError(f"until must be 'converged' or 'max_epochs', got {until!r}")
    if isinstance(max_epochs, bool) or int(max_epochs) != max_epochs or max_epochs < 1:
        raise ValueError(f"max_epochs must be a whole number >= 1, got {max_epochs}")


# ---------------------------------------------------------------- short decimals to integers


def decimals(values, *, max_decimals: int = MAX_DECIMALS) -> int | None:
    """The fewest decimal places k <= max_decimals that write every value exactly, or None.

    Parameters
    ----------
    values : array_like
        Finite numbers.
    max_decimals : int, default 6
        Largest k tried.

    Returns
    -------
    int or None
        The smallest k such that every value is the float nearest to some
        m / 10^k with m an integer (what reading "m / 10^k" written with k
        decimals gives), or None when no k up to ``max_decimals`` works (or a
        scaled value is too large to be an exact float integer).

    Notes
    -----
    The check is exact, not a tolerance: m / 10^k of two exact floats is
    rounded correctly, so it equals v only when v really is that decimal.
    1.0000000004 is not 1 to six places, and 0.1 + 0.2 (which is not the
    float 0.3) is no short decimal either; a run on either is not exact.

    Examples
    --------
    >>> decimals([1.5, 0.25, 3])
    2
    >>> decimals([0.1234567]) is None
    True
    >>> decimals([1.0000000004]) is None
    True
    """
    found = decimal_integers(values, max_decimals=max_decimals)
    return None if found is None else found[0]


def decimal_integers(values, *, max_decimals: int = MAX_DECIMALS) -> tuple[int, np.ndarray] | None:
    """:func:`decimals` and the values times 10^k, integers held exactly as float64.

    The integers are the ones the check itself computed, so short-decimal data
    cost one rounding pass, not a check and then a conversion.

    Examples
    --------
    >>> k, integers = decimal_integers([[1.5, -0.25]])
    >>> k, integers.tolist()
    (2, [[150.0, -25.0]])
    """
    v = np.asarray(values, dtype=float)
    flat = v.ravel()
    # a sample says where to start (and most columns that are not short decimals show it
    # at once); the whole column is then checked from there, usually in one pass
    sample = (0,) if flat.size <= 64 else decimal_integers(flat[:64], max_decimals=max_decimals)
    if sample is None:
        return None
    low = sample[0]
    top = float(np.max(np.abs(flat), initial=0.0))
    for k in range(low, max_decimals + 1):
        if top * 10.0**k >= 2.0**53:
            return None
        integers = np.round(flat * 10.0**k)
        # exact, not a tolerance: m / 10^k is correctly rounded, so it is v only when v is it
        if np.array_equal(integers / 10.0**k, flat):
            return k, integers.reshape(v.shape)
    return None


def exact_decimals(values, *, max_decimals: int = MAX_DECIMALS) -> np.ndarray | None:
    """The short decimals the values are the floats of, as Fractions; None if some is not one.

    The numbers an exact run computes with (:func:`decimal_integers`, then m / 10^k),
    for checking its decisions in exact arithmetic outside the walk.

    Examples
    --------
    >>> exact_decimals([0.1, 0.3]).tolist()
    [Fraction(1, 10), Fraction(3, 10)]
    >>> exact_decimals([0.1 + 0.2]) is None
    True
    """
    found = decimal_integers(values, max_decimals=max_decimals)
    if found is None:
        return None
    k, integers = found
    out = np.empty(integers.shape, dtype=object)
    out.flat[:] = [Fraction(int(m), 10**k) for m in integers.ravel()]
    return out


class Misclassified:
    """Which examples weights (w, b) get wrong, y_n (w.x_n + b) <= 0, decided exactly when
    the numbers allow it.

    When X, w and b are short decimals (w and b with up to twice the places of a run's
    data, as an exact run's weights are), the sign is decided in integers: a tie is exactly
    0, and a mistake. Otherwise in floats. X is read once, for many weights.

    Examples
    --------
    >>> X, y, w = [[0.3, 2.1]], [-1], [0.7, -0.1]
    >>> Misclassified(X, y).count(w, 0.0)  # 0.21 - 0.21 = 0 exactly: a tie, a mistake
    1
    >>> -1 * (0.3 * 0.7 + 2.1 * -0.1) > 0  # in floats the tie looks correct
    True
    """

    def __init__(self, X, y):
        self.X, self.y = np.asarray(X, dtype=float), np.asarray(y, dtype=float)
        found = decimal_integers(self.X)
        self._kx, self._Xi = (None, None) if found is None else found
        if found is not None:
            self._top = float(np.max(np.abs(self._Xi), initial=0.0))
            self._yi = np.where(self.y > 0, 1, -1).astype(np.int64)
            self._X64 = self._Xi.astype(np.int64)
            self._width = (self._Xi.shape[1] * self._top + 10**self._kx)

    def rows(self, w, b) -> np.ndarray:
        """For every example, whether (w, b) gets it wrong (bool array)."""
        w = np.asarray(w, dtype=float).ravel()
        if self._Xi is not None:
            found = _few_decimals([*w.tolist(), float(b)], 2 * MAX_DECIMALS)
            if found is not None:
                return self._exact(found[1])
        return self.y * (self.X @ w + float(b)) <= 0

    def rows_scaled(self, Wi) -> np.ndarray | None:
        """:meth:`rows` for weights given as integers (w and b times one power of ten, say
        a sum of weights kept exact); None when X is not short decimals."""
        return None if self._Xi is None else self._exact([int(v) for v in Wi])

    def count(self, w, b) -> int:
        """How many examples (w, b) gets wrong."""
        return int(np.sum(self.rows(w, b)))

    def counts(self, W, b, *, block: int = 64) -> np.ndarray:
        """:meth:`count` of many weights at once: row k of W with b[k] (int array)."""
        W, b = np.asarray(W, dtype=float), np.asarray(b, dtype=float)
        found = None if self._Xi is None else decimal_integers(
            np.column_stack([W, b]), max_decimals=2 * MAX_DECIMALS)
        if found is None or self._width * float(np.max(np.abs(found[1]), initial=0.0)) >= 2**53:
            return np.array([self.count(w, c) for w, c in zip(W, b, strict=True)], dtype=int)
        Wi, scale = found[1], 10**self._kx  # exact float integers: BLAS decides exactly
        out = np.empty(len(W), dtype=int)
        for start in range(0, len(W), block):
            part = Wi[start:start + block]
            a = self._Xi @ part[:, :-1].T + part[:, -1] * scale
            out[start:start + block] = np.sum(self.y[:, None] * a <= 0, axis=0)
        return out

    def _exact(self, Wi: list[int]) -> np.ndarray:
        """y*a * 10^(kx + kw) = y * (Xi.Wi[:-1] + Wi[-1] * 10^kx), in integers: w and b
        are Wi / 10^kw, and the power kw does not change a sign."""
        scale = 10**self._kx
        reach = self._width * max(map(abs, Wi), default=0)
        if reach < 2**53:  # every product and sum an exact float: BLAS decides exactly
            return self.y * (self._Xi @ np.array(Wi[:-1], dtype=float) + Wi[-1] * scale) <= 0
        if reach < INT64_SAFE:
            a = self._X64 @ np.array(Wi[:-1], dtype=np.int64) + Wi[-1] * scale
            return self._yi * a <= 0
        Xi = self._Xi.astype(object)
        w = np.array(Wi[:-1], dtype=object)
        a = Xi @ w + Wi[-1] * scale
        return np.array([int(y) * int(v) <= 0 for y, v in zip(self._yi, a, strict=True)],
                        dtype=bool)


def running_sums(values, rows=None) -> np.ndarray | None:
    """Exact running sums of rows of short decimals, in integer units, or None.

    Parameters
    ----------
    values : array_like, shape (R, K)
        Rows of short decimals (weights (w, b) of a run, each with up to twice a
        run's decimal places).
    rows : array_like of int, optional
        Which row is added at each step (default: every row in turn).

    Returns
    -------
    ndarray of int64, shape (T, K), or None
        Row t is the sum of the first t + 1 rows added, times 10^k (one k for all):
        :class:`Misclassified`'s ``rows_scaled`` decides their signs exactly. None
        when the rows are not short decimals or the sums could leave int64.

    Examples
    --------
    >>> running_sums([[0.1, 0.2], [0.2, -0.1]]).tolist()  # 0.1 + 0.2 is 3/10 exactly
    [[1, 2], [3, 1]]
    """
    found = decimal_integers(values, max_decimals=2 * MAX_DECIMALS)
    if found is None:
        return None
    picked = found[1] if rows is None else found[1][np.asarray(rows, dtype=int)]
    if float(np.max(np.abs(picked), initial=0.0)) * max(len(picked), 1) >= INT64_SAFE:
        return None
    return np.cumsum(picked.astype(np.int64), axis=0)


def _few_decimals(values: list[float], max_decimals: int) -> tuple[int, list[int]] | None:
    """:func:`decimal_integers` of a few numbers, in plain Python (no array overhead)."""
    top = max(map(abs, values), default=0.0)
    for k in range(max_decimals + 1):
        scale = 10.0**k
        if top * scale >= 2.0**53:
            return None
        integers = [round(v * scale) for v in values]
        if all(m / scale == v for m, v in zip(integers, values, strict=True)):
            return k, integers
    return None


def scaled(values, k: int) -> np.ndarray:
    """values * 10^k rounded to integers (exact once :func:`decimals` said k is enough).

    int64 when every value fits below 2^62, else Python ints (dtype object).
    """
    v = np.round(np.asarray(values, dtype=float) * 10.0**k)
    if np.all(np.abs(v) < INT64_SAFE):
        return v.astype(np.int64)
    return np.array([round(float(x) * 10**k) for x in np.ravel(values)],
                    dtype=object).reshape(np.shape(values))


def integers_for(bound):
    """The dtype that holds integers up to ``bound`` exactly, fastest first.

    float64 while every value, product and sum stays below 2^53 (the products
    then run in BLAS, and are exact); int64 below 2^62; Python ints beyond.
    """
    if bound < 2**53:
        return np.float64
    return np.int64 if bound < INT64_SAFE else object


def as_integers(values, kind) -> np.ndarray:
    """Integer values held as ``kind`` (see :func:`integers_for`), converted exactly."""
    values = np.asarray(values)
    if values.dtype == kind:
        return values
    if kind is object:
        return np.array([int(v) for v in values.ravel()], dtype=object).reshape(values.shape)
    if values.dtype == object:
        values = np.array([int(v) for v in values.ravel()], dtype=np.int64).reshape(values.shape)
    return values.astype(kind)


def widen(values, bound) -> np.ndarray:
    """Integers as int64 when ``bound`` (a bound on what they will reach) allows, else ints."""
    return as_integers(values, np.int64 if bound < INT64_SAFE else object)


def to_float(numerators, k: int) -> np.ndarray:
    """The floats nearest numerators / 10^k (correctly rounded, Python ints included)."""
    numerators = np.asarray(numerators)
    if numerators.dtype in (np.int64, np.float64) and np.all(np.abs(numerators) < 2**53):
        return numerators.astype(float) / 10.0**k  # both exact: one correctly rounded division
    scale = 10**k
    return np.array([int(v) / scale for v in numerators.ravel()]).reshape(numerators.shape)


# A float sum whose terms add up to S in size lands within TIE * S of its exact value.
TIE = 16 * float(np.finfo(float).eps)


def tie_tolerance(terms):
    """How far from 0 a float sum whose terms add up to ``terms`` in size can land at a tie."""
    return TIE * terms


# ---------------------------------------------------------------- the walk


class Rule:
    """What an algorithm gives the walk.

    A rule holds the state of one run and provides:

    - ``start``: the state before the first visit, as the floats (w, b);
    - ``order(rows)``: get ready to scan the data in the order ``rows`` (None: 0..N-1);
    - ``margins(start, end)``: y*a of the rows ``rows[start:end]`` (in the
      rule's own units: integers when exact);
    - ``wrong(margins)``: the threshold test (y*a <= 0 for the perceptron);
    - ``apply(i, t, updated)``: the step on example i at step t;
    - ``advance(rows, start, end, t0, most)``: visit the rows in turn making
      their updates, at most ``most`` of them; ``seen`` then holds the margins
      and ``updates(count)`` the state after each update (by default one
      update at a time, found by blocks of ``margins``; the linear rule's
      loop is compiled);
    - ``view()``: the state (w, b) as floats, w read-only;
    - ``activation(i, margin)``: the float a of example i from its margin
      (``activations`` of many);
    - ``room(k)``: keep integers exact for k more updates.

    ``exact`` says whether the decisions are exact; ``moves`` whether every
    visit changes the state (an SVM with a penalty), so the walk records a
    visit at a time when it records every visit.
    """

    n: int
    exact: bool = False
    moves: bool = False
    start: tuple
    # the update of the last advance that the walk has handed out (k: the k-th, 0: none yet)
    showing: int | None = None

    def room(self, k: int) -> None:
        """Integers stay exact for k more updates (nothing to do in floats)."""

    def all_margins(self) -> np.ndarray:
        """The margins of every row, in the data's own order."""
        raise NotImplementedError

    def advance(self, rows: np.ndarray, start: int, end: int, t0: int,
                most: int) -> tuple[int, int]:
        """Visit rows[start:end] (steps t0 + start + 1, ...) and make their updates, at most
        ``most``; the position after the last row visited and the number of updates.

        The margin of the row at position start + k is then ``seen[k]``. Here one
        update at a time, found by blocks of :meth:`margins` (of the order last
        given to :meth:`order`), a block twice as long while none fails.
        """
        seen, block, at = [], FIRST_BLOCK, start
        while at < end:
            stop = min(at + block, end)
            self.room(stop - at)
            margins = self.margins(at, stop)
            seen.append(margins)
            wrong = self.wrong(margins)
            first = int(wrong.argmax())  # the first mistake, or 0 when there is none
            if wrong[first]:
                self.seen, self.at = np.concatenate(seen), np.array([at + first])
                self.apply(int(rows[at + first]), t0 + at + first + 1, True)
                return at + first + 1, 1
            at, block = stop, 2 * block
        self.seen = np.concatenate(seen) if seen else np.empty(0)
        return end, 0

    def updates(self, count: int) -> list[tuple[np.ndarray, float]]:
        """(w, b) after each of the last ``count`` updates of :meth:`advance`."""
        return [self.view()] if count else []

    def activations(self, rows: np.ndarray, margins: np.ndarray) -> np.ndarray:
        """:meth:`activation` of each row with its margin."""
        return np.array([self.activation(int(i), m) for i, m in zip(rows, margins, strict=True)],
                        dtype=float)


class Run(Iterator[Step]):
    """The steps of one run: an iterator of :class:`Step` that knows where it started.

    Attributes
    ----------
    start : (ndarray, float)
        The weights before the first visit (the first step is the first visited example).
    exact : bool
        True when every decision is made in exact arithmetic.
    n : int
        Examples in the training set (an epoch is n steps).
    """

    def __init__(self, rule: Rule, *, order, every: str, max_epochs: int, seed,
                 from_epoch: int = 1, until: str = "converged"):
        self.rule, self.n = rule, rule.n
        self.converges = until == "converged"
        self.start, self.exact = rule.start, rule.exact
        self.visits = every == "visit"
        # the data's own order, one object for every epoch: a rule can keep what it gathered
        self.in_order = np.arange(self.n)
        self.mistakes = 0
        self._view = None
        # finish(): the walk makes its updates without recording steps
        self._quiet = self._visited = self._started = False
        self._natural = isinstance(order, str)  # in_order is 0..N-1: nothing to gather
        if not self._natural:  # a fixed order of the rows, the same every epoch
            order, self.in_order = "cyclic", np.asarray(order, dtype=int)
        self._steps = self._walk(order, np.random.default_rng(seed), int(max_epochs),
                                 int(from_epoch))
        if from_epoch > 1:  # run the quiet epochs now: the run starts where they end
            for _ in self._steps:
                break
            self.start = rule.view()

    def __next__(self) -> Step:
        self._started = True
        return next(self._steps)

    def __iter__(self) -> Run:
        return self

    def finish(self) -> tuple[np.ndarray, float] | None:
        """The weights :func:`final` gives, without recording the steps; None once the run
        has started, or when its last step is not its end (the descent's last update)."""
        if self._started or (self.rule.moves and not self.visits):
            return None
        visits, self.visits, self._quiet, self._visited = self.visits, False, True, False
        mistakes = self.mistakes
        for _ in self._steps:
            pass
        stepped = self.mistakes > mistakes or (visits and self._visited)
        return self.rule.view() if stepped else self.start

    # --- the orders ------------------------------------------------------------------

    def _walk(self, order: str, rng: np.random.Generator, max_epochs: int, from_epoch: int):
        """The steps in ``order``; every random choice is drawn here, the same for every rule.

        Epochs before ``from_epoch`` run without yielding their steps. A run that stops
        when converged ends after an epoch that changed nothing (the random orders: as
        soon as nothing is wrong); otherwise it visits all ``max_epochs`` (the random
        misclassified order still ends when there is nothing left to draw).
        """
        if order == "random_misclassified":
            yield from self._misclassified(rng, max_epochs)
            return
        stop_when_clean = order == "random" and self.converges
        if stop_when_clean and not self.rule.moves and self._clean():
            return
        rows, visits = self.in_order, self.visits
        for epoch in range(max_epochs):
            if order == "random":  # N draws with replacement per epoch, whatever happens
                rows = rng.integers(0, self.n, size=self.n)
            elif order == "shuffle_each_epoch" or (order == "shuffle_once" and epoch == 0):
                rows = rng.permutation(self.n)
            if epoch + 1 == from_epoch > 1:
                yield None  # the quiet epochs are over (Run.__init__ waits for this)
            scan = self._scan(rows, epoch * self.n, stop_when_clean)
            if epoch + 1 < from_epoch:
                self.visits = False
                changed = _last(scan)
                self.visits = visits
            else:
                changed = yield from scan
            if self.converges and (changed is None or not (changed or order == "random")):
                return  # None: nothing is wrong any more; False: an epoch that changed nothing

    def _misclassified(self, rng: np.random.Generator, max_epochs: int):
        """PLA: each step updates on a random example that fails the threshold test."""
        rule = self.rule
        for t in range(1, max_epochs * self.n + 1):
            rule.room(1)
            margins = rule.all_margins()
            wrong = np.flatnonzero(rule.wrong(margins))
            if wrong.size == 0:
                return
            i = int(wrong[rng.integers(wrong.size)])
            yield self._step(t, i, margins[i], True)

    # --- the scan: the rule visits rows and makes their updates -------------------------

    def _scan(self, rows: np.ndarray, t0: int, stop_when_clean: bool):
        """Visit ``rows`` in turn from step t0 + 1, yielding steps.

        Returns whether the state changed (another epoch could change it
        again), or None when ``stop_when_clean`` and nothing is wrong any more.
        The rule visits the rows and makes up to BATCH updates at a time (one
        when the walk must look at every example after each); the walk then
        records the steps from the margins and states the rule kept.
        """
        rule, visits = self.rule, self.visits
        rule.order(None if rows is self.in_order and self._natural else rows)
        changed = False
        # a rule that moves at every visit gives each recorded visit its own state
        one = rule.moves and visits
        most = 1 if stop_when_clean else BATCH
        start, end = 0, len(rows)
        while start < end:
            rule.room(1)
            if visits and not one and self._view is None:  # what visits before an update show
                self._view = rule.view()
            reached, count = rule.advance(rows, start, start + 1 if one else end, t0, most)
            self._visited = True
            changed = changed or count > 0 or rule.moves
            if self._quiet:
                self.mistakes += count
            else:
                yield from self._record(rows, start, reached, t0, count)
            if stop_when_clean and count and not rule.moves and self._clean():
                return None
            start = reached
        return changed

    def _record(self, rows: np.ndarray, start: int, reached: int, t0: int, count: int):
        """The steps of positions start..reached-1 (only the updates' unless every visit)."""
        rule = self.rule
        updates = rule.updates(count)
        at = rule.at[:count].tolist() if count else []
        positions = np.arange(start, reached) if self.visits else np.array(at, dtype=int)
        indices = rows[positions]
        activations = rule.activations(indices, rule.seen[positions - start]).tolist()
        if self.visits:
            if rule.moves:
                self._view = None  # the state moved on the visit (one at a time)
            rule.showing = k = 0
            for p, i, a in zip(range(start, reached), indices.tolist(), activations, strict=True):
                updated = k < count and at[k] == p
                if updated:
                    self.mistakes += 1
                    self._view = updates[k]
                    k = rule.showing = k + 1
                yield self._made(t0 + p + 1, i, a, updated)
        else:
            for k, (p, i, a) in enumerate(zip(at, indices.tolist(), activations, strict=True)):
                self.mistakes += 1
                self._view = updates[k]
                rule.showing = k + 1
                yield self._made(t0 + p + 1, i, a, True)
        rule.showing = None

    def _clean(self) -> bool:
        """True when every example passes the threshold test."""
        self.rule.room(0)
        return not np.any(self.rule.wrong(self.rule.all_margins()))

    def _step(self, t: int, i, margin, updated: bool) -> Step:
        """Apply the rule to example i when ``updated`` and record the step."""
        i, t = int(i), int(t)
        if updated:
            self.rule.apply(i, t, True)
            self.mistakes += 1
            self._view = None
        return None if self._quiet else self._made(t, i, self.rule.activation(i, margin), updated)

    def _made(self, t: int, i: int, activation: float, updated: bool) -> Step:
        """The step made: the rule's state (its view, shared until it changes) after it."""
        if self._view is None:  # unchanged weights are shared between steps: they are read-only
            self._view = self.rule.view()
        w, b = self._view
        step = _new(Step)  # Step(...) sets each field through object.__setattr__: 3x slower
        step.__dict__.update(t=t, epoch=(t - 1) // self.n + 1, index=i, activation=activation,
                             updated=updated, w=w, b=b, mistakes=self.mistakes)
        return step


_new = object.__new__


class Stream(Iterator[Step]):
    """Steps made from a run's own (averaged, voted, ...), with the run's start and exactness."""

    def __init__(self, steps, run: Run):
        self._steps = iter(steps)
        self.start, self.exact, self.n = run.start, run.exact, run.n

    def __next__(self) -> Step:
        return next(self._steps)

    def __iter__(self) -> Stream:
        return self


def is_exact(*runs) -> bool:
    """Whether every one of these runs made its decisions and its numbers in exact arithmetic.

    Parameters
    ----------
    *runs
        Runs, streams or recorded traces (anything with ``exact``); None, or
        anything without the attribute, counts as not exact.

    Returns
    -------
    bool
        False as soon as one of them ran in floats: a perceptron on data that
        are not short decimals, the SVM's descent (its step eta/sqrt(t) and its
        penalty), an RBF kernel.

    Examples
    --------
    >>> from core.perceptron import perceptron
    >>> is_exact(perceptron([[0.5], [-1.0]], [1, -1])), is_exact(perceptron([[0.1 + 0.2]], [1]))
    (True, False)
    """
    return all(bool(getattr(run, "exact", False)) for run in runs)


def _last(steps):
    """Run a generator to its end without its items; its return value."""
    try:
        while True:
            next(steps)
    except StopIteration as stop:
        return stop.value


def final(stream) -> tuple[np.ndarray, float]:
    """The weights at the end of a run: its last step's, or its start when it made none.

    Parameters
    ----------
    stream : Run
        A run (every visit or only the updates); it is consumed.

    Returns
    -------
    (w, b) : (ndarray, float)

    Examples
    --------
    >>> from core.perceptron import perceptron
    >>> final(perceptron([[1.0], [-1.0]], [1, -1]))
    (array([2.]), 0.0)
    """
    if isinstance(stream, Run) and (found := stream.finish()) is not None:
        return found
    w, b = stream.start
    for step in stream:
        w, b = step.w, step.b
    return w, b


def read_only(values) -> np.ndarray:
    """A read-only float copy."""
    out = np.array(values, dtype=float)
    out.setflags(write=False)
    return out
