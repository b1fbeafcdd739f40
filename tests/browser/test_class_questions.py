"""A class's questions as people answer them (ui/classroom_assets/questions.js, answers.js): a
phone (390 x 844, touch) follows the lecturer's projector (1280 x 720, lecture mode) over three
views and answers a multiple choice by a tap, a number by the keyboard (text that is not a
number refused in words) and a line by two taps on its own plane; the projector draws the
room's line faintly before the reveal (the phone never), the reveal draws the true boundary
with how many were close; the CSV the lecturer downloads holds what was sent, row by row."""

from __future__ import annotations

import csv
import io
import re
from fractions import Fraction

import numpy as np
import pytest

from core.perceptron import perceptron
from core.trace import record
from datasets.builtin import BUILTIN
from testkit.class_journey import (
    PROJECTOR,
    ask,
    ask_a_line,
    collapse,
    open_page,
    press,
    sidebar,
    strip,
    wait_strip,
)
from testkit.stepper import ready, wait_status
from tests.browser.axe import assert_accessible
from tests.browser.conftest import ARTIFACTS, settle, timeout_ms, wait_idle

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
NOTES4 = BUILTIN["Lecture notes' example: 4 points"]()
STATE = "() => document.querySelector('.pl-class').parentElement.__plClass.state.question"


def close_share(truth, line, box) -> float:
    """The share of a 21 x 21 grid over ``box`` that two lines (w1, w2, b) put on the same
    sides (the better of the two ways to match a drawn line's sides), in exact arithmetic."""
    x0, x1, y0, y1 = map(Fraction, box)
    xs = [x0 + (x1 - x0) * i / 20 for i in range(21)]
    ys = [y0 + (y1 - y0) * j / 20 for j in range(21)]

    def sign(w1, w2, b, x, y):
        v = Fraction(w1) * x + Fraction(w2) * y + Fraction(b)
        return (v > 0) - (v < 0)

    pairs = [(sign(*truth, x, y), sign(*line, x, y)) for x in xs for y in ys]
    return max(sum(s * t >= 0 for s, t in pairs), sum(s * t <= 0 for s, t in pairs)) / 441


def test_a_phone_answers_a_choice_a_number_and_a_line_and_the_csv_holds_them(browser,
                                                                               server_url):
    errors: list[str] = []
    lecturer_context, lecturer = open_page(browser, f"{server_url}/boolean?lecture=1&fn=XOR",
                                           PROJECTOR, errors)
    phone_context = browser.new_context(**PHONE, accept_downloads=True)
    try:
        _journey(browser, server_url, lecturer, phone_context, errors)
    except BaseException:
        ARTIFACTS.mkdir(exist_ok=True)
        lecturer.screenshot(path=ARTIFACTS / "questions_failed_lecturer.png")
        for page in phone_context.pages:
            page.screenshot(path=ARTIFACTS / "questions_failed_phone.png")
        raise
    finally:
        phone_context.close()
        lecturer_context.close()
    assert errors == []


