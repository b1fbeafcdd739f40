"""A real Streamlit server and a real headless Chromium for the journeys in this folder."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.browser.chromium import CHROMIUM_ARGS, free_port, system_chromium

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "tests" / "artifacts"
# every chart's box on a page, in page order: ui/chart.py's (drawn by the page's own Plotly),
# and any st.plotly_chart's (the app has none; a page of the benchmarks does)
CHARTS = '[data-testid="stPlotlyChart"], .pl-page-chart'


def _slowness() -> float:
    """How many times longer than on an idle machine to wait for the browser.

    BROWSER_SLOWNESS when set; otherwise the load per core, between 1 and 6: the load when
    the tests start or, when more, the run's own (each worker keeps about a core busy: its
    Chromium, its server and itself), so that 3 workers on 2 cores wait 1.5 times as long
    and a 2-core machine already running 8 jobs waits 4 times as long.
    """
    if os.environ.get("BROWSER_SLOWNESS"):
        return max(1.0, float(os.environ["BROWSER_SLOWNESS"]))
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    return min(6.0, max(1.0, max(load, workers) / (os.cpu_count() or 1)))


SLOWNESS = _slowness()


def timeout_ms(ms: float) -> int:
    """A wait of ``ms`` on an idle machine, stretched for this one (see _slowness)."""
    return int(ms * SLOWNESS)

@pytest.fixture(scope="session")
def server_url():
    """Start `streamlit run app.py` on a free port and wait until it is healthy."""
    port = free_port()
    log = open(ARTIFACTS.mkdir(exist_ok=True) or ARTIFACTS / "server.log", "w")  # noqa: SIM115
    process = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
         "--server.port", str(port), "--server.address", "127.0.0.1",
         "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"],
        cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60 * SLOWNESS
    while True:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
                if response.read() == b"ok":
                    break
        except OSError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            pytest.fail(f"streamlit did not start; see {log.name}")
        time.sleep(0.3)
    yield url
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
    log.close()


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


def wait_idle(tab) -> None:
    """Wait until the app has drawn, the script is no longer running and no more of the page
    is on its way (a projector's first run ends at its picture: ui.rest_later)."""
    tab.wait_for_selector('[data-testid="stApp"]')
    tab.wait_for_selector('[data-testid="stMainBlockContainer"]')
    tab.wait_for_function(
        """() => document.querySelector('[data-testid="stApp"]')
                   ?.getAttribute('data-test-script-state') === 'notRunning'
                 && !document.querySelector('.pl-rest-pending')"""
    )
    tab.wait_for_timeout(150)


def settle(tab, ms: int = 400) -> None:
    """Give the app ``ms`` to take an input in, then wait until its script is idle again."""
    tab.wait_for_timeout(ms)
    wait_idle(tab)


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
