"""The mark of a run in floats: one badge and its reason, on the page and in the stepper's header.

A run is exact when every decision and number is made in exact arithmetic
(``core.runs.is_exact``); one that is not (data that are not short decimals, the SVM's
descent, an RBF kernel) carries the same visible mark, :data:`core.words.FLOATS`,
wherever its numbers appear.
"""

from __future__ import annotations

import numpy as np
import streamlit as st

from core.runs import is_exact
from core.words import FLOAT_DATA, FLOATS
from ui.stepper import Run


def float_marker(reason: str = FLOAT_DATA, container=None) -> None:
    """The mark and why the run is in floats, as a caption (in ``container`` if given)."""
    (container or st).caption(f":orange-badge[{FLOATS}] {reason}")


def marked(run: Run, *runs, reason: str = FLOAT_DATA, threshold: float = 0.0) -> Run:
    """The stepper's run with its exactness in its header.

    ``header["exact"]`` is :func:`core.runs.is_exact` of ``runs`` (the recorded traces the
    stepper shows); when it is False, ``header["floats"]`` holds the mark and the reason,
    ``{"mark": "≈ floats", "note": reason}``, for the page to show beside the run's maths.
    :meth:`ui.lesson.Lesson.stepper` shows them above the stepper.

    In floats the run decides a margin within rounding of its threshold (0, or the hinge's 1)
    as on it, so a step's printed y·a can sit on the other side of the threshold from its
    decision: the column ``tie`` (uint8 per step) marks those steps of the first run, when
    there are any.
    """
    exact = is_exact(*runs)
    header = run.header.with_(exact=exact)
    columns = run.columns
    if not exact:
        header = header.with_(floats={"mark": FLOATS, "note": reason})
        tie = rounded_ties(runs[0], run.columns["y"], threshold) if runs else None
        if tie is not None and tie.any():
            columns = {**columns, "tie": tie.astype(np.uint8)}
    return Run(run.id, run.steps, header, columns)


def rounded_ties(trace, y, threshold: float) -> np.ndarray | None:
    """Steps whose decision the float y·a would not give by itself: a margin within rounding of
    the threshold decided as on it (an update with y·a above it, or none with y·a below)."""
    if not hasattr(trace, "activation"):
        return None
    index = np.asarray(trace.index)
    ya = np.asarray(y, dtype=float)[np.maximum(index, 0)] * np.asarray(trace.activation)
    updated = np.asarray(trace.updated, dtype=bool)
    with np.errstate(invalid="ignore"):
        if threshold:  # the hinge: an update when y·a < threshold
            odd = np.where(updated, ya >= threshold, ya < threshold)
        else:  # the perceptron: an update when y·a <= 0
            odd = np.where(updated, ya > 0, ya <= 0)
    odd &= (index >= 0) & np.isfinite(ya)
    odd[:1] = False
    return odd
