"""A lecture given from its plan in real Chromium: the notes' lecture with PageDown and PageUp
alone on a projector, every slide's view and step checked against the plan; the same from a
remote phone's Next and Previous while a student follows; a plan downloaded and uploaded
again, identical; hostile files refused with their message."""

from __future__ import annotations

import json
import re
from urllib.parse import parse_qsl, urlsplit

import pytest

import lessons
from classroom import plan as plans
from testkit.class_journey import (
    LAPTOP,
    PHONE,
    PROJECTOR,
    collapse,
    open_page,
    sidebar,
    wait_strip,
)
from tests.browser.conftest import ARTIFACTS, settle, wait_idle

pytestmark = pytest.mark.browser

NOTES, _ = plans.builtin("notes", catalogue=lessons.plan_catalogue())
BAR = ".pl-slide-bar .pl-slide-text"


def bar_text(page) -> str:
    return page.locator(BAR).inner_text()


def wait_slide(page, n: int) -> None:
    """Wait until the bar says slide n (1-based) and the page's run is over."""
    title = NOTES.slides[n - 1].title
    page.wait_for_function(
        "([sel, want]) => document.querySelector(sel)?.textContent === want",
        arg=[BAR, f"slide {n} / {len(NOTES.slides)} \u00b7 {title}"])
    wait_idle(page)


def open_lecture(page):
    """The sidebar's Lecture panel, open; its locator."""
    bar = sidebar(page)
    if not bar.get_by_role("button", name="Add this view to the lecture").is_visible():
        bar.get_by_text("Lecture", exact=True).click()
    bar.get_by_role("button", name="Add this view to the lecture").wait_for()
    return bar.get_by_test_id("stExpander").filter(
        has=page.get_by_role("button", name="Add this view to the lecture"))


def stepper_step(page) -> int | None:
    """The main stepper's step as it says it, or None when the view has no stepper."""
    return page.evaluate("""() => {
      const box = document.querySelector('[data-testid="stMain"] .pl-stepper:not(.pl-follower)');
      return box && box.dataset.step !== undefined ? Number(box.dataset.step) : null;
    }""")


def wait_step(page, k: int) -> None:
    page.wait_for_function("""(k) => {
      const box = document.querySelector('[data-testid="stMain"] .pl-stepper:not(.pl-follower)');
      return box && Number(box.dataset.step) === k;
    }""", arg=k)


def assert_shows(page, n: int, step: int | None = None) -> None:
    """The page is slide n's view: its lesson, its data, part and settings as the plan holds
    them (a setting at its default may be left out of the address), and its step."""
    slide = NOTES.slides[n - 1]
    view = dict(parse_qsl(slide.view))
    lesson = view.pop("lesson", "")
    address = urlsplit(page.url)
    assert address.path.strip("/") == lesson, (n, page.url)
    shown = dict(parse_qsl(address.query))
    if "data" in view:  # (a part, a function at the lesson's default is left out)
        assert shown.get("data") == view["data"], (n, page.url)
    clashes = {k: (v, shown[k]) for k, v in view.items() if k in shown and shown[k] != v}
    assert not clashes, (n, clashes)
    want = slide.step if step is None else step
    if stepper_step(page) is not None:
        wait_step(page, want)


