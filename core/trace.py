"""A run recorded as arrays, so a page can jump to any step and back."""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cached_property

import numpy as np

from core.decimals import Misclassified, exact_decimals
from core.runs import Walk
from core.words import listed, plural

# Steps a trace keeps by default; beyond this the run is summarised.
STEP_LIMIT = 20_000


@dataclass(frozen=True)
class Trace:
    """Every step of a run, as columns; row 0 is the state before the first visit.

    ``W[k]`` (or :meth:`w`), ``b[k]`` and ``mistakes[k]`` are the state after k
    steps; ``t``, ``epoch``, ``index``, ``activation`` and ``updated`` describe
    step k (their row 0 is a placeholder: t = 0, index = -1). The weights are
    kept as the coordinates that changed at each step, so a kernel run's
    counts alpha (one per example) stay small. ``complete`` is False when the
    recording stopped at its step limit before the run ended; ``exact`` is True
    when every decision of the run was made in exact arithmetic.
    """

    t: np.ndarray
    epoch: np.ndarray
    index: np.ndarray
    activation: np.ndarray
    updated: np.ndarray
    b: np.ndarray
    mistakes: np.ndarray
    changes: np.ndarray  # positions k where w changed, 0 first
    offsets: np.ndarray  # change j set columns[offsets[j]:offsets[j + 1]]
    columns: np.ndarray
    values: np.ndarray
    dim: int
    complete: bool
    exact: bool

    @property
    def steps(self) -> int:
        """How many steps were recorded (the last valid position)."""
        return len(self.t) - 1

    @property
    def update_positions(self) -> np.ndarray:
        """Positions k (1-based) of the steps that updated the weights."""
        return np.flatnonzero(self.updated)

    def w(self, k: int) -> np.ndarray:
        """The weights after k steps (for a kernel run: the counts alpha)."""
        upto = self.offsets[np.searchsorted(self.changes, k, side="right")]
        cols, vals = self.columns[:upto][::-1], self.values[:upto][::-1]
        which, last = np.unique(cols, return_index=True)  # the latest value of each column
        out = np.empty(self.dim)
        out[which] = vals[last]
        return out

    @cached_property
    def W(self) -> np.ndarray:
        """The weights after every step, shape (steps + 1, D)."""
        at = np.repeat(self.changes, np.diff(self.offsets))
        out = np.empty((self.steps + 1, self.dim))
        for c in range(self.dim):
            mine = self.columns == c
            where = np.searchsorted(at[mine], np.arange(self.steps + 1), side="right") - 1
            out[:, c] = self.values[mine][where]
        return out

    def padded(self, steps: int) -> Trace:
        """The trace with its last state repeated up to ``steps``.

        The padded rows keep the last weights and mistakes and are marked
        ``index = -1``, ``updated = False`` and NaN ``activation``.
        """
        extra = steps - self.steps
        if extra <= 0:
            return self
        last = self.steps
        return replace(
            self,
            t=np.r_[self.t, self.t[last] + np.arange(1, extra + 1)],
            epoch=np.r_[self.epoch, np.full(extra, self.epoch[last])],
            index=np.r_[self.index, np.full(extra, -1)],
            activation=np.r_[self.activation, np.full(extra, np.nan)],
            updated=np.r_[self.updated, np.zeros(extra, dtype=bool)],
            b=np.r_[self.b, np.full(extra, self.b[last])],
            mistakes=np.r_[self.mistakes, np.full(extra, self.mistakes[last])],
        )


