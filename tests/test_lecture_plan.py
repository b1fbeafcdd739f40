"""A lecture plan in the page (ui/lecture_plan/), through AppTest: a link's plan opens on its
first slide, a slide asked for opens its view at its step, a view is added, reordered,
renamed and removed, the file goes out and comes back the same, hostile files are refused with
a message and the plan in progress stays, and a remote finds the class's plan."""

from __future__ import annotations

import doctest
import importlib
import json
import pkgutil
from urllib.parse import parse_qsl

import pytest

import lessons
import ui.classroom
import ui.lecture_plan
from classroom import plan as plans
from tests.apptest import ROOT, assert_clean, by_key, shown, switch

CATALOGUE = lessons.plan_catalogue()
SLIDES = [
    {"title": "The worked example", "view": "data=lecture-notes-example-4-points",
     "steps": [1, 3], "step": 1, "notes": "w starts at 0"},
    {"title": "XOR <b>bold</b> [x](https://evil.example) :red[no]", "view": "lesson=boolean"},
    {"title": "The margin", "view": "data=lecture-notes-example-4-points&eta=0.5&lesson=margin",
     "step": 2},
]


def _plan() -> plans.Plan:
    text = json.dumps({"perceptron_lab_plan": 1, "title": "Try", "slides": SLIDES})
    plan, notices = plans.parse(text, catalogue=CATALOGUE)
    assert not notices, notices
    return plan


def _app():
    from streamlit.testing.v1 import AppTest

    return AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)


def _params(at) -> dict[str, str]:
    return {k: v for k, v in at.query_params.items()}


def _shows(at, slide: dict) -> None:
    """The page is the slide's view at its step, as a link to it opens."""
    view = dict(parse_qsl(slide["view"]))
    lesson = view.pop("lesson", lessons.FIRST)
    word = lessons.LESSONS[lesson][0].split()[0]
    if not any(word in t.value for t in at.title):
        at.run()  # the switch of page is a run of its own
        assert_clean(at)
    assert any(word in t.value for t in at.title), [t.value for t in at.title]
    params = _params(at)
    for name, value in view.items():
        assert params.get(name) == value, (name, params)
    assert params.get("step", "0") == str(slide.get("step", 0))


def test_the_examples_in_the_docstrings_hold():
    results = [doctest.testmod(importlib.import_module(f"ui.lecture_plan.{module.name}"))
               for module in pkgutil.iter_modules(ui.lecture_plan.__path__)]
    assert sum(r.failed for r in results) == 0 and sum(r.attempted for r in results) > 0


def test_a_plans_link_opens_its_first_slide_then_each_slide_asked_for():
    at = _app()
    at.query_params["plan"] = plans.to_link(_plan())
    at.run()
    assert_clean(at)
    assert "plan" not in at.query_params  # opened once, never kept in the address
    assert at.session_state["plan.at"] == 0
    _shows(at, SLIDES[0])
    for at_slide in (2, 1, 0):  # a slide asked for (plan.js's trigger) opens its view
        at.session_state["plan.go"] = at_slide
        at.run()
        assert_clean(at)
        assert at.session_state["plan.at"] == at_slide
        _shows(at, SLIDES[at_slide])


def test_a_slide_forgets_the_settings_of_the_one_before():
    at = _app()
    at.query_params["plan"] = plans.to_link(_plan())
    at.run()
    at.session_state["plan.go"] = 2
    at.run()
    assert at.query_params["eta"] == "0.5"
    at.session_state["plan.go"] = 0  # slide 1 holds no eta: the default again, not 0.5
    at.run()
    assert_clean(at)
    assert "eta" not in at.query_params


def test_a_link_that_holds_no_plan_says_why_and_opens_nothing():
    at = _app()
    at.query_params["plan"] = "~not-a-plan"
    at.run()
    assert_clean(at)
    assert "plan.plan" not in at.session_state
    assert "plan.at" not in at.session_state
    assert any("was not opened" in str(w.value) for w in at.sidebar.warning)


def _lecture(at) -> None:
    """Open the sidebar's Lecture panel's widgets (its expander is drawn open or shut; AppTest
    sees the widgets either way)."""
    assert by_key(at.button, "plan.add")


