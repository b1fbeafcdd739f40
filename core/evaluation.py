"""How separators generalise: a stratified split, error rates, leave-one-out, margins over lambda.

The notes' point: every perceptron run separates the training data, yet
their errors on unseen data differ; the maximum-margin separator is a
function of the training data alone (:func:`generalization`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from core.decimals import Misclassified
from core.descent import svm_sgd
from core.geometry import check_data, geometric_margin, mistake_bound
from core.perceptron import perceptron
from core.runs import final
from core.soft_margin import lam_to_C, soft_margin

__all__ = [
    "CONVERGENCE_CAP",
    "LeaveOneOut",
    "epochs_to_converge",
    "error_rate",
    "leave_one_out",
    "leave_one_out_errors",
    "margins_over_lambda",
    "split",
    "trained",
]

# Epochs beyond which a run "to convergence" gives up (and says so): the mistake bound can
# be astronomically large for a tiny margin even though real runs converge long before it.
CONVERGENCE_CAP = 100_000
# Epochs a run "to convergence" gets on data no line separates: it cannot converge.
NONSEPARABLE_EPOCHS = 100


def split(y, *, test_fraction: float, seed: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """A stratified train/test split: sorted row indices (train, test).

    Parameters
    ----------
    y : array_like, shape (N,)
        Labels in {-1, +1}.
    test_fraction : float
        Share of each class held out, in (0, 1); rounded per class, with at
        least one point of each class kept for training.
    seed : int or None
        Seed of the shuffle.

    Raises
    ------
    ValueError
        If test_fraction is not in (0, 1), or the split leaves the test set empty.
    """
    y = np.asarray(y, dtype=float)
    if not 0 < test_fraction < 1:
        raise ValueError(f"test fraction must be between 0 and 1, got {test_fraction}")
    rng = np.random.default_rng(seed)
    test = []
    for label in (-1.0, 1.0):
        rows = rng.permutation(np.flatnonzero(y == label))
        test.extend(rows[: min(round(test_fraction * rows.size), max(rows.size - 1, 0))])
    test = np.sort(np.array(test, dtype=int))
    if test.size == 0:
        raise ValueError(f"the test set is empty: {y.size} points are too few for a test "
                         f"fraction of {test_fraction:g}")
    return np.setdiff1d(np.arange(y.size), test), test


def error_rate(X, y, w, b: float) -> float:
    """The share of examples a separator gets wrong.

    Parameters
    ----------
    X, y : array_like
        Inputs (N, D) and labels (N,) in {-1, +1}.
    w : array_like, shape (D,)
        Weights.
    b : float
        Bias.

    Returns
    -------
    float
        The fraction of n with y_n (w.x_n + b) <= 0 (a tie counts as an error, as in
        the perceptron's rule).

    Examples
    --------
    >>> error_rate([[0.0], [1.0], [2.0]], [-1, 1, 1], [1.0], -1.0)
    0.3333333333333333
    """
    X, y = check_data(X, y)
    return float(np.mean(Misclassified(X, y).rows(w, b)))


def epochs_to_converge(X, y, *, bias: bool = True) -> int:
    """Epochs after which a cyclic or shuffled run from w = 0 has surely converged.

    Parameters
    ----------
    X, y : array_like
        Inputs (N, D) and labels (N,) in {-1, +1}.
    bias : bool, default True
        Whether the run learns a bias (R and gamma are then those of (x, 1)).

    Returns
    -------
    int
        floor(R^2/gamma^2) + 1, at most :data:`CONVERGENCE_CAP`;
        :data:`NONSEPARABLE_EPOCHS` when the data are not separable (no
        number of epochs is enough).

    Notes
    -----
    Every epoch but the last makes at least one mistake, and Novikoff's
    theorem allows at most R^2/gamma^2 of them from w = 0, so one clean
    epoch follows at the latest after floor(R^2/gamma^2) epochs with mistakes.

    Examples
    --------
    >>> epochs_to_converge([[0.0, 0.0], [1.0, 1.0]], [-1, 1])  # R^2/gamma^2 = 3/(1/3)
    10
    """
    return _epochs_for(mistake_bound(X, y, bias=bias))


def _epochs_for(bound: float) -> int:
    """floor(bound) + 1 epochs, capped; NONSEPARABLE_EPOCHS for an infinite bound.

    The bound is a float: a hair of slack keeps an integer bound computed as 8.999... at 9.
    """
    return int(min(np.floor(bound * (1 + 1e-9)) + 1, CONVERGENCE_CAP)) if np.isfinite(bound) \
        else NONSEPARABLE_EPOCHS


def trained(X, y, *, order: str = "cyclic", seed: int | None = None,
            max_epochs: int | None = None) -> tuple[np.ndarray, float, bool]:
    """The perceptron from w = 0 (eta 1, with a bias), trained to convergence.

    Parameters
    ----------
    X, y : array_like
        Inputs (N, D) and labels (N,) in {-1, +1}.
    order : str, default "cyclic"
        Visiting order (one of :data:`core.perceptron.ORDERS`).
    seed : int or None
        Seed of the order.
    max_epochs : int or None
        Epochs at most; None trains to convergence: :func:`epochs_to_converge`
        epochs (ten times as many for the order with replacement, whose epochs
        may pass without a mistake before the end).

    Returns
    -------
    (w, b, converged) : tuple
        The last weights, and whether they classify every training example
        correctly (False when the epochs ran out first).
    """
    X, y = check_data(X, y)
    if max_epochs is None:
        bound = mistake_bound(X, y)
        max_epochs = _epochs_for(bound)
        if order == "random" and np.isfinite(bound):
            max_epochs = min(10 * max_epochs, CONVERGENCE_CAP)
    w, b = final(perceptron(X, y, order=order, seed=seed, max_epochs=max_epochs,
                            every="update"))
    return w, b, not Misclassified(X, y).rows(w, b).any()


@dataclass(frozen=True)
class LeaveOneOut:
    """Leave-one-out runs of the perceptron: for each point, the run on all the others.

    Attributes
    ----------
    wrong : ndarray of bool
        For each point i, whether the run without it errs on it
        (y_i (w^(-i).x_i + b^(-i)) <= 0).
    converged : ndarray of bool
        For each i, whether that run converged (separates its N - 1 points);
        False when its epochs ran out first.
    """

    wrong: np.ndarray
    converged: np.ndarray

    @property
    def n(self) -> int:
        """Points, and runs."""
        return len(self.wrong)

    @property
    def errors(self) -> int:
        """Errors of every run, converged or not."""
        return int(np.sum(self.wrong))

    @property
    def unconverged(self) -> int:
        """Runs that stopped before they converged."""
        return int(np.sum(~self.converged))

    @property
    def converged_errors(self) -> int:
        """Errors of the runs that converged: the part of the proof's (*) these runs give.

        The proof's (*) counts runs trained to convergence; a run that converged
        within its epochs is the same run with more epochs, so (*) lies between
        this count and this count plus :attr:`unconverged`, and this count is at
        most R^2/gamma^2 whenever (*) is.
        """
        return int(np.sum(self.wrong & self.converged))

    @property
    def unconverged_errors(self) -> int:
        """Errors of the runs that did not converge."""
        return int(np.sum(self.wrong & ~self.converged))


def leave_one_out(X, y, *, max_epochs: int | None = None) -> LeaveOneOut:
    """For each example, the perceptron trained on all the others: does it err, did it converge.

    Parameters
    ----------
    X : array_like, shape (N, D)
        Inputs.
    y : array_like, shape (N,)
        Labels in {-1, +1}.
    max_epochs : int or None, default None
        Epochs per run (each run is the cyclic perceptron from w = 0, eta 1,
        with a bias); None trains each run to convergence, as the theorem does.

    Returns
    -------
    LeaveOneOut

    Notes
    -----
    The quantity (*) in the proof of Theorem 2.6 is the number of i with
    y_i (w^(-i).x_i + b^(-i)) <= 0 for runs trained to convergence: a point the
    perceptron never errs on while training on all N points can be left out
    without changing the run, so on separable data this count is at most the
    mistakes of the full run, hence at most R^2/gamma^2. Runs cut short can err
    on more: :attr:`LeaveOneOut.converged` marks them.

    The same argument saves the runs: leaving out a point the run on all N
    never updated on removes only visits that changed nothing, so the run on
    the others makes the same updates in the same epochs and ends with the
    same weights. Only the points the full run updated on are trained apart.
    This is used when every decision is exact (short decimals: a float run's
    tie tolerance depends on the data, so a point left out could move it) and
    the full run ended where each shorter one must (it converged, or every run
    has the same ``max_epochs``); otherwise every point is trained apart.
    """
    X, y = check_data(X, y)
    everyone = np.arange(y.size)
    full = _full_run(X, y, max_epochs)
    decide = Misclassified(X, y)  # y*a <= 0 exactly on short decimals
    wrong, converged = np.zeros(y.size, dtype=bool), np.zeros(y.size, dtype=bool)
    for i in everyone:
        others = everyone != i
        if full is not None and i not in full[0]:
            w, b = full[1:]  # the same run as on all N
            rows = decide.rows(w, b)
            done = not rows[others].any()
        else:
            w, b, done = trained(X[others], y[others], max_epochs=max_epochs)
            rows = decide.rows(w, b)
        wrong[i], converged[i] = rows[i], done
    return LeaveOneOut(wrong, converged)


def leave_one_out_errors(X, y, *, max_epochs: int | None = None) -> int:
    """How many examples the perceptron gets wrong when trained on all the others.

    The count of :func:`leave_one_out`, every run included (converged or not).

    Returns
    -------
    int
        The number of i with y_i (w^(-i).x_i + b^(-i)) <= 0.
    """
    return leave_one_out(X, y, max_epochs=max_epochs).errors


def _full_run(X, y, max_epochs: int | None):
    """(rows it updated on, w, b) of the run on all the points, when every run without one
    of the others would be the same run; else None."""
    epochs = _epochs_for(mistake_bound(X, y)) if max_epochs is None else max_epochs
    run = perceptron(X, y, max_epochs=epochs, every="update")
    updated, last, mistakes = set(), 0, 0
    w, b = run.start
    for step in run:
        updated.add(step.index)
        w, b, last, mistakes = step.w, step.b, step.epoch, step.mistakes
    if not run.exact:
        return None
    if max_epochs is not None:
        return updated, w, b
    # Converged after `last` epochs with updates. A run on the others makes the same
    # `mistakes` updates, so Novikoff's bound on its data is at least `mistakes`, and its
    # epochs, floor(bound) + 1, reach past `last`. With one update an epoch (last ==
    # mistakes) that would rest on the last digit of a computed bound: train apart.
    if last < epochs and last < mistakes:
        return updated, w, b
    return None


def margins_over_lambda(X, y, lams, **sgd) -> tuple[np.ndarray, np.ndarray]:
    """Geometric margins of the exact minimiser and of the SGD run, for each lambda.

    Parameters
    ----------
    X, y : array_like
        Inputs (N, D) and labels (N,) in {-1, +1}, both classes present.
    lams : sequence of float
        Values of lambda, each > 0.
    **sgd
        Settings of :func:`svm_sgd` other than ``lam`` (eta, order, bias,
        max_epochs, seed).

    Returns
    -------
    (exact, sgd) : tuple of ndarray
        For each lambda, the geometric margin on the data of the exact
        minimiser of the notes' cost (:func:`soft_margin` with C = 1/(lambda N))
        and of the subgradient run's last step; 0 where the separator does
        not separate the data.

    Notes
    -----
    On separable data the exact margin reaches the maximum gamma once
    lambda <= 1/(N max_n alpha_n) and stays there; the SGD run follows it
    until lambda is so small that the penalty, which is what pulls w towards
    the maximum margin, needs more steps than the run has.
    """

    X, y = check_data(X, y)
    exact, found = [], []
    for lam in lams:
        sm = soft_margin(X, y, C=lam_to_C(lam, n=len(y)))
        exact.append(max(geometric_margin(X, y, sm.w, sm.b), 0.0))
        w, b = final(svm_sgd(X, y, lam=lam, **sgd))
        found.append(max(geometric_margin(X, y, w, b), 0.0))
    return np.array(exact), np.array(found)
