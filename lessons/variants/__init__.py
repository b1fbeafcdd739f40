"""Lesson 6: averaged, voted and kernel perceptrons, and more than two classes."""

from lessons.variants.parts import (
    PAGE,
    SETTINGS,
    VIEW,
    averaged_and_voted,
    kernel_part,
    more_classes,
)
from ui.lesson import Lesson


def page() -> None:
    """Draw the lesson (the navigation calls this on every run of its page)."""
    lesson = Lesson(PAGE, SETTINGS)
    data, settings = lesson.begin("Variants of the perceptron")
    view = lesson.widget(VIEW, required=True, label_visibility="collapsed")
    if view == "averaged":
        averaged_and_voted(lesson, data, settings)
    elif view == "kernel":
        kernel_part(lesson, data, settings)
    else:
        more_classes(lesson, settings)
