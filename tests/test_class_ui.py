"""A class around every lesson (ui/classroom/), through AppTest: starting, joining by link,
following a view, the remote link, and a link to a class that is over."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import subprocess
import sys
from dataclasses import replace

import pytest

import ui.classroom
from classroom import codes, limits, server
from classroom.limits import Buckets
from classroom.state import end, set_view
from tests.apptest import ROOT, assert_clean, by_key, shown, switch
from ui.classroom import app_link, decode_view, encode_view, join_link, view_of


def test_the_examples_in_the_docstrings_hold():
    # the package's modules, each (testmod reads only a module's own functions)
    results = [doctest.testmod(importlib.import_module(f"ui.classroom.{info.name}"))
               for info in pkgutil.iter_modules(ui.classroom.__path__)]
    assert sum(r.failed for r in results) == 0
    assert sum(r.attempted for r in results) >= 6  # views' four, join's two: all were read


def test_a_view_reads_back_as_itself_whatever_its_values_hold():
    view = {"lesson": "margin", "pts": "1,-0.5,+;2.5,1,-", "cls": "a%2Cb,c d", "eta": "0.5",
            "x": "ä&=#?+"}
    text = encode_view(view)
    assert decode_view(text) == view
    assert "&x=" in text and text.count("&") == len(view) - 1  # one & per parameter
    # the class's own parameters, the step and lecture mode are never part of a view
    assert view_of({"class": "ABCDEFGH", "key": "k", "remote": "r", "step": "3", "t": "2",
                    "lecture": "1", "data": "xor"}, "") == {"data": "xor"}


def test_the_join_link_is_the_follower_page_and_the_full_apps_is_the_root_with_the_code():
    assert join_link("ABCDEFGH", "https://hall.example/") == \
        "https://hall.example/follow?class=ABCDEFGH"
    assert app_link("ABCDEFGH", "https://hall.example/") == "https://hall.example/?class=ABCDEFGH"


@pytest.fixture(autouse=True)
def _fresh_limits():
    """Each test starts with the address's starts unspent (the pages here all come from
    127.0.0.1, as every local browser does)."""
    ops = server.classroom().ops
    ops.starts = Buckets(*limits.STARTS)
    yield
    ops.starts = Buckets(*limits.STARTS)


def test_the_sidebars_start_and_post_class_share_one_limit():
    ops = server.classroom().ops
    for _ in range(limits.STARTS[1]):  # five classes started by POST /class from here
        server.call(lambda store: ops.start("127.0.0.1"))
    before = server.call(lambda store: store.count())
    at = _app()
    at.run()
    by_key(at.button, "class.start").click()
    at.run()
    assert_clean(at)
    assert "class.code" not in at.session_state
    assert "too many new classes" in _sidebar_text(at)
    assert server.call(lambda store: store.count()) == before


def _app():
    from streamlit.testing.v1 import AppTest

    return AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)


def _state(code):
    return server.call(lambda store: store.get(code))


def _sidebar_text(at) -> str:
    return "\n".join(str(e.value) for kind in ("caption", "warning", "info", "markdown")
                     for e in getattr(at.sidebar, kind))


def test_a_lecturer_starts_a_class_and_its_view_is_published():
    at = _app()
    at.run()
    assert_clean(at)
    by_key(at.button, "class.start").click()
    at.run()
    assert_clean(at)
    code = at.session_state["class.code"]
    assert "You lead the class" in _sidebar_text(at)
    key = at.session_state["class.key"]
    assert codes.is_key(key) and key not in str(at.query_params)
    state = _state(code)
    assert state.view_seq == 2 and "data=" in state.view  # the view after the first run
    assert "class" not in decode_view(state.view)
    # a setting changes: the class takes the new view
    by_key(at.number_input, "train.eta").set_value(0.5).run()
    assert_clean(at)
    assert decode_view(_state(code).view)["eta"] == "0.5"
    by_key(at.button, "class.end").click()
    at.run()
    assert _state(code) is None and "class.code" not in at.session_state


def test_a_student_follows_the_view_and_the_lesson_of_the_class():
    _, state = ui.classroom._open_class("data=xor-1&eta=0.5", 3)
    at = _app()
    at.query_params["class"] = state.code
    at.run()
    assert_clean(at)
    assert at.session_state["class.role"] == "student"
    assert "You are in the class" in _sidebar_text(at)
    assert at.query_params["eta"] == "0.5" and at.query_params["data"] == "xor-1"
    assert "class.key" not in at.session_state
    # the class moves to another lesson with other settings: the next run takes them
    server.call(lambda store: store.change(
        state.code, lambda s: set_view(s, "lesson=margin&seed=4", 2)))
    at.run()
    at.run()  # the switch of page is a run of its own
    assert_clean(at)
    assert at.query_params.get("seed") == "4" and "eta" not in at.query_params
    assert any("Margin" in t.value for t in at.title)


def test_the_part_a_lecturer_picks_is_the_part_its_students_see():
    """The part of a lesson is the view's too, whichever page this process opened first (the
    app's parameters were once read before any lesson had made its picker)."""
    at = _app()
    at.run()
    by_key(at.button, "class.start").click()
    at.run()
    code = at.session_state["class.code"]
    at.query_params["part"] = "Soft margin"
    switch(at, "svm").run()
    at.run()
    assert_clean(at)
    assert decode_view(_state(code).view).get("part") == "Soft margin"
    student = _app()
    student.query_params["class"] = code
    student.run()
    student.run()  # (the switch of page is a run of its own)
    assert_clean(student)
    assert student.query_params.get("part") == "Soft margin"
    assert by_key(student.get("button_group"), "svm.part").value == "Soft margin"
    # and in a process that has opened no lesson yet (the order above can hide it)
    fresh = subprocess.run([sys.executable, "-c", "import lessons; "
                            "print('part' in lessons.link_parameters())"],
                           cwd=ROOT, capture_output=True, text=True, check=True)
    assert fresh.stdout.strip() == "True"


