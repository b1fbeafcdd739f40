"""Lecture mode: the page and its charts big enough to read from the back of a hall."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
import streamlit as st

from ui import url_state
from ui.settings import LECTURE

_LECTURE_CSS = """
<style>
  html { font-size: 21px; }
  [data-testid="stMetricValue"] { font-size: 2.6rem; }
  .katex { font-size: 1.45em !important; }
  [data-testid="stMainBlockContainer"] { max-width: 100%; padding-top: 2rem; }
</style>
"""


def lecture_mode() -> bool:
    """Whether the page is drawn for a projector."""
    return bool(st.session_state.get(LECTURE.key, LECTURE.default))


def lecture_toggle() -> None:
    """The sidebar switch; in lecture mode also enlarge the page's type."""
    st.session_state[LECTURE.key] = st.session_state.get(LECTURE.key, LECTURE.default)
    LECTURE.draw()
    url_state.write([LECTURE])
    if lecture_mode():
        st.html(_LECTURE_CSS)


def _scaled(value, factor):
    """A size, or an array of sizes, times factor."""
    if value is None:
        return None
    if isinstance(value, (list, tuple, np.ndarray)):
        return [v * factor if v is not None else None for v in value]
    return value * factor


def for_projector(fig: go.Figure) -> go.Figure:
    """Thicker lines, bigger markers and type: the same figure, readable from far away."""
    for trace in fig.data:
        line = getattr(trace, "line", None)
        if line is not None and line.width is not None:
            line.width = line.width * 1.8
        marker = getattr(trace, "marker", None)
        if marker is not None and marker.size is not None:
            marker.size = _scaled(marker.size, 1.6)
    fig.update_layout(font=dict(size=20))
    if fig.layout.height:
        fig.update_layout(height=int(fig.layout.height * 1.2))
    return fig
