"""The Variants lesson's figures and LaTeX: last, averaged and voted boundaries, the kernel
perceptron's regions on a grid, and one-vs-rest on three classes.

Builders take plain arrays (grid values come from the models in core/) and
return Plotly figures; they know nothing of Streamlit.
"""

from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go

from viz import describe, shapes
from viz.maths import chain_signs, eq_sign, equals, num, signed, vec
from viz.palette import (
    AVERAGED,
    BOUNDARY,
    CLASS_STYLE,
    CLASS_TINT,
    CLEAR,
    DISPUTED,
    GREY,
    LAST,
    MULTI_STYLE,
    PATTERN,
    UNCLAIMED,
    VISITED,
    VOTED,
    WHITE,
)
from viz.plane import class_label, house_layout, square_axes

# Every k-th grid cell carries a marker in the disputed and unclaimed areas, so they
# differ by shape as well as shade.
_PATTERN_EVERY = 6
PAIR_DASHES = ("dash", "dot", "dashdot")  # one-vs-one's pair lines, told apart by their dash
# The averaged part's three boundaries as its legend names them: in full, and in a word on a
# projector, where the legend is one row under the plot (the full names took three at 1280 x 720
# and cut the plot to a fifth of the screen; the introduction and the panels write them out)
LINE_NAMES = {"voted": ("voted: Σ c_k sign(w_k·x + b_k) = 0", "voted"),
              "averaged": ("averaged: μ·x + μ_b = 0", "averaged"),
              "last": ("last: w·x + b = 0", "last")}


def line_name(line: str, compact: bool = False) -> str:
    """The legend's name of one of the averaged part's boundaries (LINE_NAMES)."""
    return LINE_NAMES[line][compact]


