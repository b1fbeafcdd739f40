"""Figures and LaTeX of the perceptron-versus-SVM lesson.

Builders take plain arrays (and the results of core.svm) and return Plotly
figures or LaTeX strings; they know nothing of Streamlit.
"""

from __future__ import annotations

import ast
import inspect
import math
import textwrap
from fractions import Fraction

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from core import losses
from viz import describe, shapes
from viz.maths import chain_signs, eq_sign, equals, num, signed, vec, written
from viz.palette import (
    BLACK,
    BLUE,
    BLUISH_GREEN,
    BOUNDARY,
    CLEAR,
    GREY,
    MAX_BAND,
    MAX_MARGIN,
    NOW,
    ORANGE,
    OWN_MARGIN,
    REDDISH_PURPLE,
    SKY_BLUE,
    SLACK,
    SUPPORT,
    SVM,
    VERMILLION,
    YELLOW,
    tint,
)
from viz.plane import (
    HOUSE_TEMPLATE,
    house_layout,
    plane_figure,
    point_traces,
    square_axes,
    view_box,
)

# Several perceptron runs: any hue but the SVM's, each also with its own dash.
RUNS = (SKY_BLUE, ORANGE, GREY, BLUE, VERMILLION, REDDISH_PURPLE, YELLOW, BLACK)
# Loss curves: colour AND dash AND marker differ, so no curve depends on colour alone.
LOSS_STYLE = {
    "zero_one": dict(label="0-1", color=BLACK, dash="solid", symbol="x", width=2),
    "perceptron": dict(label="perceptron max(0, −z)", color=BLUE, dash="dash",
                       symbol="circle", width=3),
    "hinge": dict(label="hinge max(0, 1 − z)", color=VERMILLION, dash="solid",
                  symbol="square", width=3),
    "logistic": dict(label="logistic", color=BLUISH_GREEN, dash="dot", symbol="diamond",
                     width=3),
}
Z_RANGE = (-3.0, 3.0)


# ---------------------------------------------------------------- losses of the margin z


def logistic_label(base: float) -> str:
    """Legend text of the logistic curve in the chosen base."""
    return "logistic log₂(1 + e^−z)" if base == 2 else "logistic ln(1 + e^−z)"


def loss_figure(z: float, *, base: float = 2.0, height: int = 560) -> go.Figure:
    """The four losses of the margin z (top) and their slopes dL/dz (bottom), with a cursor at z.

    At a kink the bottom panel draws the whole subdifferential [-1, 0] as a
    vertical segment and marks the value the algorithm uses.
    """
    zs = np.linspace(*Z_RANGE, 601)
    fig = make_subplots(rows=2, cols=1, shared_xaxes=True, row_heights=[0.62, 0.38],
                        vertical_spacing=0.06,
                        subplot_titles=("loss L(z)", "slope dL/dz (subgradients at the kinks)"))
    for name in losses.LOSSES:
        style = LOSS_STYLE[name]
        label = logistic_label(base) if name == "logistic" else style["label"]
        line = dict(color=style["color"], dash=style["dash"], width=style["width"])
        if name == "zero_one":
            # the jump at 0 drawn as a step (1 up to and including z = 0)
            fig.add_trace(go.Scatter(x=[Z_RANGE[0], 0, 0, Z_RANGE[1]], y=[1, 1, 0, 0],
                                     mode="lines", name=label, line=line, legendgroup=name,
                                     hoverinfo="skip"), row=1, col=1)
        else:
            fig.add_trace(go.Scatter(x=zs, y=losses.loss(name, zs, base=base), mode="lines",
                                     name=label, line=line, legendgroup=name,
                                     # a curve's points, rounded in writing
                                     hovertemplate="z ≈ %{x:.2f}<br>L ≈ %{y:.3f}"
                                                   "<extra></extra>"),
                          row=1, col=1)
        fig.add_trace(go.Scatter(
            x=[z], y=[losses.loss(name, z, base=base)], mode="markers", showlegend=False,
            legendgroup=name, marker=dict(color=style["color"], symbol=style["symbol"], size=13,
                                          line=dict(color="white", width=1)),
            hovertext=f"{label}<br>z {equals(z)}, L {equals(losses.loss(name, z, base=base))}",
            hoverinfo="text"), row=1, col=1)
        _slope_traces(fig, name, style, base)
    for name in losses.LOSSES:
        style = LOSS_STYLE[name]
        used = losses.slope(name, z, base=base)
        if math.isfinite(used):
            fig.add_trace(go.Scatter(
                x=[z], y=[used], mode="markers", showlegend=False, legendgroup=name,
                marker=dict(color=style["color"], symbol=style["symbol"], size=12,
                            line=dict(color="white", width=1)),
                hovertext=f"{style['label']}: dL/dz {equals(used)}", hoverinfo="text"),
                row=2, col=1)
    for row in (1, 2):
        fig.add_vline(x=z, line=dict(color=NOW, width=2), row=row, col=1)
    fig.update_xaxes(range=list(Z_RANGE), zeroline=True, row=1, col=1)
    fig.update_xaxes(range=list(Z_RANGE), title_text="margin z = y·(w·x + b)", row=2, col=1)
    fig.update_yaxes(range=[-0.25, 4.6], row=1, col=1)
    fig.update_yaxes(range=[-1.65, 0.35], dtick=0.5, row=2, col=1)
    fig.update_layout(height=height, template=HOUSE_TEMPLATE, margin=dict(l=10, r=10, t=30, b=10),
                      legend=dict(orientation="h", yanchor="top", y=-0.1, x=0))
    at = "; ".join(
        f"{logistic_label(base) if name == 'logistic' else LOSS_STYLE[name]['label']} "
        f"{describe.number(losses.loss(name, z, base=base))}, slope {slope_text(name, z, base)[1]}"
        for name in losses.LOSSES)
    describe.attach(fig, f"At the cursor z = {describe.number(z)}, each loss and the slope the "
                         f"algorithm uses: {at}.")
    return fig


