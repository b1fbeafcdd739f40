"""The page's charts: a figure drawn whole by the page's own Plotly, the one its steppers load.

Streamlit's ``st.plotly_chart`` brings a Plotly of its own (its whole 4.7 MB bundle) to every
page that holds one: a page with a stepper and a chart fetched and evaluated two Plotlys before
its picture was done (bench/README.md, "A lesson opens"). A chart whose traces the page's
cartesian bundle draws (:data:`ui.stepper.PLOTLY_TRACES`) goes to the browser as a component's
data instead (``ui/stepper_assets/chart.js``), with its toolbar, its full-screen button and its
alt text. A 3-D chart is drawn by the whole bundle, which the page fetches only for it and only
once its first picture is drawn; only a chart that sends its selection back (the drawing
canvas) still goes through ``st.plotly_chart``.
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


def chart_bytes(fig: go.Figure | Mapping, *, config: Mapping, alt: str) -> bytes:
    """What the chart's component is sent: ``{figure, config, alt, whole}`` as UTF-8 JSON, the
    arrays as Plotly's typed ``bdata`` (as ``st.plotly_chart`` sends them); ``whole`` when the
    page's Plotly cannot draw a trace of it (PLOTLY_TRACES). The figure's JSON is Plotly's own,
    written once: not parsed and written again on every rerun."""
    figure = pio.to_json(fig, validate=False, remove_uids=True)
    whole = not trace_types(fig) <= PLOTLY_TRACES
    rest = json.dumps({"config": dict(config), "alt": alt, "whole": whole},
                      separators=(",", ":"), ensure_ascii=False)
    return f'{{"figure":{figure},{rest[1:]}'.encode()


def draw_chart(fig: go.Figure | Mapping, *, key: str, alt: str, config: Mapping, **kwargs):
    """Draw a finished figure at full width and its own height.

    Parameters
    ----------
    fig : plotly Figure or its JSON
        Drawn as it is.
    key : str
        The chart's widget key.
    alt : str
        What the chart shows, for screen readers (the box's label, as ``st.plotly_chart``'s).
    config : mapping
        Plotly's config (the toolbar).
    **kwargs
        For ``st.plotly_chart`` (``on_select``, ...): a chart given any is drawn by it.

    Returns
    -------
    object
        ``st.plotly_chart``'s answer where it drew the chart (the selection), else None.
    """
    if kwargs:
        return st.plotly_chart(fig, key=key, alt=alt, config=dict(config), **kwargs)
    _mount(key=key, data=chart_bytes(fig, config=config, alt=alt))
    return None
