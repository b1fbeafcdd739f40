"""Remedies on non-separable data: the pocket algorithm, and errors per epoch.

:func:`pocket` keeps the best weights seen over any visit stream, and
:func:`epoch_report` puts the training error of the last, the pocket and the
averaged weights (``core.variants``) per epoch next to the largest ||w|| in
each epoch: bounded, while the errors oscillate.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from core.decimals import Misclassified, running_sums
from core.perceptron import Step, check_data, perceptron
from core.runs import Walk
from core.trace import training_errors

__all__ = ["EpochReport", "PocketStep", "epoch_report", "pocket"]

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


def pocket(X, y, steps: Walk) -> Iterator[PocketStep]:
    """The pocket algorithm over a stream: keep the weights with the fewest training errors.

    Parameters
    ----------
    X, y : array_like
        The training set the errors are counted on.
    steps : Walk
        Any run (every visit or only the updates); its start weights are
        "seen" too.

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
    >>> from core.perceptron import perceptron
    >>> X, y = [[0, 0], [0, 1], [1, 0], [1, 1]], [-1, 1, 1, -1]
    >>> last = list(pocket(X, y, perceptron(X, y, max_epochs=3)))[-1]
    >>> last.errors, last.pocket_errors
    (4, 2)
    """
    X, y = check_data(X, y)
    wrong = Misclassified(X, y)
    w0, b0 = steps.start
    best_w = np.array(w0, dtype=float)
    best_w.setflags(write=False)
    best_b = float(b0)
    best = errors = wrong.count(best_w, best_b)
    for step in steps:
        if step.updated:  # weights that did not change keep their error count
            errors = wrong.count(step.w, step.b)
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
    ends_w, ends_b : ndarray, ndarray
        The last weights at the end of each epoch, shape (E, D) and (E,).
    """

    epoch: np.ndarray
    updates: np.ndarray
    errors_last: np.ndarray
    errors_pocket: np.ndarray
    errors_averaged: np.ndarray
    max_norm: np.ndarray
    n: int
    complete: bool
    ends_w: np.ndarray | None = None
    ends_b: np.ndarray | None = None

    @property
    def same_ends(self) -> bool:
        """Whether the last weights are the same at the end of every epoch."""
        return self.ends_w is not None and len(self.ends_b) > 0 and bool(
            np.all(self.ends_w == self.ends_w[0]) and np.all(self.ends_b == self.ends_b[0]))


