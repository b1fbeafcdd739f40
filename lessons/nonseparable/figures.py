"""Figures and LaTeX for the non-separable lesson: the weight path, its loop, errors per epoch.

Builders take plain arrays (or the records of ``core.cycles``, ``core.pocket``) and return Plotly
figures or LaTeX strings; they know nothing of Streamlit.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from core.words import plural
from viz import describe
from viz.maths import chain_signs, eq_sign, equals, num, vec
from viz.palette import AVERAGED, BOUNDARY, CLEAR, CYCLE, LAST, NORM, NOW, PATH, POCKET
from viz.plane import HOUSE_TEMPLATE

# Okabe-Ito colours and distinct dashes/markers for the three weight choices.
SERIES = {
    "last": dict(name="last weights", color=LAST, dash="solid", symbol="circle"),
    "pocket": dict(name="pocket (best seen)", color=POCKET, dash="dash", symbol="diamond"),
    "averaged": dict(name="averaged", color=AVERAGED, dash="dot", symbol="triangle-up"),
}
# Updates written out term by term in the LaTeX of one period, at most.
SUM_TERMS = 8


def _range(values: np.ndarray, pad: float = 0.08) -> list[float]:
    """A fixed axis range around the values, never empty."""
    lo, hi = float(np.min(values)), float(np.max(values))
    half = max((hi - lo) / 2, 0.5) * (1 + 2 * pad)
    mid = (lo + hi) / 2
    return [mid - half, mid + half]


# The most weights the path draws: a chart about 700 px wide shows no more apart, and each one
# more costs the browser (20,000 markers took it longest of any view on the largest upload).
PATH_POINTS = 3_000
# The loop's own weights are all drawn when it has at most this many (the rest of the path
# shares what is left); a longer loop is thinned like the path.
LOOP_POINTS = 2_500


def _evenly(start: int, stop: int, count: int) -> np.ndarray:
    """At most ``count`` rows from start..stop - 1, evenly spaced, both ends included."""
    if stop - start <= count:
        return np.arange(start, stop)
    return np.unique(np.linspace(start, stop - 1, max(count, 2)).round().astype(int))


def path_rows(length: int, loop: tuple[int, int] | None = None, *,
              max_points: int = PATH_POINTS) -> np.ndarray:
    """The rows of a path of ``length`` weights that the figure draws.

    Parameters
    ----------
    length : int
        Rows of the path (the start and the weights after each update).
    loop : (start, updates), optional
        Rows ``start .. start + updates`` go once round the loop.
    max_points : int, default PATH_POINTS
        The most rows returned.

    Returns
    -------
    ndarray of int
        Sorted rows: all of them when there are at most ``max_points``; else
        every row of the loop (when it has at most :data:`LOOP_POINTS`, else
        that many evenly spaced) and evenly spaced rows of the whole path with
        what is left, the first and the last always included.

    Examples
    --------
    >>> path_rows(5).tolist()
    [0, 1, 2, 3, 4]
    >>> rows = path_rows(100_000, (90_000, 3))
    >>> len(rows) <= PATH_POINTS, {0, 90_000, 90_003, 99_999} <= set(rows.tolist())
    (True, True)
    """
    if length <= max_points:
        return np.arange(length)
    kept = np.zeros(0, dtype=int)
    if loop is not None:
        start, updates = loop
        kept = _evenly(start, start + updates + 1, min(LOOP_POINTS, max_points - 2))
    return np.union1d(kept, _evenly(0, length, max_points - len(kept)))


def path_note(length: int, loop: tuple[int, int] | None = None) -> str:
    """What the path leaves out when it is thinned, in words ("" when it draws every row)."""
    rows = path_rows(length, loop)
    if len(rows) == length:
        return ""
    whole = loop is not None and np.isin(np.arange(loop[0], loop[0] + loop[1] + 1),
                                         rows).all()
    return (f"The path draws {len(rows):,} of its {length:,} weights, evenly spaced"
            + (", with every one on the loop" if whole else "")
            + ", so that the browser draws it quickly; its shape is the same.")


def trajectory_figure(path_w, path_b, *, cycle_start: int | None = None,
                      cycle_updates: int | None = None, current=None, three_d: bool = False,
                      max_points: int = PATH_POINTS, height: int = 460) -> go.Figure:
    """The weights after each update as a path in weight space; the loop drawn thick.

    Parameters
    ----------
    path_w : array_like of shape (M + 1, 2)
        (w1, w2) before the first update and after each one.
    path_b : array_like of shape (M + 1,)
        The bias along the path: the colour of the markers (or the height in 3-D).
    cycle_start, cycle_updates : int, optional
        Rows ``cycle_start .. cycle_start + cycle_updates`` go once round the loop.
    current : (w, b), optional
        The weights at the step the page shows, as a ring.
    three_d : bool, default False
        Draw (w1, w2, b) in 3-D instead of colouring by b.
    max_points : int, default PATH_POINTS
        A longer path draws this many of its rows (:func:`path_rows`: the loop's
        kept, the rest evenly spaced) and says so in its legend; hovering a
        point still names its own update.

    Returns
    -------
    plotly.graph_objects.Figure
    """
    W = np.asarray(path_w, dtype=float).reshape(-1, 2)
    B = np.asarray(path_b, dtype=float).reshape(-1)
    has_cycle = cycle_start is not None and cycle_updates is not None
    rows = path_rows(len(W), (cycle_start, cycle_updates) if has_cycle else None,
                     max_points=max_points)
    name = "path of (w₁, w₂) after each update"
    if len(rows) < len(W):
        name = f"path of (w₁, w₂): {len(rows):,} of its {len(W):,} points"
    scatter = go.Scatter3d if three_d else go.Scatter

    def xyz(w, b):
        coords = dict(x=w[:, 0], y=w[:, 1])
        if three_d:
            coords["z"] = b
        return coords

    values = np.r_[W[rows].ravel(), B[rows]]
    shown = eq_sign(values) if all(float(f"{v:.4g}") == v for v in values) else "≈"
    to = ":.4g" if shown == "≈" else ""  # numbers that are short as they are: written whole
    fig = go.Figure()
    fig.add_trace(scatter(
        **xyz(W[rows], B[rows]), mode="lines+markers", name=name,
        line=dict(color=PATH, width=2),
        marker=dict(size=3 if three_d or len(rows) > 500 else 6, color=B[rows],
                    colorscale="Viridis", cmin=B.min(), cmax=B.max(), showscale=True,
                    colorbar=dict(title=dict(text="b"), thickness=12, len=0.75)),
        customdata=np.column_stack([rows, B[rows]]),
        # to 4 digits, with "≈" where one of the path's numbers is rounded so (one sign for the
        # trace: thousands of hover texts would cost the page more than its points do)
        hovertemplate=f"after update %{{customdata[0]}}<br>w {shown} (%{{x{to}}}, %{{y{to}}})"
                      f"<br>b {shown} %{{customdata[1]{to}}}<extra></extra>",
    ))
    if has_cycle:
        loop = rows[(rows >= cycle_start) & (rows <= cycle_start + cycle_updates)]
        fig.add_trace(scatter(
            **xyz(W[loop], B[loop]), mode="lines",
            name=f"the loop ({plural(cycle_updates, 'update')})",
            line=dict(color=CYCLE, width=7 if not three_d else 9), hoverinfo="skip"))
        start = dict(size=18 if not three_d else 8, color=CYCLE, symbol="star" if not three_d
                     else "diamond", line=dict(color="black", width=1))
        fig.add_trace(scatter(**xyz(W[[cycle_start]], B[[cycle_start]]), mode="markers",
                              name="repeated weights", marker=start, hoverinfo="skip"))
    first = dict(size=12 if not three_d else 6, color="white", symbol="circle",
                 line=dict(color=BOUNDARY, width=2))
    fig.add_trace(scatter(**xyz(W[:1], B[:1]), mode="markers", name="start", marker=first,
                          hoverinfo="skip"))
    if current is not None:
        w, b = np.asarray(current[0], dtype=float).reshape(1, 2), np.array([float(current[1])])
        ring = dict(size=22 if not three_d else 9, color=CLEAR,
                    line=dict(color=NOW, width=4), symbol="circle")
        if three_d:
            ring = dict(size=9, color=NOW, symbol="circle-open")
        fig.add_trace(scatter(**xyz(w, b), mode="markers", name="weights now", marker=ring,
                              hoverinfo="skip"))
    reach_w = np.vstack([W, np.asarray(current[0], dtype=float).reshape(1, 2)]) \
        if current is not None else W
    x_range, y_range = _range(reach_w[:, 0]), _range(reach_w[:, 1])
    legend = dict(orientation="h", yanchor="top", y=-0.16, x=0)
    if three_d:
        fig.update_layout(scene=dict(
            xaxis=dict(title="w₁", range=x_range), yaxis=dict(title="w₂", range=y_range),
            zaxis=dict(title="b", range=_range(B)), aspectmode="cube"))
        legend["y"] = 0
    else:
        fig.update_xaxes(range=x_range, title_text="w₁", zeroline=True)
        fig.update_yaxes(range=y_range, title_text="w₂", zeroline=True)
    fig.update_layout(height=height, template=HOUSE_TEMPLATE, legend=legend,
                      margin=dict(l=10, r=10, t=10, b=10))
    return fig


def errors_figure(report, *, cycle: tuple[int, int] | None = None,
                  height: int = 420) -> go.Figure:
    """Training errors per epoch (last, pocket, averaged weights) over max ||w|| per epoch.

    Parameters
    ----------
    report : core.pocket.EpochReport
        The per-epoch summary of a run.
    cycle : (j, k), optional
        Epochs whose starting weights are equal: the band over epochs j to k - 1 is
        one period (k - j epochs).

    Returns
    -------
    plotly.graph_objects.Figure
    """
    fig = make_subplots(rows=2, cols=1, shared_xaxes=True, row_heights=[0.65, 0.35],
                        vertical_spacing=0.06)
    epochs = report.epoch
    markers = len(epochs) <= 60
    for key, values in (("last", report.errors_last), ("pocket", report.errors_pocket),
                        ("averaged", report.errors_averaged)):
        style = SERIES[key]
        # over many epochs the last weights' errors jump every epoch: dots read, a line is a smear
        dots = not markers and key == "last"
        fig.add_trace(go.Scatter(
            x=epochs, y=values, name=style["name"],
            mode="lines+markers" if markers else "markers" if dots else "lines",
            line=dict(color=style["color"], dash=style["dash"], width=2, shape="hv"),
            marker=dict(symbol=style["symbol"], size=7 if markers else 3, color=style["color"]),
            hovertemplate=f"{style['name']}: " "%{y} errors at the end of epoch %{x}"
                          "<extra></extra>"), row=1, col=1)
    fig.add_trace(go.Scatter(
        x=epochs, y=report.max_norm, name="max ‖w‖ in the epoch", mode="lines",
        line=dict(color=NORM, width=2),
        hovertext=[f"epoch {e}: max ‖w‖ {equals(v)}" for e, v in zip(epochs, report.max_norm,
                                                                     strict=True)],
        hoverinfo="text"), row=2, col=1)
    if cycle is not None and cycle[0] <= epochs[-1]:
        # epochs j .. k - 1 make one period (p = k - j of them); epoch k starts the next
        first, last = cycle[0], cycle[1] - 1
        for row in (1, 2):
            fig.add_vrect(x0=first - 0.5, x1=min(last, epochs[-1]) + 0.5,
                          fillcolor=CYCLE, opacity=0.2, line_width=0, row=row, col=1)
        # a legend entry for the band (shapes have none)
        span = f"epoch {first}" if last == first else f"epochs {first}–{last}"
        fig.add_trace(go.Scatter(
            x=[None], y=[None], mode="markers", name=f"one period ({span})",
            marker=dict(symbol="square", size=12, color=CYCLE, opacity=0.4)), row=1, col=1)
    series = (report.errors_last, report.errors_pocket, report.errors_averaged)
    top = max(max(int(np.max(s, initial=0)) for s in series), 1)  # a few errors still show
    fig.update_yaxes(title_text="training errors", range=[-0.05 * top - 0.2, 1.08 * top + 0.2],
                     row=1, col=1)
    fig.update_yaxes(title_text="max ‖w‖", rangemode="tozero", row=2, col=1)
    fig.update_xaxes(title_text="epoch", row=2, col=1)
    # the legend under the epoch axis (ui's figure_json / lesson.chart move it to the figure's
    # foot, with room of its own): over the plot it sat on the top row, where the last weights'
    # errors run when they are at their most (XOR's four on a projector)
    fig.update_layout(height=height, template=HOUSE_TEMPLATE, margin=dict(l=10, r=10, t=10, b=10),
                      legend=dict(orientation="h", yanchor="top", y=-0.12, x=0))
    if len(epochs):
        last, pocket = int(report.errors_last[-1]), int(report.errors_pocket[-1])
        describe.attach(fig, f"{describe.plural(len(epochs), 'epoch')}. Training errors at the end "
                             f"of epoch {int(epochs[-1])}: last weights {last}, pocket {pocket}, "
                             f"averaged {int(report.errors_averaged[-1])}; the fewest of the last "
                             f"weights in any epoch: {int(np.min(report.errors_last))}."
                        + (f" Epochs {cycle[0]} to {cycle[1] - 1} are one period of the cycle."
                           if cycle is not None else ""))
    return fig


def cycle_latex(cycle) -> list[str]:
    """The repeat and, for a short loop, its updates summing to zero, as LaTeX lines.

    Parameters
    ----------
    cycle : core.cycles.Cycle
        A search result with ``status == "cycle"``.

    Returns
    -------
    list of str
        The equal weights at the two epoch starts, with their values; the
        period; and (when ``path_w`` holds the loop) the sum of its updates.
    """
    w = [float(v) for v in cycle.w]
    b = float(cycle.b)
    j, k = cycle.first, cycle.repeat
    updates = f"{cycle.updates:,}".replace(",", "{,}")  # 138{,}994: a comma, not a list
    lines = [
        rf"\mathbf{{w}}_{{\text{{epoch }}{k}}} = \mathbf{{w}}_{{\text{{epoch }}{j}}} "
        rf"{eq_sign(w, latex=True)} {vec(w)},"
        rf"\qquad b_{{\text{{epoch }}{k}}} = b_{{\text{{epoch }}{j}}} {eq_sign(b, latex=True)} "
        rf"{num(b)}",
        rf"\text{{period }} p = {k} - {j} = {cycle.period}"
        rf"\text{{ epoch{'s' if cycle.period != 1 else ''}}},"
        rf"\qquad q = {updates}\text{{ update{'s' if cycle.updates != 1 else ''} per period}}",
    ]
    if cycle.cycle_start is not None and cycle.updates <= SUM_TERMS:
        loop = cycle.path_w[cycle.cycle_start:cycle.cycle_start + cycle.updates + 1]
        loop_b = cycle.path_b[cycle.cycle_start:cycle.cycle_start + cycle.updates + 1]
        steps = np.diff(loop, axis=0)
        terms = " + ".join(vec(s) for s in steps)
        bias_terms = " ".join(
            (f"{num(d)}" if i == 0 else (f"- {num(-d)}" if d < 0 else f"+ {num(d)}"))
            for i, d in enumerate(np.diff(loop_b)))
        # "=" only where the terms are written as they are (viz.maths.chain_signs)
        is_, total = chain_signs([], steps, 0, latex=True)
        lines.append(rf"\sum_{{\text{{one period}}}} \eta\, y_n \mathbf{{x}}_n {is_} {terms}"
                     rf" {total} {vec(np.zeros(len(w)))}")
        if np.any(np.diff(loop_b)):
            is_, total = chain_signs([], np.diff(loop_b), 0, latex=True)
            lines.append(rf"\sum_{{\text{{one period}}}} \eta\, y_n {is_} {bias_terms} "
                         rf"{total} 0")
    return lines