# a link to each lesson (each part with settings of its own) with settings off their defaults
LINKS = [
    ("step_through", "data=lecture-notes-example-4-points&init=typed&w1=0.2&b=-0.1&eta=0.1"),
    ("margin", "data=lecture-notes-example-4-points&sep=Overlaid&eta=0.5"),
    ("boolean", "fn=XOR&enc=pm1&w1=1&w2=-1&b=0.5"),
    ("nonseparable", "data=xor-0-1&watch=cycle"),
    ("svm", "part=Soft margin&lam=0.1&eta0=0.5"),
    ("variants", "part=kernel&kernel=rbf&data=moons-generator"),
    ("variants", "part=classes&p1=5&p2=1.2"),
    ("your_data", "pts=1,1,+;2,2.5,+;-1,-1,-;-2,0.5,-"),
]


@pytest.mark.parametrize(("page", "link"), LINKS)
def test_every_lessons_view_reaches_a_student_as_its_lecturer_has_it(page, link):
    """A class started on a lesson's link: the student's page opens with the lecturer's every
    parameter (its address, but the class's own, lecture mode and the step)."""
    def view(at) -> dict:
        return {k: v for k, v in at.query_params.items() if k not in ("class", "lecture", "step")}

    opened = dict(pair.split("=", 1) for pair in link.split("&"))
    at = _app()
    at.query_params.update(opened)
    switch(at, page).run()
    by_key(at.button, "class.start").click()
    at.run()
    at.run()
    assert_clean(at)
    student = _app()
    student.query_params["class"] = at.session_state["class.code"]
    student.run()
    student.run()  # (the switch of page is a run of its own)
    assert_clean(student)
    assert opened.items() <= view(at).items()  # (the link's settings were taken)
    assert view(student) == view(at)


