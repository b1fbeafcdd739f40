"""Lesson 6: averaged, voted and kernel perceptrons, and more than two classes."""

from lessons.variants.parts import PAGE, PARTS, SETTINGS
from ui.lesson import Lesson


def page() -> None:
    """Draw the lesson (the navigation calls this on every run of its page)."""
    lesson = Lesson(PAGE, SETTINGS, parts=PARTS)
    data, settings = lesson.begin("Variants of the perceptron")
    lesson.draw_parts(data, settings)
