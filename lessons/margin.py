"""Lesson 2: the margin of a boundary, the maximum margin, and Novikoff's mistake bound."""

import numpy as np
import streamlit as st

from core.trace import outcome
from ui.floats import float_marker, marked
from ui.lecture import lecture_mode
from ui.lesson import Lesson
from ui.lesson_margin import (
    PAGE,
    SETTINGS,
    bound_row,
    current_boundary,
    experiment_section,
    geometry_of,
    margin_section,
    pair_section,
    proof_section,
    separator_figures,
    spaces_section,
    theorem_section,
    update_section,
)
from ui.runs import perceptron_trace
from ui.stepper import perceptron_run

lesson = Lesson(PAGE, SETTINGS)

data, settings = lesson.begin(
    "Margin and the mistake bound",
    intro="How far the closest point is from a boundary, the widest margin any line achieves "
          "(Margin(D)), and Novikoff's bound R²/γ² on the perceptron's mistakes, where R and γ "
          "belong to the vectors the perceptron sees, (x, 1) with a bias: not the plane's "
          "margin. Keys: → step, ← back, N next mistake, Home reset.",
)
try:
    trace = perceptron_trace(data.X, data.y, settings)
    facts = geometry_of(data.X, data.y, settings["bias"])
except ValueError as error:
    st.error(f"These settings cannot train: {error}")
    st.stop()
result = outcome(trace, data.X, data.y, max_epochs=settings["max_epochs"])
bias = settings["bias"]
zeros_start = not np.any(trace.W[0]) and trace.b[0] == 0  # where Novikoff's theorem starts
figure, beside = separator_figures(lesson, data, facts, bias=bias, lecture=lecture_mode())


def at_step(k: int) -> None:
    """What follows the step on the server: the bound against this boundary, the proof."""
    if not trace.exact:
        float_marker()
    current = current_boundary(data, trace, k)
    bound_row(facts, current["margin"], bias=bias, zeros_start=zeros_start)
    theorem_section(bias=bias)
    beside()
    margin_section(current["margin"], facts["maximum"])
    spaces_section(facts, bias=bias)
    update_section(data, trace, k, bias=bias, eta=settings["eta"])
    proof_section(lesson, trace, facts, k, bias=bias, eta=settings["eta"], zeros_start=zeros_start)


run = marked(perceptron_run(data, trace, settings, result, lecture=lecture_mode(), figure=figure,
                            layers=("boundary", "ghost", "normal", "visited", "band", "explain")),
             trace)
lesson.stepper(run, panels=at_step)
pair_section(lesson)
experiment_section(lesson)
