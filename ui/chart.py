"""The page's charts: a figure drawn whole by the page's own Plotly, the one its steppers load.

Streamlit's ``st.plotly_chart`` brings a Plotly of its own (its whole 4.7 MB bundle) to every
page that holds one: a page with a stepper and a chart fetched and evaluated two Plotlys before
its picture was done (bench/README.md, "A lesson opens"). Every chart goes to the browser as a
component's data instead (``ui/stepper_assets/chart.js``), with its toolbar, its full-screen
button and its alt text, drawn by the page's cartesian bundle (:data:`ui.stepper.PLOTLY_TRACES`);
a 3-D chart by the whole bundle, which the page fetches only for it and only once its first
picture is drawn. A chart that takes clicks (the drawing canvas) sends each back as the
component's event.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

import plotly.graph_objects as go
import plotly.io as pio
import streamlit as st

from ui.stepper import JS_CHART, PLOTLY_TRACES, script

COMPONENT = "perceptron_lab.chart"
CSS = """
.pl-page-chart { width: 100%; }
.pl-page-chart:fullscreen { background: Canvas; display: flex; align-items: center; }
.pl-page-chart:fullscreen > div { flex: 1; }
"""

_mount = st.components.v2.component(COMPONENT, css=CSS, isolate_styles=False,
                                    js=script(JS_CHART) + "\nexport default mountChart;\n")


def trace_types(fig: go.Figure | Mapping) -> set[str]:
    """The kinds of trace a figure (or its JSON) holds.

    Examples
    --------
    >>> sorted(trace_types(go.Figure([go.Scatter(), go.Contour()])))
    ['contour', 'scatter']
    >>> sorted(trace_types({"data": [{"type": "scatter3d"}, {}]}))
    ['scatter', 'scatter3d']
    """
    if isinstance(fig, go.Figure):
        return {trace.type for trace in fig.data}
    return {trace.get("type", "scatter") for trace in fig.get("data", [])}


def chart_bytes(fig: go.Figure | Mapping, *, config: Mapping, alt: str,
                clicks: bool = False) -> bytes:
    """What the chart's component is sent: ``{figure, config, alt, whole, clicks}`` as UTF-8
    JSON, the arrays as Plotly's typed ``bdata`` (as ``st.plotly_chart`` sends them); ``whole``
    when the page's Plotly cannot draw a trace of it (PLOTLY_TRACES), ``clicks`` when a click on
    a point is sent back. The figure's JSON is Plotly's own, written once: not parsed and
    written again on every rerun."""
    figure = pio.to_json(fig, validate=False, remove_uids=True)
    whole = not trace_types(fig) <= PLOTLY_TRACES
    rest = json.dumps({"config": dict(config), "alt": alt, "whole": whole, "clicks": clicks},
                      separators=(",", ":"), ensure_ascii=False)
    return f'{{"figure":{figure},{rest[1:]}'.encode()


def _clicked() -> None:
    """A chart's click is read from its component's result (draw_chart)."""


def draw_chart(fig: go.Figure | Mapping, *, key: str, alt: str, config: Mapping,
               clicks: bool = False) -> dict | None:
    """Draw a finished figure at full width and its own height.

    Parameters
    ----------
    fig : plotly Figure or its JSON
        Drawn as it is.
    key : str
        The chart's widget key.
    alt : str
        What the chart shows, for screen readers (the box's label).
    config : mapping
        Plotly's config (the toolbar).
    clicks : bool
        Whether a click on one of its points is sent back (the whole page runs again).

    Returns
    -------
    dict or None
        With ``clicks``, the point clicked since the last run, ``{"x": ..., "y": ...}`` in
        data coordinates; else None.
    """
    if not clicks:
        _mount(key=key, data=chart_bytes(fig, config=config, alt=alt))
        return None
    result = _mount(key=key, data=chart_bytes(fig, config=config, alt=alt, clicks=True),
                    on_click_change=_clicked)
    click = getattr(result, "click", None)
    if isinstance(click, dict) and all(isinstance(click.get(axis), (int, float))
                                       for axis in ("x", "y")):
        return {"x": float(click["x"]), "y": float(click["y"])}
    return None
