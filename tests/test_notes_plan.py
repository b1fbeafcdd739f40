"""The built-in lecture, ``?plan=notes`` (classroom/notes_plan.json): the notes' order, every
slide with a question the app computes, and every question's right answer, as the page
computes it from the slide's view (ui/plan_runs.py, core/quantities.py), checked against an
independent computation: the notes' own numbers, the rule in Fractions, brute force, SciPy
and scikit-learn. The lecturer's notes on each slide that state a fact about the run are
checked too."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest
from sklearn.svm import SVC

from classroom import plan
from classroom.state import check_spec
from core import quantities as Q
from datasets.builtin import BUILTIN
from lessons import plan_catalogue
from tests.test_quantities import separable, simulate, slsqp_gamma2
from ui.plan_runs import run_facts

NOTES_PLAN, NOTICES = plan.builtin("notes", catalogue=plan_catalogue())
SLIDES = NOTES_PLAN.slides
NOTES_X = np.array([[1.0, 1.0], [2.0, 1.0], [1.5, 0.0], [2.0, 2.0]])
NOTES_Y = np.array([-1, 1, 1, -1])
XOR01 = (np.array([[0, 0], [0, 1], [1, 0], [1, 1]]), np.array([-1, 1, 1, -1]))
AND01 = (np.array([[0.0, 0], [0, 1], [1, 0], [1, 1]]), np.array([-1, -1, -1, 1]))
PM1 = np.array([[-1, -1], [-1, 1], [1, -1], [1, 1]])


def wrong(X, y, w, b) -> int:
    """Rows with y (w.x + b) <= 0, in Fractions."""
    return sum(int(yi) * (sum(Fraction(str(wd)) * Fraction(str(xd)) for wd, xd in
                              zip(w, row, strict=True)) + Fraction(str(b))) <= 0
               for row, yi in zip(X, y, strict=True))


def until_clean(X, y, eta=1, start=((0, 0), 0)):
    """The rule in Fractions, cyclic, from ``start`` until an epoch without a mistake: the
    steps taken and the mistakes made."""
    x = [[Fraction(str(v)) for v in row] for row in X]
    w, b = [Fraction(str(v)) for v in start[0]], Fraction(str(start[1]))
    eta, steps, mistakes = Fraction(str(eta)), 0, 0
    while True:
        clean = True
        for xi, yi in zip(x, y, strict=True):
            steps += 1
            if yi * (sum(a * c for a, c in zip(w, xi, strict=True)) + b) <= 0:
                w = [a + eta * yi * c for a, c in zip(w, xi, strict=True)]
                b += eta * yi
                mistakes += 1
                clean = False
        if clean:
            return steps, mistakes


def kernel_until_clean(X, y):
    """The dual perceptron with K(x, z) = (x.z + 1)² and a bias (K + 1), in integers, cyclic,
    η = 1, until an epoch without a mistake: steps, mistakes."""
    K = [[(int(np.dot(a, c)) + 1) ** 2 + 1 for c in X] for a in X]
    alpha, steps, mistakes = [0] * len(X), 0, 0
    while True:
        clean = True
        for i in range(len(X)):
            steps += 1
            if y[i] * sum(alpha[j] * y[j] * K[j][i] for j in range(len(X))) <= 0:
                alpha[i] += 1
                mistakes += 1
                clean = False
        if clean:
            return steps, mistakes


def fewest_by_brute_force(X, y) -> int:
    return min(len(out) for r in range(len(y) + 1)
               for out in itertools.combinations(range(len(y)), r)
               if separable(np.delete(X, out, axis=0).astype(float),
                            np.delete(y, out).astype(float)))


# (slide, question) -> the right answer by an independent computation
REFERENCE = {
    (1, 1): lambda: wrong(NOTES_X, NOTES_Y, (0.2, 0), -0.1),
    # from a point on the line (0.5, 0), a step along w, or against it: where is a > 0?
    (1, 2): lambda: [i for i, p in enumerate(([0.7, 0.0], [0.3, 0.0], [0.5, 0.0]))
                     if Fraction(2, 10) * Fraction(str(p[0])) - Fraction(1, 10) > 0],
    (2, 1): lambda: wrong(PM1, [-1, -1, -1, 1], (1, 1), -1),
    (2, 2): lambda: [i for i, b in enumerate((-1, 0, 1))
                     if wrong(PM1, [-1, 1, 1, 1], (1, 1), b) == 0],
    (3, 1): lambda: wrong(PM1, [-1, 1, 1, 1], (1, 1), 1),
    (3, 2): lambda: wrong(PM1, [-1, 1, 1, 1], (1, 1), -1),
    (4, 1): lambda: fewest_by_brute_force(*XOR01),
    (4, 2): lambda: [int(not separable(XOR01[0].astype(float), XOR01[1].astype(float)))],
    (5, 1): lambda: Fraction(-1, 10),  # the notes: y(0.2x1 + 0.0x2 - 0.1) = -0.1
    (5, 2): lambda: "mistake" if simulate(NOTES_X, NOTES_Y, 0.1, (0.2, 0), -0.1, 1)[1][3] \
        else "no_mistake",
    (5, 3): lambda: (Fraction(1, 10), Fraction(-1, 10), Fraction(-2, 10)),  # the notes' w, w0
    (6, 1): lambda: Fraction(3, 10),  # the notes: w1 <- w1 + eta x1 = 0.3
    (6, 2): lambda: Fraction(35, 100),  # the notes: y(0.3x1 - 0.0x2 - 0.1) = 0.35
    (7, 1): lambda: 9 / slsqp_gamma2(NOTES_X, NOTES_Y.astype(float)),  # R² = 1 + 8
    (7, 2): lambda: until_clean(NOTES_X, NOTES_Y)[1],
    (8, 1): lambda: 1 / np.linalg.norm(SVC(kernel="linear", C=1e10, tol=1e-10)
                                       .fit(*AND01).coef_[0]),
    (9, 1): lambda: sum(r[3] for r in simulate(*XOR01, 1, (0, 0), 0, 12)[1:]),
    (9, 2): lambda: wrong(*XOR01, *simulate(*XOR01, 1, (0, 0), 0, 8)[8][:2]),
    (10, 1): lambda: wrong(*XOR01, *simulate(*XOR01, 1, (0, 0), 0, 200)[200][:2]),
    (10, 2): lambda: wrong(*XOR01, *_mean(simulate(*XOR01, 1, (0, 0), 0, 200)[1:])),
    (11, 1): lambda: 1 - Fraction(35, 100),
    (11, 2): lambda: max(Fraction(0), -Fraction(35, 100)),
    (12, 1): lambda: kernel_until_clean(*XOR01)[1],
    (12, 2): lambda: [0] if kernel_until_clean(*XOR01) else [1],
}


def _mean(rows):
    k = len(rows)
    return tuple(sum(r[0][d] for r in rows) / k for d in range(2)), sum(r[1] for r in rows) / k


def test_the_built_in_lecture_follows_the_notes_in_at_least_ten_slides():
    assert NOTICES == []
    assert len(SLIDES) >= 10
    lessons = [s.lesson or "step_through" for s in SLIDES]
    assert lessons == ["step_through", "boolean", "boolean", "boolean", "step_through",
                       "step_through", "margin", "margin", "nonseparable", "variants", "svm",
                       "variants"]
    assert set(REFERENCE) == {(n, j) for n, s in enumerate(SLIDES, 1)
                              for j in range(1, len(s.questions) + 1)}


@pytest.mark.parametrize("n", range(1, 13))
def test_every_slide_asks_a_question_whose_answer_the_app_computes(n):
    slide = SLIDES[n - 1]
    assert any(q.quantity is not None or q.kind in ("mistake", "turn")
               for q in slide.questions)


def app_answer(slide: plan.Slide, question: plan.Question):
    """The right answer as the projector's page computes it before asking."""
    facts = run_facts(slide.view)
    k = question.at(slide.step)
    if question.kind == "number" and question.quantity:
        return Q.value(question.quantity, facts, k).answer
    if question.kind == "number":
        return Fraction(question.answer)
    if question.kind == "line":
        return Q.boundary(facts, k)
    if question.kind == "mistake":
        return "mistake" if facts.trace.updated[k] else "no_mistake"
    return list(question.right)


