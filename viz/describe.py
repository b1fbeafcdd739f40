"""Charts in words: what a chart shows now, for a screen reader (its text alternative).

A figure builder states what its figure shows with :func:`attach`; the page adds it to the
chart's alt text (``ui.lesson.Lesson.chart``), so the words change whenever the chart does:
the boundary's equation, how many points lie on each side and of which class, the margin.
"""

from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go

from core.decimals import Misclassified
from viz.maths import eq_sign, equals, num, written
from viz.palette import CLASS_STYLE

SHAPE_WORDS = {"circle": "circles", "square": "squares", "diamond": "diamonds"}


def plural(count: int, word: str) -> str:
    """'1 point', '3 points'.

    >>> plural(1, "point"), plural(3, "point")
    ('1 point', '3 points')
    """
    return f"{count:,} {word}{'' if count == 1 else 's'}"


def class_words(label: int, name: str = "") -> str:
    """A class as a sentence says it, with its marker's shape: 'class +1 (squares)'.

    >>> class_words(-1), class_words(1, "dog")
    ('class −1 (circles)', 'class +1, dog (squares)')
    """
    sign = "+1" if label > 0 else "−1"
    shape = SHAPE_WORDS[CLASS_STYLE[1 if label > 0 else -1]["symbol"]]
    named = f", {name}" if name and name not in ("-1", "+1", "−1") else ""
    return f"class {sign}{named} ({shape})"


def points(y, classes: tuple[str, str] = ("-1", "+1"), what: str = "point") -> str:
    """How many points of each class a chart shows.

    >>> points([-1, 1, 1])
    '3 points: 1 of class −1 (circles), 2 of class +1 (squares).'
    """
    y = np.asarray(y)
    counts = [f"{int(np.sum(y == label)):,} of {class_words(label, name)}"
              for label, name in zip((-1, 1), classes, strict=True)]
    return f"{plural(len(y), what)}: {', '.join(counts)}."


def number(value: float) -> str:
    """A number as :func:`viz.maths.num` writes it, with a true minus sign.

    >>> number(-0.25)
    '−0.25'
    """
    return num(value).replace("-", "−")


def equation(w, b: float) -> str:
    """w·x + b = 0 with its numbers, as plain text a screen reader reads well; "≈ 0" where a
    number written is rounded (the line is then near, not on, the one the numbers write).

    >>> equation([0.3, 0], -0.1)
    '0.3 x₁ + 0 x₂ − 0.1 = 0'
    >>> equation([-1, 2.5], 0), equation([0.5, 5 / 6], 0)
    ('−1 x₁ + 2.5 x₂ + 0 = 0', '0.5 x₁ + 0.833333 x₂ + 0 ≈ 0')
    """
    w = np.asarray(w, dtype=float)
    terms = [number(w[0]) + " x₁"]
    for value, name in ((w[1], " x₂"), (float(b), "")):
        terms.append(("− " if value < 0 else "+ ") + num(abs(value)) + name)
    return " ".join(terms) + f" {eq_sign([*w, float(b)])} 0"


def geometric_margin(X, y, w, b: float) -> float:
    """min over the points of y(w·x + b)/‖w‖: negative when a point is on the wrong side.

    >>> geometric_margin([[1, 0], [-2, 0]], [1, -1], [1, 0], 0)
    1.0
    """
    w = np.asarray(w, dtype=float)
    norm = float(np.linalg.norm(w))
    if norm == 0 or len(y) == 0:
        return -math.inf
    return float(np.min(np.asarray(y) * (np.asarray(X, dtype=float) @ w + b)) / norm)


def sides(X, y, w, b: float) -> str:
    """Where the points lie against the line w·x + b = 0, and of which class.

    >>> sides([[1, 0], [2, 1], [-1, 0], [0, 3]], [1, 1, -1, -1], [1, 0], 0)
    'On its positive side (a > 0): 2 points, 2 of class +1. On its negative side: 1 point, \
1 of class −1. On the line: 1 point. 1 point is on the wrong side or on the line.'
    """
    X, y = np.asarray(X, dtype=float).reshape(-1, 2), np.asarray(y)
    # the sign of each a as the rule decides it: in integers on short decimals (a tie is on
    # the line even where the float sum lands a rounding off it), else in floats
    ones = np.ones(len(X))
    not_above = Misclassified(X, ones).rows(w, b)  # a <= 0
    not_below = Misclassified(X, -ones).rows(w, b)  # a >= 0
    a = np.where(not_above & not_below, 0, np.where(not_above, -1, 1))
    parts = []
    for label, where, mask in ((1, "On its positive side (a > 0)", a > 0),
                               (-1, "On its negative side", a < 0)):
        count = int(np.sum(mask))
        own = int(np.sum(mask & (y == label)))
        sign = "+1" if label > 0 else "−1"
        parts.append(f"{where}: {plural(count, 'point')}"
                     + (f", {own:,} of class {sign}" if count else "") + ".")
    on = int(np.sum(a == 0))
    if on:
        parts.append(f"On the line: {plural(on, 'point')}.")
    wrong = int(np.sum(y * a <= 0))
    parts.append("Every point is on its own class's side." if not wrong else
                 f"{plural(wrong, 'point')} {'is' if wrong == 1 else 'are'} on the wrong side "
                 "or on the line.")
    return " ".join(parts)


def boundary(X, y, w, b: float, *, name: str = "The boundary", margin: float | None = None,
             bias: bool = True) -> str:
    """A boundary in words: its equation, the points on each side, and its margin.

    ``margin`` is the one to state (the geometric margin of (w, b) on the points when None);
    a negative or infinite margin is not stated: the sides already say what is wrong.

    >>> boundary([[1, 0], [-2, 0]], [1, -1], [1, 0], 0, name="The separator")
    "The separator: 1 x₁ + 0 x₂ + 0 = 0. On its positive side (a > 0): 1 point, 1 of class +1. \
On its negative side: 1 point, 1 of class −1. Every point is on its own class's side. Margin 1."
    """
    w = np.asarray(w, dtype=float)
    if not np.any(w):
        return f"{name}: w = 0, so there is no line; every point has a {equals(b)}."
    text = f"{name}: {equation(w, b)}. {sides(X, y, w, b)}"
    if margin is None:
        margin = geometric_margin(X, y, w, b)
    if math.isfinite(margin) and margin > 0:
        text += f" Margin {written(margin, places=4)}."
    return text


def attach(fig: go.Figure, *texts: str) -> go.Figure:
    """Keep what ``fig`` shows, in words, in its layout (``meta``); returns ``fig``."""
    meta = fig.layout.meta if isinstance(fig.layout.meta, dict) else {}
    fig.layout.meta = {**meta, "alt": " ".join(t.strip() for t in texts if t and t.strip())}
    return fig


def attached(fig: go.Figure) -> str:
    """What :func:`attach` kept in ``fig`` ('' when nothing).

    >>> attached(attach(go.Figure(), "Two points.", "", "A line."))
    'Two points. A line.'
    """
    meta = fig.layout.meta
    return meta.get("alt", "") if isinstance(meta, dict) else ""
