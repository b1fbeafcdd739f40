"""Panels that show one step of a recorded run: live numbers, the maths, the animation."""

from __future__ import annotations

import numpy as np
import streamlit as st

from core.trace import Outcome, Trace
from datasets import Dataset
from ui.charts import show
from viz import maths
from viz.export import standalone_html, trace_csv
from viz.plane import animation_figure

# Frames in a browser animation; longer runs play their updates only.
FRAME_LIMIT = 1_000


def status_row(trace: Trace, k: int, result: Outcome) -> None:
    """Step, epoch and mistakes at position k, and how the whole run ends."""
    cols = st.columns(4)
    cols[0].metric("Step t", f"{k} / {trace.steps}")
    cols[1].metric("Epoch", int(trace.epoch[k]) if k else 0)
    cols[2].metric("Mistakes so far", int(trace.mistakes[k]))
    if k < trace.steps:
        cols[3].metric("Status", "still learning")
        st.caption(f"Where this run ends: {result.message}")
    elif result.converged:
        cols[3].metric("Status", "converged")
        st.success(result.message, icon=":material/check_circle:")
    else:
        cols[3].metric("Status", "not converged")
        st.warning(result.message, icon=":material/warning:")


def explanation(data: Dataset, trace: Trace, k: int, settings: dict) -> None:
    """The step in the seeds' notation with the real numbers."""
    w, b = trace.W[k], trace.b[k]
    if k == 0:
        st.markdown("**Before the first step.** The boundary is")
        st.latex(maths.boundary_equation(w, b) if np.any(w != 0)
                 else r"\mathbf{w} = \mathbf{0}:\ \text{no boundary yet (every } a = "
                      + maths.num(b) + ")")
        st.markdown("Press **Step** (→) to visit the first example.")
        return
    i = int(trace.index[k])
    x, y = data.X[i], float(data.y[i])
    name = data.classes[0 if y < 0 else 1]
    st.markdown(f"**Step {k}, epoch {trace.epoch[k]}**: example {i} "
                f"x = ({maths.num(x[0])}, {maths.num(x[1])}), y = {maths.num(y)} ({name})")
    for line in maths.step_lines(
        x=x, y=y, w_before=trace.W[k - 1], b_before=trace.b[k - 1], w_after=w, b_after=b,
        a=trace.activation[k], updated=bool(trace.updated[k]), eta=settings["eta"],
        bias=settings["bias"],
    ):
        st.latex(line)
    if np.any(w != 0):
        st.markdown("New boundary:" if trace.updated[k] else "Boundary (unchanged):")
        st.latex(maths.boundary_equation(w, b))


def animation_view(data: Dataset, trace: Trace, result: Outcome) -> None:
    """The run as a browser animation: every step, or every update for long runs."""
    if trace.steps <= FRAME_LIMIT:
        frames = np.arange(trace.steps + 1)
        st.caption("Every step of the run. Press ▶ Play in the chart; drag its slider to scrub.")
    else:
        frames = np.concatenate([[0], trace.update_positions])[: FRAME_LIMIT]
        st.caption(f"The run has {trace.steps:,} steps: the animation shows its first "
                   f"{len(frames) - 1:,} updates.")
    labels = ["start" if k == 0 else
              f"t={trace.t[k]} · epoch {trace.epoch[k]} · {trace.mistakes[k]} mistakes"
              for k in frames]
    figure = animation_figure(data.X, data.y, data.classes, trace.W[frames], trace.b[frames],
                              trace.index[frames], labels)
    show(figure, key="animation", alt="Animation of the decision boundary over the run")
    st.caption(result.message)
    export_buttons(data, trace, figure)


def export_buttons(data: Dataset, trace: Trace, figure) -> None:
    """Downloads made only when clicked: the animation as one offline HTML file, the trace CSV."""
    left, right, _ = st.columns([1, 1, 2])
    left.download_button("Animation (HTML, plays offline)", lambda: standalone_html(figure),
                         file_name="perceptron_run.html", mime="text/html",
                         icon=":material/movie:", on_click="ignore", key="export.html")
    right.download_button("Every step (CSV)", lambda: trace_csv(trace, data.X, data.y),
                          file_name="perceptron_steps.csv", mime="text/csv",
                          icon=":material/table:", on_click="ignore", key="export.csv")
