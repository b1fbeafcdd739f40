"""Degenerate data for the corner sweep (tests/test_corner_sweep.py, tests/browser/js/
test_corner_sweep.py), and the independent computations in Fractions the sweep holds the
pages' claims to.

A case is a few points on the 0.5 grid in [-2, 2]^2 with labels, drawn to hit one corner on
purpose: one class; a duplicated point (with either label); collinear points; a point at the
origin; a point that is a multiple of another; a set with a w = 0 soft-margin optimum (every
point with both labels, or classes placed symmetrically); ties (points on the boundary the
first update makes); or none of these. Each case runs with the bias on and off, and as an
exact run (eta = 1) and its float twin (eta = 1/3, the same decisions from w = 0, its
numbers in floats).
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

import numpy as np
from hypothesis import strategies as st

KINDS = ("one class", "duplicate", "collinear", "origin", "multiple", "w = 0 optimum", "tie",
         "general")
GRID = [Fraction(k, 2) for k in range(-4, 5)]
# a float twin's eta: not a short decimal, so the run is in floats; from w = 0 its decisions
# are the eta = 1 run's
FLOAT_ETA = 1 / 3


def F(value) -> Fraction:
    """The decimal a float stands for (its shortest repr), as a Fraction."""
    return value if isinstance(value, Fraction) else Fraction(repr(float(value)))


@st.composite
def corner_cases(draw) -> tuple[str, list, list]:
    """(kind, points as Fraction pairs, labels +-1): 2 to 7 points hitting one corner."""
    kind = draw(st.sampled_from(KINDS))
    point = st.tuples(st.sampled_from(GRID), st.sampled_from(GRID))
    label = st.sampled_from([-1, 1])
    base = draw(st.lists(point, min_size=1, max_size=4))
    labels = draw(st.lists(label, min_size=len(base), max_size=len(base)))
    pts = [list(p) for p in base]
    if kind == "one class":
        labels = [labels[0]] * len(pts) + [labels[0]]
        pts.append(list(draw(point)))
    elif kind == "duplicate":
        i = draw(st.integers(0, len(pts) - 1))
        pts.append(list(pts[i]))
        labels.append(draw(label))
    elif kind == "collinear":
        start, step = draw(point), draw(point)
        n = draw(st.integers(2, 4))
        pts += [[start[0] + t * step[0] / 2, start[1] + t * step[1] / 2] for t in range(n)]
        labels += draw(st.lists(label, min_size=n, max_size=n))
    elif kind == "origin":
        pts.insert(draw(st.integers(0, len(pts))), [Fraction(0), Fraction(0)])
        labels.insert(0, draw(label))
        labels = labels[:len(pts)]
    elif kind == "multiple":
        i = draw(st.integers(0, len(pts) - 1))
        factor = draw(st.sampled_from([-2, -1, 2, 3, 4]))
        pts.append([factor * pts[i][0], factor * pts[i][1]])
        labels.append(draw(label))
    elif kind == "w = 0 optimum":
        if draw(st.booleans()):  # every point with both labels
            labels = [1] * len(pts) + [-1] * len(pts)
            pts = pts + [list(p) for p in pts]
        else:  # XOR's corners, more of one class on the diagonal's middle
            pts = [[0, 0], [1, 1], [0, 1], [1, 0], [Fraction(1, 2), Fraction(1, 2)]]
            labels = [-1, -1, 1, 1, draw(label)]
            pts = [[Fraction(a), Fraction(b)] for a, b in pts]
    elif kind == "tie":
        # the first update from w = 0 makes w = y0 x0, b = y0: a point with w.x + b = 0 after it
        # (x0.x = 0 without a bias: its perpendicular; x0.x = -1 with one: -x0/||x0||^2)
        x0 = pts[0]
        if x0[0] or x0[1]:
            size = x0[0] ** 2 + x0[1] ** 2
            pts += [[-x0[1], x0[0]], [-x0[0] / size, -x0[1] / size]]
            labels += [draw(label), draw(label)]
            labels = labels[:1] + labels[len(base):] + labels[1:len(base)]
            pts = pts[:1] + pts[len(base):] + pts[1:len(base)]  # visited right after x0
    if len(pts) < 2:
        pts.append(list(draw(point)))
        labels.append(draw(label))
    return kind, pts, labels[:len(pts)]


def arrays(pts, labels) -> tuple[np.ndarray, np.ndarray]:
    return (np.array([[float(a), float(b)] for a, b in pts], dtype=float),
            np.array(labels, dtype=float))


def dot(u, v) -> Fraction:
    return sum((a * b for a, b in zip(u, v, strict=True)), Fraction(0))


def separable(pts, labels, *, bias: bool = True) -> bool:
    """Whether some (w, b) (b = 0 without a bias) has y (w.x + b) > 0 for every point, by brute
    force over directions: the separating directions form an open cone whose edges are
    perpendicular to a difference of two points (to a point itself through the origin), so a
    direction just inside some edge separates when any does."""
    pts = [[F(a), F(b)] for a, b in pts]
    if len(set(labels)) == 1:
        return True if bias else _origin_separates(pts, labels)
    if not bias:
        return _origin_separates(pts, labels)
    edges = [(p[0] - q[0], p[1] - q[1]) for p, q in combinations(pts, 2)]
    for d in [*edges, (Fraction(1), Fraction(0))]:
        for w in _near(d):
            pos = [dot(w, p) for p, y in zip(pts, labels, strict=True) if y > 0]
            neg = [dot(w, p) for p, y in zip(pts, labels, strict=True) if y < 0]
            if min(pos) > max(neg) or max(pos) < min(neg):
                return True
    return False


def _near(d):
    """Directions perpendicular to d, and those just off it on either side."""
    eps = Fraction(1, 10**6)
    perp = (-d[1], d[0])
    return [perp, (-perp[0], -perp[1]),
            *[(s * perp[0] + t * eps * d[0], s * perp[1] + t * eps * d[1])
              for s in (1, -1) for t in (1, -1)]]


def _origin_separates(pts, labels) -> bool:
    """Whether some w has y w.x > 0 for every point (a line through the origin)."""
    signed = [(y * p[0], y * p[1]) for p, y in zip(pts, labels, strict=True)]
    if any(p == (0, 0) for p in signed):
        return False
    for p in signed:
        for w in [p, *_near(p)]:
            if all(dot(w, q) > 0 for q in signed):
                return True
    return False


def fraction_run(pts, labels, *, bias: bool, epochs: int = 30):
    """The notes' rule in Fractions, cyclic from w = 0, eta = 1 (a tie y·a = 0 a mistake):
    (mistakes made, whether an epoch passed without one within ``epochs``)."""
    w, b = [Fraction(0), Fraction(0)], Fraction(0)
    total = 0
    for _ in range(epochs):
        mistakes = 0
        for p, y in zip(pts, labels, strict=True):
            if y * (dot(w, p) + b) <= 0:
                w = [w[0] + y * p[0], w[1] + y * p[1]]
                b += y if bias else 0
                mistakes += 1
        total += mistakes
        if not mistakes:
            return total, True
    return total, False


def turn_kind(wb, wa) -> tuple[str, int]:
    """How w moved from wb to wa, in Fractions (exact.js's turnOf on an exact run)."""
    wb, wa = [F(v) for v in wb], [F(v) for v in wa]
    if not any(wb):
        return ("none" if not any(wa) else "from0"), 0
    if not any(wa):
        return "to0", 0
    if wb == wa:
        return "same", 0
    cross = wb[0] * wa[1] - wb[1] * wa[0]
    if cross:
        return "turn", 1 if cross > 0 else -1
    return ("kept" if dot(wb, wa) > 0 else "flip"), 0


def soft_objective(pts, labels, w, b, C) -> Fraction:
    """(1/2)||w||^2 + C sum max(0, 1 - y (w.x + b)), in Fractions."""
    w, b, C = [F(v) for v in w], F(b), F(C)
    hinge = sum((max(Fraction(0), 1 - y * (dot(w, p) + b))
                 for p, y in zip(pts, labels, strict=True)), Fraction(0))
    return dot(w, w) / 2 + C * hinge


def best_constant(labels) -> Fraction:
    """The best b for w = 0: the larger class's +-1 (any b in [-1, 1] when they tie)."""
    total = sum(labels)
    return Fraction(1 if total > 0 else -1 if total < 0 else 0)
