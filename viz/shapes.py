"""Shapes in the plane, cut to a view: lines, half-planes, bands, rings.

One sign convention everywhere: a line (w, b) is the set w·x + b = 0, and its
positive side is where w·x + b >= 0. A view (a "box") is
``((x_min, x_max), (y_min, y_max))``. Coordinates come back as two lists
(``xs``, ``ys``; empty when the shape misses the view), ready for a Plotly
trace; the trace builders at the end draw them in the house style.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from viz.palette import CLEAR

Box = tuple[tuple[float, float], tuple[float, float]]
_TINY = 1e-12


def corners(box: Box) -> list[np.ndarray]:
    """The view's four corners, counter-clockwise from the lower left."""
    (x0, x1), (y0, y1) = box
    return [np.array(p, dtype=float) for p in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))]


def clip(polygon: list[np.ndarray], w, b: float) -> list[np.ndarray]:
    """The part of a convex polygon on the positive side w·x + b >= 0 (Sutherland-Hodgman).

    Parameters
    ----------
    polygon : list of arrays of shape (2,)
        The corners in order (either way round).
    w : array_like of shape (2,)
        The normal of the cutting line.
    b : float
        Its offset.

    Returns
    -------
    list of arrays of shape (2,)
        The corners of the part kept, in the same order; empty when none is.

    Examples
    --------
    >>> square = corners(((0.0, 2.0), (0.0, 2.0)))
    >>> [p.tolist() for p in clip(square, [1.0, 0.0], -1.0)]  # x >= 1
    [[1.0, 0.0], [2.0, 0.0], [2.0, 2.0], [1.0, 2.0]]
    """
    w = np.asarray(w, dtype=float)
    kept = []
    for k, p in enumerate(polygon):
        q = polygon[(k + 1) % len(polygon)]
        sp, sq = float(w @ p + b), float(w @ q + b)
        if sp >= 0:
            kept.append(p)
        if (sp >= 0) != (sq >= 0):
            kept.append(p + sp / (sp - sq) * (q - p))
    return kept


def _closed(polygon: list[np.ndarray]) -> tuple[list[float], list[float]]:
    """A polygon's corners as xs, ys with the first repeated at the end; empty if degenerate."""
    if len(polygon) < 3:
        return [], []
    polygon = [*polygon, polygon[0]]
    return [float(p[0]) for p in polygon], [float(p[1]) for p in polygon]


def half_plane(w, b: float, box: Box) -> tuple[list[float], list[float]]:
    """The positive side w·x + b >= 0 within the view, as a closed polygon (empty when w = 0)."""
    if float(np.linalg.norm(np.asarray(w, dtype=float))) < _TINY:
        return [], []
    return _closed(clip(corners(box), w, float(b)))


def band(w, b: float, level: float, box: Box) -> tuple[list[float], list[float]]:
    """The band |w·x + b| <= level within the view, as a closed polygon.

    ``level`` is in units of w·x + b: 1 gives the SVM's margins w·x + b = ±1; a
    geometric half-width h (a distance) is ``level = h * ||w||``. Empty when
    w = 0, when ``level`` is not positive, or when the band misses the view.
    """
    w = np.asarray(w, dtype=float)
    if float(np.linalg.norm(w)) < _TINY or not level > 0:
        return [], []
    inside = clip(corners(box), w, float(b) + level)         # w·x + b >= -level
    return _closed(clip(inside, -w, level - float(b)))       # w·x + b <= level


def svg_path(xs, ys) -> str | None:
    """A closed polygon as an SVG path for a layout shape; None when it is empty."""
    if not len(xs):
        return None
    return "M " + " L ".join(f"{x:.6g} {y:.6g}" for x, y in zip(xs[:-1], ys[:-1],
                                                                 strict=True)) + " Z"


def segment(w, b: float, box: Box) -> tuple[list[float], list[float]]:
    """The line w·x + b = 0 through the view, as its two ends; empty lists when it misses it."""
    (x0, x1), (y0, y1) = box
    w1, w2 = float(w[0]), float(w[1])
    points = []
    if abs(w2) > _TINY:
        for x in (x0, x1):
            yy = -(w1 * x + b) / w2
            if y0 <= yy <= y1:
                points.append((x, yy))
    if abs(w1) > _TINY:
        for yy in (y0, y1):
            x = -(w2 * yy + b) / w1
            if x0 <= x <= x1:
                points.append((x, yy))
    points = sorted(set(points))
    if len(points) < 2:
        return [], []
    (ax, ay), (bx, by) = points[0], points[-1]
    return [ax, bx], [ay, by]


def margin_lines(w, b: float, box: Box, level: float = 1.0) -> tuple[list, list]:
    """The lines w·x + b = +level and w·x + b = -level as one trace's xs, ys (None between)."""
    xs, ys = [], []
    for side in (level, -level):
        lx, ly = segment(w, b - side, box)
        xs += [*lx, None]
        ys += [*ly, None]
    return xs, ys


def normal_arrow(w, b: float, box: Box, length: float) -> tuple[list[float], list[float]]:
    """A segment of the given length along w, from the boundary point nearest the view's centre."""
    w = np.asarray(w, dtype=float)
    norm = float(np.linalg.norm(w))
    if norm < _TINY:
        return [], []
    centre = np.array([sum(box[0]) / 2, sum(box[1]) / 2])
    foot = centre - (w @ centre + b) / norm**2 * w
    tip = foot + length * w / norm
    return [foot[0], tip[0]], [foot[1], tip[1]]


# ---------------------------------------------------------------- the same shapes as traces


def line(w, b: float, box: Box, *, name: str, color: str, dash: str = "solid",
         width: float = 3, **kwargs) -> go.Scatter:
    """The line w·x + b = 0 through the view, as a trace (no points when it misses the view)."""
    x, y = segment(w, b, box)
    kwargs.setdefault("hoverinfo", "skip")
    return go.Scatter(x=x, y=y, mode="lines", name=name,
                      line=dict(color=color, dash=dash, width=width), **kwargs)


def band_trace(w, b: float, level: float, box: Box, *, name: str, fill: str,
               **kwargs) -> go.Scatter:
    """The band |w·x + b| <= level as a filled trace."""
    x, y = band(w, b, level, box)
    kwargs.setdefault("hoverinfo", "skip")
    return go.Scatter(x=x, y=y, mode="lines", fill="toself", fillcolor=fill, name=name,
                      line=dict(width=0), **kwargs)


def rings(points, *, name: str, color: str, size: float = 22, width: float = 3,
          **kwargs) -> go.Scatter:
    """Open circles around the given points (rows of an (M, 2) array)."""
    points = np.asarray(points, dtype=float).reshape(-1, 2)
    if "hovertemplate" not in kwargs:
        kwargs.setdefault("hoverinfo", "skip")
    return go.Scatter(x=points[:, 0], y=points[:, 1], mode="markers", name=name,
                      marker=dict(size=size, color=CLEAR, line=dict(color=color, width=width)),
                      **kwargs)
