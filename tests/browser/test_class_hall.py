"""A class as a lecture hall meets it: a lecturer's reload in the middle of presses, a lesson
changed from the sidebar, a question asked while the phones look at the top of the page."""

from __future__ import annotations

import json
import re
import urllib.request

import pytest

from testkit.class_journey import (
    LAPTOP,
    LOG,
    PHONE,
    PROJECTOR,
    describe,
    open_page,
    press,
    sidebar,
    strip,
    wait_strip,
)
from testkit.stepper import ready, step_of, wait_status
from tests.browser.conftest import ARTIFACTS, settle, timeout_ms, wait_idle

pytestmark = pytest.mark.browser

CLASS = r"Class [A-Z0-9]{4}-[A-Z0-9]{4}"


def start_class(page) -> str:
    sidebar(page).get_by_role("button", name="Start a class").click()
    settle(page, 500)
    wait_strip(page, CLASS)
    return "".join(re.search(r"Class (\w{4})-(\w{4})", strip(page)).group(1, 2))


def class_state(server_url: str, code: str) -> dict:
    with urllib.request.urlopen(f"{server_url}/class/{code}", timeout=10) as reply:
        return json.load(reply)


# the steps a follower's stepper was told to show, in order (from class_journey's LOG)
HEARD_STEPS = """() => __plLog.filter((e) => e[1] === 'pl-class')
                              .map((e) => JSON.parse(e[2].length < 120 ? e[2] : '{}').k)
                              .filter((k) => Number.isInteger(k))"""

# the lecturer's strip is done with the page it was drawn on: its stepper stands where the
# class is (no press is waiting for the server), and it has nothing left to take
AT_THE_CLASS = """() => {
  const c = document.querySelector('.pl-class')?.parentElement?.__plClass;
  const box = document.querySelector('.pl-stepper:not(.pl-follower)');
  return Boolean(c && c.state && box && box.dataset.step !== undefined && !c.resuming
                 && !c.posting && Number(box.dataset.step) === c.state.step);
}"""


def test_a_lecturers_reload_resumes_at_the_classs_step(browser, server_url):
    errors: list[str] = []
    context, lecturer = open_page(
        browser, f"{server_url}/?data=noisy-blobs-generator&n=1000", PROJECTOR, errors)
    phone_context, phone = None, None
    try:
        ready(lecturer)
        code = start_class(lecturer)
        phone_context, phone = open_page(browser, f"{server_url}/?class={code}", PHONE, errors)
        ready(phone)
        wait_strip(phone, "Following the class")
        for _ in range(2):
            # three presses 0.3 s apart, the tab reloaded 0.1 s after the last: the address
            # bar's step (reported after a pause) is still the one before the presses
            start = step_of(lecturer)
            press(lecturer, "ArrowRight")
            for _ in range(2):
                lecturer.wait_for_timeout(300)
                lecturer.keyboard.press("ArrowRight")
            # the page draws a press in its next frame: a loaded machine can be a frame behind
            pressed = start + 3
            wait_status(lecturer, f"Step {pressed} /")
            lecturer.wait_for_timeout(100)
            before = class_state(server_url, code)["step"]
            lecturer.reload()
            wait_idle(lecturer)
            ready(lecturer)
            wait_strip(lecturer, CLASS)
            lecturer.wait_for_function(AT_THE_CLASS)
            after = class_state(server_url, code)["step"]
            assert before <= after <= pressed, describe(lecturer, phone)
            assert step_of(lecturer) == after
            wait_status(phone, f"Step {after} /")
        heard = phone.evaluate(HEARD_STEPS)
        assert heard == sorted(heard), f"the room was moved back: {heard}"
        assert not errors
    finally:
        if phone_context is not None:
            phone_context.close()
        context.close()