def _slope_traces(fig: go.Figure, name: str, style: dict, base: float) -> None:
    """dL/dz of one loss in the lower panel: pieces, and the subdifferential at a kink."""
    line = dict(color=style["color"], dash=style["dash"], width=style["width"])
    common = dict(mode="lines", showlegend=False, legendgroup=name, hoverinfo="skip", line=line)
    if name == "logistic":
        zs = np.linspace(*Z_RANGE, 301)
        fig.add_trace(go.Scatter(x=zs, y=losses.logistic_slope(zs, base), **common), row=2, col=1)
        return
    if name == "zero_one":
        # flat everywhere, no subgradient at the jump: a gap at 0
        fig.add_trace(go.Scatter(x=[Z_RANGE[0], -0.04, None, 0.04, Z_RANGE[1]],
                                 y=[0, 0, None, 0, 0], **common), row=2, col=1)
        return
    kink = 0.0 if name == "perceptron" else 1.0
    used = losses.slope(name, kink)
    # hinge and perceptron share the values -1 and 0: draw the hinge a hair lower so both show
    lift = 0.0 if name == "perceptron" else -0.03
    fig.add_trace(go.Scatter(x=[Z_RANGE[0], kink, None, kink, Z_RANGE[1]],
                             y=[-1 + lift, -1 + lift, None, lift, lift], **common), row=2, col=1)
    fig.add_trace(go.Scatter(x=[kink, kink], y=[-1, 0], mode="lines", showlegend=False,
                             legendgroup=name, line=dict(color=style["color"], width=8),
                             opacity=0.35, hovertemplate=f"{style['label']}: subgradients "
                             f"[-1, 0] at z = {kink:g}<extra></extra>"), row=2, col=1)
    fig.add_trace(go.Scatter(x=[kink], y=[used], mode="markers", showlegend=False,
                             legendgroup=name,
                             marker=dict(color="white", symbol=style["symbol"], size=11,
                                         line=dict(color=style["color"], width=3)),
                             hovertemplate=f"{style['label']}: the algorithm takes "
                             f"{used:g} at z = {kink:g}<extra></extra>"), row=2, col=1)


def slope_text(name: str, z: float, base: float) -> tuple[str, str]:
    """(every subgradient at z, the one the algorithm uses), as text for a table."""
    if name == "zero_one" and z == 0:
        return "none (a jump)", "none: no direction"
    low, high = losses.subdifferential(name, z, base=base)
    used = float(losses.slope(name, z, base=base))
    every = f"[{num(low)}, {num(high)}]" if low != high else written(low)
    return every, written(used)