@pytest.mark.parametrize(("n", "j"), sorted(REFERENCE))
def test_each_question_s_right_answer_matches_an_independent_computation(n, j):
    slide = SLIDES[n - 1]
    question = slide.questions[j - 1]
    got, reference = app_answer(slide, question), REFERENCE[(n, j)]()
    if question.quantity == "margin" or isinstance(reference, float):
        assert float(got) == pytest.approx(reference, rel=1e-6)
    else:
        assert got == reference
    # what the page then sends is a spec the class takes, holding that answer
    spec = question.spec(got if question.kind != "choice" else None, [-1, 3, -1, 3])
    assert check_spec(question.kind, spec) == spec
    if question.kind == "number":
        assert abs(Fraction(spec["answer"]) - Fraction(str(float(got)))) <= \
            Fraction(spec["tolerance"]) + Fraction(1, 10**9)


def test_each_question_asks_about_a_step_its_run_has():
    for slide in SLIDES:
        facts = run_facts(slide.view)
        assert slide.within(facts.steps) == (slide, [])
        for question in slide.questions:
            assert question.at(slide.step) <= facts.steps


def test_the_lecturer_s_notes_that_state_facts_are_true():
    notes = run_facts(SLIDES[0].view)
    assert Q.value("training_errors", notes, 0).exact == 2  # slide 1's question, not 0 or 4
    # slide 6: "Two mistakes so far; the third point is next."
    worked = run_facts(SLIDES[5].view)
    assert Q.value("mistakes", worked, 2).exact == 2 and worked.trace.index[3] == 2
    # slide 9: "every visit is a mistake, and the weights come back"
    xor = run_facts(SLIDES[8].view)
    assert Q.value("mistakes", xor, 12).exact == 12
    starts = [(*xor.trace.W[k], xor.trace.b[k]) for k in range(0, 200, 4)]
    assert len(set(starts)) < len(starts)
    # slide 10: the last weights get all four wrong, the average fewer
    averaged = run_facts(SLIDES[9].view)
    assert Q.value("training_errors", averaged, 200).exact == 4
    assert Q.value("averaged_errors", averaged, 200).exact < 4
    # slide 11: "y·a = 0.35: right, but inside the margin"
    assert 0 < Q.value("y_a", run_facts(SLIDES[10].view), 3).exact < 1
    # slide 12: the kernel run ends with every point right
    kernel = run_facts(SLIDES[11].view)
    assert kernel.steps == kernel_until_clean(*XOR01)[0]
    # slide 7: the run's end is the question's step, and its mistakes are within the bound
    margin = run_facts(SLIDES[6].view)
    assert margin.steps == until_clean(NOTES_X, NOTES_Y)[0] == SLIDES[6].questions[1].step
    assert Q.value("mistakes", margin, margin.steps).exact <= \
        Q.value("bound", margin, 0).exact
    assert BUILTIN["Lecture notes' example: 4 points"]().X.tolist() == NOTES_X.tolist()


