"""The lecture plan's file and link (classroom/plan.py): a plan written and read back is the
same plan, and any bytes a file or link may hold get a plan with notices naming the slide and
the field, or a refusal that says why, never more work than the caps allow."""

from __future__ import annotations

import base64
import json
import zlib
from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from classroom import plan
from classroom.plan import Notice, Plan, PlanError, Question, Slide
from classroom.state import number_text
from lessons import plan_catalogue

CATALOGUE = plan_catalogue()
# as the class keeps views (ui.classroom.encode_view): every parameter sorted
VIEWS = ["data=xor-0-1&eta=0.5&lesson=margin", "data=lecture-notes-example-4-points&eta=0.1",
         "fn=XOR&lesson=boolean&part=xor", "data=and-0-1&lesson=svm&part=Losses",
         "data=xor-0-1&kernel=polynomial&lesson=variants&part=kernel", "lesson=nonseparable"]


def one(slides: list[dict], **top) -> bytes:
    return json.dumps({plan.FORMAT: 1, **top, "slides": slides}).encode()


def parsed(slides: list[dict], **top):
    return plan.parse(one(slides, **top), catalogue=CATALOGUE)


def said(notices: list[Notice]) -> str:
    return "\n".join(map(str, notices))


# ------------------------------------------------------------------ round trip

text = st.text(st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp")), min_size=1,
               max_size=60).map(str.strip).filter(bool)
number = st.fractions(min_value=-1000, max_value=1000, max_denominator=50).map(number_text)
questions = st.one_of(
    st.builds(Question, kind=st.sampled_from(["mistake", "turn"]),
              step=st.none() | st.integers(0, 500)),
    st.builds(lambda t, opts, right, step: Question("choice", t, step, tuple(opts),
                                                    tuple(sorted({r % len(opts) for r in right}))),
              text, st.lists(text, min_size=2, max_size=6),
              st.lists(st.integers(0, 5), min_size=1, max_size=3),
              st.none() | st.integers(0, 50)),
    st.builds(lambda t, a, tol: Question("number", t, answer=a, tolerance=tol), text, number,
              st.fractions(0, 10, max_denominator=20).map(number_text)),
    st.builds(lambda t, q, tol: Question("number", t, quantity=q, tolerance=tol), text,
              st.sampled_from(list(plan.NUMBER_QUANTITIES)),
              st.fractions(0, 10, max_denominator=20).map(number_text)),
    st.builds(lambda t, close: Question("line", t, quantity="boundary", close=close), text,
              st.fractions(Fraction(1, 2), 1, max_denominator=20).map(number_text)),
    st.builds(lambda t, w1, b: Question("line", t, line=(w1, "1", b)), text, number, number),
)


@st.composite
def slides(draw):
    steps = draw(st.none() | st.tuples(st.integers(0, 40), st.integers(0, 40)).map(sorted)
                 .map(tuple))
    step = draw(st.integers(steps[0], steps[1])) if steps else draw(st.integers(0, 99))
    notes = draw(st.text(st.characters(blacklist_categories=("Cs", "Cc")) | st.just("\n"),
                         max_size=80).map(str.strip))
    return Slide(view=draw(st.sampled_from(VIEWS)), title=draw(text), step=step, steps=steps,
                 notes=notes, questions=tuple(draw(st.lists(questions, max_size=3))))


plans = st.builds(Plan, st.lists(slides(), min_size=1, max_size=6).map(tuple),
                  st.just("") | text)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(plans)
def test_a_plan_written_and_read_back_is_the_same_plan_with_no_notice(original):
    read, notices = plan.parse(plan.dump(original), catalogue=CATALOGUE)
    assert notices == []
    assert read == original
    linked, notices = plan.from_link(plan.to_link(original), catalogue=CATALOGUE)
    assert linked == original and notices == []
    assert plan.dump(read) == plan.dump(original)  # the file itself: byte for byte


def test_the_file_is_versioned_readable_json():
    written = plan.dump(Plan((Slide("lesson=margin", "Margin", step=3),), "A lecture"))
    assert written.startswith('{"perceptron_lab_plan": 1, "title": "A lecture", "slides": [\n')
    assert json.loads(written)["slides"] == [{"title": "Margin", "view": "lesson=margin",
                                             "step": 3}]


# ------------------------------------------------------------------ outside input


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=400) | st.text(max_size=200).map(str.encode))
def test_any_bytes_are_a_plan_with_notices_or_a_refusal_that_says_why(data):
    try:
        found, notices = plan.parse(data, catalogue=CATALOGUE)
    except PlanError as refused:
        assert str(refused)
    else:
        assert found.slides and all(isinstance(n, Notice) for n in notices)


