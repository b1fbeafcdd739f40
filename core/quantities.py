"""The quantities a lecture's number and line questions ask, computed from a run, exactly
where the run is exact.

A lecture plan names them (classroom/plan.py, ``NUMBER_QUANTITIES`` and ``LINE_QUANTITIES``:
the names and what each means, which tests/test_quantities.py holds to :data:`NUMBER` and
:data:`LINE` here); the page that holds the slide's run computes the right answer with
:func:`value` (or :func:`boundary`) and sends it with the question: a student's page never
says what is right.

What a run gives (:class:`RunFacts`): its data X, y, its recorded :class:`core.trace.Trace`,
its eta and bias (or, for a page with no run, fixed weights: Boolean's hand-made ones).
Step k means "after k steps" for the weights and counts, and "the visit of step k" for y·a
(whose weights are those before it, after k - 1 steps).

Exactness. The weights of an exact run are summed as the exact decimals of X, eta and the
start (:func:`core.trace.exact_weights`), and every quantity of them is a Fraction. The
margins are solved in floats (core/geometry.py, core/max_margin.py), then made exact: the
support the solver found gives a small linear system (the KKT conditions on the support),
solved in Fractions and checked in Fractions (every constraint met, every multiplier >= 0),
so R²/γ² and γ² are exact rationals; Margin(D) itself is the square root of one (its float
is given, with ``exact`` None). A quantity of a float run is its float (``exact`` None).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from core.decimals import exact_decimals
from core.trace import Trace, exact_weights

__all__ = ["LINE", "NUMBER", "Quantity", "RunFacts", "boundary", "turn", "value"]

_SUPPORT_TOL = 1e-6  # a point is on the margin, for the exact solve, this close to it
_MAX_SUPPORT = 12  # candidates for the support; more: the float answer stands


@dataclass(frozen=True)
class RunFacts:
    """What a slide's page knows of its run.

    ``trace`` None: a page with fixed weights (``weights`` = (w, b)), no run. ``kernel``: the
    trace holds a kernel perceptron's counts alpha (its weights are not w).
    """

    X: np.ndarray
    y: np.ndarray
    trace: Trace | None = None
    eta: float = 1.0
    bias: bool = True
    weights: tuple[tuple[float, ...], float] | None = None
    kernel: bool = False

    @property
    def steps(self) -> int:
        return 0 if self.trace is None else self.trace.steps


@dataclass(frozen=True)
class Quantity:
    """A quantity's value: ``exact`` (a Fraction) when the run is exact and the quantity
    rational, else None; ``approx`` its float always."""

    exact: Fraction | None
    approx: float

    @property
    def answer(self) -> Fraction | float:
        """What a number question's answer is: the Fraction, else the float."""
        return self.exact if self.exact is not None else self.approx

    @staticmethod
    def of(number) -> Quantity:
        if isinstance(number, Fraction | int):
            return Quantity(Fraction(number), float(number))
        return Quantity(None, float(number))


# ------------------------------------------------------------------ the weights


def _x(facts: RunFacts) -> np.ndarray | None:
    """X as exact decimals (an object array of Fractions), or None."""
    return exact_decimals(np.asarray(facts.X, dtype=float))


def weights_at(facts: RunFacts, k: int) -> tuple[tuple, object]:
    """(w, b) after k steps: Fractions for an exact run (or fixed weights that are short
    decimals), else floats."""
    if facts.kernel:
        raise ValueError("a kernel perceptron's weights live in its feature space: ask for "
                         "mistakes or updates on it")
    if facts.trace is None:
        if facts.weights is None:
            raise ValueError("this view has no run and no weights")
        w, b = facts.weights
        found = exact_decimals(np.r_[np.asarray(w, dtype=float), [float(b)]])
        if found is not None:
            return tuple(found[:-1]), found[-1]
        return tuple(map(float, w)), float(b)
    _check_step(facts, k)
    exact = exact_weights(facts.trace, facts.X, facts.y, k, eta=facts.eta, bias=facts.bias)
    if exact is not None:
        return exact
    return tuple(map(float, facts.trace.W[k])), float(facts.trace.b[k])


def _check_step(facts: RunFacts, k: int) -> None:
    if facts.trace is not None and not 0 <= k <= facts.trace.steps:
        raise ValueError(f"step {k} is past the run's end ({facts.trace.steps} steps)")


def _exact(w, b) -> bool:
    return all(isinstance(v, Fraction) for v in (*w, b))


def _activation(facts: RunFacts, w, b, i: int):
    x = _x(facts)
    if x is not None and _exact(w, b):
        return sum((wj * xj for wj, xj in zip(w, x[i], strict=True)), Fraction(0)) + b
    return float(np.dot(np.asarray(w, dtype=float), np.asarray(facts.X[i], dtype=float))
                 + float(b))