def test_views_added_renamed_moved_and_removed():
    at = _app()
    at.query_params.update({"data": "xor-1", "step": "3"})
    at.run()
    assert_clean(at)
    _lecture(at)
    by_key(at.button, "plan.add").click()
    at.run()
    assert_clean(at)
    plan = at.session_state["plan.plan"]
    assert len(plan.slides) == 1
    assert dict(parse_qsl(plan.slides[0].view))["data"] == "xor-1"
    assert plan.slides[0].step == 3 and plan.slides[0].title == "Step through"
    # another view, covering steps 2 to 6, with a title of the lecturer's own
    switch(at, "margin")
    at.run()
    by_key(at.text_input, "plan.title_new").set_value("<i>Margin</i> [x](https://e.x)")
    by_key(at.checkbox, "plan.covers").check()
    at.run()
    by_key(at.number_input, "plan.from").set_value(2)
    by_key(at.number_input, "plan.to").set_value(6)
    by_key(at.button, "plan.add").click()
    at.run()
    assert_clean(at)
    slides = at.session_state["plan.plan"].slides
    assert len(slides) == 2
    assert slides[1].steps == (2, 6) and slides[1].step == 2
    assert slides[1].title == "<i>Margin</i> [x](https://e.x)"
    assert dict(parse_qsl(slides[1].view))["lesson"] == "margin"
    # the picked slide (the one just added) moves up, is renamed, given notes, removed
    by_key(at.button, "plan.up").click()
    at.run()
    assert [s.steps for s in at.session_state["plan.plan"].slides] == [(2, 6), None]
    by_key(at.text_input, "plan.slide_title.0").set_value("Renamed")
    at.run()
    by_key(at.text_area, "plan.slide_notes.0").set_value("Say **this**")
    at.run()
    first = at.session_state["plan.plan"].slides[0]
    assert (first.title, first.notes) == ("Renamed", "Say **this**")
    by_key(at.button, "plan.remove").click()
    at.run()
    assert_clean(at)
    assert [s.title for s in at.session_state["plan.plan"].slides] == ["Step through"]


def test_a_plans_file_comes_back_identical():
    plan = _plan()
    text = plans.dump(plan)
    at = _app()
    at.run()
    by_key(at.button, "plan.open_file").click()
    at.run()
    uploader = next(u for u in at.file_uploader if str(u.key).startswith("plan.upload"))
    uploader.set_value(("lecture-plan.json", text.encode(), "application/json"))
    at.run()
    assert_clean(at)
    assert at.session_state["plan.plan"] == plan
    assert plans.dump(at.session_state["plan.plan"]) == text  # the download's bytes


@pytest.mark.parametrize(("content", "said"), [
    (b"\xff\xfe\x00garbage", "not text"),
    (b'{"slides": []}', "not a lecture plan"),
    (b'{"perceptron_lab_plan": 7, "slides": []}', "version"),
    (b'{"perceptron_lab_plan": 1, "slides": [{"view": "lesson=nowhere", "title": "x"}]}',
     "slide 1"),
    (b"[" * 100_000, "JSON"),
    (b" " * (10 * 2**20), "at most"),  # 10 MB
])
def test_a_hostile_file_is_refused_and_the_plan_in_progress_stays(content, said):
    plan = _plan()
    at = _app()
    at.session_state["plan.plan"] = plan
    at.run()
    by_key(at.button, "plan.open_file").click()
    at.run()
    uploader = next(u for u in at.file_uploader if str(u.key).startswith("plan.upload"))
    uploader.set_value(("evil <b>.json", content, "application/json"))
    at.run()
    assert_clean(at)
    assert at.session_state["plan.plan"] == plan  # never lost
    warnings = [str(w.value) for w in at.sidebar.warning]
    assert any("was not opened" in w and said in w for w in warnings), warnings
    # the file's name is outside text: escaped, never markup
    assert any(shown(w).startswith("The file evil <b>.json was not opened") for w in warnings)
    assert not any("evil <b>" in w for w in warnings)  # (escaped: never a tag)


