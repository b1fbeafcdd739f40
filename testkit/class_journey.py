"""A whole class in real Chromium: a lecturer's page and two students' pages, each in its own
browser context (its own Streamlit session and its own voter cookie).

``journey`` is run on one server (test_class_journey.py) and across two servers sharing a
Redis (test_class_redis.py): the lecturer's page on ``lecturer_url``, the students' on
``student_url``.
"""

from __future__ import annotations

import base64
import contextlib
import re

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from testkit.browser import ARTIFACTS, settle, timeout_ms, wait_drawn, wait_idle
from testkit.stepper import ready, status, wait_status, wait_url_step
from ui.classroom import qr_svg

PROJECTOR = {"width": 1280, "height": 720}
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1200, "height": 900}


# what a page's class heard and did, kept for a failure's message
LOG = """
window.__plLog = [];
const note = (...what) => window.__plLog.push([Math.round(performance.now()), ...what]);
for (const name of ['pl-class', 'pl-step', 'pl-class-rerun']) {
  addEventListener(name, (e) => note(name, JSON.stringify(e.detail).slice(0, 120)), true);
}
addEventListener('keydown', (e) => note('key', e.key, document.activeElement?.tagName,
                                        String(document.activeElement?.className).slice(0, 40)),
                 true);
"""


def open_page(browser, url: str, viewport: dict, errors: list, prepare=None):
    """A page of its own context at ``url``, its errors into ``errors``; ``prepare(context)``
    runs before it opens (e.g. to give it a cookie)."""
    context = browser.new_context(viewport=viewport)
    context.add_init_script(LOG)
    if prepare:
        prepare(context)
    page = context.new_page()
    page.set_default_timeout(timeout_ms(25_000))
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url)
    wait_idle(page)
    return context, page


def strip(page) -> str:
    return page.locator(".pl-class").inner_text()


def wait_strip(page, pattern: str) -> None:
    """Wait until the class strip's text matches the regular expression ``pattern``."""
    try:
        page.wait_for_function(
            "(p) => new RegExp(p).test(document.querySelector('.pl-class')?.innerText ?? '')",
            arg=pattern)
    except PlaywrightTimeout as timeout:
        said = page.evaluate("() => document.querySelector('.pl-class')?.innerText ?? null")
        raise AssertionError(f"the strip never matched {pattern!r}; it says {said!r}") \
            from timeout


def same_status(lecturer, *students) -> str:
    """Wait until every student's stepper says what the lecturer's says; that text."""
    wanted = ""
    while wanted != status(lecturer):  # the lecturer's own page has drawn its last press
        wanted = status(lecturer)
        lecturer.wait_for_timeout(400)
    for page in students:
        wait_status(page, wanted)
    return wanted


def press(page, key: str, times: int = 1) -> None:
    page.locator(".pl-status").first.click()  # the page has focus, no field has
    for _ in range(times):
        page.keyboard.press(key)


def ask(lecturer, name) -> None:
    """The lecturer opens the strip's questions (a disclosure: the strip keeps one row on a
    projector) and asks the one named ``name``."""
    lecturer.locator(".pl-class-more > summary").click()
    lecturer.locator(".pl-class-more").get_by_role("button", name=name).click()


LINE_QUESTION = "Ask: draw the boundary after the next step"


def ask_a_line(lecturer) -> None:
    """The lecturer steps on (a press at a time, 12 at most) to a step whose next boundary
    crosses the plane, where the strip offers the line question, and asks it."""
    offer = lecturer.get_by_role("button", name=LINE_QUESTION, include_hidden=True)
    for _ in range(12):
        if offer.count():
            break
        press(lecturer, "ArrowRight")
        lecturer.wait_for_timeout(600)
    ask(lecturer, LINE_QUESTION)


def class_key(lecturer) -> str:
    """The lecturer's key, from the strip component's memory (it is in no page text)."""
    return lecturer.evaluate(
        "() => document.querySelector('.pl-class').parentElement.__plClass.key")


# the sidebar open (or folded) as asked and at rest: at one place in two frames in a row
# (polled once a frame; __plBarAt is cleared before each wait)
SIDEBAR_AT_REST = """(shown) => {
  const bar = document.querySelector('[data-testid="stSidebar"]');
  const open = bar && (bar.getAttribute('aria-expanded') === 'true'
                       || bar.getAttribute('data-collapsed') === 'false');
  if (!bar || open !== shown) return false;
  const r = bar.getBoundingClientRect(), at = `${r.left},${r.right}`;
  const still = window.__plBarAt === at;
  window.__plBarAt = at;
  return still;
}"""


