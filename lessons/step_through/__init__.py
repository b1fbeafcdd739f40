"""Lesson 1: the perceptron update, one example at a time."""

import streamlit as st

from datasets.builtin import NOTES_ETA, NOTES_INIT
from lessons.step_through.parts import PAGE, PARTS
from ui.lecture import lecture_mode
from ui.lesson import Lesson
from ui.settings import BIAS, DATA_CHOICE_KEY, ETA, INIT, ORDER, W1, W2, B
from ui.state import set_by_button


def use_notes_example() -> None:
    """Set the notes' worked example: 4 points, w = (0.2, 0), b = -0.1, eta = 0.1, cyclic."""
    (w1, w2), b = NOTES_INIT
    set_by_button({
        DATA_CHOICE_KEY: "Lecture notes' example: 4 points", ORDER.key: "cyclic",
        INIT.key: "typed", W1.key: w1, W2.key: w2, B.key: b,
        ETA.key: NOTES_ETA, BIAS.key: True,
    })


NOTES_HELP = ("Load the lecture notes' worked example: 4 points; w = (0.2, 0), b = −0.1, "
              "η = 0.1, cyclic order. Points 1 and 2 are the notes'; points 3 and 4 are "
              "reconstructed from the numbers the notes give for them (y·a = 0.35 at the "
              "third, an update at the fourth).")


def notes_example() -> None:
    """The button that loads the notes' worked example (on a projector too, without its help:
    pressed by key, the button keeps the focus while the arrows step, and its help would lie
    over the step's status and maths for the whole room)."""
    st.button("Lecture notes' example", icon=":material/menu_book:", on_click=use_notes_example,
              help=None if lecture_mode() else NOTES_HELP)


def page() -> None:
    """Step through: the title with the notes' example beside it, then the run and the loss
    surface."""
    lesson = Lesson(PAGE, parts=PARTS)
    data, settings = lesson.begin(
        "Step through the perceptron", beside=notes_example,
        intro="One example per step: compute a = w·x + b; if y·a ≤ 0 it is a mistake and "
              "w ← w + ηyx, b ← b + ηy. Keys: → step, ← back, N next mistake, Home reset.",
    )
    lesson.draw_parts(data, settings)
