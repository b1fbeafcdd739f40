"""The drawing canvas: an invisible grid to click on, under the user's points."""

from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go

from datasets.editing import GRID_STEP
from viz import describe
from viz.palette import AXIS, GRID
from viz.plane import HOUSE_TEMPLATE, point_traces

CANVAS_HALF = 5.0  # the canvas spans at least [-5, 5] in both directions
MAX_CLICK_NODES = 61  # click targets per axis, whatever the data's extent
CANVAS_POINTS = 2_000  # points drawn on the canvas; a larger set shows an even sample
_NICE = (1, 2, 5)


def canvas_box(X: np.ndarray) -> tuple[float, float, float, float]:
    """Axis limits: the default square, grown to whole units around points outside it."""
    lo = min(-CANVAS_HALF, math.floor(float(X.min())) - 1) if len(X) else -CANVAS_HALF
    hi = max(CANVAS_HALF, math.ceil(float(X.max())) + 1) if len(X) else CANVAS_HALF
    return lo, hi, lo, hi


def click_spacing(low: float, high: float) -> float:
    """The spacing of the click grid over [low, high]: the snap grid, coarsened to fit.

    Parameters
    ----------
    low, high : float
        The canvas's extent along one axis.

    Returns
    -------
    float
        ``GRID_STEP`` times 1, 2, 5, 10, 20, 50, ...: the finest such spacing
        with at most :data:`MAX_CLICK_NODES` nodes over the extent, so a
        click still lands on the snap grid and the canvas costs the same
        whatever the coordinates.
    """
    cells = (high - low) / GRID_STEP
    scale = 1.0
    while True:
        for nice in _NICE:
            if cells / (nice * scale) <= MAX_CLICK_NODES - 1:
                return GRID_STEP * nice * scale
        scale *= 10


def click_nodes(X: np.ndarray) -> np.ndarray:
    """The canvas's click targets for the points X: (n, 2) nodes on the snap grid, at most
    :data:`MAX_CLICK_NODES` a side, spaced by :func:`click_spacing` over :func:`canvas_box`."""
    x0, x1, y0, y1 = canvas_box(X)
    step = click_spacing(min(x0, y0), max(x1, y1))
    gx, gy = np.meshgrid(np.arange(math.ceil(x0 / step), math.floor(x1 / step) + 1) * step,
                         np.arange(math.ceil(y0 / step), math.floor(y1 / step) + 1) * step)
    return np.column_stack([gx.ravel(), gy.ravel()])


def canvas_figure(X, y, classes, *, height: int = 560) -> go.Figure:
    """Trace 0 is an invisible grid that catches clicks anywhere; the points follow.

    A click on empty chart area sends nothing back to Streamlit, so every grid
    node is an (invisible) point the click can select. The grid has at most
    :data:`MAX_CLICK_NODES` nodes a side (:func:`click_spacing`): on the
    default canvas one per snap-grid node, on a wide one a coarser grid.
    Of more than :data:`CANVAS_POINTS` points, a seeded random sample of
    that many is drawn (the axes still fit them all).
    """
    X = np.asarray(X, dtype=float).reshape(-1, 2)
    x0, x1, y0, y1 = canvas_box(X)
    step = click_spacing(min(x0, y0), max(x1, y1))
    nodes = click_nodes(X)
    fig = go.Figure(go.Scatter(
        x=nodes[:, 0], y=nodes[:, 1], mode="markers", name="grid", showlegend=False,
        marker=dict(size=14, opacity=0, color="black"), hoverinfo="none",
        unselected=dict(marker=dict(opacity=0)), selected=dict(marker=dict(opacity=0)),
    ))
    y = np.asarray(y)
    describe.attach(fig, f"The canvas from x₁ = {describe.number(x0)} to {describe.number(x1)}, "
                         f"x₂ = {describe.number(y0)} to {describe.number(y1)}: "
                         + describe.points(y, classes)
                         + (f" A sample of {CANVAS_POINTS:,} is drawn." if len(y) > CANVAS_POINTS
                            else ""))
    if len(y) > CANVAS_POINTS:  # the page says so; erasing still searches every point
        rows = np.random.default_rng(0).choice(len(y), size=CANVAS_POINTS, replace=False)
        X, y = X[np.sort(rows)], y[np.sort(rows)]
    for trace in point_traces(X, y, classes, size=13):
        trace.update(unselected=dict(marker=dict(opacity=1)))
        fig.add_trace(trace)
    dtick = 1 if step <= 1 else None  # a wide canvas: Plotly's own ticks
    fig.update_xaxes(range=[x0, x1], dtick=dtick, gridcolor=GRID, title_text="x₁",
                     zeroline=True, zerolinecolor=AXIS, fixedrange=True)
    fig.update_yaxes(range=[y0, y1], dtick=dtick, gridcolor=GRID, title_text="x₂",
                     zeroline=True, zerolinecolor=AXIS, fixedrange=True,
                     scaleanchor="x", scaleratio=1)
    fig.update_layout(height=height, template=HOUSE_TEMPLATE, clickmode="event+select",
                      dragmode=False, margin=dict(l=10, r=10, t=10, b=10),
                      legend=dict(orientation="h", yanchor="bottom", y=1.0, x=0))
    return fig