def loss_table(z: float, x, y: float, *, base: float = 2.0) -> list[dict]:
    """One row per loss: its value, slopes and the gradient in (w, b) for the example (x, y)."""
    x = np.asarray(x, dtype=float)
    rows = []
    for name in losses.LOSSES:
        every, used = slope_text(name, z, base)
        g = float(losses.slope(name, z, base=base))
        if math.isfinite(g):
            gw = ("" if eq_sign(g * y * x) == "=" else "≈ ") + "(" + ", ".join(
                num(v) for v in g * y * x) + ")"
            gb = written(g * y)
        else:
            gw = gb = "—"
        rows.append({
            "loss": LOSS_STYLE[name]["label"] if name != "logistic" else logistic_label(base),
            "L(z)": written(losses.loss(name, z, base=base)),
            "dL/dz: every subgradient": every,
            "dL/dz the algorithm uses": used,
            "∂L/∂w = L′(z)·y·x": gw,
            "∂L/∂b = L′(z)·y": gb,
        })
    return rows


def verdict(z: float) -> str:
    """What the perceptron and the hinge do with an example at margin z."""
    if z <= 0:
        return (f"z {equals(z)} ≤ 0: the example is misclassified (or on the boundary). "
                "Both the perceptron and the hinge have slope −1: both step w by η·y·x.")
    if z < 1:
        return (f"0 < z {equals(z)} < 1: right side, but inside the margin. The perceptron's "
                "loss is already 0, so it stops updating; the hinge still has slope −1 and "
                "keeps pushing w until z ≥ 1.")
    where = "z = 1: on the margin" if z == 1 else f"z {equals(z)} > 1: beyond the margin"
    return (f"{where}. Neither loss pushes (slope 0); in the SVM "
            "only the penalty λ/2‖w‖² still acts, shrinking w. The logistic loss never "
            "reaches 0: it keeps pushing, ever less.")


def source_listing(*functions) -> str:
    """The source of functions or methods without their docstrings, for st.code."""
    parts = []
    for function in functions:
        tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
        node = tree.body[0]
        body = node.body
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
            node.body = body[1:] or [ast.Pass()]
        parts.append(ast.unparse(node))
    return "\n\n".join(parts)


# ---------------------------------------------------------------- the plane: overlays


def _band_below(fig: go.Figure, w, b: float, box, **kwargs) -> None:
    """The band |w.x + b| <= 1 as a layout shape under the data (no shape when it misses)."""
    path = shapes.svg_path(*shapes.band(w, b, 1.0, box))
    if path:
        fig.add_shape(type="path", path=path, fillcolor=MAX_BAND, line=dict(width=0),
                      layer="below", **kwargs)


def add_max_margin(fig: go.Figure, X, mm, box, *, legend: bool = True) -> None:
    """The exact maximum-margin boundary, its band (below the data) and its support vectors."""
    if mm is None:
        return
    X = np.asarray(X, dtype=float)
    _band_below(fig, mm.w, mm.b, box, showlegend=legend,
                name=f"max-margin band (Margin(D) {equals(mm.gamma, places=4)})")
    fig.add_trace(shapes.line(mm.w, mm.b, box, name="maximum-margin boundary", color=MAX_MARGIN,
                              dash="dash", showlegend=legend))
    mx, my = shapes.margin_lines(mm.w, mm.b, box)
    fig.add_trace(go.Scatter(x=mx, y=my, mode="lines", name="its margins w·x + b = ±1",
                             line=dict(color=MAX_MARGIN, width=1.5, dash="dot"),
                             showlegend=False, hoverinfo="skip"))
    support = np.asarray(mm.support)
    fig.add_trace(shapes.rings(X[support], name="support vectors", color=SUPPORT, size=22,
                               showlegend=legend, customdata=support,
                               hovertemplate="support vector, row %{customdata}<extra></extra>"))


def _own_margins_trace(w, b: float, box) -> go.Scatter:
    """The run's own margin lines w.x + b = ±1 (where the hinge stops pushing)."""
    mx, my = shapes.margin_lines(w, b, box)
    return go.Scatter(x=mx, y=my, mode="lines", name="its margins w·x + b = ±1",
                      line=dict(color=OWN_MARGIN, width=1.5, dash="dot"), hoverinfo="skip")


# how much a plane may grow, around its points' centre, to show the runs' boundaries
# (``lines_box``): beyond that a boundary is named at the plane's edge with how far it is
LINES_REACH = 2.0
# a boundary that only just meets the grown box would touch its corner: a little more room
LINES_ROOM = 1.08


