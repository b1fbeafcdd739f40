"""A class's first screen (ui/first_screen.py): a student's page that opens a class's link draws
the view's picture without its lesson's script, once another page of the process has drawn the
view in full, and its whole page with its next run, keeping the stepper it drew."""

from __future__ import annotations

import threading
import time

import pytest
from streamlit.testing.v1 import AppTest

import ui.classroom
from core.words import FLOATS
from tests.apptest import ROOT, assert_clean, components, stepper_element, stepper_run, trigger
from ui import first_screen

pytestmark = pytest.mark.first_screen

BLOBS = "data=noisy-blobs-generator&n=1000"


def _join(code: str) -> AppTest:
    """A page opening the class's link (its first run: AppTest follows a switch of page)."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.query_params["class"] = code
    at.run()
    assert_clean(at)
    return at


def _path(at: AppTest, wanted) -> tuple[int, ...]:
    """Where an element is on the page: its indices from the main area down."""
    def walk(node, path):
        if node is wanted:
            return path
        for index, child in getattr(node, "children", {}).items():
            found = walk(child, (*path, index))
            if found is not None:
                return found
        return None

    return walk(at._tree.children[0], ())


def _sidebar_words(at: AppTest) -> str:
    return "\n".join(str(e.value) for kind in ("caption", "markdown", "info")
                     for e in getattr(at.sidebar, kind))


def _captions(at: AppTest) -> str:
    return "\n".join(str(e.value) for kind in ("caption", "info") for e in getattr(at.main, kind))


def test_a_second_student_opens_on_the_picture_and_its_rest_keeps_the_stepper():
    _, state = ui.classroom._open_class(BLOBS, 25)
    whole = _join(state.code)  # the first page of the view on this process draws it in full
    assert "You are in the class" in _sidebar_words(whole)
    assert not components(whole, "rest_later")

    student = _join(state.code)
    # its first run: the stepper at the class's step, the same bytes as the whole page's, and
    # none of the lesson's settings (they come with the rest, which the page asks for)
    header, _ = stepper_run(student, "step_through")
    assert header["start"] == 25
    assert stepper_element(student, "step_through").proto.bytes == \
        stepper_element(whole, "step_through").proto.bytes
    assert not student.sidebar.selectbox and "You are in the class" not in _sidebar_words(student)
    assert [t.value for t in student.title] == ["Step through the perceptron"]
    assert dict(student.query_params) == dict(whole.query_params)
    asks = components(student, "rest_later")
    assert len(asks) == 1
    stepper = stepper_element(student, "step_through")
    drawn_at, drawn_id = _path(student, stepper), stepper.proto.id

    trigger(student, asks[0], "drawn", "")  # the browser has drawn the picture: the rest
    assert "You are in the class" in _sidebar_words(student) and student.sidebar.selectbox
    assert not components(student, "rest_later")
    assert [t.value for t in student.title] == [t.value for t in whole.title]
    kept = stepper_element(student, "step_through")
    # the same element at the same place (the browser keeps it, its chart and step, no new
    # mount), holding the same bytes
    assert (_path(student, kept), kept.proto.id) == (drawn_at, drawn_id)
    assert kept.proto.bytes == stepper.proto.bytes
    assert dict(student.query_params) == dict(whole.query_params)
    assert student.session_state["class.mode"][0] == "follow"  # still following, not exploring


@pytest.mark.parametrize(("view", "said"), [
    # a sample of the data: said over the run, on the first screen too
    ("lesson=nonseparable&data=noisy-blobs-generator&n=800", "it uses a random sample of 500"),
    # a run in floats says so wherever its numbers appear
    ("pts=0.3333333333333333,1,%2B;-1,-0.7777777777777777,-;2,0.1428571428571428,%2B", FLOATS),
])
def test_what_the_whole_page_says_over_its_run_the_first_screen_says_too(view, said):
    _, state = ui.classroom._open_class(view, 1)
    whole = _join(state.code)
    assert said in _captions(whole)
    student = _join(state.code)
    assert components(student, "rest_later")  # (a first screen)
    assert said in _captions(student)


def test_a_view_on_someones_own_points_too_many_for_a_link_is_never_replayed():
    _, state = ui.classroom._open_class("data=your-data", 0)
    for _ in range(2):
        student = _join(state.code)
        assert not components(student, "rest_later")
        assert student.sidebar.selectbox


def test_a_lecturer_and_a_page_that_follows_a_new_view_draw_in_full():
    _, state = ui.classroom._open_class(BLOBS, 3)
    _join(state.code)  # (the view's screen kept)
    lecturer = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    lecturer.run()
    lecturer.session_state["class.code"] = state.code
    lecturer.session_state["class.role"] = "lecturer"
    lecturer.session_state["class.view_seq"] = None
    lecturer.session_state["class.mode"] = ("follow", 0)
    lecturer.run()
    assert_clean(lecturer)
    assert not components(lecturer, "rest_later") and lecturer.sidebar.selectbox


# ---------------------------------------------------------------- the process's screens


def _screen(name: str) -> first_screen.Screen:
    return first_screen.Screen(((1, print, (name,), True),))


def test_one_page_draws_a_view_while_the_others_wait_for_its_screen():
    assert first_screen.take("v", False) is None  # this page draws it in full
    got = []
    waiting = [threading.Thread(target=lambda: got.append(first_screen.take("v", False)))
               for _ in range(5)]
    for thread in waiting:
        thread.start()
    screen = _screen("v")
    first_screen.keep("v", False, screen)
    for thread in waiting:
        thread.join(5)
    assert got == [screen] * 5
    assert first_screen.take("v", False) is screen


def test_a_page_that_fails_lets_the_waiting_pages_draw_in_full():
    assert first_screen.take("w", False) is None
    got = []
    waiting = threading.Thread(target=lambda: got.append(first_screen.take("w", False)))
    waiting.start()
    first_screen.release("w", False)
    waiting.join(5)
    assert got == [None]
    assert first_screen.take("w", False) is None  # the next page draws it (and records)


def test_a_view_without_a_picture_is_drawn_in_full_without_waiting():
    assert first_screen.take("plain", True) is None
    first_screen.keep("plain", True, None)
    assert first_screen.take("plain", True) is None
    assert first_screen.take("plain", False) is None  # (lecture mode is a view of its own)


def test_a_process_keeps_the_latest_views_screens_and_never_replaces_one():
    screens = {}
    for n in range(first_screen.KEPT + 2):
        first_screen.take(f"v{n}", False)
        first_screen.keep(f"v{n}", False, screens.setdefault(n, _screen(str(n))))
    latest = f"v{first_screen.KEPT + 1}"
    assert first_screen.take(latest, False) is screens[first_screen.KEPT + 1]
    first_screen.keep(latest, False, _screen("another"))  # (a page that drew it in full)
    assert first_screen.take(latest, False) is screens[first_screen.KEPT + 1]
    assert first_screen.take("v0", False) is None  # the oldest went: this page draws it


def test_a_bursts_rests_are_spread_by_the_joins_just_begun(monkeypatch):
    now = [1000.0]
    monkeypatch.setattr(first_screen.time, "monotonic", lambda: now[0])
    first_screen.take("hall", False)
    assert first_screen.spread_ms() == 0  # one page: its rest at once
    first_screen.keep("hall", False, _screen("hall"))
    for _ in range(299):  # a hall opening the link: every page begun before one is drawn
        first_screen.take("hall", False)
    assert first_screen.spread_ms() == 300 * first_screen.REST_MS
    for _ in range(1000):
        first_screen.take("hall", False)
    assert first_screen.spread_ms() == first_screen.REST_SPREAD_MAX_MS
    now[0] += 10  # a burst long over: none held back
    assert first_screen.spread_ms() == 0


def test_first_screens_are_drawn_one_at_a_time_and_none_waits_for_ever(monkeypatch):
    monkeypatch.setattr(first_screen, "DRAWING_S", 0.3)
    inside, most = [0], [0]

    def draw():
        with first_screen.drawing():
            inside[0] += 1
            most[0] = max(most[0], inside[0])
            threading.Event().wait(0.02)
            inside[0] -= 1

    pages = [threading.Thread(target=draw) for _ in range(8)]
    for page in pages:
        page.start()
    for page in pages:
        page.join(5)
    assert most[0] == 1
    first_screen._drawing_one.acquire()  # a page took the turn and never gives it back
    try:
        started = time.monotonic()
        draw()  # drawn all the same, after DRAWING_S
        assert 0.25 <= time.monotonic() - started < 2
    finally:
        first_screen._drawing_one.release()


def test_a_pages_rest_waits_for_the_first_screens_taken_before_it():
    first_screen.take("queued", False)
    first_screen.keep("queued", False, _screen("queued"))
    taken = [first_screen.take("queued", False) for _ in range(2)]  # two pages to draw it
    assert all(taken)
    rested = threading.Event()
    rest = threading.Thread(target=lambda: (first_screen.after_first_screens(), rested.set()))
    rest.start()
    for _ in taken:
        assert not rested.wait(0.2)  # a first screen still to draw: the rest waits
        with first_screen.drawing():
            pass
    assert rested.wait(5)
    rest.join(5)
