"""Outside text stays text: hostile share links and a hostile file on every lesson, in Chromium.

A class name from a link or a file that Markdown, Plotly or LaTeX would read
as markup could put a live link or an image from another host on the page
(that host then sees every student who opens the link) or draw a fake alert.
Each lesson is opened with such links and with such a file uploaded; the page
must hold no element pointing at another host, the browser must send no
request to it, and no fake alert may be drawn.
"""

from __future__ import annotations

from urllib.parse import quote, urlparse

import pytest

from testkit.stepper import ready
from tests.browser.conftest import (
    ARTIFACTS,
    CHARTS,
    assert_no_exception,
    timeout_ms,
    wait_idle,
)
from ui.url_state import encode_names

pytestmark = pytest.mark.browser

EVIL = "evil.example"
LESSONS = ["", "margin", "boolean", "nonseparable", "svm", "variants", "your_data"]
# the lessons whose first view steps a run in the page: its legend carries the names too
STEPPED = {"", "margin", "nonseparable"}
NAMES = {
    "markdown": ("[Answers](https://evil.example/a)", "![t](https://evil.example/t.png)"),
    "html": ("<a href='https://evil.example'>x</a>", ":red[**SESSION EXPIRED**]"),
}
# A file whose name and labels carry the same markup.
HOSTILE_FILE = (
    "x1,x2,label\n"
    '0,0,"[Answers](https://evil.example/a)"\n'
    "1,1,<img src='https://evil.example/i.png'>\n"
    '2,0,"[Answers](https://evil.example/a)"\n'
    "3,1,<img src='https://evil.example/i.png'>\n"
)
FILE_NAME = "![t](https:⁄⁄evil.example⁄f.png) :red[**SESSION EXPIRED**].csv"

POINTING = """(host) => [...document.querySelectorAll('*')].filter((e) =>
  ['href', 'src', 'xlink:href', 'srcset', 'action', 'data', 'poster', 'background']
    .some((a) => (e.getAttribute(a) || '').includes(host))
  || (getComputedStyle(e).backgroundImage || '').includes(host)
).map((e) => e.outerHTML.slice(0, 200))"""
FAKE_ALERT = """() => [...document.querySelectorAll('strong, b, span, em, mark')]
  .filter((e) => e.textContent.trim() === 'SESSION EXPIRED').map((e) => e.outerHTML)"""


# every chart of the page drawn by Plotly (a name from outside is in its legend, its hover
# text, its alt text): what a fixed wait hoped to give the page
DRAWN = f"""() => [...document.querySelectorAll('{CHARTS}')].every(
  (chart) => chart.querySelector('.js-plotly-plot')?._fullLayout)"""


def open_tab(browser):
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    tab = context.new_page()
    tab.set_default_timeout(timeout_ms(30_000))
    requests: list[str] = []
    context.on("request", lambda request: requests.append(request.url))
    return context, tab, requests


def drawn(tab, lesson: str) -> None:
    """Wait until the lesson's script is done and every chart of it is drawn."""
    wait_idle(tab)
    tab.wait_for_function(DRAWN)
    if lesson in STEPPED:
        ready(tab)


def check(tab, requests, where: str) -> None:
    assert_no_exception(tab)
    assert tab.evaluate(POINTING, EVIL) == [], where
    assert tab.evaluate(FAKE_ALERT) == [], where
    assert not [url for url in requests if EVIL in (urlparse(url).hostname or "")], where


@pytest.mark.parametrize("kind", NAMES)
def test_hostile_links_on_every_lesson(browser, server_url, kind):
    names = encode_names(NAMES[kind])
    query = f"pts=0,0,-;1,1,%2B;2,0,-&cls={quote(names, safe=',')}&t=1"
    # one tab: each address opens a session of its own, as a student's click on the link does
    context, tab, requests = open_tab(browser)
    for lesson in LESSONS:
        tab.goto(f"{server_url}/{lesson}?{query}")
        drawn(tab, lesson)
        where = f"/{lesson} with {kind} names"
        check(tab, requests, where)
        sidebar = tab.get_by_test_id("stSidebar").inner_text()
        if lesson != "boolean":  # (its sidebar has no data picker)
            # as text, character for character: what a student copies is the name itself
            assert NAMES[kind][0] in sidebar and NAMES[kind][1] in sidebar, where
        if lesson == "":
            tab.screenshot(path=ARTIFACTS / f"outside_text_{kind}.png", full_page=True)
    context.close()


def test_a_hostile_file_on_every_lesson(browser, server_url, tmp_path):
    path = tmp_path / FILE_NAME
    path.write_text(HOSTILE_FILE, encoding="utf-8")
    context, tab, requests = open_tab(browser)
    tab.goto(server_url)
    wait_idle(tab)
    tab.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(str(path))
    # the file's labels reach the sidebar (as text) once the page has read it
    tab.wait_for_function("(label) => document.querySelector('[data-testid=\"stSidebar\"]')"
                          "?.innerText.includes(label)", arg=NAMES["markdown"][0])
    drawn(tab, "")
    check(tab, requests, "after the upload")
    sidebar = tab.get_by_test_id("stSidebar").inner_text()
    assert "[Answers](https://evil.example/a)" in sidebar
    for lesson in LESSONS[1:]:
        link = tab.get_by_test_id("stSidebarNav").locator(f'a[href$="/{lesson}"]')
        link.click()
        # the address is the lesson's once its script has started: then wait for its end
        tab.wait_for_function("(path) => location.pathname.endsWith(path)", arg=f"/{lesson}")
        drawn(tab, lesson)
        check(tab, requests, f"/{lesson} with the hostile file")
    tab.screenshot(path=ARTIFACTS / "outside_text_file.png", full_page=True)
    context.close()
