"""What a lecturer may ask on the page in view (ui/class_questions.py, ui/slide_questions.py):
a plan's slide's questions computed from its run, a lesson's quick question, each a body the
class takes; checked against independent computations."""

from __future__ import annotations

import doctest
import itertools

import pytest

import lessons
import lessons.boolean.parts
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


def test_a_view_of_another_lesson_has_no_quick_question_and_bad_values_are_the_defaults():
    assert quick_asks("lesson=margin&data=xor-1") == []
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
