"""The drawing canvas: an invisible grid to click on, under the user's points."""

from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go

from datasets.editing import GRID_STEP
from viz.plane import HOUSE_TEMPLATE, point_traces

CANVAS_HALF = 5.0  # the canvas spans at least [-5, 5] in both directions


def canvas_box(X: np.ndarray) -> tuple[float, float, float, float]:
    """Axis limits: the default square, grown to whole units around points outside it."""
    lo = min(-CANVAS_HALF, math.floor(float(X.min())) - 1) if len(X) else -CANVAS_HALF
    hi = max(CANVAS_HALF, math.ceil(float(X.max())) + 1) if len(X) else CANVAS_HALF
    return lo, hi, lo, hi


def canvas_figure(X, y, classes, *, height: int = 560) -> go.Figure:
    """Trace 0 is a dense invisible grid that catches clicks anywhere; the points follow.

    A click on empty chart area sends nothing back to Streamlit, so every grid
    node is an (invisible) point the click can select.
    """
    X = np.asarray(X, dtype=float).reshape(-1, 2)
    x0, x1, y0, y1 = canvas_box(X)
    gx, gy = np.meshgrid(np.arange(x0, x1 + GRID_STEP / 2, GRID_STEP),
                         np.arange(y0, y1 + GRID_STEP / 2, GRID_STEP))
    fig = go.Figure(go.Scatter(
        x=gx.ravel(), y=gy.ravel(), mode="markers", name="grid", showlegend=False,
        marker=dict(size=14, opacity=0, color="black"), hoverinfo="none",
        unselected=dict(marker=dict(opacity=0)), selected=dict(marker=dict(opacity=0)),
    ))
    for trace in point_traces(X, np.asarray(y), classes, size=13):
        trace.update(unselected=dict(marker=dict(opacity=1)))
        fig.add_trace(trace)
    fig.update_xaxes(range=[x0, x1], dtick=1, gridcolor="#dddddd", title_text="x₁",
                     zeroline=True, zerolinecolor="#999999", fixedrange=True)
    fig.update_yaxes(range=[y0, y1], dtick=1, gridcolor="#dddddd", title_text="x₂",
                     zeroline=True, zerolinecolor="#999999", fixedrange=True,
                     scaleanchor="x", scaleratio=1)
    fig.update_layout(height=height, template=HOUSE_TEMPLATE, clickmode="event+select",
                      dragmode=False, margin=dict(l=10, r=10, t=10, b=10),
                      legend=dict(orientation="h", yanchor="bottom", y=1.0, x=0))
    return fig
