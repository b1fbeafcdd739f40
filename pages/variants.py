"""Lesson 6: averaged, voted and kernel perceptrons, and more than two classes."""

import streamlit as st

from ui.budget import lesson_data
from ui.data_picker import data_picker
from ui.lesson_variants import (
    PAGE,
    URL_FIELDS,
    VIEWS,
    averaged_and_voted,
    kernel_part,
    more_classes,
)
from ui.training import training_settings
from ui.url_state import page_fields, write

page_fields(URL_FIELDS, page=PAGE)  # a link's view, once per session
with st.sidebar:
    data = data_picker()
    settings = training_settings()

st.title("Variants of the perceptron")
data = lesson_data(data, view=PAGE)
view = st.segmented_control("Part", list(VIEWS), format_func=VIEWS.get, key=f"{PAGE}.view",
                            required=True, label_visibility="collapsed")
write(URL_FIELDS)  # widget values are final before the script runs: one write covers them
if view == "averaged":
    averaged_and_voted(data, settings)
elif view == "kernel":
    kernel_part(data, settings)
else:
    more_classes(settings)
