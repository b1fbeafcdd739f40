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

from core.perceptron import Step, check_data
from core.runs import Run
from core.trace import training_errors
from core.variants import averaged_perceptron

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


def pocket(X, y, steps: Run) -> Iterator[PocketStep]:
    """The pocket algorithm over a stream: keep the weights with the fewest training errors.

    Parameters
    ----------
    X, y : array_like
        The training set the errors are counted on.
    steps : Run
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
    w0, b0 = steps.start
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
    the notes' Algorithm 2) fed through :func:`pocket`; the training error of
    weights (w, b) is #{n : y_n (w^T x_n + b) <= 0}.
    """
    X, y = check_data(X, y)
    stream = averaged_perceptron(X, y, **kwargs)
    w0 = stream.start[0]
    rows: list[list] = []
    complete, last = True, None
    norm = float(np.linalg.norm(w0))  # the first epoch starts from these weights
    updates, top = 0, norm
    for p in pocket(X, y, stream):
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