def epoch_report(X, y, *, max_visits: int = 200_000, updates=None, **kwargs) -> EpochReport:
    """Training errors per epoch of the last, pocket and averaged weights, and max ||w||.

    Parameters
    ----------
    X, y : array_like
        Training data.
    max_visits : int, default 200_000
        Report the first this many visits of the run at most.
    updates : (t, w, b), optional
        The run's updates, already walked (:func:`core.cycles.updates_until`):
        their steps, and the weights before the first and after each one. They
        replace walking the run; they must reach its end or ``max_epochs``.
    **kwargs
        Settings of :func:`core.perceptron.perceptron` (``every`` must stay "visit":
        the average counts every visit).

    Returns
    -------
    EpochReport

    Notes
    -----
    The same numbers as :func:`core.variants.averaged_perceptron` (the notes'
    Algorithm 2) read visit by visit through :func:`pocket`, from the run's
    updates alone: between two updates the weights stand still, so the pocket
    can only change at an update, and the running sum of the weights after
    every visit is a cumulative sum over visits (added in the same order, so
    the same floats). The training error of weights (w, b) is
    #{n : y_n (w^T x_n + b) <= 0}.
    """
    if kwargs.get("every", "visit") != "visit":
        raise ValueError("the epoch report needs every visit: every must be 'visit'")
    X, y = check_data(X, y)
    n = len(y)
    times, weights, biases, complete = _updates(X, y, max_visits, updates, kwargs)
    visits = _visits(X, y, times, weights[-1], biases[-1], n, **kwargs) if complete \
        else max_visits
    if visits > max_visits:
        complete, visits = False, max_visits
    if visits == 0:
        return EpochReport(*(np.zeros(0, dtype=int),) * 5, np.zeros(0), n, complete)
    W, b = np.array(weights), np.array(biases)
    updated = np.array(times, dtype=int)
    # the weights in force after each visit t = 1..T: those after the last update at or before t
    held = np.searchsorted(updated, np.arange(1, visits + 1), side="right")
    average_w = np.cumsum(W[held], axis=0)
    average_b = np.cumsum(b[held])
    ends = np.minimum(np.arange(1, -(-visits // n) + 1) * n, visits)  # each epoch's last visit
    epoch_of_update = (updated - 1) // n  # 0-based
    epochs = len(ends)
    # the pocket: the first weights with the fewest errors among the start and every update
    wrong = Misclassified(X, y)
    errors = wrong.counts(W, b)
    best = np.minimum.accumulate(errors)
    last_update = held[ends - 1]  # row of W in force at each epoch's end
    norms = np.linalg.norm(W, axis=1)
    top = np.empty(epochs)
    for e in range(epochs):  # the weights the epoch starts from count, as the stream's do
        inside = norms[1:][epoch_of_update == e]
        start = norms[held[e * n - 1]] if e else norms[0]
        top[e] = max(start, inside.max()) if inside.size else start
    return EpochReport(
        epoch=np.arange(1, epochs + 1),
        updates=np.bincount(epoch_of_update, minlength=epochs)[:epochs],
        errors_last=errors[last_update],
        errors_pocket=best[last_update],
        errors_averaged=_averaged_errors(wrong, W, b, held, ends, average_w, average_b),
        max_norm=top, n=n, complete=complete, ends_w=W[last_update], ends_b=b[last_update],
    )


def _averaged_errors(wrong: Misclassified, W, b, held, ends, average_w, average_b) -> np.ndarray:
    """Training errors of the averaged weights at each epoch's end: mu itself, summed in exact
    decimals when it can be (mu / t predicts as mu does), else the float means."""
    sums = running_sums(np.column_stack([W, b]), held)
    found = None if sums is None else [wrong.rows_scaled(sums[t - 1]) for t in ends]
    if found is not None and all(rows is not None for rows in found):
        return np.array([int(rows.sum()) for rows in found])
    return np.array([wrong.count(average_w[t - 1] / t, average_b[t - 1] / t) for t in ends])


def _updates(X, y, max_visits: int, updates, kwargs) -> tuple:
    """The run's update steps and the weights after each (the start first), up to max_visits."""
    if updates is not None:
        t, w, b = updates
        kept = int(np.searchsorted(t, max_visits, side="right"))
        return list(t[:kept]), list(w[:kept + 1]), list(b[:kept + 1]), kept == len(t)
    run = perceptron(X, y, **{**kwargs, "every": "update"})
    w0, b0 = run.start
    times, weights, biases = [], [np.asarray(w0, dtype=float)], [float(b0)]
    for step in run:
        if step.t > max_visits:
            return times, weights, biases, False
        times.append(step.t)
        weights.append(step.w)
        biases.append(step.b)
    return times, weights, biases, True


def _visits(X, y, times: list, w, b, n: int, *, order: str = "cyclic", max_epochs: int = 100,
            **_ignored) -> int:
    """How many visits the whole run makes, from its updates: where the visit stream ends."""
    last = times[-1] if times else 0
    if order == "random_misclassified":  # every step is an update
        return last
    if order == "random":  # stops as soon as nothing is wrong, else runs every epoch
        return last if training_errors(X, y, w, b) == 0 else max_epochs * n
    # a fixed or shuffled order stops after an epoch with no update, or at max_epochs
    return min((last - 1) // n + 2 if times else 1, max_epochs) * n