def lines_box(box, W, B, *, reach: float = LINES_REACH):
    """``box`` grown around its centre, both ranges by one factor (equal scales and the
    plane's aspect kept), just enough that every line w·x + b = 0 of ``W``, ``B`` crosses it,
    counting only the lines that do within ``reach`` times the box's size.

    A line meets the box of centre c and half sizes (hx, hy) grown by s when
    |w·c + b| <= s (|w₁| hx + |w₂| hy): the least s of each line, the largest of those at most
    ``reach``, a little more (LINES_ROOM), rounded out to the box's hundredth.

    >>> lines_box(((0.0, 2.0), (0.0, 2.0)), np.array([[1.0, 1.0]]), np.array([-3.0]))
    ((0.0, 2.0), (0.0, 2.0))
    >>> lines_box(((0.0, 2.0), (0.0, 2.0)), np.array([[1.0, 1.0]]), np.array([1.0]))
    ((-0.62, 2.62), (-0.62, 2.62))
    >>> lines_box(((0.0, 2.0), (0.0, 2.0)), np.array([[1.0, 1.0]]), np.array([9.0]))
    ((0.0, 2.0), (0.0, 2.0))
    """
    (x0, x1), (y0, y1) = box
    centre = np.array([(x0 + x1) / 2, (y0 + y1) / 2])
    half = np.array([(x1 - x0) / 2, (y1 - y0) / 2])
    W, B = np.asarray(W, dtype=float).reshape(-1, 2), np.asarray(B, dtype=float).ravel()
    reaches = np.abs(W) @ half
    away = np.abs(W @ centre + B)
    drawn = reaches > 0  # w = 0: no line
    needed = np.divide(away, reaches, out=np.full_like(away, np.inf), where=drawn)
    within = needed[needed <= reach]
    grow = max(1.0, min(reach, float(within.max()) * LINES_ROOM)) if within.size else 1.0
    if grow == 1.0:
        return box
    # rounded out as view_box rounds, the x range still the y range's multiple it was
    unit = 10.0 ** (np.floor(np.log10(2 * half.max())) - 2)
    def out(value: float) -> float:  # (a hair of rounding error is not a unit more)
        return float(np.ceil(round(value / unit, 6)) * unit)

    high = out(half[1] * grow)
    half = np.array([out(high * half[0] / half[1]), high])
    return tuple((float(round(c - h, 10)), float(round(c + h, 10)))
                 for c, h in zip(centre, half, strict=True))


# how much taller than its box a plane that grows to its plot's height may be shown
# (``run_figure``'s ``tall``: a phone upright is about 2.2 times as tall as wide)
TALL_REACH = 4.0


def run_figure(X, y, classes, *, w, b, w_before=None, b_before=None, visited=None, mm=None,
               own_margins: bool = False, title: str = "", height: int = 560,
               aspect: float = 1.0, tall: bool = False, lines=None) -> go.Figure:
    """One run at one step: viz.plane.plane_figure plus the maximum margin (and the run's own);
    ``aspect``: the plane's width over its height.

    ``tall``: where the plot is taller than the box at equal scales (a 4:3 screen for a box
    wider than high), its y range grows to fill it (``constrain="range"``), rather than the
    plot shrinking to the box; the figure's lines and band reach TALL_REACH times the box's
    height so that they still meet the plot's edges. (Where the plot is wider than the box,
    the plot shrinks to it as any plane's does.)

    ``lines``: (W, B), the boundaries of the runs the page steps on this plane: its ranges
    grow to show them, within reason (:func:`lines_box`).
    """
    fig = plane_figure(X, y, classes, w=w, b=b, w_before=w_before, b_before=b_before,
                       visited=visited, height=height, title=title, aspect=aspect)
    box = view_box(np.asarray(X, dtype=float), aspect=aspect)
    if lines is not None:
        box = lines_box(box, *lines)
        fig.update_xaxes(range=list(box[0]))
        fig.update_yaxes(range=list(box[1]))
    if tall:
        fig.update_yaxes(constrain="range")
        (y0, y1) = box[1]
        reach = (y1 - y0) * (TALL_REACH - 1) / 2
        box = (box[0], (y0 - reach, y1 + reach))
    if own_margins:
        fig.add_trace(_own_margins_trace(w, b, box))
    add_max_margin(fig, X, mm, box)
    fig.update_layout(legend=dict(y=-0.15, font=dict(size=11)))  # clear of the x₁ title
    return fig


# ---------------------------------------------------------------- soft margin


def slack_segments(X, y, w, b: float, rows) -> tuple[list, list]:
    """Segments from each violating point to its own class's margin line w.x + b = y."""
    X, y, w = np.asarray(X, float), np.asarray(y, float), np.asarray(w, float)
    xs, ys = [], []
    if not w @ w > 0:
        return xs, ys  # w = 0: no margin lines to reach
    for i in rows:
        target = X[i] + (y[i] - (w @ X[i] + b)) * w / (w @ w)
        xs += [X[i, 0], target[0], None]
        ys += [X[i, 1], target[1], None]
    return xs, ys