def test_a_view_carries_only_the_apps_own_parameters_and_never_fails_a_follower():
    # a class started (POST /class) on a view holding Streamlit's own parameter
    _, state = ui.classroom._open_class("data=xor-1&embed=true&eta=0.5", 0)
    assert "embed" not in _state(state.code).view
    # a view stored before that was dropped, and one holding what no lesson reads
    server.call(lambda store: store.change(state.code, lambda s: replace(
        s, view="data=xor-1&embed=true&eta=0.5&utm_source=mail", seq=s.seq + 1,
        view_seq=s.seq + 1)))
    student = _app()
    student.query_params["class"] = state.code
    student.run()
    assert_clean(student)  # the page follows
    assert student.query_params["eta"] == "0.5" and "utm_source" not in student.query_params
    # a lecturer's address holding what no lesson reads: the class's view leaves it out
    lecturer = _app()
    lecturer.query_params.update({"utm_source": "mail", "eta": "2"})
    lecturer.run()
    by_key(lecturer.button, "class.start").click()
    lecturer.run()
    assert_clean(lecturer)
    view = decode_view(_state(lecturer.session_state["class.code"]).view)
    assert view["eta"] == "2" and "utm_source" not in view


def test_a_link_to_no_class_or_to_an_ended_class_says_so_and_opens_nothing():
    at = _app()
    at.query_params["class"] = "ABCD-EFGH"
    at.run()
    assert "No class has the code ABCD\\-EFGH" in at.error[0].value  # escaped: shown as typed
    assert not at.title  # no lesson opened by itself
    at = _app()
    at.query_params["class"] = "[x](https://evil.example)"
    at.run()
    assert "\\[x\\]\\(https" in at.error[0].value  # outside text, never a link
    _, state = ui.classroom._open_class("", 0)
    server.call(lambda store: store.change(state.code, end))
    at = _app()
    at.query_params["class"] = state.code
    at.run()
    assert f"The class {state.code} has ended" in at.error[0].value
    assert not at.title
    next(b for b in at.button if b.label.startswith("Open the lesson")).click().run()
    assert at.title and "class" not in at.query_params


def test_a_remote_link_works_once_and_leaves_the_address():
    key, state = ui.classroom._open_class("", 0)
    token = ui.classroom._remote_token(state.code, key)
    phone = _app()
    phone.query_params.update({"class": state.code, "remote": token})
    phone.run()
    assert_clean(phone)
    assert phone.session_state["class.role"] == "lecturer"
    assert "remote" not in phone.query_params
    assert codes.key_matches(phone.session_state["class.key"], _state(state.code).key_hashes)
    again = _app()
    again.query_params.update({"class": state.code, "remote": token})
    again.run()
    assert again.session_state["class.role"] == "student"
    assert "used already" in _sidebar_text(again)


def test_a_store_that_does_not_answer_leaves_the_page_as_it_is(monkeypatch):
    _, state = ui.classroom._open_class("data=xor-1", 0)
    at = _app()
    at.query_params["class"] = state.code
    at.run()
    assert_clean(at)

    def away(function, timeout=5.0):
        raise TimeoutError("the class store did not answer")

    monkeypatch.setattr(server, "call", away)
    at.run()
    assert_clean(at)  # the lesson as it was; the strip says it reconnects
    assert at.session_state["class.code"] == state.code and "class.over" not in at.session_state
    at = _app()
    at.query_params["class"] = state.code
    at.run()
    assert "unavailable for a moment" in at.error[0].value


def test_a_student_follows_a_lesson_whose_data_has_no_margin():
    """Margin on data no line separates: its proof says why not and the page goes on, so the
    strip that follows the class (drawn after the lesson) is there."""
    from tests.apptest import components

    _, state = ui.classroom._open_class("lesson=margin&data=xor-1", 2)
    student = _app()
    student.query_params["class"] = state.code
    student.run()
    assert_clean(student)
    assert any("these data have none" in m.value for m in student.markdown)
    assert [c.proto.id.rsplit("-", 1)[-1] for c in components(student, "classroom")] == \
        ["class.strip", "class.relay"]


