"""Recorded runs padded to one length, so one step slider drives several side by side."""

from __future__ import annotations

import numpy as np

from core.trace import Trace

__all__ = ["align"]

def align(*traces: Trace) -> tuple[Trace, ...]:
    """Pad recorded runs to the same number of steps, so one step slider drives them all.

    Parameters
    ----------
    *traces : Trace
        Recorded runs (:func:`core.trace.record`).

    Returns
    -------
    tuple of Trace
        The runs in the same order, each with ``max(trace.steps)`` steps. A run
        that ended early keeps its last weights and mistakes in the padded
        rows, which are marked ``index = -1``, ``updated = False`` and NaN
        ``activation``; the longest run is returned unchanged.
    """
    steps = max(trace.steps for trace in traces)
    return tuple(_pad(trace, steps) for trace in traces)


def _pad(trace: Trace, steps: int) -> Trace:
    """The trace with its last state repeated up to ``steps``."""
    extra = steps - trace.steps
    if extra == 0:
        return trace
    last = trace.steps
    return Trace(
        t=np.r_[trace.t, trace.t[last] + np.arange(1, extra + 1)],
        epoch=np.r_[trace.epoch, np.full(extra, trace.epoch[last])],
        index=np.r_[trace.index, np.full(extra, -1)],
        activation=np.r_[trace.activation, np.full(extra, np.nan)],
        updated=np.r_[trace.updated, np.zeros(extra, dtype=bool)],
        W=np.vstack([trace.W, np.repeat(trace.W[last:], extra, axis=0)]),
        b=np.r_[trace.b, np.full(extra, trace.b[last])],
        mistakes=np.r_[trace.mistakes, np.full(extra, trace.mistakes[last])],
        complete=trace.complete,
    )
