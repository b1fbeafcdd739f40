"""Lesson 3: Boolean functions as perceptrons, and why no line computes XOR."""

from dataclasses import replace

import streamlit as st

from lessons.boolean.parts import (
    ENCODING,
    FUNCTION,
    PAGE,
    PARTS,
    SETTINGS,
    keep_state,
    load_hand_weights,
)
from ui.lecture import lecture_mode, lecture_toggle
from ui.lesson import Lesson

FUNCTION_WIDTH = 120  # px: "NAND" in a projector's type, and the drop-down's arrow


def page() -> None:
    """Boolean functions: the title, the function and the encoding, then the weights, the
    training, XOR, its lift and parity."""
    lesson = Lesson(PAGE, SETTINGS, parts=PARTS, shared=False)  # its data are the truth tables
    keep_state()
    with st.sidebar:
        lecture_toggle()
        st.caption("This lesson uses the truth tables on the page; the data picker comes back "
                   "on the other lessons, with your settings kept.")

    lecture = lecture_mode()

    def function_picker() -> None:
        # the function is picked in the title's row: the plane has the height; on a projector
        # a drop-down, so that the row holds the part picked too (ui.lesson's heading)
        if lecture:
            lesson.widget(replace(FUNCTION, widget="select"), on_change=load_hand_weights,
                          label_visibility="collapsed", width=FUNCTION_WIDTH)
        else:
            lesson.widget(FUNCTION, required=True, on_change=load_hand_weights,
                          label_visibility="collapsed")

    lesson.title(
        "Boolean functions and XOR",
        beside=function_picker,
        intro="A perceptron computes a Boolean function when the sign of a = w₁x₁ + w₂x₂ + b gives "
              "the right output on every row of the truth table: a > 0 true, a < 0 false (0 or −1, "
              "as the table writes it), and a = 0 counts as wrong.",
    )
    function = st.session_state[FUNCTION.key]
    if lecture:  # the picture first: the truth values at the sidebar's foot
        encoding = lesson.widget(ENCODING, lesson.aside(), on_change=load_hand_weights)
    else:  # the truth values head the weights beside the plane (on a phone, under it)
        encoding = st.session_state[ENCODING.key]
    lesson.draw_parts(function, encoding)
