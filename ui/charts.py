"""Showing figures, and lecture mode: big enough to read from the back of a hall."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
import streamlit as st

from ui import url_state

LECTURE_KEY = url_state.LECTURE.key
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
    return bool(st.session_state.get(LECTURE_KEY, False))


def lecture_toggle() -> None:
    """The sidebar switch; in lecture mode also enlarge the page's type."""
    st.session_state[LECTURE_KEY] = st.session_state.get(LECTURE_KEY, False)
    st.toggle("Lecture mode", key=LECTURE_KEY,
              help="Large type, thick lines and big markers for a projector. "
                   "Open a link with ?lecture=1 to start in it, sidebar closed.")
    url_state.write([url_state.LECTURE])
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


def show(fig: go.Figure, *, key: str, alt: str, **kwargs):
    """st.plotly_chart with alt text, scaled up in lecture mode."""
    if lecture_mode():
        fig = for_projector(go.Figure(fig))
    return st.plotly_chart(fig, key=key, alt=alt, **kwargs)


KEYS_HELP = """
| key | does |
| --- | --- |
| → | Step: visit the next example |
| ← | Back: undo the last step |
| N | Next mistake: jump to the next update |
| Home | Reset: back to the start |
| Tab / Enter | move between and press any control |

The keys work wherever the page has focus, except while you type in a field.
▶ Play runs the steps at the chosen speed; *Predict* asks before each step.
"""


def keys_button() -> None:
    """A popover that lists the keyboard shortcuts."""
    with st.popover("Keys", icon=":material/keyboard:", width="stretch"):
        st.markdown(KEYS_HELP)
