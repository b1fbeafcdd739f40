"""Figures, tables and LaTeX of the Boolean lesson: truth tables in the plane, the lift to
(x1, x2, x1 x2) in 3-D, and the curve a plane there draws back in the plane.

Builders take plain arrays and return Plotly figures or pandas tables; no Streamlit.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from core.boolean import TruthTable, activations, lift, rows_right
from viz import describe, shapes
from viz.maths import eq_sign, equals, num, signed
from viz.palette import (
    BOUNDARY,
    CLASS_STYLE,
    CLEAR,
    NEGATIVE_SIDE,
    POSITIVE_SIDE,
    SURFACE,
    WRONG,
)
from viz.plane import HOUSE_TEMPLATE, house_layout, legend_below, square_axes

_BOX = {"01": ((-0.6, 1.6), (-0.6, 1.6)), "pm1": ((-1.9, 1.9), (-1.9, 1.9))}


def box_for(encoding: str):
    """The fixed view of an encoding's four corners."""
    return _BOX[encoding]


def _true_false(table: TruthTable, label: int) -> str:
    """Legend text of a class: the truth value and how the encoding writes it."""
    if table.encoding == "01":
        return "output 1 (true)" if label > 0 else "output 0 (false)"
    return "output +1 (true)" if label > 0 else "output −1 (false)"


def _point_traces(table: TruthTable, right=None, *, size: float = 16) -> list[go.Scatter]:
    """One trace per output value, with a ✓ or ✗ beside each row when ``right`` is given."""
    traces = []
    for label in (-1, 1):
        rows = np.flatnonzero(table.y == label)
        style = CLASS_STYLE[label]
        text = None if right is None else ["✓" if right[i] else "✗" for i in rows]
        traces.append(go.Scatter(
            x=table.X[rows, 0], y=table.X[rows, 1],
            mode="markers" if right is None else "markers+text", text=text,
            textposition="top right", textfont=dict(size=20, color=BOUNDARY),
            name=_true_false(table, label),
            marker=dict(color=style["color"], symbol=style["symbol"], size=size,
                        line=dict(color="white", width=1)),
            customdata=rows + 1,  # the truth table's row numbers, from 1
            hovertemplate="row %{customdata}: (%{x:g}, %{y:g})<extra></extra>"))
    return traces


def truth_figure(table: TruthTable, w, b: float, *, height: int = 460,
                 line_name: str = "w₁x₁ + w₂x₂ + b = 0", title: str = "",
                 legend_space: int = 80) -> go.Figure:
    """The four rows in the plane, the line w.x + b = 0, its positive side, and ✓/✗ per row.

    Rows the line gets wrong (y a <= 0) are also crossed out, so right and wrong
    differ by shape, not only by the ✓/✗ text. ``legend_space``: the strip at the foot kept
    for the legend, in pixels.
    """
    box = box_for(table.encoding)
    right = rows_right(table, w, b)
    fig = go.Figure()
    px, py = shapes.half_plane(w, b, box)
    fig.add_trace(go.Scatter(x=px, y=py, mode="lines", fill="toself", fillcolor=POSITIVE_SIDE,
                             line=dict(width=0), name="side a > 0 (predicts true)",
                             hoverinfo="skip"))
    fig.add_trace(shapes.line(w, b, box, name=line_name, color=BOUNDARY))
    for trace in _point_traces(table, right):
        fig.add_trace(trace)
    wrong = np.flatnonzero(~right)
    fig.add_trace(go.Scatter(
        x=table.X[wrong, 0], y=table.X[wrong, 1], mode="markers", name="wrong row (✗)",
        marker=dict(symbol="x-thin", size=30, line=dict(color=WRONG, width=2.5)),
        hoverinfo="skip", visible=True if wrong.size else "legendonly"))
    square_axes(fig, box)
    fig.update_xaxes(dtick=1)
    fig.update_yaxes(dtick=1)
    describe.attach(fig, rows_words(table, right, f"The line {describe.equation(w, b)}"))
    return legend_below(house_layout(fig, height, title), legend_space)


def rows_words(table: TruthTable, right, what: str) -> str:
    """A truth table's chart in words: the rule drawn, and which rows it gets right."""
    right = np.asarray(right, dtype=bool)
    rows = "; ".join(f"({describe.number(x1)}, {describe.number(x2)}) is "
                     f"{'true' if label > 0 else 'false'}, "
                     f"{'right' if ok else 'wrong'}"
                     for (x1, x2), label, ok in zip(table.X, table.y, right, strict=True))
    return (f"The {len(right)} rows of {table.function}. {what}, a > 0 predicting true, gets "
            f"{int(right.sum())} of {len(right)} rows right: {rows}.")


