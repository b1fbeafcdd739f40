"""plotly.js: the page's Plotly, loaded once for every component of the page."""

from __future__ import annotations

import pytest

from tests.browser.js.conftest import open_page, origin

pytestmark = pytest.mark.browser


def test_plotly_is_loaded_once_and_again_after_a_failure(browser):
    served = []

    # the first request for Plotly fails, as a dropped connection would
    page = open_page(browser, origin(lambda: 503 if len(served) == 1 else 200, served))
    try:
        got = page.evaluate("""async () => {
          const failed = await pl.loadPlotly().then(() => false, () => true);
          const [a, b] = await Promise.all([pl.loadPlotly(), pl.loadPlotly()]);
          return [failed, a === window.Plotly && b === a, typeof a.react];
        }""")
        assert got == [True, True, "function"]
        assert len(served) == 2  # one failed, then one for both calls
    finally:
        page.context.close()


def test_two_components_scripts_share_one_load(browser):
    """The chart's script (ui/chart.py) is a module of its own beside the stepper's: a load the
    one started is the other's too, so the page fetches Plotly once."""
    from ui.stepper import JS_CHART, script

    served = []
    page = open_page(browser, origin(served=served))
    try:
        page.add_script_tag(content=f"{script(JS_CHART)}\nwindow.chartLoad = loadPlotly;",
                            type="module")
        page.wait_for_function("() => window.chartLoad !== undefined")
        got = page.evaluate("""async () => {
          const [a, b] = await Promise.all([pl.loadPlotly(), window.chartLoad()]);
          return [pl.loadPlotly !== window.chartLoad, a === b && a === window.Plotly];
        }""")
        assert got == [True, True]
        assert len(served) == 1
    finally:
        page.context.close()


def test_the_whole_bundle_comes_after_the_pages_own_and_leaves_it_the_pages_plotly(browser):
    """A 3-D chart's Plotly (chart.js's ``whole``) is fetched once, after the page's own, and
    kept apart: window.Plotly, which the steppers draw with, stays the page's."""
    served = []
    page = open_page(browser, origin(served=served))
    try:
        got = page.evaluate("""async () => {
          const [a, b] = await Promise.all([pl.loadWholePlotly(), pl.loadWholePlotly()]);
          const own = await pl.loadPlotly();
          const kinds = (P) => ['scatter3d', 'surface'].map((k) => Boolean(
            P.PlotSchema.get().traces[k]));
          return [a === b, a !== own, own === window.Plotly, kinds(a), kinds(own)];
        }""")
        assert got == [True, True, True, [True, True], [False, False]]
        assert [url.rsplit("/", 1)[1] for url in served] == ["plotly.min.js",
                                                            "plotly-whole.min.js"]
    finally:
        page.context.close()
