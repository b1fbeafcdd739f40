"""Every chart's text alternative says what it shows now (viz/describe.py): the boundary's
equation, how many points lie on each side and of which class, the margin."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.boolean import rows_right, truth_table
from core.max_margin import max_margin
from lessons.boolean.figures import truth_figure
from lessons.margin.figures import margin_figure, plane_box
from lessons.your_data.figures import canvas_figure
from tests.apptest import by_key, chart_elements, open_app
from viz import describe

NOTES_X = np.array([[2.0, 1.0], [2.0, 2.0], [1.0, 1.0], [0.0, 0.5]])
NOTES_Y = np.array([1, -1, -1, 1])


def counts(text: str) -> list[int]:
    """The counts of points on the positive and the negative side, in that order."""
    return [int(n) for n in re.findall(r"side(?: \(a > 0\))?: ([\d,]+) points?", text)]


points = st.lists(st.tuples(st.integers(-6, 6), st.integers(-6, 6)), min_size=1, max_size=25)


@given(points, st.integers(-3, 3), st.integers(-3, 3), st.integers(-4, 4))
def test_the_sides_count_every_point_once(rows, w1, w2, b):
    X = np.array(rows, dtype=float) / 2
    y = np.where(np.arange(len(X)) % 2, 1, -1)
    text = describe.sides(X, y, [w1, w2], b)
    a = X @ [w1, w2] + b
    on = int(np.sum(a == 0))
    assert counts(text) == [int(np.sum(a > 0)), int(np.sum(a < 0))]
    assert (f"On the line: {on} point" in text) == bool(on)
    wrong = int(np.sum(y * a <= 0))
    assert ("Every point is on its own class's side." in text) == (wrong == 0)


def test_a_boundary_is_its_equation_its_sides_and_its_margin():
    text = describe.boundary(NOTES_X, NOTES_Y, [0.3, 0.0], -0.1, name="The perceptron's boundary")
    assert text.startswith("The perceptron's boundary: 0.3 x₁ + 0 x₂ − 0.1 = 0.")
    assert counts(text) == [3, 1]  # a = 0.5, 0.5, 0.2 and -0.1
    assert "3 points are on the wrong side" in text
    assert "Margin" not in text  # it does not separate: no margin to state


def test_the_maximum_margin_chart_names_its_separator_and_margin():
    X = np.array([[1.0, 1.0], [2.0, 2.5], [-1.0, -1.0], [-2.0, 0.5]])
    y = np.array([1, 1, -1, -1])
    mm = max_margin(X, y)
    text = describe.attached(margin_figure(X, y, ("-1", "+1"), plane_box(X), maximum=mm))
    assert text.startswith("4 points: 2 of class −1 (circles), 2 of class +1 (squares).")
    assert describe.equation(mm.w, mm.b) in text
    assert counts(text) == [2, 2]
    assert "Every point is on its own class's side." in text
    # the margin is √(13)/2.6 to 4 places: rounded, so "≈" (the chart's words follow the "="
    # rule: viz.maths.written)
    assert f"Margin ≈ {describe.number(round(mm.gamma, 4))}." in text
    assert describe.boundary(X, y, [1, 0], 0, margin=0.5).endswith("Margin 0.5.")
    assert describe.boundary(X, y, [0, 0], 1 / 3).endswith("every point has a ≈ 0.333333.")


def test_the_text_follows_the_chart():
    X, y = NOTES_X, NOTES_Y
    box = plane_box(X)
    before = describe.attached(margin_figure(X, y, ("-1", "+1"), box, current=dict(
        w=np.array([0.2, 0.0]), b=-0.1, margin=-np.inf, closest=None)))
    after = describe.attached(margin_figure(X, y, ("-1", "+1"), box, current=dict(
        w=np.array([0.3, 0.0]), b=-0.1, margin=-np.inf, closest=None)))
    assert "0.2 x₁ + 0 x₂ − 0.1 = 0" in before and "0.3 x₁ + 0 x₂ − 0.1 = 0" in after


@pytest.mark.parametrize(("function", "w", "b"), [("AND", (20, 20), -30), ("AND", (20, 20), -40),
                                                  ("XOR", (1, 1), -0.5)])
def test_a_truth_table_says_which_rows_the_line_gets_right(function, w, b):
    table = truth_table(function, encoding="01")
    text = describe.attached(truth_figure(table, w, b))
    right = rows_right(table, w, b)
    assert f"gets {int(right.sum())} of 4 rows right" in text
    assert text.count(", wrong") == int((~right).sum())


def test_the_canvas_counts_its_points():
    text = describe.attached(canvas_figure(NOTES_X, NOTES_Y, ("-1", "+1")))
    assert "4 points: 2 of class −1 (circles), 2 of class +1 (squares)." in text


def test_a_page_chart_carries_its_figures_words():
    """Lesson.chart adds the figure's words to the alt text it is given."""
    at = open_app("boolean")
    by_key(at.slider, "boolean.b").set_value(-40.0).run()
    alts = [alt for _, _, alt in chart_elements(at)]
    plane = next(alt for alt in alts if alt.startswith("The four rows of AND"))
    assert "The line 20 x₁ + 20 x₂ − 40 = 0" in plane
    assert "gets 3 of 4 rows right" in plane