@pytest.mark.parametrize(("data", "words"), [
    (b"", "does not read as JSON"),
    (b"\xff\xfe{\x00", "not text"),
    (b"[1, 2]", "not a lecture plan"),
    (b'{"slides": []}', "not a lecture plan"),
    (b'{"perceptron_lab_plan": 2, "slides": []}', "version 2"),
    (b'{"perceptron_lab_plan": true, "slides": []}', "version"),
    (b'{"perceptron_lab_plan": 1, "slides": []}', "at least one slide"),
    (b'{"perceptron_lab_plan": 1, "slides": "a, b"}', "at least one slide"),
    (b"[" * 100_000 + b"]" * 100_000, "does not read as JSON"),
    (b'{"perceptron_lab_plan": 1, "slides": [{"title": "no view"}]}', "slide 1, view"),
])
def test_a_file_that_holds_no_plan_is_refused_saying_why(data, words):
    with pytest.raises(PlanError, match=words):
        plan.parse(data, catalogue=CATALOGUE)


def test_ten_megabytes_are_refused_before_they_are_read(monkeypatch):
    big = one([{"view": "lesson=margin", "notes": "x" * 10_000_000}])
    monkeypatch.setattr(plan.json, "loads", lambda *_: pytest.fail("read a 10 MB file"))
    with pytest.raises(PlanError, match="at most 512 KB"):
        plan.parse(big)
    with pytest.raises(PlanError, match="at most 512 KB"):
        plan.parse(big.decode())


def test_ten_thousand_slides_keep_the_first_two_hundred_and_say_so(monkeypatch):
    calls = []
    real = plan._slide
    monkeypatch.setattr(plan, "_slide", lambda *a: calls.append(1) or real(*a))
    found, notices = plan.parse(json.dumps({plan.FORMAT: 1, "slides": [{"view": "eta=1"}]
                                            * 10_000}), catalogue=CATALOGUE)
    assert len(found.slides) == plan.MAX_SLIDES == len(calls)  # no work past the cap
    assert "slides: 10,000 of them: a plan has at most 200; the first 200 kept" in said(notices)


def test_a_thousand_options_leave_that_question_out_naming_its_slide_and_field():
    found, notices = parsed([{"view": "lesson=margin"}, {"view": "lesson=margin", "questions": [
        {"kind": "choice", "text": "Pick", "options": [str(n) for n in range(1000)],
         "right": [0]},
        {"kind": "mistake"}]}])
    assert said(notices) == ("slide 2, question 1 options: is a list of 2 to 6 texts (it has "
                             "1,000); question left out")
    assert [q.kind for q in found.slides[1].questions] == ["mistake"]


@pytest.mark.parametrize("hostile", [
    "<script>alert(1)</script>", "**bold** [link](javascript:alert(1))", "<img src=x onerror=1>",
    "$x^2$ :material/home: `code`", "&lt;b&gt; &#60;"])
def test_titles_notes_and_texts_are_kept_as_written_as_data(hostile):
    found, notices = parsed([{"view": "lesson=margin", "title": hostile, "notes": hostile,
                              "questions": [{"kind": "choice", "text": hostile,
                                             "options": [hostile, "b"], "right": [1]}]}],
                            title=hostile)
    slide = found.slides[0]
    assert notices == []
    assert found.title == slide.title == slide.notes == slide.questions[0].text == hostile
    assert slide.questions[0].options[0] == hostile


def test_overlong_texts_are_cut_and_control_characters_dropped_with_a_notice():
    found, notices = parsed([{"view": "lesson=margin", "title": "T\x00i\x1bt" + "x" * 300,
                              "notes": "line 1\nline 2" + "y" * 5000}])
    slide = found.slides[0]
    assert slide.title.startswith("Tit") and len(slide.title) == plan.MAX_TITLE
    assert slide.notes.startswith("line 1\nline 2") and len(slide.notes) == plan.MAX_NOTES
    assert "slide 1, title: is 303 characters; cut to 200" in said(notices)
    assert "slide 1, notes: is 5,013 characters; cut to 4,000" in said(notices)


def test_a_view_never_keeps_a_class_s_own_or_a_foreign_parameter():
    found, notices = parsed([
        {"view": "lesson=margin&class=ABCDEFGH&key=SECRET&remote=TOKEN&embed=true&eta=0.5"},
        {"view": "lesson=margin&colour=red&eta=fast&part=xor"},
        {"view": "https://example.org/margin?lesson=margin&step=7&lecture=true"},
        {"view": "lesson=boolean&fn=XOR&data=xor-0-1&part=lift"},
    ])
    assert [s.view for s in found.slides] == ["eta=0.5&lesson=margin", "lesson=margin",
                                              "lesson=margin", "fn=XOR&lesson=boolean&part=lift"]
    assert found.slides[2].step == 7  # a Share link's step is the slide's step
    text = said(notices)
    assert "SECRET" not in "".join(s.view for s in found.slides)
    assert "slide 1, view: a class's own parameters" in text
    assert "slide 2, view: 'colour' is not a setting of this lesson; left out" in text
    assert "slide 2, view: eta='fast' cannot be used" in text
    assert "slide 2, view: part='xor' is not a part of this lesson (none: this lesson draws " \
           "every part); left out" in text
    assert "slide 4, view: 'data' is not a setting of this lesson; left out" in text


