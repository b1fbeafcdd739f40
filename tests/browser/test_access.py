"""Every student can follow: WCAG's automatic checks (axe-core) on every lesson and part, on a
laptop and on a phone, on a projector in lecture mode, in the light theme and on a laptop in
the dark one a browser may ask for."""

from __future__ import annotations

import contextlib
import json

import pytest

from scripts.screenshots import wait_drawn
from tests.browser.axe import audit, axe_script, in_app
from tests.browser.conftest import ARTIFACTS, assert_no_exception, timeout_ms
from tests.browser.test_lecture import VIEWS

pytestmark = pytest.mark.browser

DESKTOP = (1280, 720)
PHONE = (390, 844)
TABLET = (768, 1024)

# Streamlit's body background in its dark theme (theme.dark's default backgroundColor)
DARK_PAGE = "rgb(23, 22, 20)"


def with_query(link: str, query: str) -> str:
    """``link`` with ``query`` added to its parameters ('' adds nothing)."""
    if not query:
        return link
    return f"{link}{'&' if '?' in link else '?'}{query}"


@contextlib.contextmanager
def opened(browser, server_url, link: str, *, size=DESKTOP, touch: bool = False,
           scheme: str = "light"):
    """A fresh session on ``link`` in a window of ``size``, drawn (a phone's when ``touch``)."""
    width, height = size
    context = browser.new_context(viewport={"width": width, "height": height},
                                  has_touch=touch, is_mobile=touch, color_scheme=scheme)
    tab = context.new_page()
    tab.set_default_timeout(timeout_ms(60_000))
    try:
        tab.goto(f"{server_url}{link}")
        wait_drawn(tab)
        assert_no_exception(tab)
        yield tab
    finally:
        context.close()


# How far the page reaches past the window's right edge: the document, and Streamlit's main
# area (what scrolls). Above 0, a student scrolls sideways to read it.
OVERFLOW = """() => {
  const main = document.querySelector('[data-testid="stMain"]');
  return Math.max(document.documentElement.scrollWidth - innerWidth,
                  main.scrollWidth - main.clientWidth);
}"""


def keep(found: list[dict], name: str) -> None:
    """Save every finding (Streamlit's own too) in tests/artifacts/axe/ for a look."""
    folder = ARTIFACTS / "axe"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.json").write_text(json.dumps(found, indent=1, ensure_ascii=False))


MODES = {"normal": "", "lecture": "lecture=1"}
SIZES = {"laptop": DESKTOP, "phone": PHONE}
# the screens each mode is read on: a student's laptop and phone; lecture mode is a projector's
# (each screen has its own: a phone in a class keeps its normal type)
SCREENS = [("normal", "laptop"), ("normal", "phone"), ("lecture", "laptop")]


@pytest.mark.parametrize(("mode", "size"), SCREENS, ids=[f"{m}-{s}" for m, s in SCREENS])
@pytest.mark.parametrize(("name", "link"), [view[:2] for view in VIEWS],
                         ids=[view[0] for view in VIEWS])
def test_axe_finds_nothing_serious_in_the_apps_own_content(browser, server_url, name, link,
                                                          mode, size):
    axe_script()  # installed, or the test says how
    phone = size == "phone"
    with opened(browser, server_url, with_query(link, MODES[mode]), size=SIZES[size],
                touch=phone) as tab:
        found = [dict(f, theme="light") for f in audit(tab)]
        if phone:
            assert tab.evaluate(OVERFLOW) <= 0, "sideways scrolling"
        else:
            # the dark theme a browser asks for (prefers-color-scheme), followed live
            tab.emulate_media(color_scheme="dark")
            tab.wait_for_function("(dark) => getComputedStyle(document.body).backgroundColor"
                                  " === dark", arg=DARK_PAGE)
            wait_drawn(tab)
            found += [dict(f, theme="dark") for f in audit(tab)]
    keep(found, f"{name}-{mode}-{size}")
    assert in_app(found) == []


# Two runs side by side (svm_train): after the window turns, the sidebar opens beside them and
# their columns narrow without the window narrowing; the charts follow their boxes.
@pytest.mark.parametrize(("name", "link"), [view[:2] for view in VIEWS],
                         ids=[view[0] for view in VIEWS])
def test_a_tablet_either_way_up_never_scrolls_sideways(browser, server_url, name, link):
    with opened(browser, server_url, link, size=TABLET, touch=True) as tab:
        assert tab.evaluate(OVERFLOW) <= 0, "upright"
        tab.set_viewport_size({"width": TABLET[1], "height": TABLET[0]})  # turned on its side
        wait_drawn(tab)
        assert tab.evaluate(OVERFLOW) <= 0, "on its side"
