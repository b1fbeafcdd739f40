"""The follower page (ui/classroom/follower_page.py: /follow?class=CODE, no Streamlit session) as
a student uses it: a phone (390 x 844, touch) opens the class's link from the projector's card
(a real lecturer's page, 1280 x 720, lecture mode), sees a view with no stepper (Boolean's) and
answers its choice, follows the step-through for 20 steps, answers a mistake, a turn, a number
and a line, explores and rejoins, and switches to the full app at the view; the page in the dark
theme, its live regions, axe; and what the page says for a wrong code, a run the server no
longer has, and a busy server, each with a retry."""

from __future__ import annotations

import json
import re

import pytest

from testkit.class_journey import (
    PROJECTOR,
    ask,
    ask_a_line,
    collapse,
    press,
    same_status,
    sidebar,
    strip,
    wait_strip,
)
from testkit.stepper import ready, status, wait_status
from tests.browser.axe import audit
from tests.browser.conftest import ARTIFACTS, settle, timeout_ms, wait_idle

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
TABLET = {"viewport": {"width": 1024, "height": 768}, "has_touch": True}
LINE = "#pl-line-words"


def accessible(tab, name: str) -> None:
    """axe finds nothing serious anywhere on the follower page (all of it is the app's: there
    is no Streamlit around it); its findings kept in tests/artifacts/axe/name.json."""
    found = audit(tab)
    folder = ARTIFACTS / "axe"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.json").write_text(json.dumps(found, indent=1, ensure_ascii=False))
    assert [f"{f['rule']} at {f['target']}: {f['html']} -- {f['fix']}" for f in found] == []


def in_the_dark(tab, dark: bool) -> None:
    tab.emulate_media(color_scheme="dark" if dark else "light")
    tab.wait_for_function("(bg) => getComputedStyle(document.body).backgroundColor === bg",
                          arg="rgb(23, 22, 20)" if dark else "rgb(255, 255, 255)")
    tab.wait_for_timeout(400)  # the stepper draws its chart again in the page's colours


def follower(context, url: str, errors: list):
    page = context.new_page()
    page.set_default_timeout(timeout_ms(25_000))
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url)
    return page


def started(lecturer) -> tuple[str, str]:
    """Start a class from the lecturer's sidebar: its code and the link its card shows."""
    sidebar(lecturer).get_by_role("button", name="Start a class").click()
    settle(lecturer, 500)
    wait_strip(lecturer, r"Class [A-Z0-9]{4}-[A-Z0-9]{4}")
    code = "".join(re.search(r"Class (\w{4})-(\w{4})", strip(lecturer)).group(1, 2))
    link = lecturer.get_by_test_id("stCode").first.inner_text().strip()
    return code, link


def test_a_phone_follows_a_class_on_the_follower_page(browser, server_url):
    errors: list[str] = []
    lecturer_context = browser.new_context(viewport=PROJECTOR)
    lecturer = lecturer_context.new_page()
    lecturer.set_default_timeout(timeout_ms(25_000))
    lecturer.on("pageerror", lambda error: errors.append(str(error)))
    lecturer.goto(f"{server_url}/boolean?lecture=1&fn=XOR")
    wait_idle(lecturer)
    phone_context = browser.new_context(**PHONE)
    try:
        _journey(lecturer, phone_context, server_url, errors)
    except BaseException:
        ARTIFACTS.mkdir(exist_ok=True)
        lecturer.screenshot(path=ARTIFACTS / "follower_failed_lecturer.png")
        for i, page in enumerate(phone_context.pages):
            page.screenshot(path=ARTIFACTS / f"follower_failed_phone{i}.png")
        raise
    finally:
        phone_context.close()
        lecturer_context.close()
    assert errors == []


