"""Figures of the input plane: points, a decision boundary, its normal vector, and the update.

Builders take plain arrays and return Plotly figures; they know nothing of Streamlit.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio

from viz import shapes
from viz.outside import plain
from viz.palette import BOUNDARY, CLASS_STYLE, GHOST, NORMAL, VISITED

# plotly_white's layout alone: its per-trace defaults are not used here, and Plotly copies,
# validates and sends a whole template with every figure (about half of a Step's server time).
HOUSE_TEMPLATE = go.layout.Template(layout=pio.templates["plotly_white"].layout)
# px: a plane's height as its figure is built, and on a projector (a fifth taller); the page
# then fits each to its box (ui/stepper_assets/fit.js)
PLANE_HEIGHT = 520
PLANE_HEIGHT_LECTURE = 624
# A finger's drag scrolls the page, as everywhere else on it, rather than zoom or pan the chart:
# the chart's toolbar zooms and resets (CHART_CONFIG)
HOUSE_TEMPLATE.layout.dragmode = False
# Plotly's toolbar on every chart, the stepper's too (ui.stepper sends it in the run's header):
# save a PNG, zoom in and out, reset. Its drag modes (zoom, pan, box and lasso select) are gone:
# on a touch screen they decide what a finger's drag does, and a drag scrolls the page instead
# (HOUSE_TEMPLATE). A 3-D chart keeps its rotation and gets its reset. Plotly's own default
# would also offer to upload the chart to its cloud.
CHART_CONFIG = {
    "displaylogo": False,
    "scrollZoom": False,
    "modeBarButtonsToRemove": [
        "zoom2d", "pan2d", "select2d", "lasso2d", "autoScale2d", "toggleSpikelines",
        "hoverClosestCartesian", "hoverCompareCartesian", "zoom3d", "pan3d", "orbitRotation",
        "tableRotation", "resetCameraLastSave3d", "hoverClosest3d", "sendDataToCloud",
    ],
}


def view_box(X: np.ndarray, pad: float = 0.15,
             aspect: float = 1.0) -> tuple[tuple[float, float], tuple[float, float]]:
    """Square axis ranges around the points, so the plot keeps right angles right; with
    ``aspect`` the x range is that many times the y range (a landscape plot, for a projector,
    or for points wider than tall), the scales still equal, the y range no taller than the
    points need.

    >>> view_box(np.array([[0.0, 0.0], [2.0, 2.0]]))
    ((-0.3, 2.3), (-0.3, 2.3))
    >>> view_box(np.array([[0.0, 0.0], [2.0, 2.0]]), aspect=1.5)
    ((-0.95, 2.95), (-0.3, 2.3))
    >>> view_box(np.array([[0.0, 0.0], [4.0, 1.0]]), aspect=2)
    ((-0.6, 4.6), (-0.8, 1.8))
    """
    lo, hi = X.min(axis=0), X.max(axis=0)
    span = hi - lo
    half = max(float(span[1]) / 2, float(span[0]) / 2 / aspect, 0.5) * (1 + 2 * pad)
    # round edges to a hundredth of the span: short numbers in every frame that touches them
    unit = 10.0 ** (np.floor(np.log10(2 * half)) - 2)
    centre = np.round((lo + hi) / 2 / unit) * unit
    half = np.ceil(half / unit) * unit
    halves = (np.ceil(half * aspect / unit) * unit, half)
    return tuple((float(round(c - h, 10)), float(round(c + h, 10)))
                 for c, h in zip(centre, halves, strict=True))


def _arrow(x, y, color: str, name: str, width: float = 3, dash: str | None = None, **kw):
    """A line with an arrowhead at its end (a trace, so animation frames can move it)."""
    return go.Scatter(
        x=x, y=y, mode="lines+markers", name=name,
        line=dict(color=color, width=width, dash=dash),
        marker=dict(symbol="arrow", angleref="previous", size=[0, 14], color=color),
        hoverinfo="skip", **kw,
    )


def class_label(label: int, name: str) -> str:
    """Legend text of a class: its sign and, when the user named it, the name, as plain text.

    Parameters
    ----------
    label : int
        -1 or +1.
    name : str
        The user's name for the class (from a file or a link: outside text).

    Returns
    -------
    str
        ``"class +1"``, or ``"class +1 (dog)"`` with the name escaped for
        Plotly (:func:`viz.outside.plain`), so a name that looks like HTML
        shows as written.

    Examples
    --------
    >>> class_label(1, "<b>dog</b>")
    'class +1 (&lt;b&gt;dog&lt;/b&gt;)'
    """
    sign = "+1" if label > 0 else "-1"
    return f"class {sign}" if name in ("-1", "+1") else f"class {sign} ({plain(name)})"


def point_traces(X: np.ndarray, y: np.ndarray, classes: tuple[str, str], *, size: float = 10):
    """One scatter trace per class, distinct in colour and shape."""
    traces = []
    for label, name in zip((-1, 1), classes, strict=True):
        mask = y == label
        style = CLASS_STYLE[label]
        traces.append(go.Scatter(
            x=X[mask, 0], y=X[mask, 1], mode="markers", name=class_label(label, name),
            marker=dict(color=style["color"], symbol=style["symbol"], size=size,
                        line=dict(color="white", width=1)),
            hovertemplate="(%{x:.4g}, %{y:.4g})<extra></extra>",
        ))
    return traces


def axis_titles(columns: tuple[str, str] | None) -> tuple[str, str]:
    """The plane's axis titles: x₁ and x₂, each with the user's name for it when there is one.

    Parameters
    ----------
    columns : (str, str) or None
        The data's names for x1 and x2 (``Dataset.columns``), outside text.

    Returns
    -------
    (str, str)
        Titles for Plotly, the names escaped (:func:`viz.outside.plain`).

    Examples
    --------
    >>> axis_titles(("Hours studied", "<b>slept</b>"))
    ('x₁ (Hours studied)', 'x₂ (&lt;b&gt;slept&lt;/b&gt;)')
    >>> axis_titles(None)
    ('x₁', 'x₂')
    """
    if not columns:
        return ("x₁", "x₂")
    return (f"x₁ ({plain(columns[0])})", f"x₂ ({plain(columns[1])})")


def named_axes(fig: go.Figure, columns: tuple[str, str] | None) -> go.Figure:
    """The figure with its x₁ and x₂ axes titled with the user's names (a copy; others kept).

    Every lesson's plane of the data titles its axes x₁ and x₂ (:func:`square_axes`); a
    figure whose axes are something else (weights, a loss) is returned unchanged.
    """
    if not columns:
        return fig
    titles = dict(zip(("x₁", "x₂"), axis_titles(columns), strict=True))
    layout = fig.layout
    found = [name for name in layout if name.startswith(("xaxis", "yaxis"))
             and layout[name].title.text in titles]
    if not found:
        return fig
    fig = go.Figure(fig)
    for name in found:
        fig.layout[name].title.text = titles[fig.layout[name].title.text]
    return fig


def named_figure_json(figure: dict, columns: tuple[str, str] | None) -> dict:
    """:func:`named_axes` for a figure already made JSON (a run's header): a new dict, the
    figure given (perhaps shared by every session) left as it was."""
    if not columns or "layout" not in figure:
        return figure
    titles = dict(zip(("x₁", "x₂"), axis_titles(columns), strict=True))
    layout = dict(figure["layout"])
    changed = False
    for name, axis in figure["layout"].items():
        if name.startswith(("xaxis", "yaxis")) and isinstance(axis, dict):
            text = (axis.get("title") or {}).get("text")
            if text in titles:
                layout[name] = {**axis, "title": {**axis["title"], "text": titles[text]}}
                changed = True
    return {**figure, "layout": layout} if changed else figure


def square_axes(fig: go.Figure, box, titles=("x₁", "x₂")) -> None:
    """Give a figure of the plane fixed, equal-scale axes that show exactly the box.

    Parameters
    ----------
    fig : plotly.graph_objects.Figure
        The figure, changed in place.
    box : ((x_min, x_max), (y_min, y_max))
        The axis ranges, e.g. from :func:`view_box`.
    titles : (str, str), default ("x₁", "x₂")
        The axis titles.

    Notes
    -----
    Fixed ranges keep the view through a rerun; equal scales keep right
    angles right. When the plot area is not square, it shrinks to the box
    (``constrain="domain"``) rather than one range growing beyond it, so that
    lines clipped to the box reach the plot's edges.
    """
    fig.update_xaxes(range=list(box[0]), title_text=titles[0], zeroline=True,
                     constrain="domain")
    fig.update_yaxes(range=list(box[1]), title_text=titles[1], scaleanchor="x", scaleratio=1,
                     zeroline=True, constrain="domain")


def house_layout(fig: go.Figure, height: int, title: str = "") -> go.Figure:
    """Apply the house layout: white, legend below, no wasted margins.

    Parameters
    ----------
    fig : plotly.graph_objects.Figure
        The figure, changed in place.
    height : int
        Height in pixels.
    title : str, optional
        A title above the plot (it gets room only when given).

    Returns
    -------
    plotly.graph_objects.Figure
        ``fig`` itself, for chaining.
    """
    fig.update_layout(
        title=title or None, height=height, template=HOUSE_TEMPLATE,
        margin=dict(l=10, r=10, t=40 if title else 10, b=10),
        legend=dict(orientation="h", yanchor="top", y=-0.12, x=0),
    )
    return fig


def legend_at_foot(fig: go.Figure, *, flow: bool = True) -> go.Figure:
    """A legend laid out below the plot, moved to the figure's foot, with ``flow`` its entries
    flowing in rows each as wide as its own words (a copy; else ``fig``).

    Below the plot by a share of its height, a legend meets the x axis's title on
    a short plot or with large type (w₁ sat on "η y x"). At the foot of the
    figure instead, Plotly makes room for both. A row legend too long for one
    line gives every entry the widest one's width (one long name, and six entries
    took six rows of a projector's plane); an entry in a group of its own keeps
    its width (traces already grouped stay together; a legend whose entries have a width of
    their own keeps it). A figure of fixed height whose square plot is as wide as it can be
    would only move its plot down into the rows a legend gives up: flow where the plot's
    height follows its room. ``fig`` is not changed.

    Examples
    --------
    >>> fig = go.Figure([go.Scatter(name="a"), go.Scatter(name="b", legendgroup="g")],
    ...                 layout=dict(legend=dict(orientation="h", y=-0.12)))
    >>> foot = legend_at_foot(fig)
    >>> foot.layout.legend.yref, foot.layout.legend.traceorder
    ('container', 'grouped')
    >>> [trace.legendgroup for trace in foot.data]
    ['entry 0', 'g']
    >>> fig.layout.legend.yref is None, fig.data[0].legendgroup is None
    (True, True)
    """
    legend = fig.layout.legend
    below = not (legend.y is None or legend.y >= 0 or legend.yref not in (None, "paper"))
    flow = flow and legend.orientation == "h" and legend.traceorder is None \
        and legend.entrywidth is None
    if not (below or flow):
        return fig
    fig = go.Figure(fig)
    if below:
        fig.update_layout(legend=dict(yref="container", y=0, yanchor="bottom"))
    if flow:
        for i, trace in enumerate(fig.data):
            if trace.legendgroup is None:
                trace.legendgroup = f"entry {i}"
        fig.update_layout(legend=dict(traceorder="grouped", tracegroupgap=0))
    return fig


def legend_below(fig: go.Figure, space: int) -> go.Figure:
    """Keep a fixed strip of ``space`` pixels at the bottom for the legend.

    The plot area then has the same size whatever the legend holds, and the legend
    never covers the x-axis title.
    """
    fig.update_layout(margin=dict(b=space),
                      legend=dict(yref="container", y=0, yanchor="bottom", font=dict(size=11)))
    return fig


def plane_figure(X, y, classes, *, w, b, w_before=None, b_before=None,
                 visited: int | None = None, height: int = PLANE_HEIGHT, title: str = "",
                 aspect: float = 1.0) -> go.Figure:
    """The data with the boundary w.x + b = 0, its unit normal, and the visited example.

    With ``w_before`` the boundary before the step is drawn as a faint dashed ghost; with
    ``aspect`` the plane is that many times as wide as high (view_box).
    """
    X = np.asarray(X, dtype=float)
    box = view_box(X, aspect=aspect)
    fig = go.Figure(point_traces(X, np.asarray(y), classes))
    if w_before is not None:
        fig.add_trace(shapes.line(w_before, b_before, box, name="boundary before", color=GHOST,
                                  dash="dash"))
    fig.add_trace(shapes.line(w, b, box, name="boundary w·x + b = 0", color=BOUNDARY))
    nx, ny = shapes.normal_arrow(w, b, box, 0.18 * (box[0][1] - box[0][0]))
    fig.add_trace(_arrow(nx, ny, NORMAL, "normal w/‖w‖"))
    if visited is not None:
        fig.add_trace(shapes.rings(X[[visited]], name="visited example", color=VISITED,
                                   size=26, width=4))
    square_axes(fig, box)
    return house_layout(fig, height, title)


