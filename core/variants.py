"""Perceptrons that keep more than the last weights: averaged (and, beside it, voted: the
model of every vector with its votes, :class:`Voted`)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import numpy as np

from core.perceptron import Linear, Step, check_data, perceptron
from core.runs import Stream, Walk
from core.trace import Trace

# Grid points per block when a voted model scores many points (bounds the memory of
# the (points x vectors) matrix of votes).
_VOTE_BLOCK = 4096


def rule_run(X, y, *, strict: bool, init=((0.0, 0.0), 0.0), eta: float = 1.0,
             max_epochs: int = 100) -> tuple[int, np.ndarray, float, bool]:
    """The cyclic perceptron with the notes' rule (y a <= 0) or the strict one (y a < 0).

    Parameters
    ----------
    X, y : array_like
        Inputs (N, D) and labels (N,) in {-1, +1}.
    strict : bool
        Count a mistake only when y a < 0 (True), or when y a <= 0 as the notes do.
    init : (w0, b0), default zeros
        Starting weights.
    eta : float, default 1
        Learning rate.
    max_epochs : int, default 100
        Epochs at most; the run stops after an epoch without an update.

    Returns
    -------
    (updates, w, b, stopped) : tuple
        Updates made, the last weights, and whether an epoch without an update
        came before ``max_epochs``.

    Notes
    -----
    From w = 0, b = 0 every activation is 0, so y a = 0 on every example: the
    strict rule sees no mistake, stops after one epoch at w = 0, which
    classifies nothing. The notes' rule counts the tie as a mistake and starts.
    Both are the perceptron's own walk (:class:`core.runs.Walk`), so on short
    decimals the tie is decided exactly, not by rounding.

    Examples
    --------
    >>> rule_run([[1.0, 1.0], [2.0, 1.0]], [-1, 1], strict=True)[0]
    0
    >>> rule_run([[1.0, 1.0], [2.0, 1.0]], [-1, 1], strict=False)[0] > 0
    True
    """
    X, y = check_data(X, y)
    w0, b0 = init
    rule = Linear(X, y, w0, b0, eta=float(eta), bias=True, strict=strict)
    run = Walk(rule, order="cyclic", every="update", max_epochs=max_epochs, seed=None)
    updates = list(run)
    w, b = (updates[-1].w, updates[-1].b) if updates else run.start
    # it stopped when the epoch after the last update (or the first epoch) changed nothing
    stopped = not updates or updates[-1].epoch < max_epochs
    return len(updates), np.array(w), b, stopped


@dataclass(frozen=True)
class AveragedStep(Step):
    """A :class:`Step` with the running average of the weights after every visit so far."""

    w_avg: np.ndarray
    b_avg: float


def averaged_perceptron(X, y, **kwargs) -> Iterator[AveragedStep]:
    """The notes' averaged perceptron (Algorithm 2), streamed one visit at a time.

    Parameters
    ----------
    X, y, **kwargs
        As for :func:`core.perceptron.perceptron` (``every`` must stay "visit":
        the average counts the visits that did not update too). Algorithm 2
        itself is ``until="max_epochs"``: it keeps averaging after convergence.

    Yields
    ------
    AveragedStep
        The perceptron's step plus ``w_avg`` = mu / t and ``b_avg``, where
        mu is the sum of the weights after each of the t visits so far.

    Notes
    -----
    Algorithm 2 adds w to mu after every visited example, updated or not, and
    predicts with sign(mu^T x); dividing by t changes no sign, so ``w_avg``
    predicts exactly as mu does, and stays on the scale of w for drawing.

    Examples
    --------
    >>> steps = list(averaged_perceptron([[1.0, 0.0], [-1.0, 0.0]], [1, -1]))
    >>> float(steps[-1].w_avg[0]), steps[-1].b_avg
    (1.75, 0.25)
    """
    if kwargs.get("every", "visit") != "visit":
        raise ValueError("the averaged perceptron needs every visit: every must be 'visit'")
    X, y = check_data(X, y)
    run = perceptron(X, y, **kwargs)
    return Stream(_averaged(run, X.shape[1]), run)


def _averaged(run: Walk, dim: int) -> Iterator[AveragedStep]:
    """The run's steps with the running mean of the weights."""
    total_w, total_b = np.zeros(dim), 0.0
    for step in run:
        total_w = total_w + step.w
        total_b += step.b
        w_avg = total_w / step.t
        w_avg.setflags(write=False)
        yield AveragedStep(**vars(step), w_avg=w_avg, b_avg=total_b / step.t)


