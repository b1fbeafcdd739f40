"""Every lesson and part on every kind of screen, each opened once a screen kind and checked at
each of its sizes by every journey that needs the view drawn there (the window resized, not the
page opened again: a page open is most of a browser test's time):

- a projector, ?lecture=1, 1280 x 720 then 1024 x 768: what a lecture must show
  (tests/browser/projector.py), nothing fetched from another host, WCAG's automatic checks
  (axe-core) at 1280 x 720, and the picture first (tests/browser/test_picture_first.py);
- a laptop, 1280 x 720 then 1440 x 900: no text cut short, no legend on an axis title, axe in
  the light theme and the dark one, headings that skip no level; the picture first at 1440 x 900
  on the views that step;
- a touch screen: a tablet on its side (1024 x 768), then upright (768 x 1024), a phone
  (390 x 844), the phone with its sidebar open, and lecture mode on the phone (a lecturer's
  remote): nothing scrolls sideways, a legend beside a chart leaves it room, every control takes
  a finger (44 x 44 CSS px), axe on the phone in both modes, and the picture first on the tablet
  on its side and on the phone.

Each journey runs every check; the picture-first shortfalls SHORT expects make it an expected
failure only once every other check has passed.
"""

from __future__ import annotations

from urllib.parse import urlparse

import pytest

from testkit.browser import LAYOUT, wait_drawn
from tests.browser.axe import assert_accessible, axe_script
from tests.browser.conftest import ARTIFACTS, assert_no_exception, wait_for_state, window
from tests.browser.projector import CHART_TEXT, CUT_TEXT, assert_on_a_projector, watch_hosts
from tests.browser.test_access import LEGEND_BESIDE, OVERFLOW
from tests.browser.test_picture_first import (
    LAPTOP,
    LAPTOP_SHARE,
    PHONE,
    PHONE_SHARE,
    PROJECTOR_SHARE,
    PROJECTORS,
    TABLET_SHARE,
    check,
    expect_picture,
    open_view,
    sized,
)
from tests.browser.test_touch import FINGER, TARGETS
from tests.browser.views import VIEWS

pytestmark = pytest.mark.browser

PARAMS = [pytest.param(*view, id=view[0]) for view in VIEWS]
LAPTOPS = [(1280, 720), LAPTOP]  # opened at the first, then the window grows
ON_ITS_SIDE, UPRIGHT = (1024, 768), (768, 1024)

# the main area's headings in order, as a screen reader lists them: (level, words)
HEADINGS = """() => [...document.querySelectorAll(
  '[data-testid="stMain"] :is(h1, h2, h3, h4, h5, h6)')]
  .map((h) => [Number(h.tagName[1]), h.textContent.trim().slice(0, 40)])"""


@pytest.fixture(scope="module")
def own_host(server_url):
    """The server's host: every request must go there."""
    return urlparse(server_url).netloc


def grown(tab, size) -> None:
    """The window resized to ``size`` and the page drawn again at it (its layout still: the
    charts refitted to their boxes)."""
    sized(tab, size)
    wait_drawn(tab)


@pytest.mark.parametrize(("name", "link", "kind"), PARAMS)
def test_a_projector(browser, server_url, own_host, name, link, kind):
    axe_script()  # installed, or the test says how
    problems: list[str] = []
    with window(browser, PROJECTORS[0]) as tab:
        elsewhere = watch_hosts(tab, own_host)
        open_view(tab, server_url, link, lecture=True)
        # the page's rest was asked for once its picture was drawn (ui.rest_later), not after
        # waiting for it in vain; a view of tables and code alone is whole from the start
        # every component of the page ran its code (a box that never does is a part that
        # never came, and every wait for the page drawn would wait for it in vain)
        assert tab.evaluate(LAYOUT)[1] == 0
        asked = tab.evaluate("() => window.plRest ?? null")
        assert asked == (None if kind == "text" else {"page": link.split("?")[0].strip("/")
                                                      or "step_through", "why": "drawn"})
        for width, height in PROJECTORS:
            if (width, height) != PROJECTORS[0]:
                grown(tab, (width, height))
            tab.screenshot(path=ARTIFACTS / f"lecture_{name}_{width}x{height}.png")
            assert_on_a_projector(tab, kind)
            if (width, height) == PROJECTORS[0]:
                assert_accessible(tab, f"{name}-lecture")
            check(tab, f"projector {width}x{height} {name}", kind, PROJECTOR_SHARE, problems,
                  maths=True)
        elsewhere.stop()
        assert elsewhere == []
    expect_picture("projector", name, problems)


