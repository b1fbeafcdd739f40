"""Figures and LaTeX of the margin lesson: margin bands, the ball of radius R, the proof's
two inequalities, and mistakes against the bound.

Builders take plain arrays and return Plotly figures; they know nothing of Streamlit.
"""

from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from core.perceptron import ORDERS
from viz import describe, shapes
from viz.maths import chain_signs, eq_sign, equals, num, written
from viz.palette import (
    BALL,
    BOUND,
    BOUNDARY,
    CLEAR,
    CLOSEST,
    CURRENT_BAND,
    MAX_BAND,
    MAX_MARGIN,
    NOW,
    SERIES,
    SUPPORT,
    WRONG,
)
from viz.plane import (
    HOUSE_TEMPLATE,
    PLANE_HEIGHT,
    house_layout,
    legend_below,
    point_traces,
    square_axes,
)

# A colour and a shape per visiting order of the experiment (a new order takes the next).
_ORDER_SYMBOLS = ("circle", "square", "diamond", "triangle-up", "x", "star", "cross", "hexagon")
ORDER_STYLE = {order: (SERIES[k % len(SERIES)], _ORDER_SYMBOLS[k % len(_ORDER_SYMBOLS)])
               for k, order in enumerate(ORDERS)}


def plane_box(X, *, radius: float | None = None, pad: float = 0.12):
    """A square view around the points and the origin, and around the ball if ``radius``.

    The origin is always in view: the theorem's ball and the bias are about it.
    """
    X = np.asarray(X, dtype=float)
    lo = np.minimum(X.min(axis=0), 0.0)
    hi = np.maximum(X.max(axis=0), 0.0)
    if radius is not None:
        lo, hi = np.minimum(lo, -radius), np.maximum(hi, radius)
    centre = (lo + hi) / 2
    half = max(float(np.max(hi - lo)) / 2, 0.5) * (1 + 2 * pad)
    return ((centre[0] - half, centre[0] + half), (centre[1] - half, centre[1] + half))


def _circle(radius: float, name: str, dash: str, width: float) -> go.Scatter:
    """A circle about the origin."""
    angle = np.linspace(0, 2 * np.pi, 181)
    return go.Scatter(x=radius * np.cos(angle), y=radius * np.sin(angle), mode="lines",
                      name=name, line=dict(color=BALL, dash=dash, width=width),
                      hoverinfo="skip")


def _band(w, b: float, half_width: float, box, name: str, fill: str, **group) -> go.Scatter:
    """A shaded band of the given geometric half-width about w.x + b = 0."""
    level = half_width * float(np.linalg.norm(np.asarray(w, dtype=float)))
    return shapes.band_trace(w, b, level, box, name=name, fill=fill, **group)


