"""Lesson 3: Boolean functions as perceptrons, and why no line computes XOR."""

import streamlit as st

from core.boolean import truth_table
from lessons.boolean.parts import (
    ENCODING,
    ENCODING_LABELS,
    FUNCTION,
    PAGE,
    SETTINGS,
    current_weights,
    keep_state,
    lift_section,
    load_hand_weights,
    parity_section,
    training_section,
    weights_panel,
    xor_section,
)
from ui.lecture import lecture_toggle
from ui.lesson import Lesson
from viz.boolean import truth_figure, worked_lines


def page() -> None:
    """Draw the lesson (the navigation calls this on every run of its page)."""
    lesson = Lesson(PAGE, SETTINGS, shared=False)  # its data are the truth tables
    keep_state()
    with st.sidebar:
        lecture_toggle()
        st.caption("This lesson uses the truth tables on the page; the data picker comes back "
                   "on the other lessons, with your settings kept.")

    lesson.title(
        "Boolean functions and XOR",
        intro="A perceptron computes a Boolean function when the sign of a = w₁x₁ + w₂x₂ + b gives "
              "the right output on every row of the truth table: a > 0 true, a < 0 false (0 or −1, "
              "as the table writes it), and a = 0 counts as wrong.",
    )
    top = st.columns([0.6, 0.4])
    function = lesson.widget(FUNCTION, top[0], required=True, on_change=load_hand_weights)
    encoding = lesson.widget(ENCODING, top[1], on_change=load_hand_weights)
    table = truth_table(function, encoding=encoding)
    w, b = current_weights()
    if function == "NOT":
        st.info("NOT has one input. To keep it in the same plane it gets a second input x₂ that "
                "it ignores: each value of x₁ appears twice, and a line computing NOT need not "
                "depend on x₂ (the book's −x₁ has w₂ = 0).", icon=":material/info:")

    left, right = st.columns([0.55, 0.45])
    with right:
        weights_panel(lesson, table, function, encoding, w, b)
    with left:
        lesson.chart(truth_figure(table, w, b, title=f"{function}, {ENCODING_LABELS[encoding]}"),
                     key="plane", alt=f"The four rows of {function} in the plane, the line of the "
                     "current weights, and which rows it gets right")
    st.markdown("**The activation on each row**")
    for line in worked_lines(table, w, b):
        st.latex(line)

    training_section(function, encoding)
    xor_section(lesson, encoding)
    lift_section(lesson, encoding)
    parity_section(encoding)