def test_a_lesson_changed_in_a_class_keeps_the_lecturers_view(browser, server_url):
    errors: list[str] = []
    context, lecturer = open_page(browser, server_url, LAPTOP, errors)
    phone_context = None
    try:
        ready(lecturer)
        code = start_class(lecturer)
        phone_context, phone = open_page(browser, f"{server_url}/?class={code}", PHONE, errors)
        ready(phone)
        lecturer.get_by_role("button", name="Lecture notes' example").click()
        settle(lecturer, 500)
        wait_status(lecturer, "Step 0 / 20 ")
        sidebar(lecturer).get_by_role("link", name=re.compile("Margin")).click()
        lecturer.wait_for_function("() => location.pathname.endsWith('/margin')")
        wait_idle(lecturer)
        ready(lecturer)
        # the example's start, w, b and eta on the lesson the sidebar opened, as alone
        wait_status(lecturer, "Step 0 / 20 ")
        query = lecturer.evaluate("() => location.search")
        for kept in ("init=typed", "w1=0.2", "b=-0.1", "eta=0.1"):
            assert kept in query
        phone.wait_for_function("() => location.pathname.endsWith('/margin')")
        wait_idle(phone)
        ready(phone)
        wait_status(phone, "Step 0 / 20 ")
        # and back: the same view
        sidebar(lecturer).get_by_role("link", name=re.compile("Step through")).click()
        lecturer.wait_for_function("() => !location.pathname.endsWith('/margin')")
        wait_idle(lecturer)
        ready(lecturer)
        wait_status(lecturer, "Step 0 / 20 ")
        phone.wait_for_function("() => !location.pathname.endsWith('/margin')")
        wait_idle(phone)
        ready(phone)
        wait_status(phone, "Step 0 / 20 ")
        view = class_state(server_url, code)["view"]
        assert "w1=0.2" in view and "eta=0.1" in view
        assert not errors
    finally:
        if phone_context is not None:
            phone_context.close()
        context.close()


# the question's box on the phone's screen, its answers in reach
QUESTION_IN_VIEW = """() => {
  const box = document.querySelector('.pl-stepper:not(.pl-follower) .pl-quiz');
  if (!box || box.hidden || !box.querySelector('.pl-choices button')) return false;
  const r = box.querySelector('.pl-choices').getBoundingClientRect();
  return r.top >= 0 && r.bottom <= innerHeight;
}"""


def test_a_question_comes_into_view_on_a_following_phone(browser, server_url):
    errors: list[str] = []
    context, lecturer = open_page(browser, server_url, LAPTOP, errors)
    phone_context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    try:
        ready(lecturer)
        code = start_class(lecturer)
        phone_context.add_init_script(LOG)
        phone = phone_context.new_page()
        phone.set_default_timeout(timeout_ms(25_000))
        phone.on("pageerror", lambda error: errors.append(str(error)))
        phone.goto(f"{server_url}/?class={code}")
        wait_idle(phone)
        ready(phone)
        wait_strip(phone, "Following the class")
        assert not phone.evaluate(QUESTION_IN_VIEW)
        lecturer.get_by_role("button", name="Ask: mistake or not?").click()
        phone.wait_for_function(QUESTION_IN_VIEW)
        # a screen reader hears it: the strip's live status says a question is asked
        said = phone.locator(".pl-class-text")
        assert said.get_attribute("aria-live") == "polite"
        wait_strip(phone, "The lecturer asks a question")
        phone.screenshot(path=ARTIFACTS / "class_phone_question.png")
        phone.locator(".pl-quiz .pl-choices").get_by_role("button", name="No mistake").tap()
        wait_strip(phone, "Following the class")
        wait_strip(lecturer, r"1 answer from \d+ following")
        assert not errors
    finally:
        phone_context.close()
        context.close()


