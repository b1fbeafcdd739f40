"""More than two classes: one perceptron per class against the rest.

Class c gets its own binary problem (+1 for class c, -1 for every other
class) and its own score y_c(x) = w_[c]^T x + b_c. The prediction is the
class with the highest score; the binary classifiers themselves only say
"mine" (y_c(x) > 0) or "not mine", and where none or several say "mine" the
argmax decides by comparing scores that were never trained to be compared.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

import numpy as np

from core.perceptron import perceptron
from core.runs import final
from core.variants import averaged_perceptron

WEIGHTS = ("last", "averaged")


@dataclass(frozen=True)
class OneVsRest:
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
    """

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
        """y_c(x) = w_[c]^T x + b_c for every row of X and every class, shape (M, C)."""
        return np.asarray(X, dtype=float) @ self.W.T + self.b

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
        Keep each run's last weights or its averaged weights mu / t
        (:func:`core.variants.averaged_perceptron`).
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
    W, b, mistakes, errors = [], [], [], []
    for c in range(C):
        y = np.where(labels == c, 1.0, -1.0)
        w_c, b_c, made = _train(X, y, weights, kwargs)
        W.append(w_c)
        b.append(b_c)
        mistakes.append(made)
        errors.append(int(np.sum(y * (X @ w_c + b_c) <= 0)))
    return OneVsRest(np.vstack(W), np.array(b), names, np.array(mistakes), np.array(errors))


def _train(X, y, weights: str, kwargs: dict) -> tuple[np.ndarray, float, int]:
    """The final (or averaged) weights of one binary run and its number of mistakes."""
    if weights == "averaged":
        stream = averaged_perceptron(X, y, **kwargs)
        last = deque(stream, maxlen=1)
        if last:
            return np.array(last[0].w_avg), float(last[0].b_avg), int(last[0].mistakes)
        # no visit at all (a random order that starts with nothing wrong): the start stands
        return np.array(stream.start[0]), float(stream.start[1]), 0
    run = perceptron(X, y, **{**kwargs, "every": "update"})
    w, b = final(run)
    return np.array(w), float(b), run.mistakes
