"""Sentences that were false or misleading on ordinary edge cases, each read in its page.

Each case opens the page on the data that made its sentence untrue (one class, a w = 0
optimum, a numerator rounded before a division, a cap the page put on the epochs, a length
written with "=") and checks the page's words against an independent computation in
Fractions. The sweep that looks for the next such case is tests/test_corner_sweep.py.
"""

from __future__ import annotations

import ast
import re
from fractions import Fraction
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from core.words import FLOAT_RBF
from tests.apptest import ROOT, assert_clean, latex, metrics, switch


def open_link(page: str, **params) -> AppTest:
    """The app opened at /<page>?params, as a shared link opens it."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=90)
    at.query_params.update(params)
    at.run()
    switch(at, page)
    at.run()
    assert_clean(at)
    return at


def points(text: str) -> tuple[list, list]:
    """A link's pts (x1,x2,label;...) as Fractions and labels +-1."""
    rows = [row.split(",") for row in text.split(";")]
    return ([[Fraction(a), Fraction(b)] for a, b, _ in rows],
            [1 if label == "+" else -1 for *_, label in rows])


def certify_soft(X, y, C, w, b, alpha) -> None:
    """(w, b) is the soft-margin SVM's optimum for C: the KKT conditions, in Fractions, with
    the dual weights alpha (found by hand): w = sum alpha y x, sum alpha y = 0, 0 <= alpha <= C,
    alpha = C where y a < 1 and alpha = 0 where y a > 1."""
    C = Fraction(C)
    assert all(0 <= a <= C for a in alpha)
    assert sum(a * label for a, label in zip(alpha, y, strict=True)) == 0
    for j in range(2):
        assert sum(a * label * x[j] for a, label, x in zip(alpha, y, X, strict=True)) == w[j]
    for a, label, x in zip(alpha, y, X, strict=True):
        margin = label * (w[0] * x[0] + w[1] * x[1] + b)
        assert (margin >= 1 or a == C) and (margin <= 1 or a == 0)


# ---------------------------------------------------------------- 3 and 4: w = 0 optima

SIX = "0,0,-;1,1,-;0,1,+;1,0,+;0,1,+;1,0,+"
FIVE = "0,0,-;1,1,-;0,1,+;1,0,+;0.5,0.5,+"


def soft_part(pts: str, C: str) -> AppTest:
    return open_link("svm", pts=pts, part="Soft margin", C=C)


def test_a_w_0_soft_margin_says_which_points_pay_a_slack():
    X, y = points(SIX)
    # w = 0, b = 1: the negatives pay 2 each (alpha = C), the positives lie on the margin
    certify_soft(X, y, 1, [0, 0], 1, [1, 1, Fraction(1, 2), Fraction(1, 2), Fraction(1, 2),
                                      Fraction(1, 2)])
    at = soft_part(SIX, "1")
    said = " ".join(w.value for w in at.warning)
    assert "best soft margin is w = 0" in said
    assert "every point pays" not in said
    assert "2 of the 6 points pay a slack, those of class -1, each ξ = 2" in said
    assert metrics(at)["Margin violations"] == "2"


@pytest.mark.parametrize("C", ["1", "0.1"])
def test_a_w_within_rounding_of_0_is_w_0_not_a_margin_of_1e15(C):
    X, y = points(FIVE)
    half = Fraction(C) / 2
    certify_soft(X, y, C, [0, 0], 1, [Fraction(C), Fraction(C), half, half, Fraction(C)])
    at = soft_part(FIVE, C)
    assert metrics(at)["Margin 1/‖w‖"] == "∞ (w = 0)"
    assert any("best soft margin is w = 0" in w.value for w in at.warning)


# ---------------------------------------------------------------- 5: one class


def test_one_class_has_an_infinite_margin_not_minus_infinity():
    at = open_link("margin", pts="1,1,+;2,2,+;3,1,+")
    text = " ".join(m.value for m in at.markdown)
    assert "Margin(D) is −∞" not in text and "No line separates these data" not in text
    assert "Margin(D) is +∞" in text
    assert metrics(at)["Maximum margin (plane)"] == "∞ (one class)"
    assert r"\operatorname{Margin}(\mathcal{D}) = +\infty" in latex(at)
    # in Fractions: the line x1 + x2 = -t separates them, its margin growing with t
    X, _ = points("1,1,+;2,2,+;3,1,+")
    margins = [min(x[0] + x[1] + t for x in X) ** 2 / 2 for t in (1, 10, 100)]
    assert margins == sorted(margins) and margins[-1] > 5000
    assert metrics(at)["Bound R²/γ²"] != "∞"