def _journey(lecturer, phone_context, server_url, errors) -> None:
    # ---- the projector's card: its link is the follower page's
    code, link = started(lecturer)
    assert link.startswith(f"{server_url}/follow?class={code}&ticket=")
    lecturer.get_by_role("button", name="Hide the code").click()
    settle(lecturer, 500)
    collapse(lecturer)
    phone = follower(phone_context, link, errors)
    display = f"{code[:4]}-{code[4:]}"

    # ---- a view with no stepper: its lesson's title, a clear line, and its question
    phone.get_by_role("heading", name="Boolean functions and XOR").wait_for()
    wait_strip(phone, f"Following the class {display}")
    assert phone.locator("#pl-none").is_visible()
    assert "no picture to step on this page" in phone.locator("#pl-none").inner_text()
    assert phone.locator(".pl-stepper").count() == 0
    wait_strip(lecturer, "1 following")
    ask(lecturer, re.compile("Ask: Can a line separate the rows of XOR"))
    wait_strip(phone, "Can a line separate the rows of XOR")
    # a screen reader hears the question asked, from the strip's polite live status
    said = phone.locator('.pl-class [role="status"][aria-live="polite"]').first
    assert "The lecturer asks a question" in said.inner_text()
    phone.locator(".pl-class-quiz").get_by_role("button", name="No").tap()
    wait_strip(phone, "Your answer: No")
    wait_strip(lecturer, "1 answer from 1 following")
    lecturer.get_by_role("button", name="Reveal the answers").click()
    wait_strip(phone, r"1 answer\.")
    lecturer.get_by_role("button", name="Close the question").click()
    settle(lecturer, 500)

    # ---- the step-through: the page draws the view's run, at the class's step, 20 steps
    sidebar(lecturer).get_by_test_id("stSidebarNavLink").filter(has_text="Step through").click()
    settle(lecturer, 800)
    collapse(lecturer)
    ready(lecturer)
    lecturer.get_by_role("button", name="Lecture notes' example").press("Enter")
    settle(lecturer, 600)
    wait_status(lecturer, "Step 0 / 20")
    phone.get_by_role("heading", name="Step through").wait_for()
    ready(phone)
    assert not phone.locator("#pl-none").is_visible()
    same_status(lecturer, phone)
    phone.screenshot(path=ARTIFACTS / "follower_phone_start.png")
    for _ in range(5):
        press(lecturer, "ArrowRight", 4)
        same_status(lecturer, phone)
    assert status(phone).startswith("Step 20 / 20")
    # the step's maths too, not just the status line
    assert phone.locator(".pl-explain").inner_text() == lecturer.locator(".pl-explain").inner_text()
    press(lecturer, "Home")
    wait_status(lecturer, "Step 0 / 20")
    same_status(lecturer, phone)
    press(lecturer, "ArrowRight", 2)
    same_status(lecturer, phone)

    # ---- the stepper's questions: mistake, then turn
    lecturer.get_by_role("button", name="Ask: mistake or not?").click()
    quiz = phone.locator(".pl-quiz")
    quiz.get_by_role("button", name="No mistake").wait_for()
    assert "The class is asked" in phone.locator(".pl-announce").inner_text()
    quiz.get_by_role("button", name="Mistake", exact=True).tap()
    quiz.get_by_text("The room's answers show when").wait_for()
    wait_strip(lecturer, "1 answer from 1 following")
    lecturer.get_by_role("button", name="Reveal the answers").click()
    phone.locator(".pl-class-bars").wait_for()
    same_status(lecturer, phone)
    lecturer.get_by_role("button", name="Close the question").click()
    settle(lecturer, 400)
    lecturer.get_by_role("button", name="Ask: which way does w turn?").click()
    quiz.get_by_role("button", name="Mistake", exact=True).wait_for()
    quiz.get_by_role("button", name="Mistake", exact=True).tap()
    quiz.get_by_role("button", name="\u21ba anticlockwise").tap()
    quiz.get_by_text("The room's answers show when").wait_for()
    wait_strip(lecturer, "1 answer from 1 following")
    lecturer.get_by_role("button", name="Close the question").click()
    settle(lecturer, 400)

    # ---- a number, by the keyboard
    ask(lecturer, "Ask: mistakes after the next step")
    wait_strip(phone, "How many mistakes will the run have made after step")
    accessible(phone, "follower_question_number")
    number = phone.get_by_label("Your number")
    number.focus()
    phone.keyboard.type("two")
    phone.keyboard.press("Enter")
    wait_strip(phone, "\u201ctwo\u201d is not a number")
    number.fill("")
    phone.keyboard.type("2")
    phone.keyboard.press("Enter")
    wait_strip(phone, "Your answer: 2")
    wait_strip(lecturer, "1 answer from 1 following")
    lecturer.get_by_role("button", name="Close the question").click()
    settle(lecturer, 400)

    # ---- a line, by two taps on the phone's own plane
    ask_a_line(lecturer)  # at a step whose next boundary crosses the plane
    wait_strip(phone, "Where will the boundary be after step")
    phone.locator(".pl-stepper .pl-plane .js-plotly-plot").first.scroll_into_view_if_needed()
    box = phone.locator("svg.pl-class-lines .pl-class-tap").bounding_box()
    for fx, fy in ((0.2, 0.8), (0.8, 0.25)):
        phone.touchscreen.tap(box["x"] + box["width"] * fx, box["y"] + box["height"] * fy)
        phone.wait_for_timeout(250)
    assert phone.locator("svg.pl-class-lines .pl-line-own").count() == 1
    phone.get_by_role("button", name="Send this line").tap()
    wait_strip(phone, "Your answer: the line through")
    wait_strip(lecturer, "1 answer from 1 following")
    lecturer.get_by_role("button", name="Reveal the answers").click()
    wait_strip(phone, "line close")
    lecturer.get_by_role("button", name="Close the question").click()
    settle(lecturer, 400)

    # ---- explore, then rejoin: a tap leaves the class's step, Rejoin comes back
    same_status(lecturer, phone)
    mine = phone.locator(".pl-stepper .pl-step").first
    mine.scroll_into_view_if_needed()
    mine.tap()
    wait_strip(phone, "Exploring on your own")
    wait_strip(lecturer, "0 following \u00b7 1 exploring")
    explored = status(phone)
    press(lecturer, "ArrowRight")
    lecturer.wait_for_timeout(1500)
    assert status(phone) == explored  # the class moved, the explorer did not
    phone.get_by_role("button", name=re.compile("Rejoin the class")).tap()
    wait_strip(phone, f"Following the class {display}")
    same_status(lecturer, phone)
    accessible(phone, "follower_phone")
    in_the_dark(phone, True)
    accessible(phone, "follower_phone_dark")
    assert phone.locator(".pl-stepper.pl-dark").count() == 1
    phone.screenshot(path=ARTIFACTS / "follower_phone_dark.png")
    in_the_dark(phone, False)

    # ---- the full app, at the class's view, in one tap
    phone.get_by_role("link", name="Open the full app").tap()
    phone.wait_for_function(f"() => location.search === '?class={code}' "
                            "|| location.search.includes('class={code}')".replace("{code}", code))
    wait_idle(phone)
    ready(phone)
    wait_strip(phone, f"Following the class {display}")
    same_status(lecturer, phone)