def test_the_notes_lecture_given_with_pagedown_and_pageup_only(browser, server_url):
    errors: list[str] = []
    context, projector = open_page(browser, f"{server_url}/?lecture=1&plan=notes", PROJECTOR,
                                   errors)
    try:
        wait_slide(projector, 1)
        assert "plan=" not in projector.url  # a plan opens once; the address is the view's
        projector.locator('[data-testid="stMain"] h1').first.click()  # the page has the focus
        shots = ARTIFACTS / "lecture"
        shots.mkdir(parents=True, exist_ok=True)
        count = len(NOTES.slides)
        for n in range(1, count + 1):
            slide = NOTES.slides[n - 1]
            assert_shows(projector, n)
            projector.screenshot(path=str(shots / f"slide-{n:02d}.png"))
            if slide.steps and stepper_step(projector) is not None:
                for k in range(slide.step + 1, slide.steps[1] + 1):  # its steps, one a press
                    projector.keyboard.press("PageDown")
                    wait_step(projector, k)
                    assert bar_text(projector).startswith(f"slide {n} / {count}")
            if n < count:
                projector.keyboard.press("PageDown")
                wait_slide(projector, n + 1)
        # the last slide: PageDown goes nowhere
        projector.keyboard.press("PageDown")
        settle(projector, 600)
        assert bar_text(projector).startswith(f"slide {count} / {count}")
        # back to the first with PageUp alone: each slide's steps down, then the slide before
        for n in range(count, 1, -1):
            slide = NOTES.slides[n - 1]
            if slide.steps and stepper_step(projector) is not None:
                for k in range(stepper_step(projector) - 1, slide.steps[0] - 1, -1):
                    projector.keyboard.press("PageUp")
                    wait_step(projector, k)
            projector.keyboard.press("PageUp")
            wait_slide(projector, n - 1)
            assert_shows(projector, n - 1)
        assert not errors, errors
    except BaseException:
        projector.screenshot(path=str(ARTIFACTS / "lecture_pagedown_failed.png"))
        raise
    finally:
        context.close()


def test_a_remote_phone_gives_the_lecture_and_a_student_follows(browser, server_url):
    errors: list[str] = []
    contexts = []
    try:
        context, projector = open_page(browser, f"{server_url}/?lecture=1&plan=notes",
                                       PROJECTOR, errors)
        contexts.append(context)
        wait_slide(projector, 1)
        sidebar(projector).get_by_role("button", name="Start a class").click()
        settle(projector, 500)
        wait_strip(projector, r"Class\s+\w{4}-\w{4}")
        code = "".join(re.search(r"Class\s+(\w{4})-(\w{4})",
                                 projector.locator(".pl-class").inner_text()).group(1, 2))
        sidebar(projector).get_by_role("button", name="Phone as a remote").click()
        settle(projector, 500)
        link = sidebar(projector).get_by_test_id("stCode").last.inner_text().strip()
        projector.get_by_role("button", name="Hide the code").click()
        settle(projector, 300)
        collapse(projector)
        context, student = open_page(browser, f"{server_url}/?class={code}", LAPTOP, errors)
        contexts.append(context)
        context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
        contexts.append(context)
        phone = context.new_page()
        phone.on("pageerror", lambda error: errors.append(str(error)))
        phone.goto(link)
        wait_idle(phone)
        wait_slide(phone, 1)  # the remote has the class's plan, at the projector's slide
        # claimed: the code is gone from the projector's sidebar
        projector.wait_for_function("""() => ![...document.querySelectorAll(
            '[data-testid="stSidebar"] [data-testid="stAlert"]')].some(
            (a) => a.textContent.includes('Keep it off the projector'))""")
        nxt = phone.locator(".pl-slide-bar .pl-slide-next")
        for n in (2, 3):
            nxt.tap()
            wait_slide(phone, n)
            wait_slide(projector, n)
            assert_shows(projector, n)
            student.wait_for_function(  # the student's page opens the slide's view
                "(path) => location.pathname.replace(/\\//g, '') === path",
                arg=NOTES.slides[n - 1].lesson or "")
        phone.locator(".pl-slide-bar .pl-slide-back").tap()
        wait_slide(phone, 2)
        wait_slide(projector, 2)
        assert_shows(projector, 2)
        assert not errors, errors
    finally:
        for context in contexts:
            context.close()


