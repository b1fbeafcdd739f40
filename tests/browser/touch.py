"""A finger on the page, through Chromium's DevTools protocol (Playwright has taps only)."""

from __future__ import annotations

# How far the page has scrolled: Streamlit scrolls its main area, not the window.
SCROLLED = """() => (document.querySelector('[data-testid="stMain"]')?.scrollTop ?? 0)
                    + window.scrollY"""


def drag(tab, start: tuple[float, float], end: tuple[float, float], moves: int = 12) -> None:
    """Touch at ``start``, slide to ``end`` in ``moves`` steps a frame apart, lift the finger."""
    cdp = tab.context.new_cdp_session(tab)
    try:
        (x0, y0), (x1, y1) = start, end
        cdp.send("Input.dispatchTouchEvent",
                 {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]})
        for k in range(1, moves + 1):
            cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [
                {"x": x0 + (x1 - x0) * k / moves, "y": y0 + (y1 - y0) * k / moves}]})
            tab.wait_for_timeout(16)
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    finally:
        cdp.detach()


def swipe_up(tab, x: float, y: float, distance: float = 250) -> float:
    """Swipe a finger up from (x, y); how far the page scrolled (CSS px, once it stops)."""
    before = tab.evaluate(SCROLLED)
    drag(tab, (x, y), (x, y - distance))
    return still(tab) - before


def still(tab) -> float:
    """Wait until the page stops scrolling (a fling runs on after the finger lifts); where."""
    return tab.evaluate("""async (read) => {
      const where = new Function(`return (${read})()`);
      let last = where(), since = performance.now();
      while (performance.now() - since < 250) {
        await new Promise(requestAnimationFrame);
        const now = where();
        if (now !== last) { last = now; since = performance.now(); }
      }
      return last;
    }""", SCROLLED)


def heap_mb(tab) -> float:
    """The page's JavaScript heap in use, in MB (after a garbage collection)."""
    cdp = tab.context.new_cdp_session(tab)
    try:
        cdp.send("HeapProfiler.collectGarbage")
        cdp.send("Performance.enable")
        metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
        return metrics["JSHeapUsedSize"] / 2**20
    finally:
        cdp.detach()
