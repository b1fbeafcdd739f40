"""Lesson 4: non-separable data. The perceptron cycles; the pocket and the average help."""

import streamlit as st

from ui.budget import lesson_data
from ui.data_picker import data_picker
from ui.lesson_nonseparable import (
    bound_section,
    errors_section,
    lesson,
    run_views,
    suggestions,
    verdict,
)
from ui.training import training_settings

with st.sidebar:
    data = data_picker()
    settings = training_settings()

st.title("Non-separable data: the perceptron cycles")
data = lesson_data(data, view="nonseparable")
st.caption("When no line separates the classes, some example is always on the wrong side, so "
           "the updates never stop. The cycling theorem: the weights still stay bounded, in "
           "any order. When the data, η and the start are rational (every short decimal is), "
           "bounded weights can take only finitely many values, so in a fixed order the run "
           "comes back exactly to weights it held at the start of an earlier epoch and from "
           "then on repeats the same epochs for ever. With irrational numbers the weights stay "
           "bounded but need not repeat exactly.")
suggestions()

try:
    shown = lesson(data.X, data.y, settings)
except ValueError as error:
    st.error(f"These settings cannot train: {error}")
    st.stop()

verdict(shown)
run_views(data, shown, settings)
errors_section(shown, len(data.y), settings["max_epochs"])
bound_section(data, shown, settings)
