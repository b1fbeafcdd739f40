"""The corner sweep: degenerate data (tests/corners.py) run through the lessons' claims, each
held to an independent computation in Fractions. No browser, no page: the functions the pages
write their sentences with, called on the runs and results the pages compute; the page's own
JavaScript sentences (which way w turns, what a reveal says) are swept in Chromium by
tests/browser/js/test_corner_sweep.py.

What is claimed, and against what (each case with the bias on and off; a perceptron run as an
exact run and as its float twin):

1. the margin of the boundary at every step (Margin: its metric, its LaTeX): "−∞" exactly
   where some y·a <= 0 or w = 0, else the distance, with "=" only where it is exact;
2. Margin(D) in words: +∞ for one class, −∞ exactly where no line separates (brute force);
3. the bound R²/γ²: infinite exactly where no (w, b) (no w through the origin, bias off)
   separates; where certified exactly, the Fractions run's mistakes stay under it;
4. why the bound is infinite ("the bias would not help" / "turn the bias on"): true of the data;
5. the soft margin (C = 1, two classes): a w = 0 optimum said exactly where w = 0 is optimal
   (otherwise the page's w beats it in Fractions), who pays a slack and how much, and its
   "Margin 1/‖w‖" written by the "=" rule;
6. the lift's boundary named from its equation (a line, a hyperbola, the pair of lines);
7. every number written with "=" is the value (viz.maths's rule), on Fractions and floats;
8. Non-separable data: separable or not, and the first repeated epoch start of the cycle it
   names, against a search in Fractions.

Hypothesis draws 30 cases (1-5, 8), 60 lifts (6) and 200 numbers (7): about 1,100 claims, in
about 2 s of CPU (bench/README.md, "The corner sweep"); CORNER_EXAMPLES=1500 sweeps deeper.
"""

from __future__ import annotations

import math
import os
import re
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.decimals import TIE
from core.geometry import exact_mistake_bound, mistake_bound
from core.max_margin import max_margin
from core.nonseparable import analyse
from core.perceptron import perceptron
from core.soft_margin import soft_margin
from core.trace import record
from datasets import Dataset
from lessons.boolean.figures import curve_words
from lessons.margin.figures import margin_latex
from lessons.margin.parts import current_boundary, data_margin_words, margin_text, no_gamma_words
from lessons.svm.parts import w_zero_words
from tests.corners import (
    FLOAT_ETA,
    F,
    arrays,
    best_constant,
    corner_cases,
    dot,
    fraction_run,
    separable,
    soft_objective,
)
from viz.maths import eq_sign, equals, written

CLAIMS: list[str] = []  # each claim checked, by name: counted for bench/README.md
# cases a run draws: 30 in the fast loop; CORNER_EXAMPLES=2000 sweeps deeper
EXAMPLES = int(os.environ.get("CORNER_EXAMPLES", "30"))


def claimed(name: str) -> None:
    CLAIMS.append(name)


def check_length(text: str, square: Fraction | None, what: str) -> None:
    """A written length against its square in Fractions (None: -infinity)."""
    if square is None:
        assert text == "−∞", (what, text)
        return
    assert text != "−∞", what
    approx = text.startswith("≈ ")
    shown = Fraction(text.removeprefix("≈ "))
    if approx:
        # num() keeps 6 significant digits and 10 places: "≈ 0" for a float run's 1e-16
        root = math.sqrt(float(square))
        assert abs(float(shown) - root) <= 1e-5 * root + 1e-10, (what, text)
    else:
        assert shown >= 0 and shown ** 2 == square, (what, text, square)


def margin_square(pts, labels, w, b) -> Fraction | None:
    """Margin(D, w, b)² in Fractions, None where the boundary errs (or w = 0)."""
    if not any(w):
        return None
    least = min(y * (dot(w, p) + b) for p, y in zip(pts, labels, strict=True))
    return least ** 2 / dot(w, w) if least > 0 else None


def latex_length(formula: str) -> str:
    """The value Margin(D, w, b)'s LaTeX ends with, as a metric writes it."""
    found = re.search(r"(=|\\approx) (-\\infty|[0-9.e+-]+)\\ \\text", formula)
    sign, value = found.groups()
    return "−∞" if value == r"-\infty" else value if sign == "=" else f"≈ {value}"