def soft_margin_figure(X, y, classes, sm, *, height: int = 560, aspect: float = 1.0,
                       legend_columns: int | None = None) -> go.Figure:
    """The soft-margin SVM: boundary, margins, band, support vectors and every slack drawn
    (``aspect``: the plane's width over its height, viz.plane.view_box; ``legend_columns``:
    its legend's entries that many to a row)."""
    X, y = np.asarray(X, float), np.asarray(y, float)
    box = view_box(X, aspect=aspect)
    fig = go.Figure(point_traces(X, y, classes))
    _band_below(fig, sm.w, sm.b, box, showlegend=True, name="margin band |w·x + b| ≤ 1")
    fig.add_trace(shapes.line(sm.w, sm.b, box, name="boundary w·x + b = 0", color=SVM))
    mx, my = shapes.margin_lines(sm.w, sm.b, box)
    fig.add_trace(go.Scatter(x=mx, y=my, mode="lines", name="margins w·x + b = ±1",
                             line=dict(color=SVM, width=1.5, dash="dot"),
                             hoverinfo="skip"))
    sx, sy = slack_segments(X, y, sm.w, sm.b, sm.violations)
    fig.add_trace(go.Scatter(x=sx, y=sy, mode="lines", name="slack ξₙ (to its margin line)",
                             line=dict(color=SLACK, width=2.5), hoverinfo="skip"))
    viol = np.asarray(sm.violations)
    fig.add_trace(go.Scatter(
        x=X[viol, 0], y=X[viol, 1], mode="markers", name="margin violators", showlegend=False,
        marker=dict(size=8, color=CLEAR),
        hovertext=[f"row {i}: ξ {equals(sm.slack[i], places=3)}" for i in viol],
        hoverinfo="text"))
    fig.add_trace(shapes.rings(X[np.asarray(sm.support, dtype=int)], name="support vectors",
                               color=SUPPORT, size=20, width=2.5))
    square_axes(fig, box)
    w = np.asarray(sm.w, float)
    describe.attach(fig, describe.points(y, classes), describe.boundary(
        X, y, w, sm.b, name=f"The soft-margin SVM's boundary (C = {describe.number(sm.C)})",
        margin=1 / float(np.linalg.norm(w)) if np.any(w) else None),
        f"{describe.plural(len(sm.violations), 'margin violator')}, each with its slack drawn; "
        f"{describe.plural(len(sm.support), 'support vector')} circled.")
    return _legend_columns(house_layout(fig, height), legend_columns)


def _legend_columns(fig: go.Figure, columns: int | None) -> go.Figure:
    """A legend under the plot with its entries ``columns`` to a row (None: as Plotly packs
    them, which puts one long entry to a row)."""
    if columns:
        fig.update_layout(legend=dict(entrywidth=1 / columns, entrywidthmode="fraction"))
    return fig


def late_boundaries_figure(X, y, classes, W, B, *, labels, height: int = 480) -> go.Figure:
    """A run's boundaries at several moments, faint to dark (the last is the darkest)."""
    X = np.asarray(X, float)
    box = view_box(X)
    fig = go.Figure(point_traces(X, np.asarray(y), classes))
    count = len(W)
    for k, (w, b, label) in enumerate(zip(W, B, labels, strict=True)):
        shade = 0.15 + 0.85 * (k + 1) / count
        fig.add_trace(shapes.line(w, b, box, name=label, color=tint(BOUNDARY, round(shade, 2)),
                                  width=2, showlegend=k in (0, count - 1), hoverinfo="name"))
    square_axes(fig, box)
    if count:
        describe.attach(fig, describe.points(y, classes),
                        f"{describe.plural(count, 'boundary')} of the perceptron, faint to dark, "
                        f"from {labels[0]} to {labels[-1]}.",
                        describe.boundary(X, y, W[-1], B[-1],
                                          name=f"The darkest, at {labels[-1]}"))
    return house_layout(fig, height)