def truth_frame(table: TruthTable, w, b: float) -> pd.DataFrame:
    """The truth table with a = w1 x1 + w2 x2 + b, sign a, the output and ✓/✗ per row.

    ``sign a`` is the sign itself (-1, 0 or +1, whatever the encoding); ``output`` is the
    class it predicts in the table's encoding (1/0 or +1/-1), none at a tie.
    """
    a = activations(table.X, w, b)
    right = rows_right(table, w, b)
    true, false = ("1", "0") if table.encoding == "01" else ("+1", "-1")
    x2 = "x₂ (ignored)" if table.inputs == 1 else "x₂"
    return pd.DataFrame({
        "x₁": [num(v) for v in table.X[:, 0]],
        x2: [num(v) for v in table.X[:, 1]],
        "y": [true if v > 0 else false for v in table.y],
        "a": [float(round(v, 10)) for v in a],
        "sign a": [{1: "+1", -1: "-1"}.get(int(np.sign(v)), "0") for v in a],
        "output": [true if v > 0 else false if v < 0 else "none (a = 0)" for v in a],
        "right": ["✓" if r else "✗" for r in right],
    }, index=pd.RangeIndex(1, len(table.y) + 1, name="row"))  # numbered as the hover numbers


def _product(weight: float, value: float) -> str:
    """w x written as the lecture notes do: 20 · 1, 1 · (−1)."""
    shown = describe.number(value)
    return f"{describe.number(weight)} · {shown if value >= 0 else f'({shown})'}"


def worked_lines(table: TruthTable, w, b: float) -> list[str]:
    """a = w1 x1 + w2 x2 + b on every row with its numbers, and whether the row is right, as
    Markdown (the page's own text, no LaTeX: KaTeX's load came before the plane's picture)."""
    a = activations(table.X, w, b)
    right = rows_right(table, w, b)
    lines = []
    for x, y, value, ok in zip(table.X, table.y, a, right, strict=True):
        second = _product(w[1], x[1])
        terms = f"{_product(w[0], x[0])} {'−' if second.startswith('−') else '+'} " \
                f"{second.lstrip('−')} {'−' if b < 0 else '+'} {describe.number(abs(b))}"
        want = "wants *a* > 0" if y > 0 else "wants *a* < 0"
        x1, x2 = (describe.number(v) for v in x)
        lines.append(f"**x** = ({x1}, {x2}): *a* = {terms} = {describe.number(value)} "
                     f"({want}) {'✓' if ok else '✗'}")
    return lines


def lifted_figure(table: TruthTable, w, b: float, *, height: int = 460) -> go.Figure:
    """The rows lifted to (x1, x2, x1 x2) in 3-D, with the plane w.z + b = 0 as a surface."""
    Z = lift(table.X)
    w = np.asarray(w, dtype=float)
    (x0, x1), (y0, y1) = box_for(table.encoding)
    fig = go.Figure()
    grid = np.linspace(x0, x1, 12), np.linspace(y0, y1, 12)
    g1, g2 = np.meshgrid(*grid)
    if abs(w[2]) > 1e-12:
        g3 = -(w[0] * g1 + w[1] * g2 + b) / w[2]
        low, high = float(Z[:, 2].min()) - 1.0, float(Z[:, 2].max()) + 1.0
        g3 = np.where((g3 >= low) & (g3 <= high), g3, np.nan)  # keep the plane near the data
        fig.add_trace(go.Surface(
            x=g1, y=g2, z=g3, name="plane w₁x₁ + w₂x₂ + w₃x₁x₂ + b = 0", showscale=False,
            colorscale=[[0, SURFACE], [1, SURFACE]], opacity=0.45,
            showlegend=True, hoverinfo="skip"))
    symbols = {-1: "circle", 1: "square"}
    for label in (-1, 1):
        rows = np.flatnonzero(table.y == label)
        fig.add_trace(go.Scatter3d(
            x=Z[rows, 0], y=Z[rows, 1], z=Z[rows, 2], mode="markers+text",
            name=_true_false(table, label),
            text=[f"({num(z[0])}, {num(z[1])}, {num(z[2])})" for z in Z[rows]],
            textposition="top center",
            marker=dict(size=8, color=CLASS_STYLE[label]["color"], symbol=symbols[label],
                        line=dict(color="white", width=1)),
            hovertemplate="(%{x:g}, %{y:g}, %{z:g})<extra></extra>"))
    # ticks only at the table's values, and the vertical axis named by a level label: Plotly
    # writes a 3-D axis title along its axis, and a vertical one came out as a garbled sideways
    # "x₁·x₂" crossed by its ticks
    values = sorted({float(v) for v in Z[:, 2]})
    ticks = dict(tickvals=values, ticktext=[num(v) for v in values])
    fig.update_layout(
        height=height, template=HOUSE_TEMPLATE, margin=dict(l=0, r=0, t=10, b=0),
        legend=dict(orientation="h", yanchor="top", y=0.02, x=0),
        scene=dict(xaxis=dict(range=[x0, x1], title="x₁", **ticks),
                   yaxis=dict(range=[y0, y1], title="x₂", **ticks),
                   zaxis=dict(title="", **ticks),
                   annotations=[dict(x=x0, y=y1, z=values[-1], text="x₁x₂", showarrow=False,
                                     xanchor="right", yanchor="bottom", font=dict(size=14))],
                   aspectmode="cube", camera=dict(eye=dict(x=1.5, y=-1.6, z=0.9))))
    return fig