def averaged_weights(X, y, **kwargs) -> tuple[np.ndarray, float, int, int]:
    """Algorithm 2's averaged weights at the end of its run, from the run's updates alone.

    Parameters
    ----------
    X, y, **kwargs
        As for :func:`core.perceptron.perceptron`; the run visits every epoch up to
        ``max_epochs`` (``until="max_epochs"``, as Algorithm 2 loops), the same walk as
        :func:`averaged_perceptron` with ``until="max_epochs"``.

    Returns
    -------
    (w_avg, b_avg, mistakes, visits) : tuple
        mu / T and its bias after the run's T visits, the updates made, and T
        (the start, untouched, when T = 0).

    Notes
    -----
    Between two updates the weights stand still, so the sum of the weights after
    every visit is sum_k (t_{k+1} - t_k) w_k over the updates at steps t_k (the
    start held from the first visit to the one before t_1): no loop over visits,
    so a thousand epochs cost what their updates cost. In the random
    misclassified order every step is an update and the run ends when nothing
    is wrong, so T is its last step; in the others T = max_epochs N.

    Examples
    --------
    >>> w, b, mistakes, visits = averaged_weights([[1.0, 0.0], [-1.0, 0.0]], [1, -1],
    ...                                           max_epochs=1)
    >>> w.tolist(), b, mistakes, visits
    ([1.5, 0.0], 0.5, 2, 2)
    """
    if kwargs.get("every", "update") != "update" or kwargs.get("until", "max_epochs") != \
            "max_epochs":
        raise ValueError("Algorithm 2 visits every epoch: leave every and until unset")
    X, y = check_data(X, y)
    run = perceptron(X, y, **{**kwargs, "every": "update", "until": "max_epochs"})
    w0, b0 = run.start
    times, W, B = [], [np.asarray(w0, dtype=float)], [float(b0)]
    for step in run:
        times.append(step.t)
        W.append(step.w)
        B.append(step.b)
    if kwargs.get("order", "cyclic") == "random_misclassified":
        visits = times[-1] if times else 0
    else:
        visits = int(kwargs.get("max_epochs", 100)) * len(y)
    if visits == 0:
        return np.array(w0, dtype=float), float(b0), 0, 0
    held = np.diff(np.r_[1, times, visits + 1])  # visits after which each weight is in force
    return held @ np.array(W) / visits, float(held @ np.array(B)) / visits, len(times), visits