# every stepper and class strip a page ever had (a new one is a new mount: a stepper's chart
# drawn again, a strip's stream opened again), and whether its strip was ever away
MOUNTS_SEEN = """
window.__plSeen = { '.pl-stepper': [], '.pl-class': [] };
window.__plStripAway = false;
new MutationObserver(() => {
  for (const [selector, seen] of Object.entries(window.__plSeen)) {
    for (const el of document.querySelectorAll(selector)) {
      if (!seen.includes(el)) seen.push(el);
    }
  }
  if (window.__plSeen['.pl-class'].length && !document.querySelector('.pl-class')) {
    window.__plStripAway = true;
  }
}).observe(document, { childList: true, subtree: true });
"""
SEEN = "(selector) => window.__plSeen[selector].length"


def test_a_late_phone_opens_on_the_picture_and_keeps_it_as_the_page_comes(browser, server_url):
    """A hall's phones after the first open the view's first screen (ui/first_screen.py): the
    class's picture at its step, then the whole page under and around the same stepper, which
    goes on following the lecturer."""
    errors: list[str] = []
    # a view of this test's own: the server keeps a first screen per view, whichever class
    context, lecturer = open_page(
        browser, f"{server_url}/?data=noisy-blobs-generator&n=997&dseed=29", LAPTOP, errors)
    phones = []
    try:
        ready(lecturer)
        code = start_class(lecturer)
        press(lecturer, "ArrowRight", 4)
        wait_status(lecturer, "Step 4 /")
        lecturer.wait_for_function(AT_THE_CLASS)
        first = open_page(browser, f"{server_url}/?class={code}", PHONE, errors)
        phones.append(first[0])
        ready(first[1])  # (its page drew the view in full: this process keeps its first screen)
        wait_strip(first[1], "Following the class")
        assert first[1].evaluate("window.plRest") is None
        late = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
        phones.append(late)
        late.add_init_script(LOG + MOUNTS_SEEN)
        phone = late.new_page()
        phone.set_default_timeout(timeout_ms(25_000))
        phone.on("pageerror", lambda error: errors.append(str(error)))
        phone.goto(f"{server_url}/?class={code}")
        ready(phone)
        assert step_of(phone) == 4
        # the first screen asks for the rest once its picture is drawn, and the rest comes
        phone.wait_for_function("window.plRest?.why === 'drawn'")
        wait_idle(phone)
        phone.get_by_role("button", name="Lecture notes' example").wait_for()
        wait_strip(phone, "Following the class")
        # one stepper and one strip all along: the rest drew them again where they were
        assert phone.evaluate(SEEN, ".pl-stepper") == 1, describe(phone)
        assert phone.evaluate(SEEN, ".pl-class") == 1, describe(phone)
        assert not phone.evaluate("window.__plStripAway")
        press(lecturer, "ArrowRight", 2)
        wait_status(phone, "Step 6 /")
        assert phone.evaluate(SEEN, ".pl-stepper") == 1
        assert not errors
    finally:
        for phone_context in phones:
            phone_context.close()
        context.close()


def test_a_projectors_class_bar_stays_through_the_lecturers_runs(browser, server_url):
    """On a projector the class's bar sits on the title's row (ui.classroom.title_slot): a run
    of the whole page (the notes' example) keeps it there all along, the same strip."""
    errors: list[str] = []
    context, projector = open_page(browser, f"{server_url}/?lecture=1", PROJECTOR, errors,
                                   prepare=lambda context: context.add_init_script(MOUNTS_SEEN))
    try:
        ready(projector)
        start_class(projector)
        projector.get_by_role("button", name="Hide the code").click()
        settle(projector, 500)
        projector.locator('[data-testid="stHorizontalBlock"] .pl-class').wait_for()
        projector.evaluate("() => { window.__plSeen['.pl-class'] = "
                           "[document.querySelector('.pl-class')]; "
                           "window.__plStripAway = false; }")
        projector.get_by_role("button", name="Lecture notes' example").press("Enter")
        settle(projector, 500)
        wait_status(projector, "Step 0 / 20")
        wait_strip(projector, CLASS)
        assert not projector.evaluate("window.__plStripAway"), describe(projector)
        assert projector.evaluate(SEEN, ".pl-class") == 1, describe(projector)
        assert not errors, errors
    finally:
        context.close()
