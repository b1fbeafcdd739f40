"""One walk over the data for every perceptron-like algorithm.

The perceptron, the kernel perceptron and stochastic subgradient descent (the
SVM) differ only in their rule: where they start, the margins y*a of a block
of rows, the threshold test on a margin, and the update. The walk owns
everything else, once: the visiting orders and their random draws, the
blocks, the stopping rules and the stream of :class:`Step` records. So runs
with one seed visit the same examples in the same sequence whatever the
algorithm (the tests hold them to it, order by order).

Exact decisions. When the data, eta and the start are short decimals, a rule
decides y*a <= 0 in integers (:mod:`core.decimals`); other data run in floats,
with a tie tolerance scaled to the numbers, and the run says it is not exact
(:attr:`Walk.exact`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from core.validation import check_data, check_positive

__all__ = [
    "ORDERS", "Rule", "Step", "Stream", "Walk", "check_data", "check_walk", "final", "is_exact",
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


class Walk(Iterator[Step]):
    """One run's walk over the data: an iterator of its :class:`Step` that knows where it
    started (what :func:`core.perceptron.perceptron` and every other run return).

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

    def __iter__(self) -> Walk:
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
                yield None  # the quiet epochs are over (Walk.__init__ waits for this)
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

    def __init__(self, steps, run: Walk):
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
    stream : Walk
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
    if isinstance(stream, Walk) and (found := stream.finish()) is not None:
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