def margin_figure(X, y, classes, box, *, current=None, maximum=None, bound_line=None,
                  radius: float | None = None, radius_plane: float | None = None,
                  height: int = PLANE_HEIGHT, legend_space: int = 150, title: str = "",
                  beside: bool = False) -> go.Figure:
    """The data with margin bands, the closest point, support vectors and the ball of radius R.

    Parameters
    ----------
    X, y, classes
        The data and the names of class -1 and +1.
    box : ((x0, x1), (y0, y1))
        Fixed axis ranges.
    current : dict, optional
        ``w``, ``b``, ``margin`` (geometric; -inf when (w, b) does not separate) and
        ``closest`` (a row or None): the perceptron's boundary at this step, its
        band, and the nearest point with its distance drawn.
    maximum : object with ``w``, ``b``, ``gamma``, ``support``, optional
        The maximum-margin separator: boundary, the two margin lines, its band
        and the support vectors circled.
    bound_line : (w, b), optional
        The line of the bound's unit vector u (in the plane), dotted.
    radius, radius_plane : float, optional
        R of the vectors the perceptron sees, and max ||x_n|| of the plane points.
        Without ``radius_plane`` (no bias) the circle of radius R is drawn; with it,
        R is the radius of a ball in (x, 1) space, which the points' plane cuts in
        the circle of radius sqrt(R^2 - 1) = max ||x_n||: that circle is drawn.
    height, legend_space : int
        Figure height and the strip at its bottom kept for the legend, in pixels.
    title : str
        Shown above the plot.
    beside : bool
        The legend's entries beside each other, each as wide as its words, the ball's in
        short lines (a projector's legend under the plot, whose rows cost the plot its
        height).
    """
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    fig = go.Figure()
    # one legend entry per separator: its band and margin lines toggle with it
    max_group = dict(legendgroup="maximum", showlegend=False)
    current_group = dict(legendgroup="current", showlegend=False)
    if maximum is not None:
        fig.add_trace(_band(maximum.w, maximum.b, maximum.gamma, box, "maximum-margin band",
                            MAX_BAND, **max_group))
    if current is not None and math.isfinite(current["margin"]):
        fig.add_trace(_band(current["w"], current["b"], current["margin"], box,
                            "margin band of this boundary", CURRENT_BAND, **current_group))
    if radius is not None and radius_plane is not None:
        # R is the radius of a ball in (x, 1) space; the plane of the points (third coordinate
        # 1) cuts it in a circle of radius sqrt(R^2 - 1) = max ||x||: that circle is drawn
        # "=" only where the number written is the length (viz.maths.eq_sign): √8 is "≈"
        fig.add_trace(_circle(radius_plane, f"ball of radius R {eq_sign(radius)} {num(radius)} "
                              f"around the (x, 1),<br>cut by their plane: radius √(R² − 1)"
                              f"{'<br>' if beside else ' '}= max ‖x‖ {eq_sign(radius_plane)} "
                              f"{num(radius_plane)}", "dash", 2))
    elif radius is not None:
        fig.add_trace(_circle(radius, f"ball of radius R {equals(radius)}", "dash", 2))
    for trace in point_traces(X, y, classes):
        fig.add_trace(trace)
    if maximum is not None:
        w, b = np.asarray(maximum.w), float(maximum.b)
        fig.add_trace(shapes.line(w, b, box, name=f"maximum-margin separator and band, Margin(D) "
                                  f"{equals(maximum.gamma)}", color=MAX_MARGIN,
                                  legendgroup="maximum"))
        for shift in (-1.0, 1.0):  # the margin lines w.x + b = +-1 through the support vectors
            fig.add_trace(shapes.line(w, b + shift, box, name="margin line", color=MAX_MARGIN,
                                      dash="dash", width=1.5, **max_group))
        fig.add_trace(shapes.rings(X[np.asarray(maximum.support, dtype=int)],
                                   name="support vectors", color=SUPPORT, size=24))
    if bound_line is not None:
        fig.add_trace(shapes.line(bound_line[0], bound_line[1], box,
                                  name="line of the bound's u (u·(x, 1) = 0)", color=BALL,
                                  dash="dot", width=2))
    if current is not None:
        w, b = np.asarray(current["w"], dtype=float), float(current["b"])
        fig.add_trace(shapes.line(w, b, box, name="perceptron boundary w·x + b = 0" + (
            f" and band, margin {equals(current['margin'])}"
            if math.isfinite(current["margin"])
            else ""), color=BOUNDARY, legendgroup="current"))
        closest = current.get("closest")
        if closest is not None and math.isfinite(current["margin"]):
            p = X[closest]
            foot = p - (w @ p + b) / (w @ w) * w
            fig.add_trace(go.Scatter(
                x=[p[0], foot[0]], y=[p[1], foot[1]], mode="lines", name="its distance",
                line=dict(color=CLOSEST, width=3, dash="dot"), hoverinfo="skip",
                showlegend=False))
            fig.add_trace(shapes.rings(X[[closest]], name="closest point", color=CLOSEST,
                                       size=26))
        else:
            wrong = np.flatnonzero(y * (X @ w + b) <= 0)
            if wrong.size:
                fig.add_trace(go.Scatter(
                    x=X[wrong, 0], y=X[wrong, 1], mode="markers",
                    name="misclassified (y·a ≤ 0)",
                    marker=dict(symbol="x-thin", size=18, line=dict(color=WRONG, width=2)),
                    hoverinfo="skip"))
    square_axes(fig, box)
    # the legend gets a fixed strip at the bottom: side-by-side charts with different
    # legends keep the same view and size
    house_layout(fig, height, title)
    words = [describe.points(y, classes)]
    if maximum is not None:
        words.append(describe.boundary(X, y, maximum.w, maximum.b, margin=maximum.gamma,
                                       name="The maximum-margin separator"))
        words.append(f"{describe.plural(len(maximum.support), 'support vector')} circled.")
    if current is not None:
        words.append(describe.boundary(X, y, current["w"], current["b"],
                                       margin=current["margin"], name="The perceptron's boundary"))
    if radius is not None:
        words.append(f"A dashed circle: the ball of radius R {equals(radius)}.")
    describe.attach(fig, *words)
    if beside:
        fig.update_layout(legend=dict(entrywidth=0, entrywidthmode="pixels"))
    return legend_below(fig, legend_space)