# ---------------------------------------------------------------- 6: arithmetic shown


def test_the_generalization_bound_divides_the_numerator_it_writes():
    at = open_link("svm", part="Generalization")
    formula = latex(at)
    found = re.search(r"\\frac\{([0-9.e]+)\}\{(\d+) \+ 1\} (=|\\approx) ([0-9.e-]+)", formula)
    assert found, formula
    top, n, sign, quotient = found.groups()
    exact = Fraction(top) / (int(n) + 1)
    assert abs(Fraction(quotient) - exact) <= Fraction(1, 10**5) * exact
    assert (sign == "=") == (Fraction(quotient) == exact)
    # and the sentence under it writes R²/γ² with the sign its rounding asks for
    said = " ".join(c.value for c in at.caption)
    assert "R²/γ² = 13.75" not in said


# ---------------------------------------------------------------- 7: colours in words

COLOUR = re.compile(r"\b(black|white|grey|gray|darker|lighter|darkened|washed out|red|blue|"
                    r"green|orange|purple|yellow)\b", re.I)


def page_sentences():
    """Every string in the lessons' code (their parts, pages and figures) and in core/words.py
    that reads as a sentence (five words or more), docstrings aside: what a page may say."""
    for path in sorted([*Path(ROOT, "lessons").rglob("*.py"), Path(ROOT, "core/words.py")]):
        tree = ast.parse(path.read_text())
        docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                      if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef))
                      and node.body and isinstance(node.body[0], ast.Expr)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and id(node) not in docstrings and len(node.value.split()) >= 5:
                yield path.relative_to(ROOT), node.value


def test_no_sentence_names_a_colour_the_dark_theme_changes():
    # a mark is named by its legend entry or its marker, never by a colour (in the dark theme
    # the "black" slack is near white and the "darker" regions lighter)
    named = [(str(path), COLOUR.search(text).group(0)) for path, text in page_sentences()
             if COLOUR.search(text)]
    assert named == []


# ---------------------------------------------------------------- 8: a cap said


def test_the_sklearn_part_says_it_ran_fewer_epochs_than_asked():
    at = open_link("svm", part="In scikit-learn", data="iris-versicolor-vs-virginica-petal",
                   svm_epochs="2000")
    said = " ".join(c.value for c in at.caption)
    assert "After 200 epochs (of the 2,000 asked for: the page records 20,000 steps at most)" \
        in said


# ---------------------------------------------------------------- 9: "=" and "≈"


def test_irrational_margins_are_written_with_approx():
    at = open_link("margin")
    formulas = latex(at)
    # the notes' 4 points: Margin(D) = 1/(2√2)
    assert r"\operatorname{Margin}(\mathcal{D}, \mathbf{w}, b) \approx 0.353553" in formulas
    assert r"= 0.353553" not in formulas
    assert metrics(at)["Maximum margin (plane)"] == "≈ 0.353553"
    assert metrics(at)["Bound R²/γ²"] == "81"  # certified exactly: 9 × 9


def test_the_rbf_kernel_is_rational_at_x_equal_x_prime():
    assert "irrational wherever x ≠ x′" in FLOAT_RBF


@pytest.mark.parametrize(("enc", "words"), [
    ("pm1", "the pair of lines x₁ = 0 and x₂ = 0 (the axes)"),
    ("01", "a hyperbola: a curve, not a line")])
def test_the_lifted_boundary_is_named_by_its_own_equation(enc, words):
    from core.boolean import lift, truth_table
    from lessons.boolean.parts import train
    at = open_link("boolean", part="lift", enc=enc)
    text = " ".join(m.value for m in at.markdown)
    assert words in text
    run = train(lift(truth_table("XOR", encoding=enc).X), truth_table("XOR", encoding=enc).y)
    w1, w2, w3 = (Fraction(repr(float(v))) for v in run.w)
    b = Fraction(repr(float(run.b)))
    assert (w1 * w2 - b * w3 == 0) == (enc == "pm1")  # degenerate: the pair of lines
