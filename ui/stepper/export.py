"""The exports: a stepper's run as one offline HTML file, and every step as CSV."""

from __future__ import annotations

import base64

import streamlit as st

from core.trace import Trace
from datasets import Dataset
from ui.stepper.assets import script, style
from ui.stepper.files import plotly_js


def offline_html(blob: bytes, *, title: str = "Perceptron Lab") -> bytes:
    """The stepper and its run as one HTML file that works with no network and no server.

    Parameters
    ----------
    blob : bytes
        A packed run (as :func:`stepper` sends it).
    title : str
        The page's title.

    Returns
    -------
    bytes
        UTF-8 HTML with Plotly, the stepper and the run inside.
    """
    module = script().replace("export default function", "const mountStepper = function", 1)
    data = base64.b64encode(blob).decode()
    css = style()
    page = f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>body {{ font-family: system-ui, sans-serif; margin: 1.5rem; }}
{css}</style>
<script>{plotly_js().decode()}</script></head>
<body><div id="stepper"></div>
<script type="module">
{module}
const bytes = Uint8Array.from(atob("{data}"), (c) => c.charCodeAt(0));
mountStepper({{ parentElement: document.getElementById("stepper"), data: bytes,
               setStateValue: () => {{}} }});
</script></body></html>
"""
    return page.encode("utf-8")


def packed(key: str) -> bytes | None:
    """The bytes the stepper ``key`` sent last (for exports)."""
    cache = st.session_state.get(f"{key}.stepper.blob")
    return None if cache is None else cache[1]


def export_buttons(key: str, data: Dataset, trace: Trace) -> None:
    """Downloads made only when clicked: the stepper ``key`` offline (HTML), every step (CSV)."""
    from viz.export import trace_csv

    blob = packed(key)
    # side by side, each as wide as its words: fixed columns cut them short on a laptop
    with st.container(horizontal=True, gap="small"):
        if blob is not None:
            st.download_button("The run (HTML, steps offline)", lambda: offline_html(blob),
                               file_name="perceptron_run.html", mime="text/html",
                               icon=":material/movie:", on_click="ignore", width="content",
                               key=f"{key}.export.html")
        st.download_button("Every step (CSV)", lambda: trace_csv(trace, data.X, data.y),
                           file_name="perceptron_steps.csv", mime="text/csv",
                           icon=":material/table:", on_click="ignore", width="content",
                           key=f"{key}.export.csv")
