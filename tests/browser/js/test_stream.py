"""ui/classroom_assets/stream.js: what a page does with the class's state: a follower takes
the class's step and question, an explorer nothing, a newer view asks for one run."""

from __future__ import annotations

import pytest

from tests.browser.js.conftest import open_class_page

pytestmark = pytest.mark.browser

SYNC = """(c) => {
  const heard = [];
  const onClass = (event) => heard.push(["class", event.detail]);
  const onRerun = (event) => heard.push(["rerun", event.detail.view_seq ?? null]);
  window.addEventListener("pl-class", onClass);
  window.addEventListener("pl-class-rerun", onRerun);
  cls.sync({ answers: {}, ownSeq: 0, posting: false, ended: false, ...c }, false);
  window.removeEventListener("pl-class", onClass);
  window.removeEventListener("pl-class-rerun", onRerun);
  return heard;
}"""
QUESTION = {"id": 7, "step": 3, "kind": "mistake", "revealed": False,
            "choices": ["mistake", "no_mistake"]}


@pytest.fixture(scope="module")
def page(browser):
    page = open_class_page(browser)
    yield page
    page.context.close()


def test_a_follower_takes_the_step_and_the_question(page):
    state = {"seq": 5, "view_seq": 2, "step": 2, "question": QUESTION}
    heard = page.evaluate(SYNC, {"role": "student", "mode": "follow", "viewSeq": 2,
                                 "state": state})
    assert heard == [["class", {"question": QUESTION, "lecturer": False, "answered": None,
                                "canAnswer": True, "k": 2}]]
    heard = page.evaluate(SYNC, {"role": "student", "mode": "follow", "viewSeq": 2,
                                 "state": state, "answers": {"7": "mistake"}})
    assert heard[0][1]["answered"] == "mistake" and heard[0][1]["canAnswer"] is False


def test_an_explorer_hears_nothing_and_a_newer_view_asks_for_one_run(page):
    state = {"seq": 5, "view_seq": 3, "step": 2, "question": None}
    assert page.evaluate(SYNC, {"role": "student", "mode": "explore", "viewSeq": 3,
                                "state": state}) == []
    assert page.evaluate(SYNC, {"role": "student", "mode": "follow", "viewSeq": 2,
                                "state": state}) == [["rerun", 3]]
    assert page.evaluate(SYNC, {"role": "student", "mode": "explore", "viewSeq": 2,
                                "state": state}) == []


def test_a_lecturers_own_steps_are_not_sent_back(page):
    state = {"seq": 5, "view_seq": 2, "step": 4, "question": None}
    heard = page.evaluate(SYNC, {"role": "lecturer", "mode": "follow", "viewSeq": 2,
                                 "state": state, "ownSeq": 5})
    assert heard == [["class", {"question": None, "lecturer": True, "answered": None,
                                "canAnswer": False}]]
    heard = page.evaluate(SYNC, {"role": "lecturer", "mode": "follow", "viewSeq": 2,
                                 "state": state, "ownSeq": 4})  # another device moved it
    assert heard[0][1]["k"] == 4
