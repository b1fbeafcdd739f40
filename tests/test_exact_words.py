"""The server's sentences on ties, margins and counts say what is true of the run, computed from
it: a tie is a mistake, an update that left y·a at 0 is not followed by "needs 1 update", a
count says what it counts out of."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.evaluation import LeaveOneOut
from core.perceptron import perceptron
from core.svm import max_margin
from core.trace import record
from core.update_effect import update_effect
from core.words import FLOAT_DESCENT
from datasets import Dataset
from datasets.builtin import BUILTIN
from lessons.margin.figures import margin_latex
from lessons.margin.parts import current_boundary, flip_sentence, no_gamma_words, update_at
from lessons.svm.figures import svm_step_lines, verdict
from lessons.svm.parts import loo_metric, loo_sentence
from viz.describe import sides

NOTES = BUILTIN["Lecture notes' example: 4 points"]()


def test_a_tie_is_no_separator_on_the_server_either():
    # the notes' 4 points, eta = 0.1 from w = 0, step 28: w = (3/10, -2/5), b = 1/10 exactly;
    # example 0 (x = (1, 1), y = -1) has a = 0, a tie, a mistake (5.55e-17 in floats)
    trace = record(perceptron(NOTES.X, NOTES.y, eta=0.1, max_epochs=100))
    assert trace.exact and trace.W[28].tolist() == [0.3, -0.4] and trace.b[28] == 0.1
    current = current_boundary(NOTES, trace, 28)
    assert current["margin"] == -math.inf and current["closest"] is None
    assert "does not separate" in margin_latex(current["margin"])
    assert "On the line: 1 point." in sides(NOTES.X, NOTES.y, trace.W[28], trace.b[28])


THIRDS = Dataset("thirds", np.array([[4 / 3, 8 / 3], [2, -1], [0, 8 / 3], [-8 / 3, -4 / 3]]),
                 np.array([-1.0, -1.0, 1.0, 1.0]))


def test_an_update_that_leaves_a_tie_needs_more_than_one():
    # eta = 0.3, step 3: the update takes y·a from -2.4333 to 0 in floats (a tie, still a
    # mistake); "needs 1 update" would contradict the update just made
    trace = record(perceptron(THIRDS.X, THIRDS.y, eta=0.3, max_epochs=100))
    assert not trace.exact and trace.updated[3]
    effect = update_at(THIRDS, trace, 3, bias=True, eta=0.3)
    assert effect.after == 0 and not effect.flipped
    assert effect.needed == 2
    assert "needs 2 updates before y·a > 0" in flip_sentence(effect)


thirds = st.integers(-9, 9).map(lambda n: n / 3)


@settings(max_examples=60, deadline=None)
@given(points=st.lists(st.tuples(thirds, thirds), min_size=2, max_size=6),
       labels=st.lists(st.sampled_from([-1.0, 1.0]), min_size=6, max_size=6),
       eta=st.sampled_from([0.1, 0.3, 0.7]), bias=st.booleans())
def test_a_float_update_not_enough_never_needs_just_one(points, labels, eta, bias):
    X, y = np.array(points), np.array(labels[:len(points)])
    trace = record(perceptron(X, y, eta=eta, bias=bias, max_epochs=8))
    for k in np.flatnonzero(trace.updated):
        i = int(trace.index[k])
        effect = update_effect(X[i], y[i], trace.W[k - 1], float(trace.b[k - 1]), eta=eta,
                               bias=bias)
        if not effect.flipped:
            assert effect.needed is None or effect.needed >= 2, (k, effect)


def test_the_descents_step_is_irrational_only_where_t_is_no_square():
    # eta_1 = eta_0 / sqrt(1) = eta_0: at t = 1, 4, 9, ... the step is no irrational number
    assert "irrational whenever t is not a perfect square" in FLOAT_DESCENT
    assert all(math.isqrt(t) ** 2 == t for t in (1, 4, 9, 16))


def test_leave_one_out_counts_out_of_the_runs_it_counts():
    # 70 runs, 2 did not converge, 1 of those 2 errs on the point it left out; none of the 68
    # that converged errs
    wrong = np.zeros(70, dtype=bool)
    converged = np.ones(70, dtype=bool)
    converged[[5, 9]] = False
    wrong[9] = True
    loo = LeaveOneOut(wrong, converged)
    label, value, delta = loo_metric(loo)
    assert value == "0 / 68" and "(runs that converged)" in label
    assert delta == "2 runs did not converge, not counted"
    text = loo_sentence(loo, 10.0, 47)
    assert ("2 of the 70 runs did not converge (of the 2 points they leave out, they err on "
            "1), so the count shown is of the 68 that did: 0.") in text
    assert "of their points" not in text


@pytest.mark.parametrize(("name", "line", "advice"), [
    ("XOR (0/1)", False, "the bias would not help"),
    ("XOR (±1)", False, "the bias would not help"),
    ("AND (0/1)", True, "turn the bias on"),
])
def test_the_no_bias_warning_advises_the_bias_only_where_it_helps(name, line, advice):
    data = BUILTIN[name]()
    separates = max_margin(data.X, data.y) is not None
    assert separates is line
    words = no_gamma_words(bias=False, line_separates=separates)
    assert advice in words
    if not line:
        assert "turn the bias on" not in words


def test_y_a_of_exactly_1_is_on_the_margin():
    assert verdict(1.0).startswith("z = 1: on the margin.")
    assert verdict(1.5).startswith("z = 1.5 > 1: beyond the margin.")
    lines = svm_step_lines(x=[-1.0, 0.0], y=-1.0, w_before=[1.0, 0.0], b_before=0.0,
                           w_after=[1.0, 0.0], b_after=0.0, a=-1.0, updated=False, eta=1.0,
                           lam=0.0, t=2, eta0=1.0, bias=False)
    assert r"\text{on the margin: only the penalty}" in lines[0]
    assert "beyond" not in lines[0]