def sidebar(page):
    """Open the sidebar if it is collapsed; its locator."""
    bar = page.get_by_test_id("stSidebar")
    if bar.get_attribute("aria-expanded") == "false" or \
            bar.get_attribute("data-collapsed") == "true":
        page.get_by_test_id("stExpandSidebarButton").click()
        wait_sidebar(page, shown=True)
    return bar


# the plane's legend's foot in the window
LEGEND_BOTTOM = ("() => document.querySelector('[data-testid=\"stMain\"] .pl-plane .legend')"
                 ".getBoundingClientRect().bottom")


def collapse(page) -> None:
    """Fold the sidebar away (its button shows while the pointer is over it)."""
    bar = page.get_by_test_id("stSidebar")
    if bar.get_attribute("aria-expanded") != "false" and \
            bar.get_attribute("data-collapsed") != "true":
        bar.hover()
        page.get_by_test_id("stSidebarCollapseButton").click()
        wait_sidebar(page, shown=False)


def wait_sidebar(page, *, shown: bool) -> None:
    """Wait until the sidebar is open (or folded away) and has stopped sliding."""
    page.evaluate("() => { delete window.__plBarAt; }")
    page.wait_for_function(SIDEBAR_AT_REST, arg=shown)


def start_class(lecturer, *, hide: bool = True) -> str:
    """A class started from the lecturer's sidebar (its join card hidden again and the sidebar
    closed, unless ``hide`` is False); its code."""
    sidebar(lecturer).get_by_role("button", name="Start a class").click()
    settle(lecturer, 500)
    wait_strip(lecturer, r"Class [A-Z0-9]{4}-[A-Z0-9]{4}")
    code = "".join(re.search(r"Class (\w{4})-(\w{4})", strip(lecturer)).group(1, 2))
    if hide:
        lecturer.get_by_role("button", name="Hide the code").click()
        settle(lecturer, 500)
        collapse(lecturer)
    return code


def journey(browser, lecturer_url: str, student_url: str, *, shots: str | None = None) -> None:
    errors: list[str] = []
    lecturer_context, lecturer = open_page(
        browser, f"{lecturer_url}/?lecture=1", PROJECTOR, errors)
    try:
        _journey(browser, lecturer, lecturer_url, student_url, errors, shots)
    finally:
        lecturer_context.close()


STATE = """() => {
  const c = document.querySelector('.pl-class')?.parentElement?.__plClass;
  return c ? {mode: c.mode, n: c.n, viewSeq: c.viewSeq, state: c.state, ended: c.ended,
              asked: c.askedView, synced: c.synced, tally: c.tally, offline: c.offline,
              stream: c.es?.readyState ?? null, url: location.href} : null;
}"""


# every stepper's status line on a page
STATUS = "() => [...document.querySelectorAll('.pl-status')].map((s) => s.textContent)"


def describe(*pages) -> str:
    """What each page's strip knows and the last of what it heard (for a failure's message)."""
    return "\n".join(f"{page.evaluate(STATE)}\n  status: "
                     f"{page.evaluate(STATUS)}\n  {page.evaluate('() => __plLog.slice(-40)')}"
                     for page in pages)


