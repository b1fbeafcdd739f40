"""Lesson 4: non-separable data. The perceptron cycles; the pocket and the average help."""

from lessons.nonseparable.parts import PAGE, PARTS, SETTINGS, suggestions, what_to_show
from ui.lesson import Lesson, cannot_go_on


def page() -> None:
    """Non-separable data: the title, the analysis, then the run, data to try and the verdict,
    the errors per epoch and a bound."""
    lesson = Lesson(PAGE, SETTINGS, parts=PARTS)

    data, settings = lesson.begin(
        "Non-separable data: the perceptron cycles",
        intro="When no line separates the classes, some example is always on the wrong side, so the"
              " updates never stop. The cycling theorem: the weights still stay bounded, in any "
              "order. When the data, η and the start are rational (every short decimal is), bounded"
              " weights can take only finitely many values, so in a fixed order the run comes back "
              "exactly to weights it held at the start of an earlier epoch and from then on repeats"
              " the same epochs for ever. With irrational numbers the weights stay bounded but need"
              " not repeat exactly.",
    )
    try:
        shown = what_to_show(data.X, data.y, settings)
    except ValueError as error:
        suggestions()
        cannot_go_on(f"These settings cannot train: {error}")
    lesson.draw_parts(data, settings, shown)