def record(steps: Walk, *, limit: int = STEP_LIMIT) -> Trace:
    """Collect at most ``limit`` steps of a run into a :class:`Trace`.

    Parameters
    ----------
    steps : Walk
        Any run (:func:`core.perceptron.perceptron`, the kernel perceptron, the
        SVM's descent, the averaged and voted streams); its ``start`` is row 0.
    limit : int, default 20_000
        Most steps kept.

    Returns
    -------
    Trace
    """
    w0, b0 = steps.start
    previous = np.asarray(w0, dtype=float)
    rows = [(0, 0, -1, np.nan, False, float(b0), 0)]
    changes, offsets, columns, values = [0], [0, previous.size], [np.arange(previous.size)], [
        previous]
    complete = True
    for step in steps:
        if len(rows) > limit:
            complete = False
            break
        rows.append((step.t, step.epoch, step.index, step.activation, step.updated,
                     step.b, step.mistakes))
        if step.w is not previous:  # a step that changed nothing shares its weights
            moved = np.flatnonzero(step.w != previous)
            if moved.size:
                changes.append(len(rows) - 1)
                offsets.append(offsets[-1] + moved.size)
                columns.append(moved)
                values.append(step.w[moved])
            previous = step.w
    t, epoch, index, activation, updated, b, mistakes = zip(*rows, strict=True)
    return Trace(
        t=np.array(t, dtype=int),
        epoch=np.array(epoch, dtype=int),
        index=np.array(index, dtype=int),
        activation=np.array(activation, dtype=float),
        updated=np.array(updated, dtype=bool),
        b=np.array(b, dtype=float),
        mistakes=np.array(mistakes, dtype=int),
        changes=np.array(changes, dtype=int),
        offsets=np.array(offsets, dtype=int),
        columns=np.concatenate(columns).astype(int),
        values=np.concatenate(values).astype(float),
        dim=previous.size,
        complete=complete,
        exact=bool(steps.exact),
    )


def align(*traces: Trace) -> tuple[Trace, ...]:
    """Pad recorded runs to the same number of steps, so one step slider drives them all.

    Parameters
    ----------
    *traces : Trace
        Recorded runs (:func:`record`).

    Returns
    -------
    tuple of Trace
        The runs in the same order, each with ``max(trace.steps)`` steps
        (:meth:`Trace.padded`); the longest run is returned unchanged.
    """
    steps = max(trace.steps for trace in traces)
    return tuple(trace.padded(steps) for trace in traces)


def exact_weights(trace: Trace, X, y, k: int, *, eta: float, bias: bool = True):
    """The exact (w, b) after k steps of a recorded perceptron run, or None.

    Parameters
    ----------
    trace : Trace
        A perceptron run (constant eta, no penalty) over X, y.
    X, y : array_like
        Its data.
    k : int
        Steps taken, 0 to ``trace.steps``.
    eta : float
        Its learning rate.
    bias : bool, default True
        Whether it learns b.

    Returns
    -------
    (tuple of Fraction, Fraction) or None
        w_k = w_0 + eta * sum of y_n x_n over the updates up to step k, and
        b_k = b_0 + eta * sum of y_n, summed as the exact decimals of x, eta
        and the start (the numbers an exact run decides with); None when the
        run is not exact or they are not short decimals.

    Examples
    --------
    >>> from core.perceptron import perceptron
    >>> X, y = [[1.0, 1.0], [2.0, 1.0]], [-1, 1]
    >>> trace = record(perceptron(X, y, eta=0.1))
    >>> w, b = exact_weights(trace, X, y, 1, eta=0.1)
    >>> [str(v) for v in w], str(b)
    (['-1/10', '-1/10'], '-1/10')
    """
    X = np.asarray(X, dtype=float)
    if not trace.exact or trace.dim != X.shape[1] or not 0 <= k <= trace.steps:
        return None
    x = exact_decimals(X)
    found = exact_decimals(np.r_[[eta], trace.W[0], [trace.b[0]]])
    if x is None or found is None:
        return None
    e, *start = found.tolist()
    w0, b0 = start[:-1], start[-1]
    moved = trace.updated[1:k + 1].astype(bool)
    rows = trace.index[1:k + 1][moved]
    # each update adds eta*y_n*(x_n, 1): count them per example, signed by the label
    signed = np.bincount(rows, weights=np.asarray(y, dtype=float)[rows], minlength=len(X))
    counts = [int(c) for c in signed]
    w = tuple(w0[j] + e * sum(c * x[n, j] for n, c in enumerate(counts) if c)
              for j in range(X.shape[1]))
    b = b0 + e * sum(counts) if bias else Fraction(b0)
    return w, Fraction(b)


