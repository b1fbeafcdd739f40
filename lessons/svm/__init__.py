"""Lesson 5: the perceptron versus the SVM: losses, maximum margin, soft margin, generalization."""

import streamlit as st

from lessons.svm.parts import PAGE, PARTS, SETTINGS, exact_max_margin, svm_sidebar
from ui.lesson import Lesson, cannot_go_on


def page() -> None:
    """Perceptron vs SVM: the title, the SVM's settings in the sidebar, the maximum margin, then
    the part picked under the title."""
    lesson = Lesson(PAGE, SETTINGS, parts=PARTS)

    data, settings = lesson.begin(
        "Perceptron vs SVM",
        intro="Both step on one example at a time. The perceptron minimises max(0, −y·a) and stops "
              "once every example is on its side; the SVM minimises the mean hinge max(0, 1 − y·a) "
              "plus (λ/2)‖w‖²: it pushes examples toward y·a ≥ 1, traded off against a small ‖w‖, "
              "so some may stay inside the margin or on the wrong side (slack ξ > 0).",
    )
    with st.sidebar:
        svm_settings = svm_sidebar(lesson, settings, len(data))
    try:
        mm = exact_max_margin(data.X, data.y)
    except ValueError as error:
        cannot_go_on(f"This data cannot be used here: {error}")
    lesson.draw_parts(data, settings, svm_settings, mm)
