"""scikit-learn's answers beside this app's own, for the lesson that shows they agree.

The SVM lesson prints, live, scikit-learn's ``Perceptron`` epoch by epoch next
to :func:`core.perceptron.perceptron`, and its linear ``SVC`` next to
:func:`core.descent.svm_sgd` and :func:`core.max_margin.max_margin`. The numbers come
from here; the page only lays them out.
"""

from __future__ import annotations

import warnings

import numpy as np

from core.perceptron import perceptron
from core.trace import record


def perceptron_by_epoch(X, y, *, bias: bool, epochs: int) -> tuple[np.ndarray, np.ndarray]:
    """Ours and scikit-learn's perceptron at the end of each epoch, from w = 0 with eta = 1.

    Parameters
    ----------
    X : ndarray of shape (N, D)
        Finite coordinates.
    y : ndarray of shape (N,)
        Labels in {-1, +1}.
    bias : bool
        Learn b (scikit-learn's ``fit_intercept``).
    epochs : int
        How many epochs, >= 1.

    Returns
    -------
    ours, theirs : ndarray of shape (epochs, D + 1)
        Row e is (w_1, ..., w_D, b) after epoch e + 1; a run of ours that
        converged earlier keeps its last weights.

    Notes
    -----
    Both are the notes' Algorithm 1 in the cyclic order: scikit-learn's
    ``Perceptron(eta0=1, shuffle=False, tol=None, max_iter=e)`` is trained
    afresh for each e, so its rows are independent fits that must agree with
    our single run read at t = e N.
    """
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.linear_model import Perceptron

    run = record(perceptron(X, y, eta=1.0, bias=bias, max_epochs=epochs))
    ours, theirs = [], []
    for epoch in range(1, epochs + 1):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            clf = Perceptron(eta0=1, shuffle=False, tol=None, max_iter=epoch,
                             fit_intercept=bias).fit(X, y)
        k = min(epoch * len(y), run.steps)
        theirs.append(np.r_[clf.coef_[0], clf.intercept_[0]])
        ours.append(np.r_[run.W[k], run.b[k]])
    return np.array(ours), np.array(theirs)


def svc_weights(X, y, C: float, **options) -> np.ndarray:
    """(w_1, ..., w_D, b) of scikit-learn's linear SVC for C, as one vector.

    Parameters
    ----------
    X : ndarray of shape (N, D)
        Finite coordinates.
    y : ndarray of shape (N,)
        Labels in {-1, +1}.
    C : float
        Weight of the slacks, > 0.
    **options
        Passed to ``sklearn.svm.SVC`` (e.g. ``tol``).

    Returns
    -------
    ndarray of shape (D + 1,)
    """
    from sklearn.svm import SVC

    svc = SVC(kernel="linear", C=C, **options).fit(X, y)
    return np.r_[svc.coef_[0], svc.intercept_[0]]