def proof_figure(projections, squared_norms, *, gamma: float, R: float, eta: float,
                 start_projection: float = 0.0, start_squared: float = 0.0,
                 current: int = 0, height: int = 460) -> go.Figure:
    """The proof's two inequalities over the updates, with update ``current`` highlighted.

    ``projections[t]`` = u.w_t and ``squared_norms[t]`` = ||w_t||^2 for t = 0..T
    (t = 0 is the start). The lines are u.w_0 + t eta gamma (claim 1: the points
    stay on or above it) and ||w_0||^2 + t eta^2 R^2 (claim 2: on or below).
    """
    projections = np.asarray(projections, dtype=float)
    squared_norms = np.asarray(squared_norms, dtype=float)
    t = np.arange(len(projections))
    ends = np.array([0, max(t[-1], 1)])
    # the notes' tγ and tR² when w_0 = 0 and eta = 1; offsets and eta only when they matter
    lower = ("u·w₀ + " if start_projection else "") + ("tηγ" if eta != 1 else "tγ")
    upper = ("‖w₀‖² + " if start_squared else "") + ("tη²R²" if eta != 1 else "tR²")
    fig = make_subplots(rows=2, cols=1, shared_xaxes=True, vertical_spacing=0.12,
                        subplot_titles=(f"Claim 1: u·wₜ ≥ {lower}  (points on or above the line)",
                                        f"Claim 2: ‖wₜ‖² ≤ {upper}  (points on or below the line)"))
    # the bounds first and wide, so points sitting exactly on them stay visible
    fig.add_trace(go.Scatter(x=ends, y=start_projection + ends * eta * gamma, mode="lines",
                             name=f"lower bound {lower}",
                             line=dict(color=BOUND, width=5), opacity=0.55,
                             hoverinfo="skip"), row=1, col=1)
    fig.add_trace(go.Scatter(x=ends, y=start_squared + ends * eta**2 * R**2, mode="lines",
                             name=f"upper bound {upper}",
                             line=dict(color=BOUND, width=5), opacity=0.55,
                             hoverinfo="skip"), row=2, col=1)
    fig.add_trace(go.Scatter(x=t, y=projections, mode="lines+markers", name="u·wₜ",
                             marker=dict(size=7, color=BOUNDARY),
                             line=dict(color=BOUNDARY, width=1, dash="dot"),
                             hovertext=[f"t = {n}<br>u·wₜ {equals(v)}"
                                        for n, v in zip(t, projections, strict=True)],
                             hoverinfo="text"),
                  row=1, col=1)
    fig.add_trace(go.Scatter(x=t, y=squared_norms, mode="lines+markers", name="‖wₜ‖²",
                             marker=dict(size=7, color=BOUNDARY, symbol="square"),
                             line=dict(color=BOUNDARY, width=1, dash="dot"),
                             hovertext=[f"t = {n}<br>‖wₜ‖² {equals(v)}"
                                        for n, v in zip(t, squared_norms, strict=True)],
                             hoverinfo="text"),
                  row=2, col=1)
    current = int(np.clip(current, 0, t[-1]))
    ring = dict(size=18, color=CLEAR, line=dict(color=NOW, width=3))
    fig.add_trace(go.Scatter(x=[current], y=[projections[current]], mode="markers",
                             name=f"now: t = {current}", marker=ring, hoverinfo="skip"),
                  row=1, col=1)
    fig.add_trace(go.Scatter(x=[current], y=[squared_norms[current]], mode="markers",
                             marker=ring, showlegend=False, hoverinfo="skip"), row=2, col=1)
    fig.update_xaxes(title_text="t (updates so far)", row=2, col=1)
    fig.update_yaxes(title_text="u·wₜ", row=1, col=1)
    fig.update_yaxes(title_text="‖wₜ‖²", row=2, col=1)
    fig.update_xaxes(range=[-0.5, ends[-1] + 0.5])
    fig.update_layout(height=height, template=HOUSE_TEMPLATE,
                      margin=dict(l=10, r=10, t=40, b=10),
                      legend=dict(orientation="h", yanchor="top", y=-0.14, x=0))
    # to 4 places, each with "≈" where that is not its value (viz.maths.written)
    def n(value) -> str:
        return written(value, places=4).replace("-", "−")

    describe.attach(fig, f"{describe.plural(int(t[-1]), 'update')} so far. Now, at t = {current}: "
                         f"u·wₜ {equals(projections[current], places=4).replace('-', '−')}, at "
                         f"least the lower bound {n(start_projection + current * eta * gamma)}; "
                         f"‖wₜ‖² {equals(squared_norms[current], places=4).replace('-', '−')}, "
                         f"at most the upper bound {n(start_squared + current * eta**2 * R**2)}.")
    return fig


