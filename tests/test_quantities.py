"""The quantities a lecture's questions ask (core/quantities.py), each against an independent
computation: the notes' own numbers, a perceptron written out in Fractions, brute force over
the points a line can leave out, and other solvers (SciPy's SLSQP, scikit-learn's SVC) for
the margins."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import linprog, minimize
from sklearn.svm import SVC

from classroom import plan
from core import quantities as Q
from core.perceptron import perceptron
from core.trace import record

NOTES_X = np.array([[1.0, 1.0], [2.0, 1.0], [1.5, 0.0], [2.0, 2.0]])
NOTES_Y = np.array([-1.0, 1.0, 1.0, -1.0])


def notes_run() -> Q.RunFacts:
    trace = record(perceptron(NOTES_X, NOTES_Y, eta=0.1, init=((0.2, 0.0), -0.1),
                              order="cyclic"))
    return Q.RunFacts(NOTES_X, NOTES_Y, trace, eta=0.1)


def test_the_plan_format_names_exactly_the_quantities_computed_here():
    assert list(plan.NUMBER_QUANTITIES) == list(Q.NUMBER)
    assert list(plan.LINE_QUANTITIES) == list(Q.LINE)


def test_the_notes_worked_example_gives_the_notes_numbers():
    facts = notes_run()
    # the notes: y(0.2x1 + 0.0x2 - 0.1) = -0.1, then w = (0.1, -0.1), w0 = -0.2; then
    # y(0.1x1 - 0.1x2 - 0.2) = -0.1, then w = (0.3, 0.0), w0 = -0.1; then 0.35 > 0
    assert [Q.value("y_a", facts, k).exact for k in (1, 2, 3)] == [
        Fraction(-1, 10), Fraction(-1, 10), Fraction(35, 100)]
    assert [Q.value(n, facts, 1).exact for n in ("w1", "w2", "b")] == [
        Fraction(1, 10), Fraction(-1, 10), Fraction(-2, 10)]
    assert [Q.value(n, facts, 2).exact for n in ("w1", "w2", "b")] == [
        Fraction(3, 10), Fraction(0), Fraction(-1, 10)]
    assert Q.value("mistakes", facts, 3).exact == 2  # the third point: correctly classified
    assert Q.value("mistakes", facts, 4).exact == 3  # the fourth: incorrect, update
    assert Q.value("hinge", facts, 3).exact == Fraction(65, 100)
    assert Q.value("perceptron_loss", facts, 3).exact == 0
    assert Q.value("perceptron_loss", facts, 1).exact == Fraction(1, 10)
    assert Q.boundary(facts, 2) == (Fraction(3, 10), Fraction(0), Fraction(-1, 10))


def simulate(X, y, eta, w0, b0, steps):
    """The reference: the notes' rule in Fractions, cyclic, every visit: the (w, b) after each
    step, y·a of each visit, whether it updated."""
    x = [[Fraction(str(v)) for v in row] for row in X]
    eta = Fraction(str(eta))
    w, b = [Fraction(str(v)) for v in w0], Fraction(str(b0))
    out = [(tuple(w), b, None, False)]
    for t in range(steps):
        i = t % len(x)
        yi = int(y[i])
        ya = yi * (sum(wd * xd for wd, xd in zip(w, x[i], strict=True)) + b)
        if ya <= 0:
            w = [wd + eta * yi * xd for wd, xd in zip(w, x[i], strict=True)]
            b = b + eta * yi
        out.append((tuple(w), b, ya, ya <= 0))
    return out


def errors(X, y, w, b) -> int:
    return sum(int(yi) * (sum(wd * Fraction(str(xd)) for wd, xd in zip(w, row, strict=True))
                          + b) <= 0 for row, yi in zip(X, y, strict=True))


decimal = st.integers(-30, 30).map(lambda n: n / 10)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(decimal, decimal), min_size=3, max_size=6, unique=True),
       st.lists(st.sampled_from([-1.0, 1.0]), min_size=6, max_size=6),
       st.sampled_from([0.1, 0.5, 1.0]), st.tuples(decimal, decimal, decimal),
       st.integers(1, 30))
def test_every_step_quantity_of_an_exact_run_matches_the_rule_in_fractions(points, labels, eta,
                                                                           start, k):
    X = np.array(points)
    y = np.array(labels[:len(points)])
    trace = record(perceptron(X, y, eta=eta, init=(start[:2], start[2]), order="cyclic",
                              max_epochs=10))
    if k > trace.steps:
        return
    facts = Q.RunFacts(X, y, trace, eta=eta)
    ref = simulate(X, y, eta, start[:2], start[2], k)
    w, b, ya, _ = ref[k]
    assert trace.exact
    assert Q.value("y_a", facts, k).exact == ya
    assert Q.value("a", facts, k).exact == ya * int(y[(k - 1) % len(y)])
    assert (Q.value("w1", facts, k).exact, Q.value("w2", facts, k).exact,
            Q.value("b", facts, k).exact) == (w[0], w[1], b)
    updates = sum(r[3] for r in ref[1:])
    assert Q.value("updates", facts, k).exact == updates
    assert Q.value("mistakes", facts, k).exact == updates
    assert Q.value("training_errors", facts, k).exact == errors(X, y, w, b)
    mean_w = tuple(sum(r[0][d] for r in ref[1:]) / k for d in range(2))
    mean_b = sum(r[1] for r in ref[1:]) / k
    assert Q.value("averaged_errors", facts, k).exact == errors(X, y, mean_w, mean_b)
    assert Q.value("hinge", facts, k).exact == max(Fraction(0), 1 - ya)


def separable(X, y) -> bool:
    """Some (w, b) has y (w.x + b) >= 1 for every row: a linear programme's feasibility."""
    if len(set(y)) < 2:
        return True
    A = -np.c_[y[:, None] * X, y]
    found = linprog(np.zeros(3), A_ub=A, b_ub=-np.ones(len(y)), bounds=[(None, None)] * 3)
    return found.status == 0


