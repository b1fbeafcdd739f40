"""A class on the lecturer's own points: every student's page draws them, and their class
names (outside text) stay literal text on every screen, in the class's question too."""

from __future__ import annotations

import re

import pytest

from testkit.class_journey import (
    LAPTOP,
    PHONE,
    open_page,
    press,
    same_status,
    sidebar,
    strip,
    wait_strip,
)
from testkit.stepper import ready, wait_status
from tests.browser.conftest import settle

pytestmark = pytest.mark.browser

NAMES = ("<i>dog</i>", "**cat** [x](https://evil.example)")
CSV = "x1,x2,label\n" + "".join(
    f'{x1},{x2},"{NAMES[i % 2]}"\n' for i, (x1, x2) in
    enumerate([(0, 0), (2, 2), (0, 1), (2, 3), (1, 0), (3, 2)]))


def test_the_room_follows_the_lecturers_own_points_with_literal_names(browser, server_url,
                                                                    tmp_path):
    errors: list[str] = []
    contexts = []
    try:
        context, lecturer = open_page(browser, server_url, LAPTOP, errors)
        contexts.append(context)
        points = tmp_path / "points.csv"
        points.write_text(CSV)
        sidebar(lecturer).get_by_test_id("stFileUploaderDropzoneInput").set_input_files(points)
        settle(lecturer, 800)
        wait_status(lecturer, "Step 0 / ")
        sidebar(lecturer).get_by_role("button", name="Start a class").click()
        settle(lecturer, 500)
        wait_strip(lecturer, r"Class \w{4}-\w{4}")
        code = "".join(re.search(r"Class (\w{4})-(\w{4})", strip(lecturer)).group(1, 2))
        context, student = open_page(browser, f"{server_url}/?class={code}", PHONE, errors)
        contexts.append(context)
        ready(student)
        assert "pts" in student.url  # the points came with the view, as in a Share link
        press(lecturer, "ArrowRight", 2)
        same_status(lecturer, student)

        lecturer.get_by_role("button", name="Ask: mistake or not?").click()
        quiz = student.locator(".pl-quiz")
        quiz.get_by_role("button", name="No mistake").wait_for()
        text = quiz.inner_text()
        assert any(f"({name})" in text for name in NAMES), text  # the name, as written
        assert quiz.locator("i, strong, a").count() == 0  # never markup
        quiz.get_by_role("button", name="Mistake", exact=True).click()
        wait_strip(lecturer, r"1 answer from \d+ following")
        lecturer.get_by_role("button", name="Reveal the answers").click()
        student.locator(".pl-class-bars").wait_for()
        same_status(lecturer, student)
        assert not errors, errors
    finally:
        for context in contexts:
            context.close()