def experiment_figure(bounds, mistakes, orders, labels, *, height: int = 460) -> go.Figure:
    """Mistakes against the bound R^2/gamma^2 on log axes, one marker per run, with y = x.

    ``labels`` are the hover texts of the runs; ``orders`` pick colour and shape.
    """
    bounds = np.asarray(bounds, dtype=float)
    mistakes = np.asarray(mistakes, dtype=float)
    orders = np.asarray(orders)
    labels = np.asarray(labels)
    fig = go.Figure()
    for order, (color, symbol) in ORDER_STYLE.items():
        mask = orders == order
        if not mask.any():
            continue
        fig.add_trace(go.Scatter(
            x=bounds[mask], y=mistakes[mask], mode="markers", name=order.replace("_", " "),
            marker=dict(color=color, symbol=symbol, size=9, opacity=0.8,
                        line=dict(color="white", width=0.5) if symbol != "x" else None),
            text=labels[mask], hovertemplate="%{text}<br>bound %{x:.4g}, mistakes %{y}"
                                             "<extra></extra>"))
    top = float(max(bounds.max(), mistakes.max())) * 1.5
    fig.add_trace(go.Scatter(x=[0.8, top], y=[0.8, top], mode="lines",
                             name="mistakes = bound (y = x)",
                             line=dict(color=BOUNDARY, dash="dash", width=2), hoverinfo="skip"))
    fig.update_xaxes(type="log", title_text="bound R²/γ² (vectors (x, 1))",
                     range=[math.log10(0.8), math.log10(top)])
    fig.update_yaxes(type="log", title_text="mistakes made",
                     range=[math.log10(0.8), math.log10(top)])
    within = int(np.sum(mistakes <= bounds))
    describe.attach(fig, f"{describe.plural(len(bounds), 'run')}, one marker each: {within:,} "
                         f"made at most as many mistakes as their bound R²/γ² (on or below the "
                         f"line y = x), {len(bounds) - within:,} more. The most mistakes: "
                         f"{describe.number(mistakes.max()) if len(mistakes) else 0}.")
    return house_layout(fig, height)


def margin_latex(margin: float, *, exact: bool = True) -> str:
    """Margin(D, w) of the current (w, b), written with its value or -infinity (exact: the
    run's numbers are exact; in floats its value is written with "≈")."""
    value = equals(margin, latex=True, exact=exact) if math.isfinite(margin) else r"= -\infty"
    condition = (r"\ \text{(it separates } \mathcal{D})" if math.isfinite(margin)
                 else r"\ \text{(it does not separate } \mathcal{D})")
    return (r"\operatorname{Margin}(\mathcal{D}, \mathbf{w}, b) = \min_n "
            r"\frac{y_n(\mathbf{w}^\top\mathbf{x}_n + b)}{\lVert\mathbf{w}\rVert} "
            + value + condition)


def spaces_latex(*, R_plane: float, gamma_plane: float | None, R: float,
                 gamma: float | None, bound, bias: bool) -> list[str]:
    """The plane's R and margin next to the theorem's R and gamma, with the bound (a Fraction
    where it is known exactly, else its float)."""
    # gamma_plane: None where no line separates, inf for one class (every far line does)
    gp = (r"= \text{none}" if gamma_plane is None else r"= +\infty" if math.isinf(gamma_plane)
          else equals(gamma_plane, latex=True))
    lines = [rf"\text{{in the plane: }} \max_n \lVert\mathbf{{x}}_n\rVert "
             rf"{equals(R_plane, latex=True)},"
             rf"\quad \operatorname{{Margin}}(\mathcal{{D}}) {gp}"]
    if bias:
        g = equals(gamma, latex=True) if gamma is not None else r"= \text{none}"
        root_is, root_value = chain_signs([], [R_plane], R, latex=True)
        lines.append(
            rf"\text{{what the perceptron sees, }} \mathbf{{z}}_n = (\mathbf{{x}}_n, 1):\quad "
            rf"R = \max_n \lVert \mathbf{{z}}_n \rVert {root_is} \sqrt{{1 + {num(R_plane)}^2}} "
            rf"{root_value} {num(R)}")
        lines.append(rf"\gamma = \max_{{\lVert\mathbf{{u}}\rVert = 1}} \min_n y_n\, "
                     rf"\mathbf{{u}}^\top \mathbf{{z}}_n {g}")
    else:
        g = equals(gamma, latex=True) if gamma is not None else r"= \text{none}"
        lines.append(
            rf"\text{{no bias: the perceptron sees }} \mathbf{{x}}_n \text{{ itself: }} "
            rf"R {equals(R, latex=True)},\quad \gamma = \max_{{\lVert\mathbf{{u}}\rVert = 1}} "
            rf"\min_n y_n\, \mathbf{{u}}^\top \mathbf{{x}}_n {g} \ \text{{(a line through 0)}}")
    if gamma is not None:
        # the fraction of the numbers as written equals the bound only where all three are
        written_is, quotient = chain_signs([], [R, gamma], bound, latex=True)
        lines.append(rf"\frac{{R^2}}{{\gamma^2}} {written_is} \frac{{{num(R)}^2}}{{{num(gamma)}^2}}"
                     rf" {quotient} {num(float(bound))}")
    else:
        lines.append(r"\frac{R^2}{\gamma^2} = \infty \quad \text{(no such } \gamma > 0)")
    return lines
