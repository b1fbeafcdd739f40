"""A run recorded as arrays, so a page can jump to any step and back."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from core.perceptron import Step


@dataclass(frozen=True)
class Trace:
    """Every step of a run, as columns; row 0 is the state before the first visit.

    ``W[k]``, ``b[k]`` and ``mistakes[k]`` are the state after k steps; ``t``,
    ``epoch``, ``index``, ``activation`` and ``updated`` describe step k (their
    row 0 is a placeholder: t = 0, index = -1). ``complete`` is False when the
    recording stopped at its step limit before the run ended.
    """

    t: np.ndarray
    epoch: np.ndarray
    index: np.ndarray
    activation: np.ndarray
    updated: np.ndarray
    W: np.ndarray
    b: np.ndarray
    mistakes: np.ndarray
    complete: bool

    @property
    def steps(self) -> int:
        """How many steps were recorded (the last valid position)."""
        return len(self.t) - 1

    @property
    def update_positions(self) -> np.ndarray:
        """Positions k (1-based) of the steps that updated the weights."""
        return np.flatnonzero(self.updated)


def record(steps: Iterable[Step], w0, b0: float, *, limit: int = 20_000) -> Trace:
    """Collect at most ``limit`` steps of a stream into a :class:`Trace`."""
    w0 = np.asarray(w0, dtype=float)
    rows = [(0, 0, -1, np.nan, False, w0, float(b0), 0)]
    complete = True
    for step in steps:
        if len(rows) > limit:
            complete = False
            break
        rows.append((step.t, step.epoch, step.index, step.activation, step.updated,
                     step.w, step.b, step.mistakes))
    t, epoch, index, activation, updated, W, b, mistakes = zip(*rows, strict=True)
    return Trace(
        t=np.array(t, dtype=int),
        epoch=np.array(epoch, dtype=int),
        index=np.array(index, dtype=int),
        activation=np.array(activation, dtype=float),
        updated=np.array(updated, dtype=bool),
        W=np.vstack(W),
        b=np.array(b, dtype=float),
        mistakes=np.array(mistakes, dtype=int),
        complete=complete,
    )


def training_errors(X, y, w, b) -> int:
    """How many examples (w, b) gets wrong (y*a <= 0 counts as wrong, as in the rule)."""
    return int(np.sum(np.asarray(y) * (np.asarray(X) @ np.asarray(w) + b) <= 0))


def epoch_end_errors(trace: Trace, X, y) -> tuple[np.ndarray, list[int]]:
    """Training errors of a recorded run at the end of each epoch.

    Parameters
    ----------
    trace : Trace
        A recorded run over the N examples of X.
    X : array_like of shape (N, D)
        The examples.
    y : array_like of shape (N,)
        Their labels in {-1, +1}.

    Returns
    -------
    ends : ndarray of int
        Positions k = N, 2N, ... of the epochs' last steps, and the run's last
        step when it ended inside an epoch.
    errors : list of int
        :func:`training_errors` of the weights at each of those positions.
    """
    n = len(y)
    ends = np.arange(n, trace.steps + 1, n)
    if ends.size == 0 or ends[-1] != trace.steps:
        ends = np.r_[ends, trace.steps]
    return ends, [training_errors(X, y, trace.W[k], trace.b[k]) for k in ends]


@dataclass(frozen=True)
class Outcome:
    """How a recorded run ended, in words a page can show."""

    converged: bool
    mistakes: int
    epochs: int
    message: str


def outcome(trace: Trace, X, y, *, max_epochs: int) -> Outcome:
    """Say whether the run converged, is still learning, or hit a limit."""
    mistakes = int(trace.mistakes[-1])
    epochs = int(trace.epoch[-1])
    errors = training_errors(X, y, trace.W[-1], trace.b[-1])
    if not trace.complete:
        return Outcome(False, mistakes, epochs,
                       f"Recorded the first {trace.steps:,} steps only; "
                       f"{errors} examples still misclassified there.")
    if errors == 0:
        return Outcome(True, mistakes, epochs,
                       f"Converged after {mistakes} mistakes in {epochs} epochs.")
    return Outcome(False, mistakes, epochs,
                   f"Max epochs ({max_epochs}) reached: {errors} examples still "
                   f"misclassified after {mistakes} mistakes.")