def errors_by_epoch_figure(errors, reference: float | None, *, height: int = 300) -> go.Figure:
    """Training errors at the end of each epoch, with the soft-margin SVM's as a line."""
    epochs = np.arange(1, len(errors) + 1)
    fig = go.Figure(go.Scatter(x=epochs, y=errors, mode="lines+markers",
                               name="perceptron (end of epoch)",
                               line=dict(color=BOUNDARY), marker=dict(symbol="circle")))
    if reference is not None:
        fig.add_hline(y=reference, line=dict(color=SVM, dash="dash", width=2),
                      annotation_text="soft-margin SVM", annotation_position="top right")
    fig.update_xaxes(title_text="epoch", tickformat="d", dtick=max(1, len(errors) // 10))
    fig.update_yaxes(title_text="training errors", rangemode="tozero")
    fig.update_layout(height=height, template=HOUSE_TEMPLATE, margin=dict(l=10, r=10, t=10, b=10),
                      legend=dict(orientation="h", yanchor="top", y=-0.25, x=0))
    return fig


def objective_latex(sm, n: int) -> str:
    """The soft-margin objective with its numbers."""
    w = np.asarray(sm.w, float)
    total = float(np.sum(sm.slack))
    value = 0.5 * float(w @ w) + sm.C * total
    # the solver's numbers, to 6 places: "=" only where they are written as they are
    is_, sum_ = chain_signs([sm.C], [float(w @ w), total], value, latex=True, places=6)
    return (r"\begin{aligned} &\tfrac12\lVert\mathbf{w}\rVert^2 + C\sum_{n=1}^{" + str(n)
            + r"}\xi^{(n)} \\ &" + is_ + r" \tfrac12\,(" + num(round(float(w @ w), 6))
            + r") + " + num(sm.C) + r"\cdot " + num(round(total, 6)) + rf" {sum_} "
            + num(round(value, 6)) + r"\end{aligned}")


# ---------------------------------------------------------------- generalization


def _hollow(traces):
    """The class traces with open markers (the held-out points)."""
    for trace in traces:
        trace.marker.symbol = f"{trace.marker.symbol}-open"
        trace.marker.line = dict(width=2, color=trace.marker.color)
        trace.name = trace.name.replace("class", "test:", 1)
    return traces


def generalization_figure(X, y, classes, train, test, runs, svm, *, height: int = 600,
                          aspect: float = 1.0, legend_columns: int | None = None):
    """Training points (filled), test points (open), every perceptron run and the SVM
    (``aspect``: the plane's width over its height, viz.plane.view_box; ``legend_columns``:
    its legend's entries that many to a row)."""
    X, y = np.asarray(X, float), np.asarray(y, float)
    box = view_box(X, aspect=aspect)
    fig = go.Figure()
    _band_below(fig, svm[0], svm[1], box, showlegend=False)
    for trace in point_traces(X[train], y[train], classes):
        trace.name = trace.name.replace("class", "train:", 1)
        fig.add_trace(trace)
    for trace in _hollow(point_traces(X[test], y[test], classes)):
        fig.add_trace(trace)
    for k, (w, b, label) in enumerate(runs):
        fig.add_trace(shapes.line(w, b, box, name=label, color=RUNS[k % len(RUNS)], width=2,
                                  dash=("solid", "dash", "dashdot", "longdash")[k % 4],
                                  hoverinfo="name"))
    fig.add_trace(shapes.line(svm[0], svm[1], box, name=svm[2], color=SVM, width=5,
                              hoverinfo="name"))
    square_axes(fig, box)
    describe.attach(fig, "Training points (filled): " + describe.points(y[train], classes),
                    "Test points (open): " + describe.points(y[test], classes),
                    f"{describe.plural(len(runs), 'perceptron separator')}: "
                    + "; ".join(f"{label}, {describe.equation(w, b)}" for w, b, label in runs)
                    + ".", describe.boundary(X[train], y[train], svm[0], svm[1],
                                             name=f"The thick line, {svm[2]}, on the training "
                                                  "points"))
    fig = house_layout(fig, height)
    fig.update_layout(legend=dict(font=dict(size=11)))
    return _legend_columns(fig, legend_columns)


def test_error_figure(run_errors, svm_error: float, *, height: int = 300) -> go.Figure:
    """Each perceptron run's test error as a hatched bar, and the SVM's as a last, plain bar."""
    names = [f"run {k + 1}" for k in range(len(run_errors))]
    fig = go.Figure(go.Bar(x=names, y=100 * np.asarray(run_errors), name="perceptron runs",
                           marker_color=[RUNS[k % len(RUNS)] for k in range(len(names))],
                           marker_pattern_shape="/", texttemplate="%{y:.1f} %",
                           textposition="outside", cliponaxis=False,
                           hovertemplate="%{x}: %{y:.1f} %<extra></extra>"))
    fig.add_trace(go.Bar(x=["SVM"], y=[100 * svm_error], name="SVM", marker_color=SVM,
                         texttemplate="%{y:.1f} %", textposition="outside", cliponaxis=False,
                         hovertemplate="SVM: %{y:.1f} %<extra></extra>"))
    fig.update_yaxes(title_text="test error (%)", rangemode="tozero")
    fig.update_layout(height=height, template=HOUSE_TEMPLATE, margin=dict(l=10, r=10, t=30, b=10),
                      showlegend=False)
    return fig


def theorem_2_6_figure(ns, errors, bounds, *, height: int = 320) -> go.Figure:
    """Mean test error over random draws against E[R^2/gamma^2]/(N + 1), for each N."""
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=list(ns), y=list(bounds), mode="lines+markers",
                             name="bound E[R²/γ²]/(N + 1)", line=dict(color=MAX_MARGIN, width=3),
                             marker=dict(symbol="diamond", size=9),
                             hovertemplate="N = %{x}: bound %{y:.3g}<extra></extra>"))
    fig.add_trace(go.Scatter(x=list(ns), y=list(errors), mode="lines+markers",
                             name="mean test error over the draws",
                             line=dict(color=BOUNDARY, dash="dash"),
                             marker=dict(symbol="circle", size=8),
                             hovertemplate="N = %{x}: error %{y:.3g}<extra></extra>"))
    fig.update_xaxes(type="log", title_text="N (training examples per draw)",
                     tickvals=list(ns), ticktext=[str(n) for n in ns])
    fig.update_yaxes(type="log", title_text="probability of a mistake on example N + 1")
    fig.update_layout(height=height, template=HOUSE_TEMPLATE, margin=dict(l=10, r=10, t=10, b=10),
                      legend=dict(orientation="h", yanchor="top", y=-0.25, x=0))
    return fig


