"""Clicking a Plotly chart at data coordinates, as a user's mouse would."""

from __future__ import annotations


def click_chart(page, x: float, y: float, chart: int = 0, *, tap: bool = False) -> None:
    """Click (``tap``: tap, as a finger does) the chart-th Plotly figure on the page at data
    point (x, y).

    Waits for that figure to be drawn: a page's script can be done before Plotly
    (loaded on demand) has drawn its charts.
    """
    page.wait_for_function(
        "(i) => document.querySelectorAll('.js-plotly-plot')[i]?._fullLayout?._size", arg=chart
    )
    left, top = page.evaluate(
        """([x, y, i]) => {
            const plot = document.querySelectorAll('.js-plotly-plot')[i];
            const layout = plot._fullLayout, box = plot.getBoundingClientRect();
            return [box.left + layout._size.l + layout.xaxis.l2p(x),
                    box.top + layout._size.t + layout.yaxis.l2p(y)];
        }""",
        [x, y, chart],
    )
    if tap:
        page.touchscreen.tap(left, top)
    else:
        page.mouse.click(left, top)
