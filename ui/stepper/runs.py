"""Each kind of run as the stepper draws it: a perceptron's (or the SVM's descent), and a run
with a companion stepped beside it."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from core.trace import Outcome, Trace
from datasets import Dataset
from ui.stepper.figures import figure_json, plane_skeleton, weights_skeleton
from ui.stepper.header import Run, run_header
from ui.stepper.wire import epoch_columns, exact_scale, run_id
from viz.plane import PLANE_HEIGHT, PLANE_HEIGHT_LECTURE

PLANE_LAYERS = ("boundary", "ghost", "normal", "visited", "weights", "explain")


def perceptron_run(data: Dataset, trace: Trace, settings: dict, result: Outcome, *,
                   lecture: bool = False, layers=PLANE_LAYERS, figure: go.Figure | None = None,
                   words: dict | None = None, extra: dict | None = None,
                   descent: dict | None = None) -> Run:
    """A perceptron run as the stepper draws it on the plane, with weight space and maths.

    Parameters
    ----------
    data : Dataset
        The points the run visited.
    trace : Trace
        The recorded run.
    settings : dict
        The run's settings (``eta`` and ``bias`` are shown in the maths).
    result : Outcome
        How the run ends (shown in the status line at its last step).
    lecture : bool, default False
        Draw for a projector: larger type, lines and markers.
    layers : sequence of str
        What the browser draws, and nothing it does not name (the plane's
        ``"boundary"``, its ``"normal"``, the ``"ghost"`` of the boundary before an
        update, ``"visited"``'s ring): any of ``PLANE_LAYERS``, ``"band"`` (the margin
        band of the current boundary and its closest point, and the margin in the
        status line), ``"errors"`` (training errors in the status line).
    figure : plotly Figure, optional
        The lesson's own static figure of the plane (with its points and fixed
        axis ranges) to draw the moving parts over; by default the house plane.
    words : dict, optional
        ``{"mistakes": "violation"}`` names what ``mistakes`` counts; ``"window"``
        what a window of a longer run is (``"of the period"``), its steps then shown
        with the run's own t; ``"boundary"`` what the arrow at the view's edge calls
        the boundary when it lies outside the view (``"boundary"``).
    extra : dict of str to ndarray, optional
        More columns, e.g. ``stops`` (uint8 per step: where Next mistake stops,
        when a lesson's clock stops at more than this run's updates).
    descent : dict, optional
        ``{"lam": ..., "eta0": ...}``: the run is the SVM's subgradient descent
        (core.descent.svm_sgd). The page writes its maths, and rebuilds its W and b
        from their start (the penalty shrinks w on every step) and each a, operation for
        operation as core takes them (tests hold wire.js to the recorded bits).

    Returns
    -------
    Run
        For :func:`stepper`.
    """
    X = np.asarray(data.X, dtype=float)
    more = {}
    if figure is None:  # built only when used (16 ms of CPU)
        more.update(figure=plane_skeleton(
            data, height=PLANE_HEIGHT_LECTURE if lecture else PLANE_HEIGHT, lecture=lecture),
                    point_traces=([0, -1], [1, 1]))
    else:
        more.update(figure=figure_json(figure, lecture=lecture))
    if "weights" in layers:
        more["weights_figure"] = weights_skeleton(trace.W, height=384 if lecture else 320,
                                                  lecture=lecture)
    if trace.steps and trace.t[1] != 1:  # a window of a longer run: show its own t
        more["t0"] = int(trace.t[1]) - 1
    columns = {"X": X, "y": np.asarray(data.y).astype(np.int8),
               "index": trace.index.astype(np.int16 if len(X) < 2**15 else np.int32),
               "updated": trace.updated.astype(np.uint8)}
    if descent is not None:
        # the page rebuilds W and b from row 0 as core/descent.py steps (wire.js's descend;
        # tests/browser/js/test_wire.py holds the two to the same bits)
        more.update(svm={"lam": float(descent["lam"]), "eta0": float(descent["eta0"])},
                    descent=True)
        columns.update(W=np.asarray(trace.W[:1], dtype=np.float64),
                       b=np.asarray(trace.b[:1], dtype=np.float64))
    else:
        weights = _weights(trace)
        if "held" in weights:
            more["held"] = tuple(weights.pop("held"))
        columns.update(weights)
    scale, exact_a = exact_scale(trace, X)
    if scale is not None:
        more["scale"] = scale
    if not exact_a and descent is None:
        # the page writes a = w.x + b itself from an exact run's integers, and the SVM's (in
        # floats, marked ≈) as its descent does; another run in floats sends its own
        columns["activation"] = np.asarray(trace.activation, dtype=np.float64)
    columns.update(epoch_columns(trace))
    columns.update(extra or {})
    counted = trace.mistakes[0] + np.cumsum(np.r_[0, trace.updated[1:]])
    if np.array_equal(counted, trace.mistakes):  # the browser counts them itself
        columns["mistakes0"] = np.asarray(trace.mistakes[:1], dtype=np.int32)
    else:  # e.g. a part of a run whose count started before it
        columns["mistakes"] = trace.mistakes.astype(np.int32)
    header = run_header(data, trace.steps, eta=settings["eta"], bias=settings["bias"],
                        layers=layers, lecture=lecture, words=words,
                        result={"converged": bool(result.converged), "message": result.message},
                        **more)
    # the data, the settings and the run itself: two runs of one setting (e.g. a part of it)
    # never share an id, so the browser never carries a step from one to the other
    ident = run_id(np.concatenate([X.ravel(), trace.W.ravel(), trace.b]), data.y,
                   {**settings, "steps": trace.steps})
    return Run(ident, trace.steps, header, columns)


def _weights(trace: Trace) -> dict:
    """W and b as float64 (every number shown exact), only at the start and at updates when
    they change nowhere else (the perceptron's; not the SVM's decay): a few KB, not 24 per step.
    """
    W, b = np.asarray(trace.W, dtype=np.float64), np.asarray(trace.b, dtype=np.float64)
    kept = trace.updated.astype(bool).copy()
    kept[:1] = True
    rows = np.cumsum(kept) - 1
    at = np.flatnonzero(kept)
    # bit for bit: a -0.0 must not pass for 0.0
    if np.array_equal(W[at][rows].view(np.int64), W.view(np.int64)) and \
            np.array_equal(b[at][rows].view(np.int64), b.view(np.int64)):
        return {"W": W[at], "b": b[at], "held": ["W", "b"]}
    return {"W": W, "b": b}


# what a companion's header leaves out: its plane is the run's own
_COMPANION_DROPS = ("figure", "point_traces", "weights_figure", "columns", "digest")


def with_companion(run: Run, other: Run) -> Run:
    """``run`` with ``other`` (a run of the same data and length) stepped with it in one
    stepper: ``other``'s boundary on the same plane, its maths beside the run's.

    ``other``'s header travels as ``header["companion"]``, its columns as
    ``"companion.<name>"`` (the points are the run's own); the page (wire.js) rebuilds it as
    a run of its own. On a projector two runs on one plane leave the picture the screen's
    height, which two charts side by side, each over its maths, cannot.
    """
    if other.steps != run.steps or not np.array_equal(other.columns["X"], run.columns["X"]):
        raise ValueError("a companion run steps the same points as long as the run")
    header = {key: value for key, value in other.header.wire().items()
              if key not in _COMPANION_DROPS}
    columns = {**run.columns, **{f"companion.{name}": values for name, values
                                 in other.columns.items() if name not in ("X", "y")}}
    return Run(f"{run.id}+{other.id}", run.steps,
               run.header.with_(companion=header,
                                layers=(*run.header.layers, "companion")), columns)
