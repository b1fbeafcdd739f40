"""Lesson 5: the perceptron versus the SVM: losses, maximum margin, soft margin, generalization."""

import streamlit as st

from ui.budget import lesson_data
from ui.data_picker import data_picker
from ui.lesson_svm import PAGE, PARTS, SECTIONS, URL_FIELDS, exact_max_margin, svm_sidebar
from ui.training import training_settings
from ui.url_state import page_fields, write

page_fields(URL_FIELDS, page=PAGE)  # a link's view, once per session
write(URL_FIELDS)  # widget values are final before the script runs: one write covers them
with st.sidebar:
    data = data_picker()
    settings = training_settings()

st.title("Perceptron vs SVM")
data = lesson_data(data, view=PAGE)
with st.sidebar:
    svm_settings = svm_sidebar(settings, len(data))
st.caption("Both step on one example at a time. The perceptron minimises max(0, −y·a) and stops "
           "once every example is on its side; the SVM minimises the mean hinge max(0, 1 − y·a) "
           "plus (λ/2)‖w‖²: it pushes examples toward y·a ≥ 1, traded off against a small ‖w‖, "
           "so some may stay inside the margin or on the wrong side (slack ξ > 0).")
section = st.segmented_control("Part", SECTIONS, key="svm.section", required=True,
                               label_visibility="collapsed")
try:
    mm = exact_max_margin(data.X, data.y)
except ValueError as error:
    st.error(f"This data cannot be used here: {error}")
    st.stop()

PARTS[section](data, settings, svm_settings, mm)
