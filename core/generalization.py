"""How well the perceptron generalizes: several runs and one SVM scored on a held-out split,
and Theorem 2.6's bound on the expected test error, drawn over many training sets."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from core.decimals import Misclassified
from core.evaluation import (
    LeaveOneOut,
    error_rate,
    leave_one_out,
    split,
    trained,
)
from core.geometry import check_data, mistake_bound
from core.max_margin import max_margin
from core.soft_margin import soft_margin


@dataclass(frozen=True)
class Generalization:
    """Several perceptron runs and one SVM, trained on one split and scored on the other.

    Attributes
    ----------
    train, test : ndarray of int
        Row indices of the split.
    runs : list of (w, b, test_error)
        The perceptron's final weights for seeds 0, 1, ... and their test error.
    converged : list of bool
        For each run, whether it converged (separates the training set).
    svm : (w, b)
        The maximum-margin separator of the training set, or its soft margin
        for C when it is not separable.
    separable : bool
        Whether the training set is linearly separable.
    svm_error : float
        The SVM's test error.
    ratio : float
        R^2/gamma^2 of the training set as the perceptron sees it (inf when
        not separable).
    loo : LeaveOneOut or None
        The perceptron's leave-one-out runs on the training set (None when not
        computed).
    """

    train: np.ndarray
    test: np.ndarray
    runs: list
    converged: list
    svm: tuple
    separable: bool
    svm_error: float
    ratio: float
    loo: LeaveOneOut | None


def generalization(X, y, *, test_fraction: float, split_seed: int | None, runs: int,
                   order: str, max_epochs: int | None = None, C: float = 1.0,
                   loo_limit: int = 150) -> Generalization:
    """Train the perceptron from several seeds and the SVM on a split; score both on the rest.

    Parameters
    ----------
    X, y : array_like
        Inputs (N, D) and labels (N,) in {-1, +1}.
    test_fraction, split_seed
        As for :func:`split`.
    runs : int
        Perceptron runs, with seeds 0 .. runs - 1 (eta 1, from w = 0).
    order : str
        Their visiting order (one of :data:`core.perceptron.ORDERS`; a random
        one, or every run is the same).
    max_epochs : int or None, default None
        Epochs per perceptron run; None trains every run (and every
        leave-one-out run) to convergence, as Theorem 2.6 assumes.
    C : float, default 1
        The soft margin's C, used only when the training set is not separable.
    loo_limit : int, default 150
        Leave-one-out errors are counted only up to this many training points
        (it trains the perceptron once per point), and only on separable data.

    Returns
    -------
    Generalization

    Raises
    ------
    ValueError
        If the split is impossible or a setting is invalid.

    Notes
    -----
    The notes' point: every run separates the training data (zero in-sample
    error), yet their out-of-sample errors differ; the maximum-margin
    separator is a function of the training data alone. Theorem 2.6 bounds
    the perceptron's expected error by E[R^2/gamma^2]/(N + 1); ``ratio`` is
    this training set's R^2/gamma^2.
    """

    X, y = check_data(X, y)
    train, test = split(y, test_fraction=test_fraction, seed=split_seed)
    Xtr, ytr = X[train], y[train]
    found, converged = [], []
    for seed in range(runs):
        w, b, done = trained(Xtr, ytr, order=order, seed=seed, max_epochs=max_epochs)
        found.append((w, b, error_rate(X[test], y[test], w, b)))
        converged.append(done)
    mm = max_margin(Xtr, ytr)
    svm = mm if mm is not None else soft_margin(Xtr, ytr, C=C)
    loo = (leave_one_out(Xtr, ytr, max_epochs=max_epochs)
           if mm is not None and len(train) <= loo_limit else None)
    return Generalization(train=train, test=test, runs=found, converged=converged,
                          svm=(svm.w, svm.b),
                          separable=mm is not None,
                          svm_error=error_rate(X[test], y[test], svm.w, svm.b),
                          ratio=mistake_bound(Xtr, ytr), loo=loo)


@dataclass(frozen=True)
class Draws:
    """Theorem 2.6 as an experiment: many random draws of N + 1 examples.

    Attributes
    ----------
    n : int
        Training examples per draw (N).
    wrong : ndarray of bool
        For each draw, whether the perceptron trained to convergence on the
        first N examples errs on the (N + 1)-th (y w.x + y b <= 0).
    ratios : ndarray of float
        For each draw, R^2/gamma^2 of its N + 1 examples (as the perceptron
        with a bias sees them).
    converged : int
        Draws whose training run converged (all, on separable data).
    """

    n: int
    wrong: np.ndarray
    ratios: np.ndarray
    converged: int

    @property
    def error(self) -> float:
        """The mean test error over the draws: the left side of Theorem 2.6, estimated."""
        return float(np.mean(self.wrong))

    @property
    def bound(self) -> float:
        """The mean R^2/gamma^2 over the draws, divided by N + 1: the right side, estimated."""
        return float(np.mean(self.ratios)) / (self.n + 1)


def theorem_2_6(X, y, *, n: int, draws: int, seed: int | None = 0) -> Draws:
    """Draw N + 1 examples uniformly from a separable set, many times; train on N, test on 1.

    Parameters
    ----------
    X, y : array_like
        The set D the examples are drawn from (with replacement, duplicates
        allowed, as in the theorem); it must be linearly separable.
    n : int
        N, the training examples per draw (>= 1).
    draws : int
        How many draws (>= 1).
    seed : int or None, default 0
        Seed of the draws.

    Returns
    -------
    Draws

    Raises
    ------
    ValueError
        If D is not linearly separable, or n or draws is below 1.

    Notes
    -----
    Theorem 2.6 bounds E[I[y^(N+1) w.x^(N+1) <= 0]] by E[R^2/gamma^2]/(N + 1),
    both expectations over the draw; :attr:`Draws.error` and
    :attr:`Draws.bound` are their sample means. Each run is the cyclic
    perceptron from w = 0, trained to convergence (:func:`trained`).
    """
    X, y = check_data(X, y)
    if n < 1 or draws < 1:
        raise ValueError(f"n and draws must be at least 1, got n={n}, draws={draws}")
    if not np.isfinite(mistake_bound(X, y)):
        raise ValueError("the data are not linearly separable: Theorem 2.6 assumes they are")
    rng = np.random.default_rng(seed)
    wrong, ratios, converged = [], [], 0
    for _ in range(draws):
        rows = rng.integers(0, len(y), size=n + 1)
        train, test = rows[:n], rows[n]
        w, b, done = trained(X[train], y[train])
        converged += done
        wrong.append(bool(Misclassified(X[test:test + 1], y[test:test + 1]).rows(w, b)[0]))
        ratios.append(mistake_bound(X[rows], y[rows]))
    return Draws(n=n, wrong=np.array(wrong), ratios=np.array(ratios), converged=converged)

