"""Perceptrons that keep more than the last weights: averaged (and, beside it, voted)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from core.perceptron import Step, check_data, perceptron


@dataclass(frozen=True)
class AveragedStep(Step):
    """A :class:`Step` with the running average of the weights after every visit so far."""

    w_avg: np.ndarray
    b_avg: float


def averaged_perceptron(X, y, **kwargs) -> Iterator[AveragedStep]:
    """The seeds' averaged perceptron (Algorithm 2), streamed one visit at a time.

    Parameters
    ----------
    X, y, **kwargs
        As for :func:`core.perceptron.perceptron` (``every`` must stay "visit":
        the average counts the visits that did not update too).

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
    total_w, total_b = np.zeros(X.shape[1]), 0.0
    for step in perceptron(X, y, **kwargs):
        total_w = total_w + step.w
        total_b += step.b
        w_avg = total_w / step.t
        w_avg.setflags(write=False)
        yield AveragedStep(**vars(step), w_avg=w_avg, b_avg=total_b / step.t)

