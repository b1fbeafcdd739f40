"""The mark of a run in floats: one badge and its reason, on the page and in the stepper's header.

A run is exact when every decision and number is made in exact arithmetic
(``core.runs.is_exact``); one that is not (data that are not short decimals, the SVM's
descent, an RBF kernel) carries the same visible mark, :data:`core.words.FLOATS`,
wherever its numbers appear.
"""

from __future__ import annotations

import streamlit as st

from core.runs import is_exact
from core.words import FLOAT_DATA, FLOATS
from ui.stepper import Run


def float_marker(reason: str = FLOAT_DATA, container=None) -> None:
    """The mark and why the run is in floats, as a caption (in ``container`` if given)."""
    (container or st).caption(f":orange-badge[{FLOATS}] {reason}")


def marked(run: Run, *runs, reason: str = FLOAT_DATA) -> Run:
    """The stepper's run with its exactness in its header.

    ``header["exact"]`` is :func:`core.runs.is_exact` of ``runs`` (the recorded traces the
    stepper shows); when it is False, ``header["floats"]`` holds the mark and the reason,
    ``{"mark": "≈ floats", "note": reason}``, for the page to show beside the run's maths.
    :meth:`ui.lesson.Lesson.stepper` shows them above the stepper.
    """
    exact = is_exact(*runs)
    header = {**run.header, "exact": exact}
    if not exact:
        header["floats"] = {"mark": FLOATS, "note": reason}
    return Run(run.id, run.steps, header, run.columns)