def _journey(browser, server_url, lecturer, phone_context, errors) -> None:
    sidebar(lecturer).get_by_role("button", name="Start a class").click()
    settle(lecturer, 500)
    wait_strip(lecturer, r"Class [A-Z0-9]{4}-[A-Z0-9]{4}")
    code = "".join(re.search(r"Class (\w{4})-(\w{4})", strip(lecturer)).group(1, 2))
    lecturer.get_by_role("button", name="Hide the code").click()
    settle(lecturer, 500)
    collapse(lecturer)
    phone = phone_context.new_page()
    phone.set_default_timeout(timeout_ms(25_000))
    phone.on("pageerror", lambda error: errors.append(str(error)))
    phone.goto(f"{server_url}/?class={code}")
    wait_idle(phone)
    wait_strip(phone, "Following the class")
    wait_strip(lecturer, "1 following")
    sent = []

    # ---- view 1, Boolean on XOR: a multiple choice, tapped; the room's answers hidden
    ask(lecturer, re.compile("Ask: Can a line separate the rows of XOR"))
    wait_strip(phone, "Can a line separate the rows of XOR")
    quiz = phone.locator(".pl-class-quiz")
    assert_accessible(phone, "class_question_choice")
    quiz.get_by_role("button", name="No").tap()
    wait_strip(phone, "Your answer: No")
    sent.append(("choice", "No", "yes"))  # no line separates XOR (test_class_questions.py)
    wait_strip(lecturer, "1 answer from 1 following")
    assert "1 answer." not in strip(phone)  # no count before the reveal
    lecturer.get_by_role("button", name="Reveal the answers").click()
    wait_strip(phone, r"1 answer\.")
    assert "No \u2713" in quiz.inner_text()
    lecturer.get_by_role("button", name="Close the question").click()
    settle(lecturer, 500)

    # ---- view 2, the step-through at step 2: a number, by the keyboard
    sidebar(lecturer).get_by_test_id("stSidebarNavLink").filter(has_text="Step through").click()
    settle(lecturer, 800)
    collapse(lecturer)
    ready(lecturer)
    ready(phone)
    press(lecturer, "ArrowRight", 2)
    wait_status(phone, "Step 2 /")
    trace = record(perceptron(NOTES4.X, NOTES4.y))
    mistakes = int(np.sum(trace.updated[1:4]))  # after step 3, the next
    ask(lecturer, "Ask: mistakes after the next step")
    wait_strip(phone, "How many mistakes will the run have made after step 3")
    assert_accessible(phone, "class_question_number")
    number = phone.get_by_label("Your number")
    number.focus()
    phone.keyboard.type("two")
    phone.keyboard.press("Enter")
    wait_strip(phone, "\u201ctwo\u201d is not a number")
    assert phone.get_by_role("alert").filter(has_text="is not a number").count() == 1
    assert number.get_attribute("aria-invalid") == "true"
    number.fill("")
    phone.keyboard.type(str(mistakes))
    phone.keyboard.press("Enter")
    wait_strip(phone, f"Your answer: {mistakes}")
    sent.append(("number", str(mistakes), "yes"))
    wait_strip(lecturer, "1 answer from 1 following")
    lecturer.get_by_role("button", name="Reveal the answers").click()
    wait_strip(phone, f"The answer: {mistakes}. 1 of 1 answer right.")
    lecturer.get_by_role("button", name="Close the question").click()
    settle(lecturer, 500)

    # ---- view 3, a later step: a line, by two taps on the phone's own plane
    ask_a_line(lecturer)  # at a step whose next boundary crosses the plane
    wait_strip(phone, "Where will the boundary be after step")
    question = lecturer.evaluate(STATE)
    assert_accessible(phone, "class_question_line")
    plot = phone.locator(".pl-stepper .pl-plane .js-plotly-plot").first
    plot.scroll_into_view_if_needed()
    box = phone.locator("svg.pl-class-lines .pl-class-tap").bounding_box()
    for fx, fy in ((0.2, 0.8), (0.8, 0.25)):
        phone.touchscreen.tap(box["x"] + box["width"] * fx, box["y"] + box["height"] * fy)
        phone.wait_for_timeout(250)
    first = phone.get_by_label("First point").input_value()
    second = phone.get_by_label("Second point").input_value()
    points = [float(v) for v in f"{first}, {second}".split(",")]
    assert phone.locator("svg.pl-class-lines .pl-line-own").count() == 1  # the own line drawn
    phone.get_by_role("button", name="Send this line").tap()
    wait_strip(phone, "Your answer: the line through")
    wait_strip(lecturer, "1 answer from 1 following")
    # the projector draws the room's line faintly as it comes; the phone never sees the room's
    lecturer.wait_for_function(
        "() => document.querySelectorAll('svg.pl-class-lines .pl-line-room').length === 1",
        timeout=timeout_ms(8000))
    assert phone.locator(".pl-line-room").count() == 0
    ARTIFACTS.mkdir(exist_ok=True)
    lecturer.screenshot(path=ARTIFACTS / "class_line_incoming.png")
    lecturer.get_by_role("button", name="Reveal the answers").click()
    wait_strip(lecturer, "line close")
    shown = lecturer.evaluate(STATE)  # the true boundary, sent with the reveal
    truth = (*(Fraction(v) for v in shown["w"]), Fraction(shown["b"]))
    x1, y1, x2, y2 = (Fraction(str(v)) for v in points)
    drawn = (y2 - y1, -(x2 - x1), -((y2 - y1) * x1 - (x2 - x1) * y1))
    close = close_share(truth, drawn, question["box"]) >= Fraction(question["close"])
    wait_strip(lecturer, f"{int(close)} of 1 line close")
    assert lecturer.locator("svg.pl-class-lines .pl-line-truth").count() == 1
    lecturer.screenshot(path=ARTIFACTS / "class_line_revealed.png")
    assert_accessible(lecturer, "class_question_revealed")
    sent.append(("line", " ".join(str(p) for p in points), "yes" if close else "no"))

    # ---- the results: the lecturer's CSV, row by row what the phone sent
    with lecturer.expect_download() as download:
        sidebar(lecturer).get_by_role("button", name="Download the answers (CSV)").click()
    rows = list(csv.DictReader(io.StringIO(download.value.path().read_text())))
    answers = [r for r in rows if r["row"] != "summary"]
    assert [(r["kind"], r["right"]) for r in answers] == [(k, right) for k, _, right in sent]
    assert answers[0]["answer"] == "No" and answers[1]["answer"] == str(mistakes)
    assert [Fraction(v) for v in answers[2]["answer"].split()] == \
        [Fraction(str(p)) for p in points]
    assert len({r["voter"] for r in answers}) == 1  # one phone, one anonymous number
    assert [r["right"] for r in rows if r["row"] == "summary"] == \
        ["1 of 1", "1 of 1", f"{int(close)} of 1"]