def _visit(facts: RunFacts, k: int) -> tuple[int, object]:
    """The example visited at step k and y·a there (weights before the step)."""
    trace = facts.trace
    if trace is None:
        raise ValueError("this view has no run to step through")
    _check_step(facts, k)
    if k == 0:
        raise ValueError("step 0 visits no example: ask from step 1 on")
    i = int(trace.index[k])
    if i < 0:  # a run held at its end beside a longer one (core.trace.align)
        raise ValueError(f"step {k} visits no example: the run ended before it")
    y = int(np.sign(facts.y[i]))
    if facts.kernel:
        return i, y * float(trace.activation[k])
    w, b = weights_at(facts, k - 1)
    return i, y * _activation(facts, w, b, i)


def _errors(facts: RunFacts, w, b) -> int:
    return sum(int(np.sign(facts.y[i])) * _activation(facts, w, b, i) <= 0
               for i in range(len(facts.y)))


# ------------------------------------------------------------------ exact margins


def _solve(A: list[list[Fraction]], rhs: list[Fraction]) -> list[Fraction] | None:
    """A x = rhs by Gaussian elimination in Fractions; None when A is singular."""
    n = len(A)
    M = [[*row, r] for row, r in zip(A, rhs, strict=True)]
    for c in range(n):
        pivot = next((r for r in range(c, n) if M[r][c] != 0), None)
        if pivot is None:
            return None
        M[c], M[pivot] = M[pivot], M[c]
        for r in range(n):
            if r != c and M[r][c] != 0:
                f = M[r][c] / M[c][c]
                M[r] = [a - f * p for a, p in zip(M[r], M[c], strict=True)]
    return [M[r][n] / M[r][r] for r in range(n)]


def _dot(u, v) -> Fraction:
    return sum((a * b for a, b in zip(u, v, strict=True)), Fraction(0))


def _min_norm(P: list[tuple[Fraction, ...]], candidates: list[int], *, labels=None
              ) -> Fraction | None:
    """||v||² of min ||v||² s.t. P_n·v (+ y_n·c with ``labels``: an intercept c) >= 1 for
    every n, exactly, from a support among ``candidates``; None when none checks out.

    On a support T the KKT conditions are linear: v = Σ_T λ_j P_j, P_i·v (+ y_i c) = 1 for i in
    T (and Σ_T λ_j y_j = 0 with an intercept), so ||v||² = Σ_T λ_j. The first T (smallest
    first) whose λ >= 0 and whose v meets every constraint is the optimum (the problem is
    convex, so the KKT conditions suffice)."""
    dim = len(P[0])
    for size in range(1, min(len(candidates), dim + 1) + 1):
        for T in itertools.combinations(candidates, size):
            G = [[_dot(P[i], P[j]) for j in T] for i in T]
            if labels is None:
                found = _solve(G, [Fraction(1)] * size)
                if found is None:
                    continue
                lam, c = found, Fraction(0)
            else:
                A = [[*G[r], Fraction(labels[i])] for r, i in enumerate(T)]
                A.append([*(Fraction(labels[j]) for j in T), Fraction(0)])
                found = _solve(A, [Fraction(1)] * size + [Fraction(0)])
                if found is None:
                    continue
                lam, c = found[:-1], found[-1]
            if any(v < 0 for v in lam):
                continue
            v = [sum((lam[r] * P[j][d] for r, j in enumerate(T)), Fraction(0))
                 for d in range(dim)]
            if all(_dot(P[n], v) + (0 if labels is None else labels[n] * c) >= 1
                   for n in range(len(P))):
                return sum(lam, Fraction(0))
    return None


def _rows(facts: RunFacts, *, augment: bool) -> list[tuple[Fraction, ...]] | None:
    x = _x(facts)
    if x is None:
        return None
    one = (Fraction(1),) if augment else ()
    return [tuple(Fraction(int(np.sign(facts.y[n]))) * v for v in (*x[n], *one))
            for n in range(len(facts.y))]


def _near(scores: np.ndarray) -> list[int]:
    low = float(np.min(scores))
    return [int(n) for n in np.argsort(scores, kind="stable")
            if scores[n] <= low * (1 + _SUPPORT_TOL) + 1e-12][:_MAX_SUPPORT]