def test_a_student_follows_a_view_its_lesson_cannot_draw():
    """A view the lesson cannot draw (the SVM on points of one class): the page says why and
    ends there, and the strip that follows the class, drawn after the lesson, is there all the
    same (a lesson's st.stop() stopped it: the student no longer followed)."""
    from tests.apptest import components

    _, state = ui.classroom._open_class("lesson=svm&pts=1,1,%2B;2,2,%2B", 2)
    student = _app()
    student.query_params["class"] = state.code
    student.run()
    assert_clean(student)
    assert any(shown(e.value).startswith("This data cannot be used here: two classes")
               for e in student.error), [e.value for e in student.error]
    assert [c.proto.id.rsplit("-", 1)[-1] for c in components(student, "classroom")] == \
        ["class.strip", "class.relay"]


def test_a_page_its_lesson_cannot_draw_still_offers_a_class():
    """Outside a class too, what comes after a lesson that ends early is drawn: the sidebar's
    Start a class."""
    at = _app()
    at.query_params.update({"pts": "1,1,+;2,2,+"})
    switch(at, "svm").run()
    assert_clean(at)
    assert any(shown(e.value).startswith("This data cannot be used here") for e in at.error)
    assert any(b.label == "Start a class" for b in at.button)


def _remote_shown(at) -> bool:
    return any("Keep it off the projector" in str(w.value) for w in at.sidebar.warning)


def test_the_remote_code_shows_only_when_asked_and_goes_once_claimed():
    at = _app()
    at.run()
    by_key(at.button, "class.start").click()
    at.run()
    assert not _remote_shown(at)  # nothing of a remote until the lecturer asks
    by_key(at.button, "class.remote_button").click()
    at.run()
    assert_clean(at)
    assert _remote_shown(at) and len(at.sidebar.image) >= 1
    at.run()  # another run of the page (a step's report, a setting): still there
    assert _remote_shown(at)
    token = at.session_state["class.remote"][0]
    phone = _app()
    phone.query_params.update({"class": at.session_state["class.code"], "remote": token})
    phone.run()
    assert phone.session_state["class.role"] == "lecturer"
    at.run()
    assert_clean(at)
    assert not _remote_shown(at)  # claimed: gone from the projector's sidebar
    assert by_key(at.button, "class.remote_button")  # and can be asked for again


def test_the_remote_code_goes_after_a_minute_unclaimed(monkeypatch):
    at = _app()
    at.run()
    by_key(at.button, "class.start").click()
    at.run()
    by_key(at.button, "class.remote_button").click()
    at.run()
    assert _remote_shown(at)
    token, until, keys = at.session_state["class.remote"]
    at.session_state["class.remote"] = (token, until - ui.classroom.REMOTE_SHOWN_S - 1, keys)
    at.run()
    assert_clean(at)
    assert not _remote_shown(at)


def _downloads(at) -> list[str]:
    return [e.proto.label for e in at.sidebar.get("download_button")]


def test_the_lecturer_downloads_the_answers_during_the_class_and_after_its_end():
    """The sidebar's CSV of the class's answers (classroom/results.py): offered to the lecturer
    while the class runs and, once it has ended, for the quiet hour its results are kept; never
    to a page that led no class."""
    at = _app()
    at.run()
    assert _downloads(at) == []
    by_key(at.button, "class.start").click()
    at.run()
    assert_clean(at)
    code, key = at.session_state["class.code"], at.session_state["class.key"]
    assert _downloads(at) == ["Download the answers (CSV)"]
    ops = server.classroom().ops
    server.call(lambda store: ops.act("127.0.0.1", code, key, {
        "action": "ask", "kind": "choice", "step": 0,
        "spec": {"text": "Yes?", "options": ["Yes", "No"], "right": [0]}}))
    by_key(at.button, "class.end").click()
    at.run()
    assert_clean(at)
    assert "class.code" not in at.session_state
    assert _downloads(at) == ["Download the last class's answers"]
    results = server.call(lambda store: ops.results("127.0.0.1", code, key))
    assert [q["text"] for q in results.questions] == ["Yes?"]
