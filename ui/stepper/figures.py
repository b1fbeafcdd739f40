"""The figures a run's header carries: a lesson's own, or the house's plane and weight space
without their moving parts, for the page's Plotly to draw them over."""

from __future__ import annotations

import hashlib
import json

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio
import streamlit as st

from datasets import Dataset
from ui.stepper.files import PLOTLY_TRACES
from viz.palette import BOUNDARY, CLEAR, GHOST, UPDATE, VISITED
from viz.plane import (
    PLANE_HEIGHT,
    axis_titles,
    house_layout,
    legend_at_foot,
    point_traces,
    square_axes,
    view_box,
)
from viz.projector import for_projector


def figure_json(fig: go.Figure, *, lecture: bool = False) -> dict:
    """A figure as the browser's Plotly takes it, its legend clear of the axes; on a projector,
    drawn for one.

    Parameters
    ----------
    fig : plotly Figure
        Not changed.
    lecture : bool, default False
        Thick lines, big markers and no text under ``viz.projector.MIN_FONT``
        pixels (``viz.projector.for_projector``).

    Raises
    ------
    ValueError
        A trace of a type the page's Plotly does not draw (PLOTLY_TRACES).

    Examples
    --------
    >>> fig = go.Figure(layout=dict(legend=dict(font=dict(size=11))))
    >>> figure_json(fig, lecture=True)["layout"]["legend"]["font"]["size"]
    18
    """
    fig = legend_at_foot(fig)
    if lecture:
        fig = for_projector(go.Figure(fig))
    kinds = {trace.type for trace in fig.data} - PLOTLY_TRACES
    if kinds:
        raise ValueError(f"the page's Plotly (PLOTLY_GZ) cannot draw {', '.join(sorted(kinds))}: "
                         f"a stepper's figure holds only {', '.join(sorted(PLOTLY_TRACES))}")
    return json.loads(pio.to_json(fig, validate=False, remove_uids=True))


def legend_only(name: str, color: str, *, dash: str | None = None, symbol: str | None = None):
    """An empty trace that only names an overlay's mark in the legend."""
    if symbol:
        return go.Scatter(x=[None], y=[None], mode="markers", name=name, hoverinfo="skip",
                          marker=dict(size=14, symbol=symbol, color=CLEAR,
                                      line=dict(color=color, width=3)))
    return go.Scatter(x=[None], y=[None], mode="lines", name=name, hoverinfo="skip",
                      line=dict(color=color, width=3, dash=dash))


def plane_skeleton(data: Dataset, *, height: int = PLANE_HEIGHT, lecture: bool = False) -> dict:
    """The plane's Plotly figure without its points' coordinates, and the legend of the overlay.

    The point traces are the first two (class -1, then +1); the browser fills
    their x and y from the X and y columns. Built once per process for a data set, size
    and mode, and shared by every session that draws it (a hall opening one link builds it
    once, not 300 times): read it, never change it.
    """
    X = np.ascontiguousarray(data.X, dtype=float)
    look = hashlib.blake2b(X.tobytes(), digest_size=16)
    look.update(np.ascontiguousarray(data.y, dtype=float).tobytes())
    look.update(json.dumps([list(data.classes), data.columns]).encode())
    return _plane_skeleton(look.hexdigest(), int(height), bool(lecture), data)


@st.cache_resource(max_entries=64, show_spinner=False)
def _plane_skeleton(digest: str, height: int, lecture: bool, _data: Dataset) -> dict:
    X, y = np.asarray(_data.X, dtype=float), np.asarray(_data.y)
    traces = point_traces(X, y, _data.classes)
    for trace in traces:
        trace.x, trace.y = [], []
    fig = go.Figure([*traces,
                     legend_only("boundary w·x + b = 0", BOUNDARY),
                     legend_only("boundary before", GHOST, dash="dash"),
                     legend_only("visited example", VISITED, symbol="circle")])
    square_axes(fig, view_box(X), axis_titles(_data.columns))
    house_layout(fig, height)
    return figure_json(fig, lecture=lecture)


def weights_skeleton(W: np.ndarray, *, height: int = 320, lecture: bool = False) -> dict:
    """Weight space with fixed axes that hold every w of the run, and the overlay's legend.

    Shared like :func:`plane_skeleton`, by the axes' reach, size and mode: read it only.
    """
    reach = max(float(np.max(np.abs(W))) if W.size else 0.0, 1e-3) * 1.3
    return _weights_skeleton(reach, int(height), bool(lecture))


@st.cache_resource(max_entries=64, show_spinner=False)
def _weights_skeleton(reach: float, height: int, lecture: bool) -> dict:
    fig = go.Figure([legend_only("w before", GHOST), legend_only("η y x", UPDATE),
                     legend_only("w after", BOUNDARY)])
    square_axes(fig, ((-reach, reach), (-reach, reach)), ("w₁", "w₂"))
    house_layout(fig, height)
    return figure_json(fig, lecture=lecture)
