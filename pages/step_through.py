"""Lesson 1: the perceptron update, one example at a time."""

import streamlit as st

from core.trace import outcome
from ui.charts import lecture_mode, show
from ui.data_picker import data_picker
from ui.runs import perceptron_trace
from ui.step_controls import reset_on_change, run_signature, step_controls
from ui.step_view import animation_view, explanation, status_row
from ui.training import training_settings, use_notes_example
from viz.plane import plane_figure, weight_figure

PAGE = "step_through"
with st.sidebar:
    data = data_picker()
    settings = training_settings()

st.title("Step through the perceptron")
if not lecture_mode():  # on a projector: only the steps and their maths
    st.caption("One example per step: compute a = w·x + b; if y·a ≤ 0 it is a mistake and "
               "w ← w + ηyx, b ← b + ηy. Keys: → step, ← back, N next mistake, Home reset.")
    st.button("Load the lecture notes' worked example", icon=":material/menu_book:",
              on_click=use_notes_example,
              help="4 points; w = (0.2, 0), b = −0.1, η = 0.1, cyclic order")

try:
    trace = perceptron_trace(data.X, data.y, settings)
except ValueError as error:
    st.error(f"These settings cannot train: {error}")
    st.stop()
reset_on_change(PAGE, run_signature(data.X, data.y, settings))
result = outcome(trace, data.X, data.y, max_epochs=settings["max_epochs"])

view = st.segmented_control("View", ["Step by step", "Play"], default="Step by step",
                            key=f"{PAGE}.view", label_visibility="collapsed")
if view == "Play":
    animation_view(data, trace, result)
    st.stop()

k = step_controls(PAGE, trace)
status_row(trace, k, result)
left, right = st.columns([0.6, 0.4])
i = int(trace.index[k]) if k > 0 else None
updated = bool(trace.updated[k])
before = max(k - 1, 0)
with left:
    show(
        plane_figure(data.X, data.y, data.classes, w=trace.W[k], b=trace.b[k],
                     w_before=trace.W[before] if updated else None, b_before=trace.b[before],
                     visited=i),
        key=f"{PAGE}.plane", alt="The data, the decision boundary and its normal vector w",
    )
with right:
    explanation(data, trace, k, settings)
    show(
        weight_figure(trace.W[before], trace.W[k],
                      trace.W[k] - trace.W[before] if updated else None),
        key=f"{PAGE}.weights", alt="Weight space: w, the update eta*y*x and the new w",
    )