def margin_sweep_figure(lams, exact, sgd, gamma: float, current: float, *,
                        height: int = 320) -> go.Figure:
    """Geometric margin against lambda: the exact minimiser, the SGD run, and gamma."""
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=lams, y=exact, mode="lines+markers", name="exact minimiser",
                             line=dict(color=SVM, width=3),
                             marker=dict(symbol="diamond", size=9)))
    fig.add_trace(go.Scatter(x=lams, y=sgd, mode="lines+markers", name="subgradient run",
                             line=dict(color=BOUNDARY, dash="dash"),
                             marker=dict(symbol="circle", size=8)))
    fig.add_hline(y=gamma, line=dict(color=MAX_MARGIN, width=1, dash="dot"),
                  annotation_text=f"Margin(D) {equals(gamma, places=4)}",
                  annotation_position="bottom left")
    fig.add_vline(x=current, line=dict(color=NOW, width=2))
    fig.update_xaxes(type="log", title_text="λ (shrinking to the right)", autorange="reversed",
                     tickvals=list(lams), ticktext=[num(v) for v in lams])
    fig.update_yaxes(title_text="geometric margin", range=[0, 1.15 * gamma])
    fig.update_layout(height=height, template=HOUSE_TEMPLATE, margin=dict(l=10, r=10, t=10, b=10),
                      legend=dict(orientation="h", yanchor="top", y=-0.3, x=0))
    return fig


# ---------------------------------------------------------------- LaTeX of an SVM step


