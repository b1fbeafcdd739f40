"""Lesson 2: the margin of a boundary, the maximum margin, and Novikoff's mistake bound."""

from lessons.margin.parts import PAGE, PARTS, SETTINGS
from ui.lesson import Lesson


def page() -> None:
    """Margin and the mistake bound: the title, then the run beside the maximum margin, two runs
    side by side, and the experiment."""
    lesson = Lesson(PAGE, SETTINGS, parts=PARTS)

    data, settings = lesson.begin(
        "Margin and the mistake bound",
        intro="How far the closest point is from a boundary, the widest margin any line achieves "
              "(Margin(D)), and Novikoff's bound R²/γ² on the perceptron's mistakes, where R and γ "
              "belong to the vectors the perceptron sees, (x, 1) with a bias: not the plane's "
              "margin. Keys: → step, ← back, N next mistake, Home reset.",
    )
    lesson.draw_parts(data, settings)