def test_a_plan_downloaded_and_uploaded_again_is_identical(browser, server_url, tmp_path):
    errors: list[str] = []
    context, page = open_page(browser, f"{server_url}/?plan=notes", LAPTOP, errors)
    try:
        wait_slide(page, 1)
        bar = open_lecture(page)
        with page.expect_download() as download:
            bar.get_by_role("button", name="Download the plan").click()
        first = tmp_path / "first.json"
        download.value.save_as(first)
        assert first.read_text() == plans.dump(NOTES)  # the file is the plan, as it reads back
        bar.get_by_role("button", name="Clear the plan").click()
        settle(page, 500)
        assert not page.locator(".pl-slide-bar").count()
        bar = open_lecture(page)
        bar.get_by_role("button", name="Open a plan file").click()
        bar.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(str(first))
        settle(page, 800)
        bar.get_by_text(re.compile("is open: 12 slides")).wait_for()
        with page.expect_download() as download:
            bar.get_by_role("button", name="Download the plan").click()
        second = tmp_path / "second.json"
        download.value.save_as(second)
        assert second.read_bytes() == first.read_bytes()
        assert not errors, errors
    finally:
        context.close()


HOSTILE = [
    ("empty.json", b"", "does not read as JSON"),
    ("picture <img src=x onerror=alert(1)>.json", b"\x89PNG\r\n\x1a\n\x00\x00", "not text"),
    ("other.json", json.dumps({"slides": [{"view": "data=xor-1"}]}).encode(),
     "not a lecture plan"),
    ("nowhere.json", json.dumps({"perceptron_lab_plan": 1, "slides": [
        {"title": "<script>alert(1)</script>", "view": "lesson=nowhere"}]}).encode(),
     "slide 1"),
]


def test_hostile_plan_files_are_refused_with_their_message(browser, server_url, tmp_path):
    errors: list[str] = []
    context, page = open_page(browser, f"{server_url}/?plan=notes", LAPTOP, errors)
    dialogs = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    try:
        wait_slide(page, 1)
        bar = open_lecture(page)
        bar.get_by_role("button", name="Open a plan file").click()
        for name, content, said in HOSTILE:
            path = tmp_path / re.sub(r"[^\w.]", "_", name)
            path.write_bytes(content)
            bar.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(
                files=[{"name": name, "mimeType": "application/json", "buffer": content}])
            settle(page, 800)
            warning = bar.get_by_test_id("stAlert").filter(has_text="was not opened")
            warning.wait_for()
            text = warning.inner_text()
            assert said in text and name in text, text  # its name as written, never markup
            assert "The plan in progress stays" in text
            assert bar_text(page).startswith("slide 1 / 12")  # the lecture in progress stays
        assert not page.locator('[data-testid="stSidebar"] img[src="x"]').count()
        assert not dialogs and not errors, (dialogs, errors)
    finally:
        context.close()


def test_the_browser_keeps_the_plan_in_progress_between_visits(browser, server_url):
    errors: list[str] = []
    context, page = open_page(browser, f"{server_url}/?plan=notes", LAPTOP, errors)
    try:
        wait_slide(page, 1)
        panel = open_lecture(page)
        panel.get_by_role("button", name="Stop giving the lecture").click()
        settle(page, 500)
        page.goto(server_url)  # another visit: a new session, the same browser
        wait_idle(page)
        panel = open_lecture(page)
        panel.get_by_role("button", name="Give the lecture (12 slides)").wait_for()
        assert "plan in progress in this browser is back" in panel.inner_text()
        panel.get_by_role("button", name="Clear the plan").click()
        settle(page, 500)
        # the browser has let its copy go before the next visit (on a loaded machine the page
        # was left before it had, and the plan came back)
        page.wait_for_function("() => localStorage.getItem('plab.lecture.plan') === null")
        page.goto(server_url)
        wait_idle(page)
        panel = open_lecture(page)
        settle(page, 800)
        assert not panel.get_by_role("button", name=re.compile("Give the lecture")).count()
        assert not errors, errors
    finally:
        context.close()
