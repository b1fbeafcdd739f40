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
    """The sidebar switch (the page's ``Lesson`` enlarges the type, see :func:`lecture_css`)."""
    st.session_state[LECTURE.key] = st.session_state.get(LECTURE.key, LECTURE.default)
    LECTURE.draw()
    url_state.write([LECTURE])


def lecture_css() -> None:
    """In lecture mode, the page's type and spacing for a projector.

    Drawn in the main area at the top of every page: in a collapsed sidebar (where a
    lecture link opens) the style did not always reach the page.
    """
    if lecture_mode():
        st.html(_LECTURE_CSS)


# At 1280 px wide a chart's type must reach 16 px to be read from a hall's back rows; the
# page's own type is 21 px there (see _LECTURE_CSS).
PROJECTOR_FONT = 20
MIN_FONT = 18
_TRACE_TEXT = ("textfont", "insidetextfont", "outsidetextfont", "colorbar", "legendgrouptitle")


def _scaled(value, factor):
    """A size, or an array of sizes, times factor."""
    if value is None:
        return None
    if isinstance(value, (list, tuple, np.ndarray)):
        return [v * factor if v is not None else None for v in value]
    return value * factor


def _small_fonts(spec, path=(), inside_font=False):
    """The paths to every explicit font size below MIN_FONT in a figure's JSON."""
    if isinstance(spec, dict):
        for key, value in spec.items():
            if key == "size" and inside_font and isinstance(value, (int, float)):
                if value < MIN_FONT * 1.5:
                    yield (*path, key), max(value * 1.5, MIN_FONT)
            elif key != "template":
                yield from _small_fonts(value, (*path, key), inside_font or key.endswith("font"))
    elif isinstance(spec, (list, tuple)):
        for i, item in enumerate(spec):
            yield from _small_fonts(item, (*path, i), inside_font)


def _set(obj, path, value) -> None:
    """obj[path[0]][path[1]]... = value, on Plotly's objects (assigning whole parts re-checks
    them all: the layout's template alone costs 70 ms)."""
    for key in path[:-1]:
        obj = obj[key]
    obj[path[-1]] = value


def for_projector(fig: go.Figure) -> go.Figure:
    """Thicker lines, bigger markers and type: the same figure, readable from far away.

    Every text of the figure (ticks, axis titles, legend, annotations, colour
    bars, text on points) is at least ``MIN_FONT`` px, whatever size the figure
    asked for; a legend laid out below the plot moves clear of the x axis's
    title, which the larger type makes taller.
    """
    for trace in fig.data:
        line = getattr(trace, "line", None)
        if line is not None and getattr(line, "width", None) is not None:
            line.width = line.width * 1.8
        marker = getattr(trace, "marker", None)
        if marker is not None and getattr(marker, "size", None) is not None:
            marker.size = _scaled(marker.size, 1.6)
        # only the parts that hold text: a trace's data arrays can be large
        texts = {name: trace[name].to_plotly_json() for name in _TRACE_TEXT
                 if name in trace and trace[name] is not None}
        if marker is not None and getattr(marker, "colorbar", None) is not None:
            texts["marker"] = {"colorbar": marker.colorbar.to_plotly_json()}
        for path, size in list(_small_fonts(texts)):
            _set(trace, path, size)
    layout = {key: value for key, value in fig.layout.to_plotly_json().items()
              if key != "template"}
    for path, size in list(_small_fonts(layout)):
        _set(fig.layout, path, size)
    fig.update_layout(font=dict(size=PROJECTOR_FONT))
    if fig.layout.height:
        fig.update_layout(height=int(fig.layout.height * 1.2))
    return fig
