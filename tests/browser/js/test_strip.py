"""ui/classroom_assets/strip.js: the class strip's words and buttons for each role and mode,
outside text always as text (the strip's script is ui.classroom.script, not the stepper's)."""

from __future__ import annotations

import re

import pytest

from tests.browser.js.conftest import open_class_page
from ui.classroom import JS_MODULES, module_path, script

pytestmark = pytest.mark.browser

RENDER = """(c) => {
  document.body.replaceChildren();
  c.ui = cls.build(document.body);
  cls.render(c);
  const shown = (node) => !node.hidden;
  return { text: c.ui.text.textContent, rejoin: shown(c.ui.rejoin) ? c.ui.rejoin.textContent : null,
           tally: shown(c.ui.tally) ? c.ui.tally.textContent : null,
           asks: c.ui.asks.filter(shown).map((b) => b.textContent), mode: c.ui.box.dataset.mode,
           bold: document.querySelectorAll("b").length };
}"""


def test_every_module_is_small_and_the_script_has_one_default_export():
    for name in JS_MODULES:
        assert len(module_path(name).read_text().splitlines()) <= 400, name
    assert re.findall(r"^export .*", script(), re.M) == ["export default function (component) {"]


@pytest.fixture(scope="module")
def page(browser):
    page = open_class_page(browser)
    yield page
    page.context.close()


def test_a_student_follows_explores_and_sees_the_end(page):
    c = {"role": "student", "display": "<b>ABCD</b>-EFGH", "mode": "follow", "ended": False,
         "state": {"step": 41, "question": None}}
    got = page.evaluate(RENDER, c)
    assert got["text"] == "Following the class <b>ABCD</b>-EFGH" and got["bold"] == 0
    assert got["rejoin"] is None and got["asks"] == [] and got["mode"] == "follow"
    got = page.evaluate(RENDER, {**c, "mode": "explore"})
    assert got["text"] == "Exploring on your own \u00b7"
    assert got["rejoin"] == "Rejoin the class (step 41)"
    got = page.evaluate(RENDER, {**c, "ended": True})
    assert got["text"].endswith("has ended. This page keeps its last view.")
    assert got["mode"] == "ended" and got["rejoin"] is None


def test_a_lecturer_sees_the_link_and_the_tally(page):
    c = {"role": "lecturer", "display": "ABCD-EFGH", "link": "http://hall/?class=ABCDEFGH",
         "ended": False, "offline": True, "state": {"step": 2, "question": None},
         "tally": {"following": 3, "exploring": 1, "answered": 0}}
    got = page.evaluate(RENDER, c)
    assert got["text"] == "Class ABCD-EFGH \u00b7 join at http://hall/?class=ABCDEFGH " \
        "\u00b7 The class is reconnecting\u2026 Your steps go on here, and the latest " \
        "reaches the room when it is back."
    assert got["tally"] == "3 following \u00b7 1 exploring" and got["mode"] == "lead"
    assert got["asks"] == []  # no stepper on this page to ask about


def test_a_fault_is_said_in_words_in_the_strips_polite_status(page):
    c = {"role": "student", "display": "ABCD-EFGH", "mode": "follow", "ended": False,
         "state": {"step": 3, "question": None}}
    for fault in ("storeAway", "offline", "lost"):
        got = page.evaluate(RENDER, {**c, fault: True})
        assert got["text"] == "The class ABCD-EFGH is reconnecting\u2026", fault
    got = page.evaluate(RENDER, {**c, "leadAway": True})
    assert got["text"].startswith("The lecturer is reconnecting\u2026")
    # said politely: the strip's words are a polite live region, not an alert
    assert page.evaluate("() => { const t = document.querySelector('.pl-class-text'); "
                         "return [t.getAttribute('role'), t.getAttribute('aria-live')]; }") \
        == ["status", "polite"]
    got = page.evaluate(RENDER, {**c, "storeAway": True, "ended": True})
    assert "reconnecting" not in got["text"]  # an ended class is ended, not reconnecting


def test_a_students_answer_taken_is_said_in_the_strips_live_status(page):
    q = {"id": 9, "kind": "choice", "revealed": False, "text": "q?", "options": ["a", "b"]}
    c = {"role": "student", "display": "ABCD-EFGH", "mode": "follow", "ended": False,
         "state": {"step": 0, "question": q}, "answers": {}}
    assert page.evaluate(RENDER, c)["text"] == ("The lecturer asks a question: answer it in "
                                                "the question box")
    c["answers"] = {"9": 1}
    assert page.evaluate(RENDER, c)["text"] == ("Following the class ABCD-EFGH \u00b7 your "
                                                "answer is in")
    q["revealed"] = True
    assert page.evaluate(RENDER, c)["text"] == "Following the class ABCD-EFGH"


def test_a_question_open_the_lecturer_sees_its_answers_against_the_pages_following(page):
    c = {"role": "lecturer", "display": "ABCD-EFGH", "link": "http://hall/?class=ABCDEFGH",
         "ended": False, "state": {"step": 2, "question": {"id": 9, "kind": "number",
                                                           "revealed": False, "text": "n?"}},
         "answers": {}, "tally": {"following": 38, "exploring": 2, "answered": 41}}
    got = page.evaluate(RENDER, c)
    # a page that answered and went exploring keeps its answer: more answers than following
    assert got["tally"] == "41 answers from 38 following \u00b7 2 exploring"
    c["tally"]["answered"] = 1
    assert page.evaluate(RENDER, c)["tally"] == "1 answer from 38 following \u00b7 2 exploring"
    c["state"]["question"]["revealed"] = True
    assert page.evaluate(RENDER, c)["tally"] == "38 following \u00b7 2 exploring"
