"""Lesson 1: the perceptron update, one example at a time."""

import streamlit as st

from core.trace import outcome
from ui.floats import marked
from ui.lecture import lecture_mode
from ui.lesson import Lesson
from ui.loss_surface import loss_surface_section
from ui.runs import perceptron_trace
from ui.stepper import export_buttons, perceptron_run
from ui.training import use_notes_example

PAGE = "step_through"
lesson = Lesson(PAGE)


def notes_example() -> None:
    """The button that loads the notes' worked example (on a projector too)."""
    st.button("Lecture notes' example", icon=":material/menu_book:", on_click=use_notes_example,
              help="Load the lecture notes' worked example: 4 points; w = (0.2, 0), b = −0.1, "
                   "η = 0.1, cyclic order. Points 1 and 2 are the notes'; points 3 and 4 are "
                   "reconstructed from the numbers the notes give for them (y·a = 0.35 at the "
                   "third, an update at the fourth).")


data, settings = lesson.begin(
    "Step through the perceptron", beside=notes_example,
    intro="One example per step: compute a = w·x + b; if y·a ≤ 0 it is a mistake and "
          "w ← w + ηyx, b ← b + ηy. Keys: → step, ← back, N next mistake, Home reset.",
)
try:
    trace = perceptron_trace(data.X, data.y, settings)
except ValueError as error:
    st.error(f"These settings cannot train: {error}")
    st.stop()
result = outcome(trace, data.X, data.y, max_epochs=settings["max_epochs"])
lesson.stepper(marked(perceptron_run(data, trace, settings, result, lecture=lecture_mode()), trace))
if not lecture_mode():
    st.caption(f"Where this run ends: {result.message}")
    export_buttons(PAGE, data, trace)
loss_surface_section(lesson, data, settings)