def _journey(browser, lecturer, lecturer_url, student_url, errors, shots) -> None:
    # ---- start: the projector shows the code, the link and the QR code of the link
    # (on a projector's 720 px the page's header lies over the title's row: pressed by key)
    lecturer.get_by_role("button", name="Lecture notes' example").press("Enter")
    settle(lecturer, 500)
    # the example drawn before the next click: a click sends the page's widget values, and
    # one sent before the example's run reached the page would undo its learning rate
    wait_status(lecturer, "Step 0 / 20")
    sidebar(lecturer).get_by_role("button", name="Start a class").click()
    settle(lecturer, 500)
    wait_strip(lecturer, r"Class [A-Z0-9]{4}-[A-Z0-9]{4}")
    code = re.search(r"Class (\w{4})-(\w{4})", strip(lecturer)).group(1, 2)
    code = "".join(code)
    link = lecturer.get_by_test_id("stCode").first.inner_text().strip()
    # the follower page (no session), with the class's join ticket: no lookup to refuse
    assert link.startswith(f"{lecturer_url}/follow?class={code}&ticket=")
    # the server listens on loopback only: the card says plainly that no phone opens this link
    said = lecturer.get_by_test_id("stAlert").filter(has_text="this computer only")
    assert "PERCEPTRON_LAB_PUBLIC_URL" in said.inner_text()
    src = lecturer.locator('[data-testid="stImage"] img').first.get_attribute("src")
    assert src.startswith("data:image/svg+xml;base64,")
    drawn = base64.b64decode(src.split(",", 1)[1]).decode()
    assert qr_svg(link).split("<path", 1)[1] in drawn  # the QR code is the link's
    key = class_key(lecturer)
    assert re.fullmatch(r"[A-Za-z0-9_-]{43}", key)
    if shots:  # the projector as the room first sees it
        collapse(lecturer)
        lecturer.screenshot(path=f"{shots}/class_join.png")

    # ---- join: one student by the QR code's link (on a phone), one by typing the code
    phone_context, phone = open_page(browser, f"{student_url}/?class={code}", PHONE, errors)
    laptop_context, laptop = open_page(browser, student_url, LAPTOP, errors)
    try:
        _room(browser, lecturer, phone, laptop, code, key, student_url, errors, shots)
    except BaseException:
        ARTIFACTS.mkdir(exist_ok=True)
        for name, page in (("lecturer", lecturer), ("phone", phone), ("laptop", laptop)):
            page.screenshot(path=ARTIFACTS / f"class_failed_{name}.png")
        print(describe(lecturer, phone, laptop))
        raise
    finally:
        phone_context.close()
        laptop_context.close()