def grid(box, size: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A size x size grid over the box: x ticks, y ticks, and the points as (size^2, 2) rows.

    Row r * size + c of the points is (xs[c], ys[r]), so values reshape to (size, size)
    in the (row = y, column = x) layout of a heatmap.
    """
    if size < 2:
        raise ValueError(f"grid size must be >= 2, got {size}")
    xs = np.linspace(box[0][0], box[0][1], size)
    ys = np.linspace(box[1][0], box[1][1], size)
    gx, gy = np.meshgrid(xs, ys)
    return xs, ys, np.column_stack([gx.ravel(), gy.ravel()])


def _sign_heatmap(xs, ys, values: np.ndarray, name: str) -> go.Heatmap:
    """The plane tinted by the sign of the values (class colours; white where exactly 0)."""
    z = np.sign(values).reshape(len(ys), len(xs)).astype(np.int8)
    return go.Heatmap(
        x=xs, y=ys, z=z, zmin=-1, zmax=1, showscale=False, name=name, hoverinfo="skip",
        colorscale=[[0.0, CLASS_TINT[-1]], [0.5, CLEAR], [1.0, CLASS_TINT[1]]],
    )


def _zero_contour(xs, ys, values: np.ndarray, name: str, color: str,
                  dash: str = "solid", width: float = 3) -> go.Contour:
    """The curve where the values cross 0."""
    return go.Contour(
        x=xs, y=ys, z=values.reshape(len(ys), len(xs)).astype(np.float32), name=name,
        contours=dict(start=0, end=0, size=1, coloring="none"), showscale=False,
        line=dict(color=color, width=width, dash=dash), showlegend=True, hoverinfo="skip",
    )


def sized_points(X, y, classes, sizes, *, hover: np.ndarray | None = None,
                 hover_name: str = "α") -> list[go.Scatter]:
    """One trace per class whose marker sizes come from ``sizes`` (one per row of X)."""
    X, y, sizes = np.asarray(X, float), np.asarray(y), np.asarray(sizes, float)
    traces = []
    for label, name in zip((-1, 1), classes, strict=True):
        mask = y == label
        style = CLASS_STYLE[label]
        rows = np.flatnonzero(mask)
        extra = hover[mask] if hover is not None else np.zeros(mask.sum())
        traces.append(go.Scatter(
            x=X[mask, 0], y=X[mask, 1], mode="markers", name=class_label(label, name),
            marker=dict(color=style["color"], symbol=style["symbol"], size=sizes[mask],
                        line=dict(color="white", width=1)),
            # examples from 1, as the notes; the value with its sign ("≈" where rounded)
            customdata=np.column_stack([rows + 1, [equals(v) for v in extra]]),
            hovertemplate=(f"example %{{customdata[0]}}<br>(%{{x:.4g}}, %{{y:.4g}})<br>"
                           f"{hover_name} %{{customdata[1]}}<extra></extra>"),
        ))
    return traces


def alpha_sizes(alpha: np.ndarray, *, smallest: float = 6, largest: float = 22) -> np.ndarray:
    """Marker sizes growing with the square root of alpha (area ~ alpha); alpha = 0 is smallest."""
    alpha = np.asarray(alpha, dtype=float)
    top = float(alpha.max()) if alpha.size else 0.0
    if top <= 0:
        return np.full(alpha.shape, smallest)
    return smallest + (largest - smallest) * np.sqrt(alpha / top)


def kernel_figure(X, y, classes, xs, ys, values: np.ndarray, alpha: np.ndarray, *,
                  visited: int | None = None, height: int = 540, title: str = "") -> go.Figure:
    """The kernel perceptron's regions sign s(x), its boundary s(x) = 0, and alpha as marker size.

    ``values`` holds s at the grid points of :func:`grid`.
    """
    X = np.asarray(X, dtype=float)
    fig = go.Figure([_sign_heatmap(xs, ys, values, "regions sign s(x)")])
    fig.add_trace(_zero_contour(xs, ys, values, "boundary s(x) = 0", BOUNDARY))
    for trace in sized_points(X, y, classes, alpha_sizes(alpha), hover=alpha):
        fig.add_trace(trace)
    if visited is not None:
        fig.add_trace(shapes.rings(X[[visited]], name="visited example", color=VISITED,
                                   size=28, width=4))
    square_axes(fig, ((xs[0], xs[-1]), (ys[0], ys[-1])))
    house_layout(fig, height, title or "regions: sign s(x) · marker area ∝ αⱼ")
    fig.update_layout(title_font_size=14)
    return fig


def variants_figure(X_train, y_train, X_test, y_test, classes, box, *, w, b, w_avg, b_avg,
                    xs, ys, votes: np.ndarray | None, height: int = 540,
                    compact: bool = False) -> go.Figure:
    """Training points (filled), test points (hollow), and three boundaries.

    The last weights (solid), the averaged weights (dashed) and the voted
    model's boundary, the 0 contour of ``votes`` (dotted; None before any vote).
    ``compact``: a projector's legend, each boundary named in a word, the training points by
    their class and the test points once (one entry, an open marker, for both classes').
    """
    traces = []
    for X, y, suffix, hollow in ((X_train, y_train, "train", False),
                                 (X_test, y_test, "test", True)):
        X, y = np.asarray(X, float).reshape(-1, 2), np.asarray(y)
        for label, name in zip((-1, 1), classes, strict=True):
            mask = y == label
            if not mask.any():
                continue
            style = CLASS_STYLE[label]
            symbol = style["symbol"] + ("-open" if hollow else "")
            shown = class_label(label, name) if compact else f"{class_label(label, name)}, {suffix}"
            group = dict(legendgroup="test", showlegend=False) if compact and hollow else {}
            traces.append(go.Scatter(
                x=X[mask, 0], y=X[mask, 1], mode="markers", name=shown, **group,
                marker=dict(color=style["color"], symbol=symbol, size=10,
                            line=dict(color=style["color"] if hollow else "white",
                                      width=2 if hollow else 1)),
                hovertemplate=f"{suffix} (%{{x:.4g}}, %{{y:.4g}})<extra></extra>",
            ))
    if compact and len(y_test):
        traces.append(go.Scatter(x=[None], y=[None], mode="markers", name="test",
                                 legendgroup="test", hoverinfo="skip",
                                 marker=dict(symbol="circle-open", color=GREY, size=10,
                                             line=dict(color=GREY, width=2))))
    fig = go.Figure(traces)
    if votes is not None:
        fig.add_trace(_zero_contour(xs, ys, votes, line_name("voted", compact), VOTED,
                                    dash="dot", width=4))
    fig.add_trace(shapes.line(w_avg, b_avg, box, name=line_name("averaged", compact),
                              color=AVERAGED, dash="dash"))
    fig.add_trace(shapes.line(w, b, box, name=line_name("last", compact), color=LAST))
    square_axes(fig, box)
    y_test = np.asarray(y_test)
    describe.attach(fig, "Training points (filled): " + describe.points(y_train, classes),
                    ("Test points (open): " + describe.points(y_test, classes)) if len(y_test)
                    else "", describe.boundary(X_train, y_train, w, b, name="The last weights' "
                                               "boundary (solid), on the training points"),
                    f"The averaged boundary (dashed): {describe.equation(w_avg, b_avg)}.",
                    "The voted boundary is dotted." if votes is not None else "")
    return house_layout(fig, height)


def multiclass_figure(X, labels, names, xs, ys, scores: np.ndarray, W, b, *,
                      probe=None, axis_titles=("x₁", "x₂"), height: int = 560) -> go.Figure:
    """One-vs-rest regions: the winning class's tint, disputed and unclaimed areas marked.

    ``scores`` is (grid points, C) of y_c(x). Where two or more y_c(x) > 0 the
    area is darkened and carries × markers; where none is, it is washed out and
    carries ○ markers. Each line y_c(x) = 0 is dashed in its class colour.
    """
    claims = np.sum(scores > 0, axis=1)
    lines = [(W[c], b[c], f"y_{names[c]}(x) = 0", MULTI_STYLE[c]["color"], "dash")
             for c in range(scores.shape[1])]
    return _regions_figure(
        X, labels, names, xs, ys, np.argmax(scores, axis=1),
        ((claims >= 2, "disputed: 2 or more classes claim it", "x-thin", DISPUTED),
         (claims == 0, "unclaimed: no class claims it", "circle-open", UNCLAIMED)),
        lines, probe=probe, axis_titles=axis_titles, height=height)


def one_vs_one_figure(X, labels, names, xs, ys, winner: np.ndarray, tied: np.ndarray, pairs,
                      W, b, *, probe=None, axis_titles=("x₁", "x₂"),
                      height: int = 560) -> go.Figure:
    """One-vs-one regions: the vote's winner tinted, ties in the vote darkened and marked.

    ``winner`` and ``tied`` are per grid point; each pair's line y_ij(x) = 0 is
    drawn in the boundary colour, each pair with its own dash.
    """
    lines = [(W[k], b[k], f"y_{names[i]},{names[j]}(x) = 0", BOUNDARY,
              PAIR_DASHES[k % len(PAIR_DASHES)]) for k, (i, j) in enumerate(pairs)]
    return _regions_figure(
        X, labels, names, xs, ys, winner,
        ((tied, "tie in the vote (one each): the scores decide", "x-thin", DISPUTED),),
        lines, probe=probe, axis_titles=axis_titles, height=height)


def _regions_figure(X, labels, names, xs, ys, winner, marked, lines, *, probe, axis_titles,
                    height: int) -> go.Figure:
    """Tinted regions by winner, marked areas (mask, name, symbol, shade), lines (w, b, name,
    colour, dash) and points."""
    X, labels = np.asarray(X, float), np.asarray(labels)
    shape = (len(ys), len(xs))
    C = len(names)
    scale = [[c / max(C - 1, 1), MULTI_STYLE[c]["tint"]] for c in range(C)]
    fig = go.Figure(go.Heatmap(x=xs, y=ys, z=np.reshape(winner, shape).astype(np.int8), zmin=0,
                               zmax=C - 1, colorscale=scale, showscale=False, hoverinfo="skip",
                               name="winning region"))
    gx, gy = np.meshgrid(xs, ys)
    sub = (slice(_PATTERN_EVERY // 2, None, _PATTERN_EVERY),) * 2
    for mask, name, symbol, shade in marked:
        mask = np.reshape(mask, shape)
        fig.add_trace(go.Heatmap(x=xs, y=ys, z=np.where(mask, 1.0, np.nan), zmin=0, zmax=1,
                                 showscale=False, colorscale=[[0, shade], [1, shade]],
                                 hoverinfo="skip", name=f"{name} (area)"))
        pick = mask[sub]
        fig.add_trace(go.Scatter(
            x=gx[sub][pick], y=gy[sub][pick], mode="markers", name=name, hoverinfo="skip",
            marker=dict(symbol=symbol, size=7, color=PATTERN, line=dict(width=1.5,
                                                                          color=PATTERN))))
    box = ((xs[0], xs[-1]), (ys[0], ys[-1]))
    for w, offset, name, color, dash in lines:
        fig.add_trace(shapes.line(w, offset, box, name=name, color=color, dash=dash))
    for c in range(C):
        style = MULTI_STYLE[c]
        mask = labels == c
        fig.add_trace(go.Scatter(
            x=X[mask, 0], y=X[mask, 1], mode="markers", name=names[c],
            marker=dict(color=style["color"], symbol=style["symbol"], size=8,
                        line=dict(color="white", width=1)),
            hovertemplate=f"{names[c]} (%{{x:.4g}}, %{{y:.4g}})<extra></extra>"))
    if probe is not None:
        fig.add_trace(go.Scatter(x=[probe[0]], y=[probe[1]], mode="markers", name="probe x",
                                 marker=dict(symbol="star", size=18, color=BOUNDARY,
                                             line=dict(color=WHITE, width=1.5)),
                                 hoverinfo="skip"))
    square_axes(fig, box, axis_titles)
    counts = ", ".join(f"{int(np.sum(labels == c)):,} {names[c]} ({shape})" for c, shape in
                       zip(range(C), ("circles", "squares", "diamonds"), strict=False))
    describe.attach(fig, f"{describe.plural(len(labels), 'point')}: {counts}. Each region is "
                         f"tinted by the class it goes to; "
                         + "; ".join(f"{name.split(' (')[0]} covers {100 * np.mean(mask):.0f} % "
                                     "of the view" for mask, name, _, _ in marked) + ".")
    return house_layout(fig, height)


# ---------------------------------------------------------------- the maths, in the notes' notation


def kernel_formula(name: str, *, degree: int = 2, offset: float = 1.0, width: float = 1.0,
                   bias: bool = True) -> list[str]:
    """K(x_j, x_i) for the kernel; with the bias, a second line for the constant feature's + 1."""
    if name == "polynomial":
        body = rf"\left(\mathbf{{x}}_j^\top \mathbf{{x}}_i + {num(offset)}\right)^{{{degree}}}"
    elif name == "rbf":
        body = (r"\exp\!\left(-\frac{\lVert \mathbf{x}_j - \mathbf{x}_i \rVert^2}"
                rf"{{2 \cdot {num(width)}^2}}\right)")
    else:
        body = r"\mathbf{x}_j^\top \mathbf{x}_i"
    lines = [rf"K(\mathbf{{x}}_j, \mathbf{{x}}_i) = {body}"]
    if bias:
        lines.append(r"\text{bias } b\text{: use } K(\mathbf{x}_j, \mathbf{x}_i) + 1"
                     r"\ \text{(a constant feature)}")
    return lines


def dual_step_lines(*, i: int, y_i: float, s_i: float, terms, updated: bool, eta: float,
                    alpha_before: float, bias_term: float | None, shown: int = 4,
                    exact: bool = True) -> list[str]:
    """The kernel step in the notes' notation: s_i written out, y_i s_i, and the alpha update.

    ``i`` is the example's number as the notes count, from 1 (the data's row i - 1);

    ``terms`` lists (j, alpha_j, y_j, K_ji) for the examples with alpha_j > 0;
    ``bias_term`` is sum_j alpha_j y_j when the constant feature is used; ``exact``: the run's
    numbers are exact (else in floats, an RBF kernel's: written with "≈").
    """
    def signs(given, computed, result):
        return chain_signs(given, computed, result, exact=exact, latex=True)

    head = rf"s_{{{i}}} &= \sum_{{j}} \alpha_j\, y_j\, K(\mathbf{{x}}_j, \mathbf{{x}}_{{{i}}})"
    if bias_term is not None:
        head += r" + \sum_j \alpha_j y_j"
    # K values to 4 significant digits: the sum stays on screen; s_i below is the run's own.
    # A K kept to 4 digits is written as it is only where that is K itself
    kept = [float(f"{k:.4g}") for *_, k in terms[:shown]]
    ks = [k if k == float(f"{k:.4g}") else math.nan for *_, k in terms[:shown]]
    parts = [rf"({num(a)})({num(yj)})({num(k)})" for (_, a, yj, _), k in zip(terms[:shown], kept,
                                                                           strict=True)]
    if len(terms) > shown:
        parts.append(rf"\dots\ (\text{{{len(terms) - shown} more}})")
    if bias_term is not None and terms:
        parts.append(rf"({num(bias_term)})")
    if not parts:
        parts = [r"0\quad(\text{every } \alpha_j = 0)"]
    rows = [" + ".join(parts[k:k + 2]) for k in range(0, len(parts), 2)]
    written = r" \\ &\quad + ".join(rows)
    is_, sum_ = signs([[yj for _, _, yj, _ in terms]],
                      [[a for _, a, _, _ in terms], ks, [bias_term or 0]], s_i)
    lines = [rf"\begin{{aligned}} {head} \\ &{is_} {written} \\ &{sum_} {num(s_i)} "
             r"\end{aligned}"]
    verdict = (r"\le 0 \\ &\Rightarrow \text{mistake: update}" if updated
               else r"> 0 \\ &\Rightarrow \text{correct: } \alpha \text{ unchanged}")
    is_, product = signs([y_i], [s_i], y_i * s_i)
    lines.append(rf"\begin{{aligned}} y_{{{i}}}\, s_{{{i}}} &{is_} ({num(y_i)})({num(s_i)}) "
                 rf"{product} {num(y_i * s_i)} {verdict} \end{{aligned}}")
    if updated:
        is_, total = signs([eta], [alpha_before], alpha_before + eta)
        lines.append(rf"\alpha_{{{i}}} \leftarrow \alpha_{{{i}}} + \eta {is_} {num(alpha_before)}"
                     rf" + {num(eta)} {total} {num(alpha_before + eta)}")
    return lines


def primal_weights_line(alpha, y, X, w, b: float | None) -> str:
    """w = sum_j alpha_j y_j x_j (and b = sum_j alpha_j y_j) with the numbers, linear kernel."""
    text = (rf"\mathbf{{w}} = \sum_j \alpha_j\, y_j\, \mathbf{{x}}_j {eq_sign(w, latex=True)} "
            + vec(w))
    if b is not None:
        text += rf",\qquad b = \sum_j \alpha_j\, y_j {eq_sign(b, latex=True)} " + num(b)
    return text


def averaged_lines(t: int, mu_w, mu_b: float, w_avg, b_avg: float) -> list[str]:
    """The notes' mu after t visits and the averaged weights mu / t."""
    def eq(*values) -> str:
        return eq_sign([v for value in values for v in np.ravel(value)], latex=True)

    return [
        rf"\boldsymbol{{\mu}} = \sum_{{s=1}}^{{{t}}} \mathbf{{w}}^{{(s)}} {eq(mu_w)} {vec(mu_w)}",
        rf"\mu_b = \sum_{{s=1}}^{{{t}}} b^{{(s)}} {eq(mu_b)} {num(mu_b)}",
        (rf"\frac{{\boldsymbol{{\mu}}}}{{t}} {eq(w_avg)} {vec(w_avg)},\quad \frac{{\mu_b}}{{t}} "
         rf"{eq(b_avg)} {num(b_avg)}"),
        r"\hat y = \operatorname{sign}(\boldsymbol{\mu}^\top \mathbf{x} + \mu_b)",
    ]


def voted_lines(vectors: int, vote: int, sum_cw, sum_cb: float, t: int) -> list[str]:
    """The voted prediction with the run's numbers, and the identity sum_k c_k w_k = mu."""
    return [
        (r"\hat y = \operatorname{sign}\Big(\sum_{k=1}^{K} c_k\, \operatorname{sign}"
         r"(\mathbf{w}_k^\top \mathbf{x} + b_k)\Big)"),
        rf"K = {vectors},\quad c_K = {vote},\quad \sum_k c_k = {t} = t",
        rf"\sum_k c_k \mathbf{{w}}_k {eq_sign(list(sum_cw), latex=True)} {vec(sum_cw)} "
        rf"{eq_sign(list(sum_cw), latex=True)} \boldsymbol{{\mu}}",
        rf"\sum_k c_k b_k {eq_sign(sum_cb, latex=True)} {num(sum_cb)} "
        rf"{eq_sign(sum_cb, latex=True)} \mu_b",
    ]


def ovr_lines(names, W, b, x, scores) -> list[str]:
    """Each class's score y_c(x) at the probe point with the numbers, and the argmax."""
    rows = []
    for c, name in enumerate(names):
        claim = r"> 0\ \text{(claims it)}" if scores[c] > 0 else r"\le 0"
        is_, score = chain_signs([list(x)], [list(W[c]), b[c]], scores[c], latex=True)
        rows.append(
            rf"y_{{\text{{{name}}}}}(\mathbf{{x}}) &{is_} ({num(W[c][0])})({num(x[0])}) "
            rf"{signed(W[c][1])}\cdot({num(x[1])}) {signed(b[c])} \\ &{score} {num(scores[c])}"
            rf" {claim}")
    best = int(np.argmax(scores))
    return [r"\begin{aligned} " + r" \\[4pt] ".join(rows) + r" \end{aligned}",
            rf"c^* = \arg\max_c\, y_c(\mathbf{{x}}) = \text{{{names[best]}}}"]
