"""Lesson 6: averaged, voted and kernel perceptrons, and more than two classes."""

from lessons.variants.parts import PAGE, PARTS, SETTINGS
from ui.lesson import Lesson


def page() -> None:
    """Variants: the title, then the part picked under it."""
    lesson = Lesson(PAGE, SETTINGS, parts=PARTS)
    data, settings = lesson.begin("Variants of the perceptron")
    lesson.draw_parts(data, settings)
