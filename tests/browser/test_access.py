"""Every student can follow: the audit itself (it finds what it looks for), and the dark theme's
charts and audits; the page's measures of a phone and a tablet (OVERFLOW, LEGEND_BESIDE) that
tests/browser/test_screens.py runs with WCAG's automatic checks (axe-core) on every lesson and
part, on every screen."""

from __future__ import annotations

import contextlib

import pytest

from testkit.browser import wait_drawn
from tests.browser.axe import assert_accessible, audit, axe_script, in_app
from tests.browser.conftest import ARTIFACTS, assert_no_exception, window
from tests.browser.views import VIEWS

pytestmark = pytest.mark.browser

DESKTOP = (1280, 720)
PHONE = (390, 844)
TABLET = (768, 1024)

@contextlib.contextmanager
def opened(browser, server_url, link: str, *, size=DESKTOP, touch: bool = False,
           scheme: str = "light"):
    """A fresh session on ``link`` in a window of ``size``, drawn (a phone's when ``touch``)."""
    with window(browser, size, touch=touch, scheme=scheme) as tab:
        tab.goto(f"{server_url}{link}")
        wait_drawn(tab)
        assert_no_exception(tab)
        yield tab


# How far the page reaches past the window's right edge: the document, and Streamlit's main
# area (what scrolls). Above 0, a student scrolls sideways to read it.
OVERFLOW = """() => {
  const main = document.querySelector('[data-testid="stMain"]');
  return Math.max(document.documentElement.scrollWidth - innerWidth,
                  main.scrollWidth - main.clientWidth);
}"""


# Stepper charts whose legend, beside the plot, takes more than a third of the chart's width
# (two runs side by side put theirs beside the plot where there is room, under it elsewhere).
LEGEND_BESIDE = """() => [...document.querySelectorAll('.pl-plane .js-plotly-plot')]
  .map((gd) => gd._fullLayout)
  .filter((l) => l?.showlegend && l.legend.orientation === 'v' && l.legend._width > l.width / 3)
  .map((l) => `legend ${Math.round(l.legend._width)} px of ${l.width}`)"""


def test_the_audit_finds_what_it_looks_for_and_places_it(browser, server_url):
    # an image with no words and a nameless button, planted in the app's content, are found
    # there; so a clean audit above means something
    axe_script()
    with opened(browser, server_url, "/boolean", size=PHONE, touch=True) as tab:
        tab.evaluate("""() => {
          const main = document.querySelector('[data-testid="stMainBlockContainer"]');
          main.insertAdjacentHTML('beforeend',
            '<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" id="planted-img">'
            + '<button id="planted-button"></button>');
        }""")
        found = in_app(audit(tab))
    assert any(line.startswith("image-alt") and "planted-img" in line for line in found)
    assert any(line.startswith("button-name") and "planted-button" in line for line in found)


# Every chart of the page against the page: the chart's ground, its words (ticks, titles,
# legend) and its marks (the points' colours), as (colour, ground) pairs of "#rrggbb".
CHART_COLOURS = """() => {
  const hex = (css) => {
    const m = css.match(/rgba?\\(([\\d.]+),\\s*([\\d.]+),\\s*([\\d.]+)/);
    return m ? '#' + [m[1], m[2], m[3]].map((v) => Number(v).toString(16).padStart(2, '0'))
      .join('') : css;
  };
  const page = hex(getComputedStyle(document.querySelector('.stApp')).backgroundColor);
  return [...document.querySelectorAll('[data-testid="stMain"] .js-plotly-plot')]
    .filter((gd) => gd.getBoundingClientRect().height > 50).map((gd) => ({
      page,
      ground: hex(gd._fullLayout.paper_bgcolor),
      words: [...gd.querySelectorAll('.xtick text, .ytick text, .legendtext, .g-xtitle text')]
        .map((t) => hex(getComputedStyle(t).fill)),
      marks: [...gd.querySelectorAll('.scatterlayer .point')].slice(0, 50)
        .map((p) => hex(getComputedStyle(p).fill)).filter((c) => c.startsWith('#')),
    }));
}"""
DARK_VIEWS = [view for view in VIEWS if view[0] in ("step_through", "svm_losses", "svm_train")]


def assert_charts_on(tab, where: str) -> None:
    """Every chart stands on the page's own ground; its words and points stand out from it."""
    from viz.palette import contrast

    charts = tab.evaluate(CHART_COLOURS)
    assert charts, where
    for chart in charts:
        page = chart["page"]
        assert chart["ground"].lower() == page.lower(), (where, chart["ground"], page)
        assert chart["words"] and all(contrast(c, page) >= 4.5 for c in chart["words"]), \
            (where, chart["words"])
        # (a hollow marker is filled with the ground)
        assert all(contrast(c, page) >= 3 for c in chart["marks"] if c.lower() != page.lower()), \
            (where, chart["marks"])


# The dark theme a browser asks for from the start (Streamlit follows it): the charts follow
# too, and nothing is serious to axe, on a laptop and on a phone; the stepper's chart also
# follows when the browser changes its mind on an open page.
@pytest.mark.parametrize(("name", "link"), [view[:2] for view in DARK_VIEWS],
                         ids=[view[0] for view in DARK_VIEWS])
def test_in_the_dark_theme_the_charts_follow_and_nothing_is_serious(
        browser, server_url, name, link):
    axe_script()
    with opened(browser, server_url, link, scheme="dark") as tab:
        assert_charts_on(tab, "laptop")
        assert_accessible(tab, f"{name}-dark")
        tab.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
        wait_drawn(tab)
        assert_charts_on(tab, "phone")
        assert_accessible(tab, f"{name}-dark-phone")
        tab.screenshot(path=ARTIFACTS / f"dark_{name}_phone.png")
        if name == "step_through":
            tab.emulate_media(color_scheme="light")
            tab.wait_for_function("""() => document.querySelector('.pl-plane .js-plotly-plot')
              ._fullLayout.paper_bgcolor === 'white'""", timeout=20_000)
            tab.emulate_media(color_scheme="dark")
            tab.wait_for_function("""() => document.querySelector('.pl-plane .js-plotly-plot')
              ._fullLayout.paper_bgcolor === '#171614'""", timeout=20_000)
