"""Lecture mode: the page and its charts big enough to read from the back of a hall."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
import streamlit as st

from ui import url_state
from ui.settings import LECTURE
from ui.theme import PAGE_SCRIPT, PAGE_STYLE_KEY, page_css

# Large type; a short title and little space above it, so that a lesson's first chart is on
# a projector's first screen (1280 x 720, 1024 x 768).
_LECTURE_CSS = """
<style>
  html { font-size: 21px; }
  [data-testid="stMetricValue"] { font-size: 2.6rem; }
  .katex { font-size: 1.3em !important; }
  /* a long formula breaks after a relation or an operator, as a line of text does, rather
     than scroll sideways out of the picture */
  .katex-display > .katex, .katex-display > .katex > .katex-html { white-space: normal; }
  .katex-display { overflow: visible !important; text-align: left; }
  [data-testid="stMainBlockContainer"] { max-width: 100%; padding: 3.4rem 2rem 2rem; }
  [data-testid="stMainBlockContainer"] h1 { font-size: 1.75rem; padding: 0; line-height: 1.25; }
</style>
"""


# On every page: labels wrap rather than end in "…" ("still lear…", "Sh…" were seen).
_PAGE_CSS = """
<style>
  [data-testid="stMetricLabel"] *, [data-testid="stWidgetLabel"] *, .stButton button * {
    white-space: normal !important; overflow: visible !important; text-overflow: clip !important;
    word-break: normal !important; overflow-wrap: normal !important;
  }
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
    """Labels that wrap, text colours that read in both themes, boxes that scroll sideways
    reachable by keyboard (ui.theme); in lecture mode, the page's type and spacing for a
    projector.

    Drawn in the main area at the top of every page: in a collapsed sidebar (where a
    lecture link opens) the style did not always reach the page.
    """
    # in a container of its own that takes no room: a script would otherwise cost a gap
    with st.container(key=PAGE_STYLE_KEY):
        st.html(page_css() + _PAGE_CSS + (_LECTURE_CSS if lecture_mode() else "") + PAGE_SCRIPT,
                unsafe_allow_javascript=True)


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


def _sized(font) -> dict:
    """A font's size, or the projector's when the figure left it to the theme."""
    return dict(size=font.size or PROJECTOR_FONT)


def for_projector(fig: go.Figure) -> go.Figure:
    """Thicker lines, bigger markers and type: the same figure, readable from far away.

    Every text of the figure (ticks, axis titles, legend, annotations, colour
    bars, text on points) is at least ``MIN_FONT`` px, whatever size the figure
    asked for.
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
    # Streamlit's chart theme gives every text the figure leaves unsized 0.75 rem (16 px
    # on a projector's 21 px page, 12 px otherwise): size them all
    for axis in [*fig.select_xaxes(), *fig.select_yaxes()]:
        axis.update(tickfont=_sized(axis.tickfont), title_font=_sized(axis.title.font))
    for scene in fig.select_scenes():
        for axis in (scene.xaxis, scene.yaxis, scene.zaxis):
            axis.update(tickfont=_sized(axis.tickfont), title_font=_sized(axis.title.font))
    for note in fig.layout.annotations:
        note.update(font=_sized(note.font))
    fig.update_layout(legend_font=_sized(fig.layout.legend.font),
                      title_font=_sized(fig.layout.title.font))
    return fig