def test_the_built_in_lecture_fits_in_a_link():
    assert len(plan.to_link(NOTES_PLAN)) <= plan.MAX_LINK_CHARS


def test_every_question_of_the_lecture_is_asked_as_the_class_takes_it():
    """ui.plan_runs.ask_body: the lecturer's ask, its right answer computed; the class's own
    transition takes each (a spec it refuses would be a question the room never sees)."""
    from classroom.ops import check_action
    from classroom.state import open_question, public, reveal, start
    from ui.plan_runs import ask_body

    state = start("ABCDEFGH", "h", "s", "", 0)
    for n, slide in enumerate(SLIDES, 1):
        for j, question in enumerate(slide.questions, 1):
            body = ask_body(n, slide, question)
            check_action(body)
            state = open_question(state, body["kind"], body["step"], "qs", body["spec"],
                                  body["slide"])
            shown = public(reveal(state))["question"]
            assert shown["slide"] == n and shown["kind"] == question.kind
            reference = REFERENCE[(n, j)]()
            if question.kind == "number" and not isinstance(reference, float):
                assert Fraction(shown["answer"]) == reference
            if question.kind == "line":  # drawn on the data's own square plane
                assert [Fraction(v) for v in (*shown["w"], shown["b"])] == list(reference)
                assert shown["box"] == ["0.2", "2.8", "-0.3", "2.3"]


def test_a_question_its_run_cannot_answer_says_which_slide_and_question():
    from ui.plan_runs import ask_body

    slide = plan.Slide(SLIDES[4].view, "Past the end", step=0, questions=(
        plan.Question("number", "y·a?", step=900, quantity="y_a"),
        plan.Question("line", "Where?", step=0, quantity="boundary")))
    with pytest.raises(ValueError, match=r"slide 3, question 1: step 900 is past the run's "
                                         r"end \(20 steps\)"):
        ask_body(3, slide, slide.questions[0])
    zeros = plan.Slide("data=xor-0-1", "w = 0", questions=(
        plan.Question("line", "Where?", quantity="boundary"),))
    with pytest.raises(ValueError, match=r"slide 2, question 1: after step 0 w = \(0, 0\): "
                                         r"there is no boundary"):
        ask_body(2, zeros, zeros.questions[0])


def test_a_turn_question_is_sent_with_its_right_answer_so_the_results_mark_it():
    """"Which way does w turn?" on the worked example: step 1 turns w from (0.2, 0) to
    (0.1, -0.1), clockwise, step 2 to (0.3, 0), anticlockwise; step 3 is no mistake
    (y·a = 0.35); each marked in the results."""
    from classroom.state import KINDS
    from ui.plan_runs import ask_body

    slide = plan.Slide(SLIDES[4].view, "Which way?", step=0, questions=(
        plan.Question("turn", "", step=None), plan.Question("turn", "", step=2),
        plan.Question("turn", "", step=3)))
    first, second, third = (ask_body(5, slide, q) for q in slide.questions)
    assert (first["step"], first["spec"]) == (1, {"answer": "clockwise"})
    assert (second["step"], second["spec"]) == (2, {"answer": "anticlockwise"})
    assert (third["step"], third["spec"]) == (3, {"answer": "no_mistake"})
    assert KINDS["turn"].read(first["spec"], "clockwise").right is True
    assert KINDS["turn"].read(first["spec"], "anticlockwise").right is False
