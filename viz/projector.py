"""Figures for a projector: thick lines, big markers and no text too small for a hall.

The one rule for every chart of a page in lecture mode, whether Streamlit draws
it (ui.lesson) or the stepper does in the browser (ui.stepper): at 1280 px wide
a chart's type must reach 16 px to be read from a hall's back rows; the page's
own type is 21 px there (ui.lecture).
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

PROJECTOR_FONT = 20  # px: a text the figure left to the theme
MIN_FONT = 18  # px: the least size of any text on a projector
TITLE_STANDOFF = 4  # px: between an axis's tick labels and its title
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

    Parameters
    ----------
    fig : plotly Figure
        Changed in place.

    Returns
    -------
    plotly Figure
        ``fig``.

    Examples
    --------
    >>> fig = go.Figure(go.Scatter(x=[0], y=[0], line=dict(width=2)),
    ...                 layout=dict(legend=dict(font=dict(size=11))))
    >>> fig = for_projector(fig)
    >>> fig.data[0].line.width, fig.layout.legend.font.size, fig.layout.xaxis.tickfont.size
    (3.6, 18, 20)
    >>> fig.layout.xaxis.title.standoff
    4
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
    # and an axis's title close to its tick labels (Plotly's default gap, 15 px, is taken
    # from the plot's height on a screen with none to spare)
    for axis in [*fig.select_xaxes(), *fig.select_yaxes()]:
        axis.update(tickfont=_sized(axis.tickfont), title_font=_sized(axis.title.font))
        if axis.title.standoff is None:
            axis.title.standoff = TITLE_STANDOFF
    for scene in fig.select_scenes():
        for axis in (scene.xaxis, scene.yaxis, scene.zaxis):
            axis.update(tickfont=_sized(axis.tickfont), title_font=_sized(axis.title.font))
    for note in fig.layout.annotations:
        note.update(font=_sized(note.font))
    fig.update_layout(legend_font=_sized(fig.layout.legend.font),
                      title_font=_sized(fig.layout.title.font))
    return fig