def _room(browser, lecturer, phone, laptop, code, key, student_url, errors, shots) -> None:
    sidebar(laptop).get_by_label("Join a class").fill(f"{code[:4].lower()}-{code[4:]}")
    laptop.get_by_role("button", name="Join", exact=True).click()
    settle(laptop, 500)
    students = (phone, laptop)
    for page in students:
        wait_strip(page, f"Following the class {code[:4]}-{code[4:]}")
        ready(page)
    wait_status(lecturer, "Step 0 / 20")
    same_status(lecturer, *students)
    wait_strip(lecturer, "2 following · 0 exploring")

    # ---- the room follows: →, ← and N move every screen in the page (no rerun)
    press(lecturer, "ArrowRight", 3)
    wait_status(lecturer, "Step 3 / 20")
    same_status(lecturer, *students)
    press(lecturer, "ArrowLeft")
    wait_status(lecturer, "Step 2 / 20")
    same_status(lecturer, *students)
    press(lecturer, "n")
    wait_status(lecturer, "Step 4 / 20")
    same_status(lecturer, *students)

    # ---- a setting: η changes on the lecturer's page, every student's page reruns once
    eta = sidebar(lecturer).get_by_label("Learning rate η")
    eta.fill("0.5")
    eta.press("Enter")
    settle(lecturer, 600)
    for page in students:
        page.wait_for_function(
            "() => new URLSearchParams(location.search).get('eta') === '0.5'")
        wait_idle(page)
        ready(page)
    same_status(lecturer, *students)
    press(lecturer, "ArrowRight", 2)
    same_status(lecturer, *students)

    # ---- ask the room: which way does w turn at the next step?
    lecturer.get_by_role("button", name="Ask: which way does w turn?").click()
    for page in students:
        page.locator(".pl-quiz").get_by_role("button", name="Mistake", exact=True).wait_for()
    phone.locator(".pl-quiz").get_by_role("button", name="Mistake", exact=True).click()
    phone.locator(".pl-quiz").get_by_role("button", name="↺ anticlockwise").click()
    laptop.locator(".pl-quiz").get_by_role("button", name="No mistake").click()
    wait_strip(lecturer, r"2 answers from \d+ following")
    for page in students:
        page.locator(".pl-quiz").get_by_text("The room's answers show when").wait_for()
    assert lecturer.locator(".pl-class-bars").count() == 0  # only the count, while open

    # a reload (or a second tab) adds no vote: the server counts each browser once
    phone.reload()
    wait_idle(phone)
    ready(phone)
    phone.locator(".pl-quiz").get_by_text("The room's answers show when").wait_for()
    # following again (its stream open): an answer is refused with 403 before, whatever it is
    phone.wait_for_function(
        "() => document.querySelector('.pl-class')?.parentElement?.__plClass?.es?.readyState"
        " === 1")
    question = phone.evaluate(
        "() => document.querySelector('.pl-class').parentElement.__plClass.state.question.id")
    again = phone.evaluate("""([code, q]) => fetch('class/' + code + '/answer', {
        method: 'POST', headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({question: q, choice: 'clockwise'})}).then(r => r.status)""",
                           [code, question])
    assert again == 409, f"a second answer after a reload: {again}"
    second_tab = phone.context.new_page()
    second_tab.goto(phone.url)
    wait_idle(second_tab)
    ready(second_tab)
    _answer_twice(second_tab)  # a new tab has no memory of the answer: the server has
    second_tab.close()
    lecturer.wait_for_timeout(800)
    wait_strip(lecturer, r"2 answers from \d+ following")

    # ---- reveal: the counts beside the true step, on every screen
    lecturer.get_by_role("button", name="Reveal the answers").click()
    for page in (lecturer, *students):
        page.locator(".pl-class-bars").wait_for()
    same_status(lecturer, *students)
    counts = {page: page.locator(".pl-class-count").all_inner_texts()
              for page in (lecturer, *students)}
    assert all(c == counts[lecturer] for c in counts.values())
    assert sorted(counts[lecturer]) == ["0", "1", "1"]
    assert "answers. It was" in lecturer.locator(".pl-class-truth").inner_text()

    if shots:  # the projector in lecture mode (the join card folded away), and the phone
        lecturer.get_by_role("button", name="Hide the code").press("Enter")
        settle(lecturer, 600)
        collapse(lecturer)
        phone.locator(".pl-class-bars").scroll_into_view_if_needed()
        lecturer.evaluate("() => document.querySelector('[data-testid=\"stMain\"]')"
                          ".scrollTo(0, 0)")
        lecturer.locator(".pl-class-bars").wait_for()
        wait_drawn(lecturer)  # the plane refitted to the room the card left
        # (a chart sized while the page stood scrolled kept that size at the page's top)
        assert lecturer.evaluate(LEGEND_BOTTOM) <= lecturer.viewport_size["height"], \
            "the projector's legend runs past the screen's foot"
        lecturer.screenshot(path=f"{shots}/class_projector.png")
        phone.screenshot(path=f"{shots}/class_phone.png")

    # ---- a lesson: the lecturer opens the margin lesson, the students' pages go there
    # (once the server has the lecturer's step: a click that races the step's report
    # loses the sidebar's settings, with or without a class)
    wait_url_step(lecturer, int(re.match(r"Step (\d+) /", status(lecturer)).group(1)))
    sidebar(lecturer).get_by_role("link", name="Margin and the mistake bound").click()
    settle(lecturer, 800)
    ready(lecturer)
    # the projector stays a projector: lecture mode is its own, and a lesson keeps it
    lecturer.wait_for_function("() => new URLSearchParams(location.search).get('lecture') === '1'"
                               " && getComputedStyle(document.documentElement).fontSize"
                               " === '21px'")
    for page in students:
        page.wait_for_function("() => location.pathname.endsWith('/margin')")
        wait_idle(page)
        ready(page)
        assert page.get_by_role("heading", name=re.compile("Margin")).count() >= 1
    press(lecturer, "ArrowRight", 2)
    same_status(lecturer, *students)

    # ---- explore, then rejoin: a press leaves the class view, one press comes back
    press(phone, "ArrowRight")
    wait_strip(phone, "Exploring on your own")
    wait_strip(lecturer, "1 following · 1 exploring")
    explored = status(phone)
    press(lecturer, "ArrowRight", 3)
    lecturer_status = same_status(lecturer, laptop)
    assert status(phone) == explored
    step = int(re.match(r"Step (\d+) /", lecturer_status).group(1))
    wait_strip(phone, rf"Exploring on your own ·\s*Rejoin the class \(step {step}\)")
    if shots:
        phone.evaluate("() => document.querySelector('[data-testid=\"stMain\"]').scrollTo(0, 0)")
        phone.screenshot(path=f"{shots}/class_phone_exploring.png")
    phone.get_by_role("button", name=re.compile("Rejoin the class")).click()
    wait_strip(phone, "Following the class")
    same_status(lecturer, phone)
    wait_strip(lecturer, "2 following · 0 exploring")

    # a setting of the student's own is exploring too; rejoining brings the class's view
    epochs = sidebar(laptop).get_by_label("Max epochs")
    epochs.fill("7")
    epochs.press("Enter")
    settle(laptop, 600)
    wait_strip(laptop, "Exploring on your own")
    laptop.get_by_role("button", name=re.compile("Rejoin the class")).click()
    laptop.wait_for_function(
        "() => !new URLSearchParams(location.search).has('epochs')")
    wait_idle(laptop)
    wait_strip(laptop, "Following the class")
    ready(laptop)
    same_status(lecturer, laptop)

    # the key is the lecturer's alone: in no student's page, address or Share link
    for page in students:
        assert key not in page.content() and key not in page.url
        assert class_key(page) is None  # nor in the data of their strips
    lecturer.get_by_role("button", name="Share").first.click()
    shared = lecturer.get_by_test_id("stPopoverBody").inner_text()
    lecturer.keyboard.press("Escape")
    assert key not in shared and key not in lecturer.url

    # ---- the class ends: pages keep their view and say so; its code says so too
    kept = status(phone)
    sidebar(lecturer).get_by_role("button", name="End the class").click()
    for page in students:
        wait_strip(page, "has ended. This page keeps its last view.")
    assert status(phone) == kept
    late_context, late = open_page(browser, f"{student_url}/?class={code}", PHONE, errors)
    late.get_by_text(f"The class {code} has ended").wait_for()
    assert late.locator(".pl-stepper").count() == 0  # nothing else opened by itself
    late_context.close()
    assert not errors, errors