def curve_figure(table: TruthTable, w, b: float, *, size: int = 161,
                 height: int = 460) -> go.Figure:
    """The lifted plane seen back in the plane: w1 x1 + w2 x2 + w3 x1 x2 + b = 0, a hyperbola.

    The two sides are tinted and the zero level is drawn as a contour on a grid.
    """
    w = np.asarray(w, dtype=float)
    box = box_for(table.encoding)
    xs = np.linspace(*box[0], size)
    ys = np.linspace(*box[1], size)
    g1, g2 = np.meshgrid(xs, ys)
    values = w[0] * g1 + w[1] * g2 + w[2] * g1 * g2 + b
    fig = go.Figure()
    fig.add_trace(go.Heatmap(
        x=xs, y=ys, z=np.sign(values), zmin=-1, zmax=1, showscale=False, hoverinfo="skip",
        colorscale=[[0, NEGATIVE_SIDE], [0.5, CLEAR], [1, POSITIVE_SIDE]]))
    fig.add_trace(go.Contour(
        x=xs, y=ys, z=values, showscale=False, hoverinfo="skip",
        contours=dict(start=0, end=0, size=1, coloring="none"),
        line=dict(color=BOUNDARY, width=3), name="w₁x₁ + w₂x₂ + w₃x₁x₂ + b = 0",
        showlegend=True))
    right = table.y * (lift(table.X) @ w + b) > 0
    for trace in _point_traces(table, right):
        fig.add_trace(trace)
    square_axes(fig, box)
    fig.update_xaxes(dtick=1)
    fig.update_yaxes(dtick=1)
    curve = (f"{num(w[0])} x₁ {signed(w[1])} x₂ {signed(w[2])} x₁x₂ {signed(b)} "
             f"{eq_sign([*w[:3], b])} 0"
             .replace("-", "−"))
    describe.attach(fig, rows_words(table, right, f"The curve {curve}"))
    return legend_below(house_layout(fig, height), 80)


def plain_equation(w, b: float) -> str:
    """w1 x1 + w2 x2 + b as plain text for captions: 20x₁ + 20x₂ − 30."""
    terms = [(float(w[0]), "x₁"), (float(w[1]), "x₂"), (float(b), "")]
    text = ""
    for value, name in terms:
        if value == 0 and (name or text):
            continue
        sign = "−" if value < 0 else "+"
        body = ("" if abs(value) == 1 and name else num(abs(value))) + name
        text += (f"{'−' if value < 0 else ''}{body}" if not text else f" {sign} {body}")
    return text or "0"


def curve_words(w, b: float) -> str:
    """What w1 x1 + w2 x2 + w3 x1 x2 + b = 0 is in the plane, decided in exact fractions of the
    weights' decimals: with w3 != 0 it is (w3 x1 + w2)(w3 x2 + w1) = w1 w2 - b w3, a hyperbola,
    or where the right side is 0 the pair of lines x1 = -w2/w3 and x2 = -w1/w3.

    >>> curve_words([0, 0, -4], 0)  # XOR in the +-1 encoding
    'the pair of lines x₁ = 0 and x₂ = 0 (the axes): a degenerate hyperbola, not one line'
    >>> curve_words([2, 2, -5], -1)  # XOR in the 0/1 encoding
    'a hyperbola: a curve, not a line'
    >>> curve_words([1, 0, 0], 0.5), curve_words([0, 0, 0], 1)
    ('a line (its x₁x₂ weight is 0)', 'no curve at all: w = 0, so a = b everywhere')
    """
    w1, w2, w3, b = (Fraction(repr(float(v))) for v in (*np.asarray(w, dtype=float)[:3], b))
    if w3 == 0:
        return ("a line (its x₁x₂ weight is 0)" if w1 or w2 else
                "no curve at all: w = 0, so a = b everywhere")
    if w1 * w2 - b * w3 != 0:
        return "a hyperbola: a curve, not a line"
    at1, at2 = -w2 / w3, -w1 / w3
    axes = " (the axes)" if at1 == 0 == at2 else ""
    return (f"the pair of lines x₁ {equals(at1)} and x₂ {equals(at2)}{axes}: a "
            "degenerate hyperbola, not one line")


def curve_equation(w, b: float) -> str:
    """w1 x1 + w2 x2 + w3 x1 x2 + b = 0 with the numbers."""
    w = np.asarray(w, dtype=float)
    return (rf"{num(w[0])}\,x_1 {signed(w[1])}\,x_2 {signed(w[2])}\,x_1 x_2 {signed(b)} "
            rf"{eq_sign([*w[:3], b], latex=True)} 0")