@pytest.mark.parametrize(("X", "y"), [
    ([[0, 0], [0, 1], [1, 0], [1, 1]], [-1, 1, 1, -1]),  # XOR
    ([[0, 0], [0, 1], [1, 0], [1, 1]], [-1, -1, -1, 1]),  # AND
    ([[0, 0], [1, 1], [2, 2], [3, 3], [1, 0], [0, 1]], [1, -1, 1, -1, 1, -1]),
    ([[0, 0], [1, 0], [0, 1], [1, 1], [0.5, 0.5]], [1, 1, 1, 1, -1]),
])
def test_the_fewest_errors_of_any_line_match_brute_force_over_the_points_left_out(X, y):
    X, y = np.array(X, dtype=float), np.array(y, dtype=float)
    fewest = min(len(out) for r in range(len(y) + 1)
                 for out in itertools.combinations(range(len(y)), r)
                 if separable(np.delete(X, out, axis=0), np.delete(y, out)))
    assert Q.value("fewest_errors", Q.RunFacts(X, y), 0).exact == fewest


def slsqp_gamma2(X, y, bias=True) -> float:
    """The reference γ²: min ||v||² s.t. y (v.z) >= 1 by SciPy's SLSQP (not the NNLS of
    core/margin_solvers.py), z = (x, 1) with a bias."""
    Z = np.c_[X, np.ones(len(X))] if bias else X
    P = y[:, None] * Z
    found = minimize(lambda v: v @ v, np.ones(Z.shape[1]), jac=lambda v: 2 * v,
                     constraints=[{"type": "ineq", "fun": lambda v: P @ v - 1,
                                   "jac": lambda v: P}], method="SLSQP",
                     options={"ftol": 1e-14, "maxiter": 500})
    return 1 / float(found.x @ found.x)