def _answer_twice(tab) -> None:
    """A second tab of a browser that answered: its answer is refused and says so."""
    tab.locator(".pl-quiz").get_by_role("button", name="No mistake").click()
    tab.locator(".pl-quiz").get_by_text("You have answered").wait_for()


# the class strip's state in a page (ui/classroom_assets/stream.js keeps it on its root)
CLASS = "document.querySelector('.pl-class')?.parentElement?.__plClass"
# window.__plSockets: how many of the page's Streamlit sockets have opened (one more each time
# the page reconnects, to whichever process nginx gives it; a reconnected page whose last run
# was no fragment's hears nothing more until it asks for something)
SOCKETS = """
window.__plSockets = 0;
window.WebSocket = class extends window.WebSocket {
  constructor(...args) {
    super(...args);
    if (String(args[0]).includes('_stcore/stream')) {
      this.addEventListener('open', () => { window.__plSockets += 1; });
    }
  }
};
"""


def sockets(page) -> int:
    return page.evaluate("() => __plSockets")


def reconnected(page, before: int, timeout: float) -> None:
    """Wait until the page's Streamlit socket has opened again (``before``: sockets(page)
    before the fault), its script is idle, its class stream open and its stepper drawn."""
    page.wait_for_function("(n) => __plSockets > n", arg=before, timeout=timeout)
    settle(page)
    page.wait_for_function(f"() => {CLASS}?.es?.readyState === 1", timeout=timeout)
    ready(page)


def stuck(deployment, program: str):
    """open_page's ``prepare``: the context gets nginx's cookie for ``program``, and SOCKETS."""
    def prepare(context):
        deployment.stick(context, program)
        context.add_init_script(SOCKETS)
    return prepare


def lecturer_and_student(browser, deployment, errors: list):
    """Through a deployment (testkit/deployment.py): a lecturer's page stuck to its first
    process that starts a class, and a student's page stuck to its second that follows it;
    (their contexts, to close; the lecturer's page; the student's; the class's code)."""
    first, second = deployment.streamlits
    lecturer_context, lecturer = open_page(
        browser, deployment.url, PROJECTOR, errors,
        prepare=stuck(deployment, first))
    contexts = [lecturer_context]
    try:
        ready(lecturer)
        sidebar(lecturer).get_by_role("button", name="Start a class").click()
        settle(lecturer, 500)
        wait_strip(lecturer, r"Class [A-Z0-9]{4}-[A-Z0-9]{4}")
        code = "".join(re.search(r"Class (\w{4})-(\w{4})", strip(lecturer)).group(1, 2))
        student_context, student = open_page(
            browser, f"{deployment.url}/?class={code}", LAPTOP, errors,
            prepare=stuck(deployment, second))
        contexts.append(student_context)
        ready(student)
        wait_strip(student, "Following the class")
        wait_strip(lecturer, "1 following")
        assert deployment.serving(lecturer_context) == first
        assert deployment.serving(student_context) == second
    except BaseException:
        ARTIFACTS.mkdir(exist_ok=True)  # what each page showed and heard, for the failure
        for n, context in enumerate(contexts):
            for page in context.pages:
                with contextlib.suppress(Exception):
                    page.screenshot(path=ARTIFACTS / f"class_start_failed_{n}.png")
                    print(describe(page))
            context.close()
        raise
    return contexts, lecturer, student, code
