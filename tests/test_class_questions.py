"""What a lecturer may ask on the page in view (ui/class_questions.py, ui/slide_questions.py):
a plan's slide's questions computed from its run, a lesson's quick question, each a body the
class takes; checked against independent computations."""

from __future__ import annotations

import doctest
import itertools

import pytest

import lessons
import lessons.boolean.parts
import lessons.margin.parts
import lessons.svm.parts  # each lesson registers its quick question as it is imported
import ui.class_questions
from classroom import plan
from classroom.state import check_spec
from core.boolean import truth_table
from core.geometry import linearly_separable
from ui import slide_questions
from ui.class_questions import label, offered, quick_asks
from ui.plan_runs import ask_body
from ui.slide_questions import BUILT_IN


def test_doctests():
    assert doctest.testmod(ui.class_questions).failed == 0


FUNCTIONS = list(itertools.product(("AND", "OR", "NAND", "NOT", "XOR"), ("01", "pm1")))


@pytest.mark.parametrize(("function", "encoding"), FUNCTIONS)
def test_booleans_quick_question_is_right_by_a_linear_programme(function, encoding):
    """"Can a line separate these rows?": the right option is Yes exactly when a linear
    programme (core.geometry.linearly_separable, not the search the page uses) finds a line."""
    (ask,) = quick_asks(f"enc={encoding}&fn={function}&lesson=boolean")
    body = ask["body"]
    assert body["kind"] == "choice" and ask["label"].startswith("Ask: Can a line separate")
    spec = check_spec("choice", body["spec"])  # the class takes it as it is
    table = truth_table(function, encoding=encoding)
    separable = linearly_separable(table.X, table.y)
    assert spec["options"][spec["right"][0]] == ("Yes" if separable else "No")
    assert function in spec["text"]


@pytest.mark.parametrize("z", [-2.5, -0.05, 0.0, 0.05, 0.5, 0.95, 1.0, 1.05, 3.0])
def test_the_svm_losses_quick_question_is_right_by_the_notes_rules(z):
    """"Which loss pushes w at margin z?": the notes' rules, written out here: the perceptron
    updates on y·a <= 0, the SVM's subgradient on y·a < 1."""
    (ask,) = quick_asks(f"lesson=svm&part=Losses&z={z}")
    spec = check_spec("choice", ask["body"]["spec"])
    perceptron, hinge = z <= 0, z < 1
    expected = {(True, True): "Both", (False, True): "Only the hinge",
                (True, False): "Only the perceptron's loss", (False, False): "Neither"}
    assert spec["options"][spec["right"][0]] == expected[perceptron, hinge]
    assert quick_asks(f"lesson=svm&z={z}") == [ask]  # Losses is the lesson's first part
    assert quick_asks(f"lesson=svm&part=Soft%20margin&z={z}") == []  # a run of its own


@pytest.mark.parametrize(("points", "bias"), [
    ("1,1,%2B;2,2,%2B;3,1,%2B", True),  # one class (the bound is finite: issue 48's case)
    ("0,0,-;0,1,-;1,0,-;1,1,%2B", True),  # AND
    ("0,1,%2B;1,0.5,%2B;-1,-1,-;0,-1.5,-", False),
    ("2,1,%2B;1.5,0,%2B;1,1,-;2,2,-", True),  # the notes' four points
])
def test_the_margin_quick_question_is_the_bound_rounded_down_by_another_solver(points, bias):
    """"At most how many mistakes?": R²/γ² rounded down, with γ² from SciPy's SLSQP (not the
    exact solve the page uses) and R² written out, over the vectors the run sees."""
    import math

    import numpy as np

    from tests.test_quantities import slsqp_gamma2

    rows = [r.split(",") for r in points.replace("%2B", "+").split(";")]
    X = np.array([[float(a), float(b)] for a, b, _ in rows])
    y = np.array([1.0 if c == "+" else -1.0 for *_, c in rows])
    seen = np.c_[X, np.ones(len(X))] if bias else X
    r2 = max(float(v @ v) for v in seen)
    view = f"lesson=margin&pts={points}" + ("" if bias else "&bias=0")
    (ask,) = quick_asks(view)
    spec = check_spec("number", ask["body"]["spec"])
    bound = r2 / slsqp_gamma2(X, y, bias=bias)
    assert int(spec["answer"]) == math.floor(bound + 1e-9)
    assert "at most how many mistakes" in spec["text"]


def test_the_margin_quick_question_on_data_no_line_separates_says_why():
    (ask,) = quick_asks("lesson=margin&data=xor-0-1")
    assert "body" not in ask
    assert ask["problem"] == "no line separates these data: there is no margin γ"


def test_a_view_of_another_lesson_has_no_quick_question_and_bad_values_are_the_defaults():
    assert quick_asks("lesson=nonseparable&data=xor-0-1") == []
    assert quick_asks("") == []
    (ask,) = quick_asks("fn=%3Cb%3E&lesson=boolean")  # a value the page cannot read: AND
    assert "AND" in ask["body"]["spec"]["text"] and ask["body"]["spec"]["right"] == [0]


def test_a_plans_slide_offers_its_questions_computed_from_its_run(monkeypatch):
    notes, _ = plan.builtin("notes", catalogue=lessons.plan_catalogue())
    n = next(i for i, s in enumerate(notes.slides) if any(q.kind == "line" for q in s.questions))
    slide = notes.slides[n]
    monkeypatch.setattr(slide_questions.st, "session_state", {"plan.plan": notes, "plan.at": n})
    asks = offered(slide.view)
    assert len(asks) == len(slide.questions)
    for ask, question in zip(asks, slide.questions, strict=True):
        assert ask["label"] == label(question.text or BUILT_IN.get(question.kind, ""))
        assert ask["body"] == ask_body(n + 1, slide, question)  # one computation, one place
        check_spec(question.kind, ask["body"]["spec"])
    # outside a plan being given (no slide on screen), nothing but the view's own
    monkeypatch.setattr(slide_questions.st, "session_state", {"plan.plan": notes})
    assert offered(slide.view) == []


def test_a_question_its_run_cannot_answer_is_offered_with_the_reason(monkeypatch):
    notes, _ = plan.builtin("notes", catalogue=lessons.plan_catalogue())
    slide = next(s for s in notes.slides
                 if any(q.kind == "number" and q.quantity for q in s.questions))
    late = slide.__class__(**{**slide.__dict__, "step": 10_000})  # past the run's end
    late_plan = notes.__class__(**{**notes.__dict__, "slides": (late,)})
    monkeypatch.setattr(slide_questions.st, "session_state",
                        {"plan.plan": late_plan, "plan.at": 0})
    asks = slide_questions.slide_asks()
    refused = [a for a in asks if "problem" in a]
    assert refused and all(a["problem"].startswith("slide 1, question") for a in refused)
    assert all("body" not in a for a in refused)