MARGIN_SETS = [
    (NOTES_X, NOTES_Y),
    (np.array([[0.0, 0.0], [0, 1], [1, 0], [1, 1]]), np.array([-1.0, -1, -1, 1])),
    (np.array([[1.0, 2.0], [2.5, 0.5], [-1, -1], [0, -2], [3, 3]]),
     np.array([1.0, 1, -1, -1, 1])),
    (np.array([[0.2, 0.1], [0.4, 0.3], [0.1, 0.9], [0.3, 1.2]]), np.array([1.0, 1, -1, -1])),
]


@pytest.mark.parametrize(("X", "y"), MARGIN_SETS)
def test_the_bound_and_its_gamma_are_exact_and_agree_with_another_solver(X, y):
    facts = Q.RunFacts(X, y)
    g2 = Q.value("gamma2", facts, 0)
    r2 = Q.value("R2", facts, 0)
    bound = Q.value("bound", facts, 0)
    assert g2.exact is not None and bound.exact == r2.exact / g2.exact
    assert r2.exact == max(sum(Fraction(str(v)) ** 2 for v in row) for row in X) + 1
    assert float(g2.exact) == pytest.approx(slsqp_gamma2(X, y), rel=1e-6)
    assert Q.value("gamma", facts, 0).approx ** 2 == pytest.approx(slsqp_gamma2(X, y), rel=1e-6)


@pytest.mark.parametrize(("X", "y"), MARGIN_SETS)
def test_the_margin_of_the_plane_agrees_with_scikit_learn(X, y):
    svc = SVC(kernel="linear", C=1e10, tol=1e-10).fit(X, y)
    reference = 1 / np.linalg.norm(svc.coef_[0])
    facts = Q.RunFacts(X, y)
    assert Q.value("margin", facts, 0).approx == pytest.approx(reference, rel=1e-5)
    exact = Q.margin_squared(facts)
    assert exact is not None and float(exact) == pytest.approx(reference**2, rel=1e-5)


def test_the_notes_example_s_bound_is_81():
    """R² = 1 + max ||x||² = 1 + 8 = 9; the best margin through the origin of (x, 1) is 1/3."""
    facts = notes_run()
    assert Q.value("R2", facts, 0).exact == 9
    assert Q.value("gamma2", facts, 0).exact == Fraction(1, 9)
    assert Q.value("bound", facts, 0).exact == 81


def test_a_run_in_floats_says_so_with_no_exact_value():
    X = np.array([[0.1 + 0.2, 1.0], [2.0, 1.0 / 3]])
    y = np.array([1.0, -1.0])
    trace = record(perceptron(X, y, eta=0.1))
    facts = Q.RunFacts(X, y, trace, eta=0.1)
    assert not trace.exact
    found = Q.value("w1", facts, 1)
    assert found.exact is None and found.approx == pytest.approx(trace.W[1][0])
    assert found.answer == found.approx


def test_what_a_run_cannot_give_is_refused_with_a_reason():
    facts = notes_run()
    with pytest.raises(ValueError, match="past the run's end"):
        Q.value("mistakes", facts, facts.steps + 1)
    with pytest.raises(ValueError, match="step 0 visits no example"):
        Q.value("y_a", facts, 0)
    held = Q.RunFacts(NOTES_X, NOTES_Y, facts.trace.padded(facts.steps + 5), eta=0.1)
    with pytest.raises(ValueError, match="visits no example: the run ended before it"):
        Q.value("y_a", held, facts.steps + 2)
    assert Q.value("w1", held, facts.steps + 5).exact == Q.value("w1", facts, facts.steps).exact
    with pytest.raises(ValueError, match="one of"):
        Q.value("temperature", facts, 1)
    xor = Q.RunFacts(np.array([[0.0, 0], [0, 1], [1, 0], [1, 1]]), np.array([-1.0, 1, 1, -1]))
    with pytest.raises(ValueError, match="no line separates"):
        Q.value("bound", xor, 0)
    with pytest.raises(ValueError, match="no run"):
        Q.value("mistakes", Q.RunFacts(NOTES_X, NOTES_Y, weights=((1, 1), 0)), 0)
    zeros = Q.RunFacts(NOTES_X, NOTES_Y, record(perceptron(NOTES_X, NOTES_Y)), eta=1.0)
    with pytest.raises(ValueError, match="no boundary"):
        Q.boundary(zeros, 0)