def _gamma2(facts: RunFacts) -> Quantity:
    from core.geometry import best_unit_separator

    found = best_unit_separator(facts.X, facts.y, bias=facts.bias)
    if found is None:
        raise ValueError("no line separates these data: there is no margin γ")
    u, gamma = found
    Z = np.asarray(facts.X, dtype=float)
    if facts.bias:
        Z = np.hstack([Z, np.ones((len(Z), 1))])
    rows = _rows(facts, augment=facts.bias)
    if rows is not None:
        norm2 = _min_norm(rows, _near(np.sign(facts.y) * (Z @ u)))
        if norm2 is not None:
            return Quantity.of(1 / norm2)
    return Quantity(None, gamma**2)


def _r2(facts: RunFacts) -> Quantity:
    x = _x(facts)
    if x is None:
        Z = np.asarray(facts.X, dtype=float)
        return Quantity(None, float(np.max(np.sum(Z**2, axis=1)) + facts.bias))
    return Quantity.of(max(_dot(row, row) for row in x) + (1 if facts.bias else 0))


def _bound(facts: RunFacts) -> Quantity:
    r2, g2 = _r2(facts), _gamma2(facts)
    if r2.exact is not None and g2.exact is not None:
        return Quantity.of(r2.exact / g2.exact)
    return Quantity(None, r2.approx / g2.approx)


def _most_mistakes(facts: RunFacts) -> Quantity:
    """The most mistakes the bound allows: a count, so R²/γ² rounded down (exactly on exact
    data; on float data the float's floor, which the bound's rounding may put one off)."""
    bound = _bound(facts)
    if bound.exact is not None:
        return Quantity.of(math.floor(bound.exact))
    return Quantity(None, float(math.floor(bound.approx)))


def _margin(facts: RunFacts) -> Quantity:
    """Margin(D): the maximum-margin line's margin in the plane (with an intercept), the
    square root of an exact rational when the data are short decimals."""
    from core.max_margin import max_margin

    mm = max_margin(facts.X, facts.y)
    if mm is None:
        raise ValueError("no line separates these data: there is no margin")
    rows = _rows(facts, augment=False)
    if rows is not None:
        scores = np.sign(facts.y) * (np.asarray(facts.X, dtype=float) @ mm.w + mm.b)
        norm2 = _min_norm(rows, _near(scores), labels=[int(np.sign(v)) for v in facts.y])
        if norm2 is not None:
            return Quantity(None, math.sqrt(1 / norm2))  # √(1/||w||²): irrational, in general
    return Quantity(None, float(mm.gamma))


def margin_squared(facts: RunFacts) -> Fraction | None:
    """Margin(D)² exactly (1/||w||² of the maximum-margin line), or None."""
    from core.max_margin import max_margin

    mm = max_margin(facts.X, facts.y)
    rows = _rows(facts, augment=False)
    if mm is None or rows is None:
        return None
    scores = np.sign(facts.y) * (np.asarray(facts.X, dtype=float) @ mm.w + mm.b)
    norm2 = _min_norm(rows, _near(scores), labels=[int(np.sign(v)) for v in facts.y])
    return None if norm2 is None else 1 / norm2


def _fewest(facts: RunFacts) -> Quantity:
    from core.line_labelings import best_line

    best = best_line(facts.X, facts.y)
    return Quantity.of(int(best.total - best.correct))


def _averaged_errors(facts: RunFacts, k: int) -> Quantity:
    """Training errors of the averaged perceptron after k steps: the mean of the weights after
    each of the first k visits (core.variants.running_average), in Fractions for an exact run
    (the weights walked once, update by update)."""
    if k == 0:
        raise ValueError("the averaged perceptron has no weights before step 1")
    w, b = weights_at(facts, 0)
    x = _x(facts)
    trace = facts.trace
    if x is not None and _exact(w, b) and trace.exact:
        eta = Fraction(repr(float(facts.eta)))
        w, b = list(w), b
        total_w, total_b = [Fraction(0)] * len(w), Fraction(0)
        for j in range(1, k + 1):
            if trace.updated[j]:
                i = int(trace.index[j])
                step = eta * int(np.sign(facts.y[i]))
                w = [wd + step * xd for wd, xd in zip(w, x[i], strict=True)]
                b = b + step if facts.bias else b
            total_w = [t + wd for t, wd in zip(total_w, w, strict=True)]
            total_b += b
        mean_w, mean_b = tuple(t / k for t in total_w), total_b / k
    else:
        mean_w = tuple(np.mean(trace.W[1:k + 1], axis=0))
        mean_b = float(np.mean(trace.b[1:k + 1]))
    return Quantity.of(_errors(facts, mean_w, mean_b))


# ------------------------------------------------------------------ the registry

def _weight(d: int) -> Callable[[RunFacts, int], Quantity]:
    def get(facts: RunFacts, k: int) -> Quantity:
        w, b = weights_at(facts, k)
        return Quantity.of((*w, b)[d])
    return get


