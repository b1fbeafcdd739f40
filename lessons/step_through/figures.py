"""The perceptron loss over weight space, with the run's path of weights drawn over it."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from viz.maths import eq_sign, num
from viz.palette import GRID, INK, SURFACE, UPDATE, tint
from viz.plane import PLANE_HEIGHT, house_layout, square_axes

ZERO_LOSS = tint(INK, 0.14)  # neutral: the region is no class's and no model's


def loss_figure(w1s, w2s, loss: np.ndarray, path: np.ndarray, *, height: int = PLANE_HEIGHT,
                title: str = "") -> go.Figure:
    """Contours of L(w) at 1, 2, ..., the zero-loss region shaded, and the path of weights.

    Parameters
    ----------
    w1s, w2s : ndarray
        The grid's ticks (:func:`core.loss_surface.weight_grid`).
    loss : ndarray of shape (len(w2s), len(w1s))
        :func:`core.loss_surface.loss_surface` on that grid.
    path : ndarray of shape (T + 1, 2)
        The weights before the first update and after each update.
    height : int, default PLANE_HEIGHT
    title : str, optional

    Returns
    -------
    plotly.graph_objects.Figure
    """
    top = max(int(np.floor(loss.max())), 1)
    fig = go.Figure(go.Heatmap(
        x=w1s, y=w2s, z=np.where(loss == 0, 1.0, np.nan), zmin=0, zmax=1, showscale=False,
        colorscale=[[0, ZERO_LOSS], [1, ZERO_LOSS]], name="L(w) = 0", showlegend=True,
        hoverinfo="skip"))
    fig.add_trace(go.Contour(
        x=w1s, y=w2s, z=loss, name="L(w) = 1, 2, …", showlegend=True, showscale=False,
        contours=dict(start=1, end=top, size=1, coloring="lines", showlabels=True,
                      labelfont=dict(size=11, color=SURFACE)),
        colorscale=[[0, SURFACE], [1, SURFACE]], line=dict(width=1), hoverinfo="skip"))
    fig.add_trace(go.Scatter(
        x=path[:, 0], y=path[:, 1], mode="lines+markers+text", name="w after each update",
        line=dict(color=UPDATE, width=2.5), marker=dict(size=8, color=UPDATE),
        text=[str(t) for t in range(len(path))], textposition="top right",
        textfont=dict(size=12, color=UPDATE),
        hovertext=[f"w({t}) {eq_sign(list(w))} ({num(w[0])}, {num(w[1])})"
                   for t, w in enumerate(path)],
        hoverinfo="text"))
    box = ((float(w1s[0]), float(w1s[-1])), (float(w2s[0]), float(w2s[-1])))
    square_axes(fig, box, ("w₁", "w₂"))
    fig.update_xaxes(gridcolor=GRID)
    fig.update_yaxes(gridcolor=GRID)
    return house_layout(fig, height, title)