def training_errors(X, y, w, b) -> int:
    """How many examples (w, b) gets wrong (y*a <= 0 counts as wrong, as in the rule), decided
    exactly when X, w and b are short decimals (:class:`core.decimals.Misclassified`)."""
    return Misclassified(X, y).count(w, b)


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
    wrong = Misclassified(X, y)
    return ends, [wrong.count(trace.W[k], trace.b[k]) for k in ends]


@dataclass(frozen=True)
class Outcome:
    """How a recorded run ended, in words a page can show."""

    converged: bool
    mistakes: int
    epochs: int
    message: str


def outcome(trace: Trace, X, y, *, max_epochs: int) -> Outcome:
    """Say whether the run converged, is still learning, or hit a limit (and if it was exact)."""
    mistakes = int(trace.mistakes[-1])
    epochs = int(trace.epoch[-1])
    errors = training_errors(X, y, trace.W[-1], trace.b[-1])
    if not trace.complete:
        message = (f"Recorded the first {plural(trace.steps, 'step')} only; "
                   f"{plural(errors, 'example')} still misclassified there.")
    elif errors == 0:
        message = f"Converged after {plural(mistakes, 'mistake')} in {plural(epochs, 'epoch')}."
    else:
        message = (f"Max epochs ({max_epochs}) reached: {plural(errors, 'example')} still "
                   f"misclassified after {plural(mistakes, 'mistake')}.")
    if not trace.exact:
        message += (" Not exact: these numbers are not short decimals, so the run is in "
                    "floating point (a y·a within rounding of 0 counts as a tie, a mistake).")
    return Outcome(trace.complete and errors == 0, mistakes, epochs, message)


def descent_outcome(trace: Trace, X, y, *, max_epochs: int, lam: float) -> Outcome:
    """How the SVM's descent (core.descent.svm_sgd) ended, in words a page can show.

    Parameters
    ----------
    trace : Trace
        The recorded descent over X, y.
    X, y : array_like
        Its data.
    max_epochs : int
        Its epochs.
    lam : float
        Its penalty. With lambda > 0 every step moves w, so the descent runs until
        its epochs run out; with lambda = 0 it stops after an epoch without a
        margin violation.

    Returns
    -------
    Outcome
        ``converged`` is always False (a descent is never at its minimiser by
        stopping); ``mistakes`` counts the margin violations stepped on; the
        message says at which step and why it ended, and which examples its last
        weights leave inside the margin (y·a < 1), with their y·a.
    """
    X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=float)
    margins = y * (X @ trace.W[-1] + trace.b[-1])
    inside = np.flatnonzero(margins < 1)
    steps, epochs = int(trace.t[-1]), int(trace.epoch[-1])
    if not trace.complete:
        why = f"Recorded the first {plural(trace.steps, 'step')} only"
    elif not lam and epochs < max_epochs:
        why = (f"The descent ended at step {steps:,}, after an epoch in which no example was "
               "inside the margin")
    else:
        why = (f"The descent ended at step {steps:,}, when its {plural(max_epochs, 'epoch')} "
               "ran out" + (" (with λ > 0 it stops only there)" if lam else ""))
    if inside.size == 0:
        where = "no example is inside the margin (every y·a ≥ 1)."
    else:
        few = inside[:6]
        more = f" and {inside.size - few.size:,} more" if inside.size > few.size else ""
        where = (f"{plural(inside.size, 'example is', 'examples are')} still inside the margin "
                 f"(y·a < 1): {'row' if inside.size == 1 else 'rows'} "
                 f"{listed([str(n) for n in few])}{more}, at y·a = "
                 f"{listed([f'{margins[n]:.3g}' for n in few])}{more and ' …'}.")
    return Outcome(False, int(trace.mistakes[-1]), epochs, f"{why}: {where}")