@dataclass(frozen=True)
class Voted:
    """The voted perceptron's model: every weight vector with its vote count.

    Attributes
    ----------
    W : ndarray of shape (K, D)
        The weight vectors in the order the run made them (read-only).
    b : ndarray of shape (K,)
        Their biases (read-only).
    counts : ndarray of shape (K,)
        c_k, the visits each vector survived (read-only); they sum to t.
    """

    W: np.ndarray
    b: np.ndarray
    counts: np.ndarray

    def __post_init__(self) -> None:
        W = np.array(self.W, dtype=float).reshape(len(self.counts), -1)
        b = np.array(self.b, dtype=float).reshape(-1)
        counts = np.array(self.counts, dtype=int).reshape(-1)
        if not (len(W) == len(b) == len(counts)) or np.any(counts < 0):
            raise ValueError("W, b and counts must have one row per vector, counts >= 0")
        for name, value in (("W", W), ("b", b), ("counts", counts)):
            value.setflags(write=False)
            object.__setattr__(self, name, value)

    @classmethod
    def from_steps(cls, steps: Walk | Iterable[Step], *, start=None) -> Voted:
        """Collect the vectors and their counts from a run with every visit.

        Any run works (the counts follow from ``updated``); its starting vector
        (``start``, by default the run's own) comes first, with count 0 until a
        visit survives it.
        """
        w0, b0 = steps.start if start is None else start
        W, b, counts = [np.asarray(w0, dtype=float)], [float(b0)], [0]
        for step in steps:
            if step.updated:
                W.append(step.w)
                b.append(step.b)
                counts.append(1)
            else:
                counts[-1] += 1
        return cls(np.vstack(W), b, counts)

    @classmethod
    def from_trace(cls, trace: Trace, k: int | None = None) -> Voted:
        """The model after the first k visits of a recorded run (all of them by default).

        Row 0 of the trace is the starting vector (count 0 until a visit survives it).
        """
        k = trace.steps if k is None else int(k)
        if not 0 <= k <= trace.steps:
            raise ValueError(f"k must be between 0 and {trace.steps}, got {k}")
        # A vector made at update position p lasts until the next update: its
        # count is the distance between the two (the end counts as k + 1).
        starts = np.concatenate([[0], np.flatnonzero(trace.updated[1:k + 1]) + 1])
        ends = np.append(starts[1:], k + 1)
        counts = ends - starts
        counts[0] -= 1  # the starting vector gets no vote for "being created"
        return cls(trace.W[starts], trace.b[starts], counts)

    def _distinct(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The distinct vectors with their summed counts (those with a vote only).

        Runs on non-separable data revisit the same vectors: each then votes once.
        """
        rows, inverse = np.unique(np.column_stack([self.W, self.b]), axis=0,
                                  return_inverse=True)
        counts = np.bincount(inverse.reshape(-1), weights=self.counts, minlength=len(rows))
        keep = counts > 0
        return rows[keep, :-1], rows[keep, -1], counts[keep]

    def decision(self, X) -> np.ndarray:
        """The weighted vote sum_k c_k sign(w_k.x + b_k) at each row of X, shape (M,)."""
        X = np.asarray(X, dtype=float)
        W, b, counts = self._distinct()
        out = np.empty(len(X))
        for start in range(0, len(X), _VOTE_BLOCK):
            block = X[start:start + _VOTE_BLOCK]
            out[start:start + len(block)] = np.sign(block @ W.T + b) @ counts
        return out

    def decision_grid(self, xs, ys) -> np.ndarray:
        """The vote at every (xs[c], ys[r]) of a 2-D grid, shape (len(ys), len(xs)).

        The same values as :meth:`decision` (up to rounding for a grid point
        lying on one of the lines), in O(K log K) per grid row instead of
        O(K) per grid point: along a row, vector k changes its sign once, at
        x = -(w_k2 y + b_k) / w_k1, so the vote is a running sum over those
        thresholds in sorted order.
        """
        if self.W.shape[1] != 2:
            raise ValueError(f"a grid needs 2-D weights, got {self.W.shape[1]}-D")
        W, b, counts = self._distinct()
        xs, ys = np.asarray(xs, dtype=float), np.asarray(ys, dtype=float)
        slanted = W[:, 0] != 0
        w1, w2, b1 = W[slanted, 0], W[slanted, 1], b[slanted]
        # sign(w1 x + w2 y + b) = sign(w1) * sign(x - threshold)
        weight = np.sign(w1) * counts[slanted]
        flat_w2, flat_b, flat_counts = W[~slanted, 1], b[~slanted], counts[~slanted]
        total = weight.sum()
        out = np.empty((len(ys), len(xs)))
        for r, y in enumerate(ys):
            thresholds = -(w2 * y + b1) / w1
            order = np.argsort(thresholds)
            ranked = thresholds[order]
            running = np.concatenate([[0.0], np.cumsum(weight[order])])
            below = running[np.searchsorted(ranked, xs, side="left")]  # thresholds < x
            upto = running[np.searchsorted(ranked, xs, side="right")]  # thresholds <= x
            flat = flat_counts @ np.sign(flat_w2 * y + flat_b)
            out[r] = below - (total - upto) + flat
        return out

    def predict(self, X) -> np.ndarray:
        """sign of :meth:`decision`: +1, -1, or 0 where the vote is tied."""
        return np.sign(self.decision(X))


def running_average(trace: Trace) -> tuple[np.ndarray, np.ndarray]:
    """The averaged perceptron at every position of a recorded run.

    Returns ``(W_avg, b_avg)`` with row k = mu / k, the mean of the weights
    after each of the first k visits (the same numbers as
    :func:`averaged_perceptron`'s ``w_avg``, ``b_avg``); row 0 is mu = 0, the
    notes' start, which predicts nothing yet.
    """
    k = np.arange(1, trace.steps + 1)
    W_avg = np.zeros_like(trace.W)
    b_avg = np.zeros_like(trace.b)
    W_avg[1:] = np.cumsum(trace.W[1:], axis=0) / k[:, None]
    b_avg[1:] = np.cumsum(trace.b[1:]) / k
    return W_avg, b_avg


def errors(y, decision) -> int:
    """How many labels the decision values get wrong (y*a <= 0, ties included, as in the rule)."""
    return int(np.sum(np.asarray(y) * np.asarray(decision) <= 0))


def train_test_split(n: int, test_share: float, seed: int | None = 0):
    """Row indices (train, test), the test rows a seeded random ``test_share`` of the n rows.

    At least one row always stays for training; each index array is sorted.
    """
    if not 0 <= test_share < 1:
        raise ValueError(f"test share must be in [0, 1), got {test_share}")
    if n < 1:
        raise ValueError(f"n must be >= 1, got {n}")
    order = np.random.default_rng(seed).permutation(n)
    n_test = min(round(test_share * n), n - 1)
    return np.sort(order[n_test:]), np.sort(order[:n_test])
