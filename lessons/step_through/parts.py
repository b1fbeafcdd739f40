"""Step through's parts: the run, step by step, and the loss surface (shown when the data are
the notes' two-point example)."""

from __future__ import annotations

import numpy as np
import streamlit as st

from core.loss_surface import MAX_GRID, loss_surface, weight_grid
from core.perceptron import perceptron
from core.trace import outcome, record, training_errors
from datasets import Dataset
from datasets.builtin import notes_two_points
from lessons import link
from lessons.step_through.figures import loss_figure
from ui.cached_runs import perceptron_trace
from ui.floats import marked
from ui.lecture import lecture_mode
from ui.lesson import Lesson, Parts, cannot_go_on
from ui.next_try import capped_run_hint
from ui.stepper import export_buttons, perceptron_run
from viz.maths import num

PAGE = "step_through"
# The parts, each drawn from the data and the run settings, one after the other.
PARTS = Parts()


@PARTS.part("run")
def stepped_run(lesson: Lesson, data: Dataset, settings: dict) -> None:
    """The run, stepped through in the browser; how it ends and its downloads under it."""
    try:
        trace = perceptron_trace(data.X, data.y, settings)
    except ValueError as error:
        cannot_go_on(f"These settings cannot train: {error}")
    result = outcome(trace, data.X, data.y, max_epochs=settings["max_epochs"])
    lesson.stepper(marked(perceptron_run(data, trace, settings, result, lecture=lecture_mode()),
                          trace))
    if not lecture_mode():
        st.caption(f"Where this run ends: {result.message}")
        if capped_run_hint(data, trace, settings, result, key=f"{PAGE}.more_epochs"):
            link("nonseparable", label="Pocket and averaged runs on these data",
                 icon=":material/autorenew:")
        export_buttons(PAGE, data, trace)


def is_two_points(data: Dataset) -> bool:
    """Whether the data are the notes' two-point example (by their numbers, not their name)."""
    notes = notes_two_points()
    return np.array_equal(np.asarray(data.X, float), notes.X) and np.array_equal(
        np.asarray(data.y, float), notes.y)


@st.cache_data(max_entries=16, show_spinner=False)
def surface_and_path(settings: dict) -> tuple:
    """The run without a bias (its other settings as given): its path of weights, the grid
    around it, the loss there, and the run's trace."""
    data = notes_two_points()
    init = settings["init"]
    if isinstance(init, tuple):  # typed weights: the notes' surface has no bias to start
        init = (init[0], 0.0)
    trace = record(perceptron(data.X, data.y, **{**settings, "bias": False, "init": init}))
    path = trace.W[np.concatenate([[0], trace.update_positions])]
    w1s, w2s = weight_grid(path, size=MAX_GRID)
    return w1s, w2s, loss_surface(data.X, data.y, w1s, w2s), path, trace


@PARTS.part("loss_surface")
def loss_surface_section(lesson: Lesson, data: Dataset, settings: dict) -> None:
    """The perceptron loss over (w1, w2) for the two-point example, and the run's path over it."""
    if not is_two_points(data):
        return
    st.header("The loss surface of the two-point example")
    w1s, w2s, loss, path, trace = surface_and_path(settings)
    st.markdown(
        "The lecture notes write the perceptron without a bias (a constant feature can carry "
        "one), so its loss L(**w**) = Σᵢ max(0, −yᵢ **w**·**x**ᵢ) lives in the plane of "
        "(w₁, w₂). Shaded: L = 0, the weights that put neither point on its wrong side. "
        "Lines: L = 1, 2, …. Each update is a step of stochastic subgradient descent on it: "
        "**w** ← **w** + ηy**x** on the example with y·a ≤ 0.")
    lesson.chart(loss_figure(w1s, w2s, loss, path),
                 key="loss_surface", alt="Contours of the perceptron loss over w1 and w2 for "
                 "the two-point example, the zero-loss region shaded, and the run's weights "
                 "after each update")
    end = path[-1]
    settled = trace.complete and training_errors(data.X, data.y, end, 0.0) == 0
    st.caption(
        ("The same settings as the run above, but without a bias (b = 0 throughout). "
         if settings["bias"] else "The run above. ")
        + f"{len(path) - 1} updates take **w** from ({num(path[0][0])}, {num(path[0][1])}) to "
        f"({num(end[0])}, {num(end[1])})"
        + (", inside the shaded region, off its edge: there both y·a > 0 and the run stops. "
           if settled else ". ")
        + "On the edge of the region L = 0 too, yet y·a = 0 there still counts as a mistake.")
