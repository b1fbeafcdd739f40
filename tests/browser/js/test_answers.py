"""ui/classroom_assets/answers.js: a student's answer box for each kind (a choice's options,
a number refused in words when it is not one, a line typed as two points: the keyboard's
way), what it sends, and the reveal's words; outside text always as text."""

from __future__ import annotations

import pytest

from tests.browser.js.conftest import open_class_page

pytestmark = pytest.mark.browser

OPEN = """(q) => {
  document.body.replaceChildren();
  window.__sent = [];
  if (!window.__listening) {
    window.__listening = true;
    addEventListener("pl-answer", (e) => window.__sent.push(e.detail));
  }
  const c = { role: "student", mode: "follow", display: "ABCD-EFGH", ended: false,
              state: { step: 0, question: q }, answers: {} };
  c.ui = cls.build(document.body);
  cls.render(c);
  window.__c = c;
  return c.ui.quiz.innerText;
}"""


@pytest.fixture(scope="module")
def page(browser):
    page = open_class_page(browser)
    yield page
    page.context.close()


def sent(page):
    return page.evaluate("() => window.__sent")


def test_a_choice_is_buttons_of_its_options_as_text(page):
    text = page.evaluate(OPEN, {"id": 3, "kind": "choice", "text": "<b>Which?</b>",
                                "options": ["<i>one</i>", "two"], "revealed": False})
    assert "<b>Which?</b>" in text and page.locator("b, i").count() == 0
    page.get_by_role("button", name="<i>one</i>").click()
    assert sent(page) == [{"question": 3, "choice": 0}]


def test_a_number_that_is_not_one_is_refused_in_words_and_a_comma_is_a_decimal_point(page):
    page.evaluate(OPEN, {"id": 4, "kind": "number", "text": "y·a?", "revealed": False})
    box = page.get_by_label("Your number")
    box.fill("two")
    box.press("Enter")
    alert = page.get_by_role("alert")
    assert alert.inner_text() == ("\u201ctwo\u201d is not a number: digits with a decimal point "
                                  "or comma, like 0.35, \u22122 or 7/20.")
    assert box.get_attribute("aria-invalid") == "true" and sent(page) == []
    box.fill("-0,5")
    box.press("Enter")
    assert sent(page) == [{"question": 4, "choice": "-0.5"}]


def test_a_line_is_typed_as_two_points_by_the_keyboard(page):
    page.evaluate(OPEN, {"id": 5, "kind": "line", "text": "Draw it", "box": ["0", "3", "0", "3"],
                         "revealed": False})
    first, second = page.get_by_label("First point"), page.get_by_label("Second point")
    first.focus()
    page.keyboard.type("0.5, 1")
    page.keyboard.press("Tab")
    page.keyboard.type("0.5, 1")
    page.keyboard.press("Enter")
    assert "same" in page.get_by_role("alert").inner_text() and sent(page) == []
    second.fill("2; -1")
    second.press("Enter")
    assert sent(page) == [{"question": 5, "choice": [0.5, 1, 2, -1]}]
    first.fill("1.5")
    second.press("Enter")
    assert page.get_by_role("alert").inner_text().startswith("The first point is not two numbers")


def test_the_reveal_says_what_was_right_and_how_close_is_measured(page):
    text = page.evaluate(OPEN, {"id": 6, "kind": "line", "text": "Draw it", "revealed": True,
                                "w": ["1", "-1"], "b": "0", "close": "4/5", "counts": [2, 1],
                                "box": ["0", "3", "0", "3"]})
    assert ("The boundary: x\u2081 \u2212 x\u2082 = 0. 2 of 3 lines close (a line is close when "
            "it puts at least 80 % of a 21 \u00d7 21 grid over the plane on the same sides as "
            "the boundary).") in text
    text = page.evaluate(OPEN, {"id": 7, "kind": "number", "text": "n?", "revealed": True,
                                "answer": "7/20", "tolerance": "0", "counts": [1, 3]})
    assert "The answer: 7/20. 1 of 4 answers right." in text
    text = page.evaluate(OPEN, {"id": 8, "kind": "choice", "text": "c?", "revealed": True,
                                "options": ["a", "b"], "right": [1], "counts": [2, 5]})
    assert "b \u2713" in text and "7 answers." in text