def test_an_unknown_lesson_or_a_view_that_is_no_query_skips_its_slide_with_a_notice():
    found, notices = parsed([{"view": "lesson=astrology"}, {"view": "lesson=margin"},
                             {"view": "<script>"}, {"view": 42}, "a slide?"])
    assert [s.view for s in found.slides] == ["lesson=margin"]
    text = said(notices)
    assert "slide 1, view: lesson='astrology' is not a lesson of this app" in text
    assert "slide 3, view: a view is a URL-encoded query string; slide skipped" in text
    assert "slide 4, view: is missing" in text
    assert "slide 5, slide: is not an object; skipped" in text


def test_a_pasted_share_link_gives_its_lesson_its_settings_and_its_step():
    found, notices = parsed([
        {"view": "https://lab.example.org/margin?data=xor-0-1&eta=0.5&step=4#top"},
        {"view": "http://localhost:8501/?data=and-0-1"},
        {"view": "https://lab.example.org/astrology?eta=1"}])
    assert [(s.view, s.step) for s in found.slides] == [
        ("data=xor-0-1&eta=0.5&lesson=margin", 4), ("data=and-0-1", 0)]
    assert "slide 3, view: lesson='astrology' is not a lesson of this app" in said(notices)


def test_a_slide_s_view_is_written_as_a_class_keeps_views():
    from ui.classroom import encode_view

    found, _ = parsed([{"view": "lesson=svm&part=Losses&eta=0.5&data=xor-0-1"}])
    assert found.slides[0].view == encode_view(
        {"lesson": "svm", "part": "Losses", "eta": "0.5", "data": "xor-0-1"})


def test_the_first_lesson_is_a_view_without_lesson():
    found, _ = parsed([{"view": "lesson=step_through&eta=0.1"}])
    assert found.slides[0].view == "eta=0.1" and found.slides[0].lesson is None


def test_steps_and_their_range_are_checked():
    found, notices = parsed([
        {"view": "eta=1", "steps": [3, 8]},
        {"view": "eta=1", "step": 12, "steps": [3, 8]},
        {"view": "eta=1", "step": -1},
        {"view": "eta=1", "steps": [8, 3]},
        {"view": "eta=1", "step": 10**12},
    ])
    assert [(s.step, s.steps) for s in found.slides] == [(3, (3, 8)), (3, (3, 8)), (0, None),
                                                         (0, None), (0, None)]
    text = said(notices)
    assert "slide 2, step: 12 is not within steps 3 to 8; 3 used" in text
    assert "slide 3, step: is a whole number from 0 to 10,000,000; 0 used" in text
    assert "slide 4, steps: is [k, m], two steps with k ≤ m; left out" in text


def test_a_step_past_the_run_s_end_opens_at_the_end_with_a_notice():
    slide = Slide("eta=1", "S", step=50, steps=(40, 60))
    within, notices = slide.within(20)
    assert (within.step, within.steps) == (20, (20, 20))
    assert [str(replace(n, slide=3)) for n in notices] == [
        "slide 3, step: 50 is past the run's end (20 steps); the slide opens at 20",
        "slide 3, steps: 40 to 60 goes past the run's end (20 steps)"]
    assert slide.within(80) == (slide, [])


@pytest.mark.parametrize(("question", "words"), [
    ({"kind": "number", "text": "y·a?", "answer": "about a third"},
     "slide 1, question 1 answer: 'about a third' is not a number"),
    ({"kind": "number", "text": "y·a?", "answer": "1/0"}, "question 1 answer"),
    ({"kind": "number", "text": "y·a?", "answer": 1, "quantity": "y_a"}, "one of the two"),
    ({"kind": "number", "text": "y·a?", "quantity": "temperature"}, "'temperature' is not one"),
    ({"kind": "number", "text": "y·a?", "answer": 1, "tolerance": -1}, "tolerance: is 0 or more"),
    ({"kind": "number", "answer": 1}, "question 1 text: is missing"),
    ({"kind": "line", "text": "Where?", "answer": {"w": [0, 0], "b": 1}}, "that is no line"),
    ({"kind": "line", "text": "Where?", "answer": [0, 0, 1, 1]}, 'written {"w": [w1, w2]'),
    ({"kind": "line", "text": "Where?", "close": 0.1}, "close: is the share"),
    ({"kind": "line", "text": "Where?", "quantity": "y_a"}, "'y_a' is not one of boundary"),
    ({"kind": "essay", "text": "Why?"}, "question 1 kind: is one of mistake, turn"),
    ({"kind": "choice", "text": "Which?", "options": ["a", "b"], "right": [2]}, "right: is"),
    ({"kind": "choice", "text": "Which?", "options": ["a", 7], "right": [0]}, "options: each"),
    ("ask them", "slide 1, question 1: is not an object"),
])
def test_a_question_that_cannot_be_asked_is_left_out_naming_its_slide_and_field(question,
                                                                               words):
    found, notices = parsed([{"view": "eta=1", "questions": [question, {"kind": "turn"}]}])
    assert words in said(notices)
    assert [q.kind for q in found.slides[0].questions] == ["turn"]