def test_fixed_weights_give_their_own_errors_exactly():
    """Boolean's hand-made weights: AND in ±1 is x1 + x2 − 1 (the notes' Example 2.2)."""
    X = np.array([[-1.0, -1], [-1, 1], [1, -1], [1, 1]])
    y = np.array([-1.0, -1, -1, 1])
    assert Q.value("training_errors", Q.RunFacts(X, y, weights=((1, 1), -1)), 0).exact == 0
    assert Q.value("training_errors", Q.RunFacts(X, y, weights=((1, 1), 1)), 0).exact == 2
    assert Q.value("b", Q.RunFacts(X, y, weights=((1, 1), -1)), 0).exact == -1


def turn_reference(w_before, w_after, updated) -> str | None:
    """Which way w turned, by angles: w_after's direction measured from w_before's, in
    (-pi, pi]; none for a w of no direction, the same direction or a half turn."""
    import cmath

    if not updated:
        return "no_mistake"
    p, q = complex(*map(float, w_before)), complex(*map(float, w_after))
    if p == 0 or q == 0:
        return None
    angle = cmath.phase(q / p)
    if abs(angle) < 1e-12 or abs(abs(angle) - cmath.pi) < 1e-12:
        return None
    return "anticlockwise" if angle > 0 else "clockwise"


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(decimal, decimal), min_size=2, max_size=5, unique=True),
       st.lists(st.sampled_from([-1.0, 1.0]), min_size=5, max_size=5),
       st.tuples(decimal, decimal, decimal), st.booleans(), st.integers(1, 20))
def test_which_way_w_turns_matches_the_angle_of_the_rule_in_fractions(points, labels, start,
                                                                      bias, k):
    X, y = np.array(points), np.array(labels[:len(points)])
    b0 = start[2] if bias else 0.0
    trace = record(perceptron(X, y, eta=1.0, init=(start[:2], b0), order="cyclic",
                              max_epochs=10, bias=bias))
    if k > trace.steps:
        return
    facts = Q.RunFacts(X, y, trace, eta=1.0, bias=bias)
    x = [[Fraction(str(v)) for v in row] for row in X]
    w, b = [Fraction(str(v)) for v in start[:2]], Fraction(str(b0))
    for t in range(k):
        i, before = t % len(x), list(w)
        yi = int(y[i])
        updated = yi * (w[0] * x[i][0] + w[1] * x[i][1] + b) <= 0
        if updated:
            w = [w[0] + yi * x[i][0], w[1] + yi * x[i][1]]
            b += yi if bias else 0
    assert Q.turn(facts, k) == turn_reference(before, w, updated)


def test_which_way_w_turns_is_not_decided_by_a_float_residue():
    """The second point is 4 times the first: w goes from A to -3A, a half turn, which a
    float cross product of about 1e-17 would call a turn one way or the other."""
    X = np.array([[0.3254257, 0.2058756], [1.3017028, 0.8235024]])
    y = np.array([1.0, -1.0])
    trace = record(perceptron(X, y, eta=1.0, order="cyclic", max_epochs=2))
    facts = Q.RunFacts(X, y, trace)
    assert not trace.exact and trace.updated[2]
    assert Q.turn(facts, 1) is None  # from w = 0: no direction before
    assert Q.turn(facts, 2) is None  # a half turn (in floats, within rounding of no turn)


def test_the_notes_first_update_turns_w_clockwise():
    facts = notes_run()  # w from (0.2, 0) to (0.1, -0.1)
    assert Q.turn(facts, 1) == "clockwise"
    assert Q.turn(facts, 3) == "no_mistake"  # 0.35 > 0: no update
    with pytest.raises(ValueError, match="step 0 is the start"):
        Q.turn(facts, 0)