def _steps(facts: RunFacts, k: int, column: str) -> Quantity:
    if facts.trace is None:
        raise ValueError("this view has no run to step through")
    _check_step(facts, k)
    if column == "mistakes":
        return Quantity.of(int(facts.trace.mistakes[k]))
    return Quantity.of(int(np.count_nonzero(facts.trace.updated[1:k + 1])))


def _y_a(facts: RunFacts, k: int) -> Quantity:
    return Quantity.of(_visit(facts, k)[1])


def _a(facts: RunFacts, k: int) -> Quantity:
    i, ya = _visit(facts, k)
    return Quantity.of(ya * int(np.sign(facts.y[i])))


def _loss(threshold: int) -> Callable[[RunFacts, int], Quantity]:
    def get(facts: RunFacts, k: int) -> Quantity:
        ya = _visit(facts, k)[1]
        return Quantity.of(max(ya * 0, threshold - ya))
    return get


# name -> (facts, step) -> Quantity: the names are the plan format's (classroom.plan)
NUMBER: dict[str, Callable[[RunFacts, int], Quantity]] = {
    "y_a": _y_a,
    "a": _a,
    "hinge": _loss(1),  # max(0, 1 − y·a) of the visit
    "perceptron_loss": _loss(0),  # max(0, −y·a)
    "mistakes": lambda f, k: _steps(f, k, "mistakes"),
    "updates": lambda f, k: _steps(f, k, "updates"),
    "training_errors": lambda f, k: Quantity.of(_errors(f, *weights_at(f, k))),
    "averaged_errors": _averaged_errors,
    "w1": _weight(0),
    "w2": _weight(1),
    "b": _weight(2),
    "bound": lambda f, _k: _bound(f),
    "most_mistakes": lambda f, _k: _most_mistakes(f),
    "R2": lambda f, _k: _r2(f),
    "gamma2": lambda f, _k: _gamma2(f),
    "gamma": lambda f, _k: Quantity(None, math.sqrt(_gamma2(f).approx)),  # √γ²: irrational
    "margin": lambda f, _k: _margin(f),
    "fewest_errors": lambda f, _k: _fewest(f),
}


def boundary(facts: RunFacts, k: int) -> tuple:
    """The boundary after k steps as (w1, w2, b): Fractions for an exact run; ValueError when
    w = 0 (no line)."""
    w, b = weights_at(facts, k)
    if len(w) != 2:
        raise ValueError("a line question needs a run on the plane (two features)")
    if w[0] == 0 and w[1] == 0:
        raise ValueError(f"after step {k} w = (0, 0): there is no boundary to draw")
    return (w[0], w[1], b)


LINE: dict[str, Callable[[RunFacts, int], tuple]] = {"boundary": boundary}


def turn(facts: RunFacts, k: int) -> str | None:
    """The right answer to "which way does w turn?" at step k, in the class's words
    (classroom/state.py's ``turn`` choices): ``"no_mistake"`` when step k updates nothing,
    ``"anticlockwise"`` or ``"clockwise"`` by the sign of the cross product w_before × w_after
    (exact on an exact run), and None where none of them is right: w had or gets no
    direction, keeps it, or turns half round; in floats, a cross product within rounding of
    0 (core.decimals.TIE of its terms) or a turn by an angle within rounding (TIE of the
    product of the two w's sizes), which the floats cannot tell from no turn.
    """
    from core.decimals import TIE

    if facts.trace is None or facts.kernel:
        raise ValueError("which way w turns is asked of a perceptron's run")
    _check_step(facts, k)
    if k < 1:
        raise ValueError("step 0 is the start: w has not moved yet")
    if not facts.trace.updated[k]:
        return "no_mistake"
    (p1, p2), _ = weights_at(facts, k - 1)
    (q1, q2), _ = weights_at(facts, k)
    if (p1 == 0 and p2 == 0) or (q1 == 0 and q2 == 0):
        return None
    cross = p1 * q2 - p2 * q1
    # in floats, a cross product within rounding of its terms, or of an angle within rounding
    # (a w whose 0 is a residue of 1e-17 turns by that much): no turn the floats can tell
    if not _exact((p1, p2), 0) and abs(cross) <= TIE * max(
            abs(p1 * q2) + abs(p2 * q1), max(abs(p1), abs(p2)) * max(abs(q1), abs(q2))):
        return None
    return None if cross == 0 else ("anticlockwise" if cross > 0 else "clockwise")


def value(name: str, facts: RunFacts, k: int) -> Quantity:
    """The number quantity ``name`` of the run at step k; ValueError says why it has none."""
    if name not in NUMBER:
        raise ValueError(f"a quantity is one of {', '.join(NUMBER)}")
    return NUMBER[name](facts, k)