def test_the_follower_page_in_the_dark_on_a_tablet_and_its_bad_input(browser, server_url):
    errors: list[str] = []
    lecturer_context = browser.new_context(viewport=PROJECTOR)
    lecturer = lecturer_context.new_page()
    lecturer.set_default_timeout(timeout_ms(25_000))
    lecturer.goto(f"{server_url}/?lecture=1")
    wait_idle(lecturer)
    lecturer.get_by_role("button", name="Lecture notes' example").press("Enter")
    settle(lecturer, 600)
    wait_status(lecturer, "Step 0 / 20")
    code, link = started(lecturer)
    tablet_context = browser.new_context(**TABLET, color_scheme="dark")
    try:
        tablet = follower(tablet_context, link, errors)
        ready(tablet)
        same_status(lecturer, tablet)
        dark = tablet.evaluate("() => getComputedStyle(document.documentElement).backgroundColor")
        assert dark == "rgb(23, 22, 20)"  # the app's dark page (viz/palette.py PAGE)
        assert tablet.locator(".pl-stepper.pl-dark").count() == 1  # the chart in the dark's colours
        tablet.screenshot(path=ARTIFACTS / "follower_tablet_dark.png")
        accessible(tablet, "follower_tablet_dark")
        # the keyboard: → steps on one's own (exploring), Enter on Rejoin comes back
        press(tablet, "ArrowRight")
        wait_strip(tablet, "Exploring on your own")
        wait_status(tablet, "Step 1 / 20")
        rejoin = tablet.get_by_role("button", name=re.compile("Rejoin the class"))
        rejoin.focus()
        tablet.keyboard.press("Enter")
        wait_strip(tablet, "Following the class")
        same_status(lecturer, tablet)

        # a wrong code, a code that is not one: said in words, the first with a retry
        wrong = follower(tablet_context, f"{server_url}/follow?class=ABCD-EFGH", errors)
        wrong.wait_for_function("() => /No class has the code ABCD-EFGH/.test("
                                "document.querySelector('#pl-line-words').textContent)")
        assert "Trying again in" in wrong.locator(LINE).inner_text()
        assert wrong.get_by_role("button", name="Try again now").is_visible()
        typed = follower(tablet_context, f"{server_url}/follow?class=<b>x</b>", errors)
        typed.locator(LINE).get_by_text("is not a class code").wait_for()
        assert typed.locator("#pl-line b").count() == 0  # as text, never as markup
        assert "\u201c<b>x</b>\u201d" in typed.locator(LINE).inner_text()

        # a server that is busy, then a run it no longer has: each a line and a retry
        busy = tablet_context.new_page()
        busy.on("pageerror", lambda error: errors.append(str(error)))
        busy.route(f"**/class/{code}*", lambda route: route.fulfill(
            status=503, content_type="application/json", headers={"Retry-After": "2"},
            body='{"error": "classes are unavailable for a moment; try again"}'))
        busy.route("**/class/run/*", lambda route: route.fulfill(
            status=404, content_type="application/json", body='{"error": "no run"}'))
        busy.goto(link)
        busy.locator(LINE).get_by_text("busy for a moment").wait_for()
        busy.unroute(f"**/class/{code}*")
        busy.get_by_role("button", name="Try again now").click()
        busy.locator(LINE).get_by_text("no longer has this view's picture").wait_for()
        busy.unroute("**/class/run/*")
        busy.get_by_role("button", name="Try again now").click()
        ready(busy)
        assert busy.locator("#pl-line").is_hidden()
        same_status(lecturer, busy)
    finally:
        tablet_context.close()
        lecturer_context.close()
    assert errors == []