def test_a_remote_finds_the_class_plan_and_moves_it(monkeypatch):
    lecturer = _app()
    lecturer.query_params["plan"] = plans.to_link(_plan())
    lecturer.run()
    by_key(lecturer.button, "class.start").click()
    lecturer.run()
    assert_clean(lecturer)
    code, key = lecturer.session_state["class.code"], lecturer.session_state["class.key"]
    lecturer.session_state["plan.go"] = 1
    lecturer.run()
    token = ui.classroom._remote_token(code, key)
    phone = _app()
    phone.query_params.update({"class": code, "remote": token})
    phone.run()
    assert_clean(phone)
    assert phone.session_state["plan.at"] == 1  # the slide the projector shows
    assert phone.session_state["plan.remote"] is True
    phone.session_state["plan.go"] = 2  # the phone's Next
    phone.run()
    assert_clean(phone)
    lecturer.run()  # (its strip hears the new view and asks for a run)
    assert_clean(lecturer)
    assert lecturer.session_state["plan.at"] == 2
    _shows(lecturer, SLIDES[2])
    # the plan lives in the class's store (what every process reads), at the slide on screen
    from ui.classroom.store import _call

    kept = _call(lambda store: store.get_plan(code))
    assert kept == (plans.dump(_plan()), 2)
    # the lecturer stops: the class is given from no plan
    by_key(lecturer.button, "plan.stop").click()
    lecturer.run()
    assert_clean(lecturer)
    assert "plan.at" not in lecturer.session_state
    assert _call(lambda store: store.get_plan(code))[0] == ""


def test_on_a_projector_the_class_hears_a_new_slide_in_the_run_that_draws_its_picture(
        monkeypatch):
    """A projector's first run of a page ends at its picture (ui/rest_later.py), the rest asked
    for by the browser later (seconds later, on a busy page): the class hears the slide's view
    in that first run, not with the rest, so that the room's pages follow at once. (Every run
    here ends at its picture, as each slide's first run does on a projector; the browser that
    would ask for the rest is not here.)"""
    from ui import rest_later
    from ui.classroom.store import _get

    monkeypatch.setattr(rest_later, "pending", lambda page: True)

    monkeypatch.setattr(rest_later, "pending", lambda page: False)  # whole runs, to start
    lecturer = _app()
    lecturer.query_params.update({"plan": plans.to_link(_plan()), "lecture": "1"})
    lecturer.run()
    by_key(lecturer.button, "class.start").click()
    lecturer.run()
    assert_clean(lecturer)
    code = lecturer.session_state["class.code"]
    monkeypatch.setattr(rest_later, "pending", lambda page: True)
    for at in (1, 2):  # Boolean, then Margin: each a page's first run in this session
        lecturer.session_state["plan.go"] = at
        lecturer.run()
        if not lecturer.title:
            lecturer.run()  # the switch of page is a run of its own
        assert_clean(lecturer)
        view = dict(parse_qsl(_get(code)[0].view))
        assert view.get("lesson") == dict(parse_qsl(SLIDES[at]["view"]))["lesson"], view


def test_a_slide_prepared_out_of_sight_never_takes_the_lecturers_class_back():
    """The projector prepares the next slide in a frame of its own page (plan.js): the same
    browser, whose lecturer's key the class's strip keeps to take a reloaded tab's class back.
    That frame's page must not: it would lead the class and go to the class's view, and the
    slide shown at the key would be the wrong one."""
    prepared = _app()
    prepared.query_params.update({"plan": "prepare", "lecture": "1", "data": "xor-0-1"})
    prepared.run()
    assert_clean(prepared)
    assert prepared.session_state["class.resumed"] is True  # the resume is never offered
    assert "class.role" not in prepared.session_state


def test_a_cleared_plan_is_forgotten_by_every_run_until_another_comes():
    # the browser's copy goes with the run that reaches the browser, which need not be the
    # first after the click (a run cut short by the next never does): each run says so
    at = _app()
    at.query_params["plan"] = plans.to_link(_plan())
    at.run()
    at.run()
    assert_clean(at)
    by_key(at.button, "plan.clear").click()
    at.run()
    assert "plan.plan" not in at.session_state
    for _ in range(2):
        assert at.session_state["plan.forget"] is True
        at.run()
        assert_clean(at)
    by_key(at.button, "plan.notes").click()  # another plan: kept by the browser again
    at.run()
    assert_clean(at)
    assert "plan.plan" in at.session_state
    assert "plan.forget" not in at.session_state
