"""The perceptron's cycling on non-separable data, found exactly.

The cycling theorem: if the training data is not linearly separable, the
perceptron's weights stay bounded (in any order). With rational data, eta and
start the weights lie on a lattice, so bounded means finitely many values:
in a fixed order the run eventually repeats the same set of weights and loops
forever, as the notes put it. In the cyclic order the state at the start of
an epoch decides the whole epoch, so the first time an epoch starts from weights seen at an earlier
epoch start, the run has entered its loop. :func:`find_cycle` compares those
states in exact arithmetic (:mod:`core.exact_runs`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from core.exact_runs import MAX_DECIMALS, _fixed, exact_rule
from core.runs import Walk, check_walk
from core.words import plural

__all__ = ["CYCLE_EPOCHS", "CYCLE_VISITS", "PATH_LIMIT", "Cycle", "find_cycle", "updates_until"]

# The search for a repeat stops after this many epochs or visited examples, whichever first.
CYCLE_EPOCHS = 10_000
CYCLE_VISITS = 2_000_000
# Weights recorded along the exact run (for drawing the trajectory).
PATH_LIMIT = 100_000


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
        The weights where the search stopped, exactly, in the original units:
        for a cycle the repeated ones, on convergence the final ones (None
        when the search was not exact).
    path_w, path_b : ndarray
        The weights before the first update and after each one (floats), up to
        the repeat; at most ``PATH_LIMIT + 1`` rows.
    path_t : ndarray of int
        The step t of each update: row r + 1 of the path is the weights after
        the update at step ``path_t[r]``.
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
    path_t: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=int))
    cycle_start: int | None = None
    path_complete: bool = True
    reason: str = ""
    budget: int = CYCLE_EPOCHS

    @property
    def message(self) -> str:
        """One sentence for the page."""
        if self.status == "cycle":
            return (f"Cycle found: the weights at the start of epoch {self.repeat} equal those "
                    f"at epoch {self.first} (period {plural(self.period, 'epoch')}, "
                    f"{plural(self.updates, 'update')}).")
        if self.status == "converged":
            return (f"No cycle: the run converged after {plural(self.mistakes, 'mistake')} "
                    f"in {plural(self.epochs, 'epoch')}.")
        if self.status == "none":
            return f"No repeat within {plural(self.epochs, 'epoch')} (the search budget)."
        return f"No exact cycle search: {self.reason}."


def find_cycle(X, y, *, eta: float = 1.0, init="zeros", bias: bool = True, rows=None,
               max_epochs: int = CYCLE_EPOCHS, max_visits: int = CYCLE_VISITS,
               max_decimals: int = MAX_DECIMALS,
               progress: Callable[[float], None] | None = None) -> Cycle:
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
    progress : callable, optional
        Called with the share of the epoch budget done (0 to 1) as each epoch starts.

    Returns
    -------
    Cycle
        The first repeat (epochs j < k with equal starting weights), the
        period k - j, the updates in one period and the repeated weights; or
        convergence; or no repeat within the budget.

    Raises
    ------
    ValueError
        If the data, eta, rows or max_epochs are invalid.

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
    X, y, rule, problem = exact_rule(X, y, eta=eta, init=init, bias=bias,
                                     max_decimals=max_decimals)
    check_walk(max_epochs=max_epochs)
    rows = _fixed(rows, len(y))
    epochs_budget = max(1, min(int(max_epochs), int(max_visits) // X.shape[0]))
    if problem:
        return Cycle("inexact", reason=problem, budget=epochs_budget)
    # the state changes only at updates, so an epoch starts from the state after the last
    # update before it; an epoch with no update ends the run
    run = Walk(rule, order=rows, every="update", max_epochs=epochs_budget, seed=None)
    key, (w, b) = rule.key, run.start
    seen: dict[tuple, tuple[int, int]] = {}
    path_w, path_b, path_t = [w], [b], []
    epoch = mistakes = 0
    for step in run:
        if step.epoch > epoch:  # the first update of a new epoch: check where it started
            epoch = step.epoch
            if progress is not None:
                progress(epoch / epochs_budget)
            if key in seen:
                first, before = seen[key]
                w_exact, b_exact = rule.fractions(key)
                complete = len(path_w) <= PATH_LIMIT
                return Cycle("cycle", epochs=epoch - 1, mistakes=mistakes, first=first,
                             repeat=epoch, period=epoch - first, updates=mistakes - before,
                             w=w_exact, b=b_exact, path_w=np.array(path_w),
                             path_b=np.array(path_b), path_t=np.array(path_t, dtype=int),
                             cycle_start=before if complete else None,
                             path_complete=complete, budget=epochs_budget)
            seen[key] = (epoch, mistakes)
        mistakes, key = step.mistakes, rule.key
        if len(path_w) <= PATH_LIMIT:
            path_w.append(step.w)
            path_b.append(step.b)
            path_t.append(step.t)
    status = "none" if epoch == epochs_budget else "converged"
    w_exact, b_exact = rule.fractions(key)
    return Cycle(status, epochs=epochs_budget if status == "none" else epoch + 1,
                 mistakes=mistakes, w=w_exact, b=b_exact, path_w=np.array(path_w),
                 path_b=np.array(path_b), path_t=np.array(path_t, dtype=int),
                 path_complete=len(path_w) <= PATH_LIMIT, budget=epochs_budget)


def updates_until(cycle: Cycle, n: int, epochs: int):
    """The updates of the searched run in its first ``epochs`` epochs, from the search's path.

    Parameters
    ----------
    cycle : Cycle
        A search's result on ``n`` examples.
    n : int
        Examples in the data (an epoch is n visits).
    epochs : int
        Epochs wanted.

    Returns
    -------
    (t, w, b) or None
        The step of each update (M,), and the weights before the first update
        and after each one ((M + 1, D) and (M + 1,)), the same as walking the
        run again; past the repeat a run that cycles repeats its loop, so the
        loop's updates are laid out again one period later each time. None
        when the path does not hold them (cut at ``PATH_LIMIT``, no exact
        search, or epochs past the end of a search that found no repeat).

    Examples
    --------
    >>> c = find_cycle([[0, 0], [0, 1], [1, 0], [1, 1]], [-1, 1, 1, -1])
    >>> t, w, b = updates_until(c, 4, 3)
    >>> t.tolist()  # XOR: every visit is an update, and the loop is one epoch
    [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]
    >>> b[:5].tolist(), len(w)
    ([0.0, -1.0, 0.0, 1.0, 0.0], 13)
    """
    if cycle.status == "inexact" or not cycle.path_complete or \
            (cycle.status == "none" and epochs > cycle.epochs):
        return None
    t, W, B = cycle.path_t, cycle.path_w, cycle.path_b
    if cycle.status == "cycle" and epochs >= cycle.repeat:
        loop = slice(cycle.cycle_start, cycle.cycle_start + cycle.updates)
        copies = -(-(epochs - cycle.repeat + 1) // cycle.period)
        shift = cycle.period * n * np.arange(1, copies + 1)[:, None]
        t = np.concatenate([t, (t[loop] + shift).ravel()])
        after = slice(loop.start + 1, loop.stop + 1)  # the weights after the loop's updates
        W = np.concatenate([W, np.tile(W[after], (copies, 1))])
        B = np.concatenate([B, np.tile(B[after], copies)])
    kept = int(np.searchsorted(t, epochs * n, side="right"))
    return t[:kept], W[:kept + 1], B[:kept + 1]