def test_the_follower_page_on_another_process_draws_the_run_its_lecturer_kept_in_redis(browser):
    from tests.browser.test_class_redis import REDIS_PASSWORD, redis_server, streamlit_process

    errors: list[str] = []
    with redis_server(password=REDIS_PASSWORD) as redis_url, \
            streamlit_process(redis_url, "follower_lecturer") as lecturer_url, \
            streamlit_process(redis_url, "follower_students") as student_url:
        lecturer_context = browser.new_context(viewport=PROJECTOR)
        phone_context = browser.new_context(**PHONE)
        try:
            lecturer = lecturer_context.new_page()
            lecturer.set_default_timeout(timeout_ms(25_000))
            lecturer.goto(lecturer_url)
            wait_idle(lecturer)
            lecturer.get_by_role("button", name="Lecture notes' example").press("Enter")
            settle(lecturer, 600)
            wait_status(lecturer, "Step 0 / 20")
            code, _ = started(lecturer)
            lecturer.get_by_role("button", name="Hide the code").click()
            settle(lecturer, 500)
            press(lecturer, "ArrowRight", 3)
            # the phone on the other process: the run comes from Redis, the steps by pub/sub
            phone = follower(phone_context, f"{student_url}/follow?class={code}", errors)
            ready(phone)
            same_status(lecturer, phone)
            press(lecturer, "ArrowRight", 2)
            same_status(lecturer, phone)
            # another setting: a new run, kept by the lecturer's process, drawn on the other
            eta = sidebar(lecturer).get_by_label("Learning rate η")
            eta.fill("0.5")
            eta.press("Enter")
            settle(lecturer, 800)
            phone.wait_for_function("() => window.__plFollow.viewSeq > 2")
            ready(phone)
            same_status(lecturer, phone)
            drawn = phone.evaluate("() => [window.__plFollow.run, document.querySelector("
                                   "'.pl-class').parentElement.__plClass.state.run]")
            assert drawn[0] == drawn[1] and drawn[0] is not None  # the class's new run
            assert phone.locator(".pl-explain").inner_text() == \
                lecturer.locator(".pl-explain").inner_text()  # its maths, at η = 0.5
        finally:
            phone_context.close()
            lecturer_context.close()
    assert errors == []
