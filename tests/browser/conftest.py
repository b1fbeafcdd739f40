"""A real Streamlit server and a real headless Chromium for the journeys in this folder."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

# the waits every journey takes (here for the journeys that import them from this file)
from testkit.browser import ARTIFACTS, SLOWNESS, settle, timeout_ms, wait_idle  # noqa: F401
from testkit.chromium import CHROMIUM_ARGS, system_chromium
from testkit.servers import streamlit_server

ROOT = Path(__file__).resolve().parents[2]
# every chart's box on a page, in page order: ui/chart.py's (drawn by the page's own Plotly),
# and any st.plotly_chart's (the app has none; a page of the benchmarks does)
CHARTS = '[data-testid="stPlotlyChart"], .pl-page-chart'


@pytest.fixture(scope="session")
def server_url():
    """Start `streamlit run app.py` on a free port and wait until it is healthy."""
    ARTIFACTS.mkdir(exist_ok=True)
    try:
        with streamlit_server(log=ARTIFACTS / "server.log", timeout=60 * SLOWNESS) as (url, _):
            yield url
    except RuntimeError as failure:
        pytest.fail(str(failure))


@pytest.fixture(scope="session")
def browser():
    """Headless Chromium driven by Playwright."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        executable = system_chromium()
        launched = playwright.chromium.launch(
            headless=True, executable_path=executable, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def tab(browser):
    """A tab on no address yet, at 1400 x 1000, for a test that opens its own link first
    (opening the first lesson before it would be work thrown away): the window of its kind
    that every such test takes in turn (see window()), each page a Streamlit session of its
    own. A test that changes the tab itself (an init script, a listener on its sockets) takes
    ``fresh_tab``."""
    with window(browser, (1400, 1000)) as tab, _errors_kept(tab):
        tab.set_default_timeout(timeout_ms(20_000))
        yield tab


@pytest.fixture
def fresh_tab(browser):
    """A tab in a browser context of its own, on no address yet, at 1400 x 1000."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    tab = context.new_page()
    tab.set_default_timeout(timeout_ms(20_000))
    with _errors_kept(tab):
        yield tab
    context.close()


@contextlib.contextmanager
def _errors_kept(tab):
    """The uncaught JavaScript errors of ``tab`` while the test runs, for page_errors()."""
    errors = ERRORS[id(tab)] = []

    def heard(error) -> None:
        errors.append(error)

    tab.on("pageerror", heard)
    try:
        yield
    finally:
        tab.remove_listener("pageerror", heard)
        ERRORS.pop(id(tab), None)


@pytest.fixture
def page(tab, server_url):
    """The app opened in ``tab`` (a Streamlit session of its own), ready to use."""
    tab.goto(server_url)
    wait_idle(tab)
    return tab


# one tab a kind of window (a touch screen or not) for each browser, see window()
_WINDOWS: dict[tuple[int, bool], tuple] = {}


@contextlib.contextmanager
def window(browser, size: tuple[int, int], *, touch: bool = False, scheme: str = "light"):
    """A tab of ``size`` on no page yet (a phone's, with a touch screen, when ``touch``), the
    browser asking for the ``scheme`` colours.

    One tab a kind serves every journey of that kind in this run, each opening its own link
    in a session of its own: a page opened in a tab that has opened the app before costs the
    browser about half as much (its scripts compiled and cached, its renderer running).
    Journeys that need a fresh browser context (cookies, storage, a class's many people) make
    their own."""
    key = (id(browser), touch)
    if key not in _WINDOWS or _WINDOWS[key][1].is_closed():
        context = browser.new_context(viewport={"width": size[0], "height": size[1]},
                                      has_touch=touch, is_mobile=touch)
        _WINDOWS[key] = (context, context.new_page())
    context, tab = _WINDOWS[key]
    tab.set_default_timeout(timeout_ms(60_000))
    tab.set_viewport_size({"width": size[0], "height": size[1]})
    tab.emulate_media(color_scheme=scheme)
    try:
        yield tab
    finally:
        try:
            # nothing a journey leaves is seen by the next: what the page kept in the
            # browser (Streamlit keeps a sidebar opened by hand in localStorage), its cookies,
            # and the page itself (its session ends before the next journey sizes the tab)
            if tab.url.startswith("http"):
                tab.evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")
            context.clear_cookies()
            tab.goto("about:blank")
        except Exception:  # a tab that cannot leave its page is not taken again
            _WINDOWS.pop(key, None)
            context.close()


ERRORS: dict[int, list] = {}


def page_errors(tab) -> list:
    """The uncaught JavaScript errors of a page opened by the ``page`` fixture."""
    return ERRORS.get(id(tab), [])


def wait_for_state(tab, predicate: str, *, arg=None, ms: int = 5000) -> None:
    """Wait up to ``ms`` (stretched, timeout_ms) for the JS ``predicate`` to hold; when it
    never does, return all the same: the caller's assertion then says what is left. For a
    state a page reaches frames after the event that starts it (a chart's box settling)."""
    with contextlib.suppress(PlaywrightTimeout):
        tab.wait_for_function(predicate, arg=arg, timeout=timeout_ms(ms))


def assert_no_exception(tab) -> None:
    """No traceback reached the page."""
    assert tab.get_by_test_id("stException").count() == 0


def metric_values(tab) -> list[str]:
    """The values of every st.metric on the page, in page order."""
    return tab.get_by_test_id("stMetricValue").all_inner_texts()


def legend_names(chart) -> list[str]:
    """The legend entries Plotly drew inside a chart (or a locator of several charts)."""
    return chart.locator(".legendtext").all_text_contents()