def sweep_margins(pts, labels, X, y, bias: bool) -> None:
    data = Dataset("corner", X, y)
    for eta in (1.0, FLOAT_ETA):
        trace = record(perceptron(X, y, eta=eta, bias=bias, max_epochs=20))
        for k in range(0, trace.steps + 1, max(1, trace.steps // 12)):
            # the run's own w: an exact run's decimals, a float run's doubles
            w = [F(v) if trace.exact else Fraction(float(v)) for v in trace.W[k]]
            b = F(trace.b[k]) if trace.exact else Fraction(float(trace.b[k]))
            X_run = pts if trace.exact else [[Fraction(float(v)) for v in p] for p in X]
            square = margin_square(X_run, labels, w, b)
            if not trace.exact and square is not None:
                # a float run's tie: y·a within rounding of 0 (core.decimals.TIE) errs
                least = min(c * (dot(w, p) + b) for p, c in zip(X_run, labels, strict=True))
                terms = max(sum(abs(c * v) for c, v in zip(p, w, strict=True)) + abs(b)
                            for p in X_run)
                if least <= Fraction(TIE) * terms:
                    # within rounding of a tie: "−∞" (taken as a tie) or "≈ 0", never more
                    text = margin_text(current_boundary(data, trace, k)["margin"], exact=False)
                    assert text in ("−∞", "≈ 0"), (text, k, eta)
                    claimed("margin of the boundary")
                    continue
            margin = current_boundary(data, trace, k)["margin"]
            check_length(margin_text(margin, exact=trace.exact), square, ("metric", k, eta))
            check_length(latex_length(margin_latex(margin, exact=trace.exact)), square,
                         ("latex", k, eta))
            claimed("margin of the boundary")
            if not trace.exact:
                assert margin_text(margin, exact=False) in ("−∞",) or \
                    margin_text(margin, exact=False).startswith("≈ ")


def sweep_data(pts, labels, X, y, bias: bool) -> None:
    one_class = len(set(labels)) == 1
    apart = separable(pts, labels)
    mm = None if one_class else max_margin(X, y)
    words = data_margin_words(mm, one_class=one_class)
    if one_class:
        assert "+∞" in words
    else:
        assert (words is None) == apart, (pts, labels)
    claimed("Margin(D) in words")
    through = separable(pts, labels, bias=bias)
    bound = mistake_bound(X, y, bias=bias)
    assert math.isfinite(bound) == through, (pts, labels, bias, bound)
    claimed("the bound is finite")
    exact = exact_mistake_bound(X, y, bias=bias)
    if exact is not None:
        # Novikoff: at most `exact` mistakes, so a clean epoch within exact + 1 epochs
        mistakes, converged = fraction_run(pts, labels, bias=bias, epochs=int(exact) + 1)
        assert converged and mistakes <= exact, (pts, labels, bias, exact, mistakes)
        assert float(exact) == pytest.approx(bound, rel=1e-9)
        claimed("the certified bound holds")
    if not math.isfinite(bound):
        said = no_gamma_words(bias=bias, line_separates=mm is not None or one_class)
        if "turn the bias on" in said:
            assert not bias and apart
        if "the bias would not help" in said:
            assert not apart
        claimed("why the bound is infinite")


def epoch_starts_repeat(pts, labels, *, bias: bool, epochs: int = 200):
    """In Fractions, cyclic from w = 0: (first, repeat), the first epoch whose start (w, b)
    comes back at the start of a later one (epochs counted from 1), or None (it converged or
    no repeat within ``epochs``)."""
    w, b = (Fraction(0), Fraction(0)), Fraction(0)
    seen = {}
    for epoch in range(1, epochs + 1):
        if (w, b) in seen:
            return seen[(w, b)], epoch
        seen[(w, b)] = epoch
        mistakes = 0
        for p, y in zip(pts, labels, strict=True):
            if y * (dot(w, p) + b) <= 0:
                w = (w[0] + y * p[0], w[1] + y * p[1])
                b += y if bias else 0
                mistakes += 1
        if not mistakes:
            return None
    return None


def sweep_nonseparable(pts, labels, X, y, bias: bool) -> None:
    """Non-separable data: separable or not, and the cycle it names, against Fractions."""
    found = analyse(X, y, bias=bias, max_epochs=50, max_visits=20_000, report_visits=2_000)
    assert found.separable == separable(pts, labels, bias=bias), (pts, labels, bias)
    claimed("separable or not")
    cycle = found.cycle
    if cycle is not None and cycle.first is not None and cycle.repeat is not None:
        assert epoch_starts_repeat(pts, labels, bias=bias) == (cycle.first, cycle.repeat)
        claimed("the cycle's first repeat")


def sweep_soft(pts, labels, X, y) -> None:
    if len(set(labels)) == 1:
        return
    sm = soft_margin(X, y, C=1.0)
    zero = [Fraction(0), Fraction(0)]
    best = best_constant(labels)
    if not np.any(sm.w):
        # w = 0 is said: its b is the best for w = 0, and nothing beats it by more than the
        # solver's tolerance
        assert soft_objective(pts, labels, zero, sm.b, 1) == soft_objective(pts, labels, zero,
                                                                            best, 1)
        said = w_zero_words(y, sm.b, sm.slack, ("-1", "+1"))
        paying = [p for p, c in zip(pts, labels, strict=True) if 1 - c * F(sm.b) > 0]
        if len(paying) == len(pts):
            assert "every point pays" in said
        elif paying:
            assert f"{len(paying)} of the {len(pts)} points pay a slack" in said, said
        claimed("the w = 0 optimum and who pays")
    else:
        # a finite margin is said: the page's (w, b) beats every w = 0 boundary in Fractions
        assert soft_objective(pts, labels, sm.w, sm.b, 1) < soft_objective(pts, labels, zero,
                                                                           best, 1), sm
        norm2 = dot([F(v) for v in sm.w], [F(v) for v in sm.w])
        text = written(1 / math.sqrt(float(norm2)), places=4)
        if not text.startswith("≈"):  # the solver's w is a float: equal to its rounding
            assert abs(Fraction(text) ** 2 * norm2 - 1) < Fraction(1, 10**9), (text, sm)
        claimed("a soft margin with w ≠ 0")


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=corner_cases(), bias=st.booleans())
def test_every_claim_holds_in_the_corners(case, bias):
    _, pts, labels = case
    X, y = arrays(pts, labels)
    sweep_margins(pts, labels, X, y, bias)
    sweep_data(pts, labels, X, y, bias)
    sweep_soft(pts, labels, X, y)
    if len(set(labels)) == 2 and all(v == v.limit_denominator(2) for p in pts for v in p):
        sweep_nonseparable(pts, labels, X, y, bias)


@settings(max_examples=60, deadline=None)
@given(w=st.lists(st.integers(-3, 3).map(lambda v: v / 2), min_size=3, max_size=3),
       b=st.integers(-3, 3).map(lambda v: v / 2))
def test_the_lift_names_its_boundary_by_its_equation(w, b):
    # in Fractions: w1 x1 + w2 x2 + w3 x1 x2 + b = 0 has, for w3 != 0, the points where
    # (w3 x1 + w2)(w3 x2 + w1) = w1 w2 - b w3: a hyperbola unless that is 0
    said = curve_words(w, b)
    w1, w2, w3, c = (Fraction(v) for v in (*w, b))
    if w3 == 0:
        assert said.startswith("a line") == bool(w1 or w2)
        assert said.startswith("no curve") == (not (w1 or w2))
    else:
        assert said.startswith("a hyperbola") == (w1 * w2 - c * w3 != 0)
        if said.startswith("the pair of lines"):
            x1, x2 = -w2 / w3, -w1 / w3
            for t in (Fraction(-3), Fraction(7, 2)):  # both lines lie on the curve
                assert w1 * x1 + w2 * t + w3 * x1 * t + c == 0
                assert w1 * t + w2 * x2 + w3 * t * x2 + c == 0
    claimed("the lift's boundary")


numbers = st.one_of(
    st.fractions(max_denominator=64).filter(lambda q: abs(q) < 10**8),
    st.floats(allow_nan=False, allow_infinity=False, width=64),
    st.integers(-10**6, 10**6).map(lambda v: Fraction(v, 10**st_places(v))))


def st_places(v: int) -> int:
    return abs(v) % 7


@settings(max_examples=200, deadline=None)
@given(value=numbers, places=st.sampled_from([None, 2, 4]))
def test_equals_is_written_only_for_the_value_itself(value, places):
    # "=" (or no sign) only where the number written is the value, exactly
    exact = F(value)  # a float stands for its shortest decimal
    for text in (written(value, places=places), equals(value, places=places).removeprefix("= ")):
        if not text.startswith("≈"):
            assert Fraction(text) == exact, (value, text)
    assert eq_sign(value, exact=False) == "≈"
    claimed("= only for the value")