@pytest.mark.parametrize(("name", "link", "kind"), PARAMS)
def test_a_laptop(browser, server_url, name, link, kind):
    axe_script()
    problems: list[str] = []
    with window(browser, LAPTOPS[0]) as tab:
        open_view(tab, server_url, link, lecture=False)
        for width, height in LAPTOPS:
            if (width, height) != LAPTOPS[0]:
                grown(tab, (width, height))
            assert_no_exception(tab)
            tab.screenshot(path=ARTIFACTS / f"laptop_{name}_{width}x{height}.png")
            assert tab.evaluate(CUT_TEXT) == [], f"{width} x {height}"
            assert tab.evaluate(CHART_TEXT, 0)["overlaps"] == [], \
                f"legend on an axis title at {width} x {height}"
            if (width, height) == LAPTOPS[0]:  # WCAG's automatic checks, light and dark
                assert_accessible(tab, f"{name}-laptop", dark=True)
                levels = tab.evaluate(HEADINGS)
                assert levels and levels[0][0] == 1, levels
                skipped = [words for (level, words), (above, _)
                           in zip(levels[1:], levels[:-1], strict=True) if level > above + 1]
                assert skipped == [], f"headings that skip a level: {levels}"
            if (width, height) == LAPTOP and kind == "steps":
                check(tab, f"laptop {name}", kind, LAPTOP_SHARE, problems)
    if kind == "steps":
        expect_picture("laptop", name, problems)


def legend_settled(tab, where: str) -> None:
    """No stepper's legend beside its chart taking its room. A chart turns its legend when its
    box has settled, which on a busy machine can come after the page looks drawn: wait for that
    state, then say what is left."""
    wait_for_state(tab, f"() => ({LEGEND_BESIDE})().length === 0")
    assert tab.evaluate(LEGEND_BESIDE) == [], where


@pytest.mark.parametrize(("name", "link", "kind"), PARAMS)
def test_a_touch_screen(browser, server_url, name, link, kind):
    """A tablet on its side, then upright, then a phone, the phone with its sidebar open, and
    lecture mode on the phone (each window resized from the one before: no size twice).

    Two runs side by side (svm_train): as the tablet turns, their columns narrow; the charts
    follow their boxes."""
    axe_script()
    problems: list[str] = []
    small: list[str] = []
    with window(browser, ON_ITS_SIDE, touch=True) as tab:
        open_view(tab, server_url, link, lecture=False)
        check(tab, f"tablet {name}", kind, TABLET_SHARE, problems, tablet=True)
        assert tab.evaluate(OVERFLOW) <= 0, "tablet on its side"
        legend_settled(tab, "tablet on its side")
        small += [f"tablet: {c}" for c in tab.evaluate(TARGETS)]

        grown(tab, UPRIGHT)
        assert tab.evaluate(OVERFLOW) <= 0, "tablet upright"
        legend_settled(tab, "tablet upright")

        grown(tab, PHONE)
        check(tab, f"phone {name}", kind, PHONE_SHARE, problems, phone=True)
        assert tab.evaluate(OVERFLOW) <= 0, "phone"
        assert tab.evaluate(LEGEND_BESIDE) == [], "phone"
        assert_accessible(tab, f"{name}-phone")
        small += [f"phone: {c}" for c in tab.evaluate(TARGETS)]

        tab.get_by_test_id("stExpandSidebarButton").tap()
        tab.wait_for_function("() => document.querySelector('[data-testid=\"stSidebar\"]')"
                              "?.getAttribute('data-collapsed') === 'false'")
        wait_drawn(tab)
        small += [f"phone, sidebar open: {c}" for c in tab.evaluate(TARGETS)]
        if small:
            ARTIFACTS.mkdir(exist_ok=True)
            tab.screenshot(path=ARTIFACTS / f"touch_targets_{name}.png")
        assert small == [], f"under {FINGER} px:\n" + "\n".join(dict.fromkeys(small))

        # and lecture mode on the phone (a lecturer's own, as a remote)
        open_view(tab, server_url, link, lecture=True)
        assert tab.evaluate(OVERFLOW) <= 0, "phone, lecture mode"
        assert_accessible(tab, f"{name}-phone-lecture")
    expect_picture("touch", name, problems)
