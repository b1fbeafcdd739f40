"""More than two classes: one perceptron per class against the rest, or one per pair.

One-vs-rest: class c gets its own binary problem (+1 for class c, -1 for every
other class) and its own score y_c(x) = w_[c]^T x + b_c. The prediction is the
class with the highest score; the binary classifiers themselves only say
"mine" (y_c(x) > 0) or "not mine", and where none or several say "mine" the
argmax decides by comparing scores that were never trained to be compared.

One-vs-one: each pair of classes i < j gets a perceptron trained on those two
classes alone, and every pair votes; the class with the most votes wins.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from core.decimals import Misclassified
from core.perceptron import perceptron
from core.runs import final
from core.variants import averaged_weights

WEIGHTS = ("last", "averaged")


@dataclass(frozen=True)
class _Perceptrons:
    """Several binary perceptrons over the same inputs: their weights, one row each."""

    W: np.ndarray
    b: np.ndarray
    names: tuple[str, ...]
    mistakes: np.ndarray
    errors: np.ndarray

    def __post_init__(self) -> None:
        for name in ("W", "b", "mistakes", "errors"):
            value = np.array(getattr(self, name))
            value.setflags(write=False)
            object.__setattr__(self, name, value)

    def scores(self, X) -> np.ndarray:
        """w_k^T x + b_k for every row of X and every perceptron k, shape (M, K)."""
        return np.asarray(X, dtype=float) @ self.W.T + self.b


@dataclass(frozen=True)
class OneVsRest(_Perceptrons):
    """One binary perceptron per class.

    Attributes
    ----------
    W : ndarray of shape (C, D)
        w_[c] for each class c (read-only).
    b : ndarray of shape (C,)
        b_c for each class (read-only).
    names : tuple of str
        The class names, in label order 0..C-1.
    mistakes : ndarray of shape (C,)
        Updates each binary run made.
    errors : ndarray of shape (C,)
        Training examples each binary classifier gets wrong (y a <= 0).

    ``scores(X)`` gives y_c(x) = w_[c]^T x + b_c, shape (M, C).
    """

    def predict(self, X) -> np.ndarray:
        """c* = argmax_c y_c(x) for every row of X (ties go to the lower label)."""
        return np.argmax(self.scores(X), axis=1)

    def claims(self, X) -> np.ndarray:
        """How many classes claim each row of X (y_c(x) > 0): 0 unclaimed, 2 or more disputed."""
        return np.sum(self.scores(X) > 0, axis=1)

    def scaled(self, c: int, factor: float) -> OneVsRest:
        """The same classifiers with y_c multiplied by ``factor`` > 0.

        Class c's own decision (the sign of y_c) does not change; the argmax can.
        """
        if not (np.isfinite(factor) and factor > 0):
            raise ValueError(f"scale factor must be > 0, got {factor}")
        if not 0 <= c < len(self.b):
            raise ValueError(f"class must be between 0 and {len(self.b) - 1}, got {c}")
        W, b = self.W.copy(), self.b.copy()
        W[c] *= factor
        b[c] *= factor
        return OneVsRest(W, b, self.names, self.mistakes, self.errors)


def one_vs_rest(X, labels, *, names=None, weights: str = "last", **kwargs) -> OneVsRest:
    """Train one perceptron per class against all the others.

    Parameters
    ----------
    X : array_like of shape (N, D)
        Finite coordinates.
    labels : array_like of shape (N,)
        Class labels 0, 1, ..., C-1 (C >= 2).
    names : sequence of str, optional
        A name per class; "0", "1", ... by default.
    weights : {"last", "averaged"}, default "last"
        Keep each run's last weights or Algorithm 2's averaged weights mu / T
        over all ``max_epochs`` epochs (:func:`core.variants.averaged_weights`).
    **kwargs
        Passed to :func:`core.perceptron.perceptron` for every class (eta,
        order, init, bias, max_epochs, seed).

    Returns
    -------
    OneVsRest

    Raises
    ------
    ValueError
        If the labels are not 0..C-1 with C >= 2, or an argument is invalid.

    Notes
    -----
    Classifier c is trained on y = +1 where the label is c and y = -1
    elsewhere, and scores y_c(x) = w_[c]^T x + b_c. The prediction
    c* = argmax_c y_c(x) compares scores of C separately trained classifiers,
    whose scales mean nothing to one another: multiplying w_[c], b_c by any
    positive number leaves classifier c unchanged and moves the argmax.

    Examples
    --------
    >>> X = [[0.0, 0.0], [4.0, 0.0], [0.0, 4.0]]
    >>> model = one_vs_rest(X, [0, 1, 2])
    >>> model.predict(X).tolist()
    [0, 1, 2]
    """
    X = np.asarray(X, dtype=float)
    labels, names = _classes(X, labels, names, weights, kwargs)
    W, b, mistakes, errors = [], [], [], []
    for c in range(len(names)):
        y = np.where(labels == c, 1.0, -1.0)
        w_c, b_c, made = _train(X, y, weights, kwargs)
        W.append(w_c)
        b.append(b_c)
        mistakes.append(made)
        errors.append(Misclassified(X, y).count(w_c, b_c))
    return OneVsRest(np.vstack(W), np.array(b), names, np.array(mistakes), np.array(errors))


@dataclass(frozen=True)
class OneVsOne(_Perceptrons):
    """One binary perceptron per pair of classes, and a majority vote.

    Attributes
    ----------
    W : ndarray of shape (P, D)
        w_[ij] for each pair (read-only); y_ij(x) = w_[ij]^T x + b_ij is trained
        with +1 for class i and -1 for class j.
    b : ndarray of shape (P,)
    names : tuple of str
    mistakes : ndarray of shape (P,)
        Updates each pair's run made.
    errors : ndarray of shape (P,)
        Examples of the pair's own two classes it gets wrong (y a <= 0).
    pairs : tuple of (int, int)
        The pairs (i, j), i < j, in the order (0, 1), (0, 2), ..., (1, 2), ...

    ``scores(X)`` gives y_ij(x) for every pair, shape (M, P).
    """

    pairs: tuple[tuple[int, int], ...] = ()

    def votes(self, X) -> np.ndarray:
        """Votes per class, shape (M, C): pair (i, j) votes i when y_ij(x) >= 0, else j."""
        scores = self.scores(X)
        votes = np.zeros((len(scores), len(self.names)), dtype=int)
        for k, (i, j) in enumerate(self.pairs):
            votes[:, i] += scores[:, k] >= 0
            votes[:, j] += scores[:, k] < 0
        return votes

    def decision(self, X) -> np.ndarray:
        """Votes plus a tie-break below 1/3, shape (M, C): scikit-learn's rule.

        Each class also collects the scores of its pairs (+y_ij(x) for i, -y_ij(x)
        for j); the sum s enters as s / (3(|s| + 1)), which lies in (-1/3, 1/3) and
        so only decides between classes with equal votes.
        """
        scores = self.scores(X)
        total = np.zeros((len(scores), len(self.names)))
        for k, (i, j) in enumerate(self.pairs):
            total[:, i] += scores[:, k]
            total[:, j] -= scores[:, k]
        return self.votes(X) + total / (3 * (np.abs(total) + 1))

    def predict(self, X) -> np.ndarray:
        """The class with the most votes; a tie goes to the larger summed score."""
        return np.argmax(self.decision(X), axis=1)

    def tied(self, X) -> np.ndarray:
        """Whether the most votes are shared by two or more classes, for every row of X."""
        votes = self.votes(X)
        return np.sum(votes == votes.max(axis=1, keepdims=True), axis=1) >= 2


def one_vs_one(X, labels, *, names=None, weights: str = "last", **kwargs) -> OneVsOne:
    """Train one perceptron per pair of classes, on that pair's examples alone.

    Parameters
    ----------
    X, labels, names, weights, **kwargs
        As for :func:`one_vs_rest`.

    Returns
    -------
    OneVsOne
        C(C - 1)/2 perceptrons.

    Raises
    ------
    ValueError
        As for :func:`one_vs_rest`.

    Notes
    -----
    Pair (i, j) is trained on the rows of classes i and j, with y = +1 for i
    and -1 for j. To predict, every pair votes (i when y_ij(x) >= 0, j when
    y_ij(x) < 0) and the class with the most votes wins. With three classes a
    tie is one vote each, a cycle i > j > k > i; it goes to the class whose
    summed pair scores are largest (scikit-learn's ``OneVsOneClassifier``
    rule, whose scikit-learn perceptrons predict class i on a score of 0 too).

    Examples
    --------
    >>> X = [[0.0, 0.0], [4.0, 0.0], [0.0, 4.0]]
    >>> model = one_vs_one(X, [0, 1, 2])
    >>> model.pairs, model.predict(X).tolist()
    (((0, 1), (0, 2), (1, 2)), [0, 1, 2])
    """
    X = np.asarray(X, dtype=float)
    labels, names = _classes(X, labels, names, weights, kwargs)
    pairs = tuple((i, j) for i in range(len(names)) for j in range(i + 1, len(names)))
    W, b, mistakes, errors = [], [], [], []
    for i, j in pairs:
        rows = (labels == i) | (labels == j)
        y = np.where(labels[rows] == i, 1.0, -1.0)
        w_ij, b_ij, made = _train(X[rows], y, weights, kwargs)
        W.append(w_ij)
        b.append(b_ij)
        mistakes.append(made)
        errors.append(Misclassified(X[rows], y).count(w_ij, b_ij))
    return OneVsOne(np.vstack(W), np.array(b), names, np.array(mistakes), np.array(errors),
                    pairs)


def _classes(X, labels, names, weights: str, kwargs: dict) -> tuple[np.ndarray, tuple]:
    """Checked labels 0..C-1 (as ints) and the class names; ValueError on anything wrong."""
    labels = np.asarray(labels)
    if labels.shape != (len(X),):
        raise ValueError(f"labels must have shape ({len(X)},) to match X, got {labels.shape}")
    if not np.issubdtype(labels.dtype, np.integer) and not np.all(labels == np.round(labels)):
        raise ValueError("labels must be whole numbers 0, 1, ..., C-1")
    labels = labels.astype(int)
    C = int(labels.max()) + 1 if labels.size else 0
    if labels.size == 0 or labels.min() < 0 or C < 2 or set(np.unique(labels)) != set(range(C)):
        raise ValueError("labels must be 0, 1, ..., C-1 with every class present and C >= 2")
    if weights not in WEIGHTS:
        raise ValueError(f"weights must be 'last' or 'averaged', got {weights!r}")
    names = tuple(str(c) for c in range(C)) if names is None else tuple(map(str, names))
    if len(names) != C:
        raise ValueError(f"names must have {C} entries, got {len(names)}")
    if kwargs.get("every", "visit") != "visit":
        raise ValueError("every must be 'visit' here: each class's run is recorded whole")
    return labels, names


def _train(X, y, weights: str, kwargs: dict) -> tuple[np.ndarray, float, int]:
    """The final (or averaged) weights of one binary run and its number of mistakes.

    The averaged weights are Algorithm 2's: the run visits every one of ``max_epochs``
    epochs, converged or not, as the binary Averaged part's run does
    (:func:`core.variants.averaged_weights`).
    """
    if weights == "averaged":
        w, b, mistakes, _ = averaged_weights(X, y, **{k: v for k, v in kwargs.items()
                                                      if k != "every"})
        return np.array(w), float(b), mistakes
    run = perceptron(X, y, **{**kwargs, "every": "update"})
    w, b = final(run)
    return np.array(w), float(b), run.mistakes
