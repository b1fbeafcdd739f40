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