def test_a_slide_has_at_most_eight_questions():
    found, notices = parsed([{"view": "eta=1", "questions": [{"kind": "turn"}] * 1000}])
    assert len(found.slides[0].questions) == plan.MAX_QUESTIONS
    assert "slide 1, questions: 1,000 of them" in said(notices)


def test_notices_are_bounded_too():
    found, notices = parsed([{"view": "eta=1", "title": 7}] * 150)
    assert len(notices) == plan.MAX_NOTICES + 1
    assert str(notices[-1]) == "plan: and 100 more notices"
    assert len(found.slides) == 150


def test_a_question_s_default_step_and_spec():
    number = Question("number", "y·a?", quantity="y_a", tolerance="0.01")
    assert number.at(3) == 3 and Question("mistake").at(3) == 4
    assert Question("turn", step=9).at(3) == 9
    assert number.spec(Fraction(7, 20)) == {"text": "y·a?", "answer": "0.35",
                                            "tolerance": "0.01"}
    line = Question("line", "Where?", quantity="boundary")
    assert line.spec((Fraction(3, 10), Fraction(0), Fraction(-1, 10)), [-1, 3, -1, 3])["w"] \
        == ["0.3", "0"]
    assert Question("mistake").spec("mistake") == {"answer": "mistake"}
    assert Question("mistake").spec() == {}


# ------------------------------------------------------------------ the link


def test_a_link_holds_a_plan_up_to_its_bound_and_says_when_it_cannot():
    small = Plan((Slide("lesson=margin", "M"),))
    assert plan.to_link(small).startswith("~") and len(plan.to_link(small)) < 200
    rng = __import__("random").Random(1)
    big = Plan(tuple(Slide("lesson=margin", "M", notes="".join(
        rng.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(3000)))
        for _ in range(6)))
    with pytest.raises(ValueError, match="share it as a file"):
        plan.to_link(big)


def _pack(raw: bytes) -> str:
    return "~" + base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode().rstrip("=")


@pytest.mark.parametrize(("value", "words"), [
    ("tomorrow", "plan= holds notes or a plan packed"),
    ("~" + "A" * 7000, "at most 6,000 characters"),
    ("~!!!!", "cannot be read"),
    (_pack(b'{"perceptron_lab_plan": 1, "slides": [{"view": "eta=1"}]}')[:-6], "cannot be read"),
    (_pack(b" " * 4_000_000), "cannot be read"),  # a bomb: inflated no further than the cap
    (_pack(b" " * 50_000_000), "at most 6,000 characters"),
    (_pack(b'{"not": "a plan"}'), "not a lecture plan"),
])
def test_a_link_that_holds_no_plan_is_refused_saying_why(value, words):
    with pytest.raises(PlanError, match=words):
        plan.from_link(value, catalogue=CATALOGUE)


def test_the_built_in_lecture_opens_from_its_name():
    found, notices = plan.from_link("notes", catalogue=CATALOGUE)
    assert notices == [] and len(found.slides) >= 10
    assert found == plan.builtin("notes", catalogue=CATALOGUE)[0]


def test_the_format_s_page_names_every_quantity_and_its_example_reads_as_written():
    from pathlib import Path

    page = (Path(__file__).parents[1] / "docs" / "plan-format.md").read_text()
    for name, meaning in plan.NUMBER_QUANTITIES.items():
        assert f"| `{name}` | {meaning} |" in page, name
    example = page.split("```json\n", 1)[1].split("```", 1)[0]
    found, notices = plan.parse(example, catalogue=CATALOGUE)
    assert notices == [] and [q.kind for q in found.slides[0].questions] == [
        "number", "mistake", "line"]
    for cap in (plan.MAX_SLIDES, plan.MAX_QUESTIONS, plan.MAX_TITLE):
        assert f"{cap}" in page
    assert f"{plan.MAX_NOTES:,}" in page and f"{plan.MAX_LINK_CHARS:,}" in page