def svm_step_lines(*, x, y: float, w_before, b_before: float, w_after, b_after: float, a: float,
                   updated: bool, eta: float, lam: float, t: int, eta0: float,
                   bias: bool = True, exact: bool = False) -> list[str]:
    """The LaTeX of one subgradient step of the SVM, with its numbers (to 4 decimals), each
    "=" where the numbers written are the values (``viz.maths.chain_signs``; the descent runs in
    floats, ``exact`` False, so its own numbers are written with "≈")."""
    def r(value):
        return np.round(np.asarray(value, dtype=float), 4)

    def signs(given, computed, result):
        return chain_signs(given, computed, result, exact=exact, latex=True, places=4)

    z = y * a
    verdict = (r"< 1 \\ &\Rightarrow \text{margin violated: hinge step}" if updated
               else r"= 1 \\ &\Rightarrow \text{on the margin: only the penalty}" if z == 1
               else r"\ge 1 \\ &\Rightarrow \text{beyond the margin: only the penalty}")
    a_is = signs([], [], a)[1]
    ya_is, ya_product = signs([y], [a], z)
    eta_is, eta_value = signs([eta0, t], [], eta)
    lines = [rf"\begin{{aligned}} a &= \mathbf{{w}}^\top\mathbf{{x}} + b {a_is} {num(r(a))} \\"
             rf" y\,a &{ya_is} ({num(y)})({num(r(a))}) {ya_product} {num(r(z))} {verdict}"
             r" \end{aligned}",
             rf"\eta_t = \eta_0/\sqrt{{t}} {eta_is} {num(eta0)}/\sqrt{{{t}}} {eta_value} "
             rf"{num(r(eta))}"]
    shrink = r(1.0 - eta * lam)
    if updated:
        w_is, w_sum = signs([y, x], [1.0 - eta * lam, w_before, eta], w_after)
        lines.append(
            r"\begin{aligned} \mathbf{w} &\leftarrow (1 - \eta_t\lambda)\,\mathbf{w}"
            r" + \eta_t\, y\,\mathbf{x} \\"
            rf" &{w_is} ({num(shrink)}){vec(r(w_before))} \\"
            rf" &\quad + ({num(r(eta))})({num(y)}){vec(x)} \\"
            rf" &{w_sum} {vec(r(w_after))} \end{{aligned}}")
        if bias:
            b_is, b_sum = signs([], [b_before, eta * y], b_after)
            lines.append(rf"b \leftarrow b + \eta_t\, y {b_is} {num(r(b_before))} "
                         rf"{signed(r(eta * y))} {b_sum} {num(r(b_after))}")
    else:
        w_is, w_value = signs([], [1.0 - eta * lam, w_before], w_after)
        lines.append(r"\begin{aligned} \mathbf{w} &\leftarrow (1 - \eta_t\lambda)\,\mathbf{w}"
                     rf" \\ &{w_is} ({num(shrink)}){vec(r(w_before))} {w_value} "
                     rf"{vec(r(w_after))} \end{{aligned}}")
    return lines


def bound_latex(ratio: float, n: int) -> str:
    """Theorem 2.6's right-hand side with this training set's R^2/gamma^2."""
    if not math.isfinite(ratio):
        return r"\frac{R^2/\gamma^2}{N+1} = \infty"
    # the quotient of the numerator as written, so that the division shown is the one done;
    # "=" only where that quotient is written as it is
    top = num(ratio)
    # on two lines: one line ran past a laptop's column
    return (rf"\begin{{aligned}} \mathbb{{E}}\big[\text{{error}}\big] &\le "
            rf"\frac{{\mathbb{{E}}[R^2/\gamma^2]}}{{N+1}} \\ "
            rf"&\approx \frac{{{top}}}{{{n} + 1}} "
            + equals(Fraction(top) / (n + 1), latex=True) + r" \end{aligned}")


# ---------------------------------------------------------------- beside scikit-learn


def epoch_rows(ours, theirs) -> list[dict]:
    """The perceptron beside scikit-learn's, one row per epoch: both (w, b) and their gap."""
    def triple(values) -> str:  # "≈" before it where a number written is not the value
        return ("" if eq_sign(values) == "=" else "≈ ") + ", ".join(num(v) for v in values)

    return [{"epoch": epoch, "ours (w₁, w₂, b)": triple(mine),
             "sklearn (w₁, w₂, b)": triple(other),
             "max |difference|": float(np.max(np.abs(mine - other)))}
            for epoch, (mine, other) in enumerate(zip(ours, theirs, strict=True), start=1)]


def comparison_table(theirs_name: str, ours_name: str, theirs, mine,
                     costs: tuple[float, float] | None = None) -> pd.DataFrame:
    """(w₁, w₂, b) of scikit-learn's separator and of ours, with the costs J when given."""
    names = ["w₁", "w₂", "b"]
    if costs is not None:
        theirs, mine = np.r_[theirs, costs[0]], np.r_[mine, costs[1]]
        names.append("J = mean hinge + λ/2‖w‖²")
    return pd.DataFrame({theirs_name: theirs, ours_name: mine,
                         "|difference|": np.abs(theirs - mine)}, index=names)


__all__ = [
    "add_max_margin",
    "bound_latex",
    "comparison_table",
    "epoch_rows",
    "errors_by_epoch_figure",
    "generalization_figure",
    "late_boundaries_figure",
    "loss_figure",
    "loss_table",
    "margin_sweep_figure",
    "objective_latex",
    "run_figure",
    "slack_segments",
    "soft_margin_figure",
    "source_listing",
    "svm_step_lines",
    "test_error_figure",
    "verdict",
]
