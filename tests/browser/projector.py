"""What a lesson on a projector must show, as checks a journey runs on its open page
(tests/browser/test_screens.py runs them on every view at 1280 x 720 and 1024 x 768, with
?lecture=1): the first chart and the step's maths on the first screen, no text clipped or cut
short, chart text readable from the back (>= 16 px), nothing fetched from another host; and
the page's snippets other journeys measure with (ON_SCREEN, CUT_TEXT, CHART_TEXT)."""

from __future__ import annotations

from urllib.parse import urlparse

MIN_CHART_FONT = 16

# The first chart in the main area, and the step's maths, against the window: how much of
# each shows without scrolling.
ON_SCREEN = """() => {
  const main = document.querySelector('[data-testid="stMain"]');
  const shown = (el) => {
    if (!el) return null;
    const r = el.getBoundingClientRect();
    const visible = Math.min(r.bottom, innerHeight) - Math.max(r.top, 0);
    return {top: r.top, height: r.height, visible: Math.max(0, visible)};
  };
  const first = [...main.querySelectorAll('.js-plotly-plot')]
    .find((p) => p.getBoundingClientRect().height > 50);
  // every stepper's chart and maths (two runs side by side: both)
  const steppers = [...main.querySelectorAll('.pl-stepper')];
  return {chart: shown(first),
          planes: steppers.map((s) => shown(s.querySelector('.pl-plane .js-plotly-plot'))),
          maths: steppers.map((s) => s.querySelector('.pl-explain'))
            .filter((e) => e && !e.hidden).map(shown)};
}"""

# Text cut short: an ellipsis that hides characters, or text beyond an ancestor that clips
# or scrolls it (or beyond the window's right edge). Plotly's SVG is checked on its own below.
CUT_TEXT = r"""() => {
  const cut = [];
  const clips = (el) => ['hidden', 'clip', 'auto', 'scroll']
    .includes(getComputedStyle(el).overflowX);
  const root = document.querySelector('[data-testid="stMain"]');
  for (const el of root.querySelectorAll('*')) {
    // KaTeX keeps a visually hidden MathML copy for screen readers: not on screen
    if (el.closest('svg, canvas, .js-plotly-plot, .katex-mathml, [data-testid="stDataFrame"], '
                  + '[data-testid="stDataFrameResizable"], [data-testid="stCode"], pre')) continue;
    if (getComputedStyle(el).textOverflow === 'ellipsis' && el.textContent.trim()
        && el.scrollWidth > el.clientWidth + 1) {
      cut.push(`ellipsis: ${el.textContent.trim().slice(0, 50)}`);
      continue;
    }
    // (KaTeX's struts hold a zero-width space: nothing to read)
    const own = [...el.childNodes].some((n) => n.nodeType === 3
                                          && n.textContent.replace(/[\s\u200b]/g, ''));
    if (!own && el.tagName !== 'math') continue;
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height || getComputedStyle(el).visibility === 'hidden') continue;
    const where = el.closest('[data-testid]')?.dataset.testid ?? '';
    const text = `${el.tagName.toLowerCase()} in ${where}: ${el.textContent.trim().slice(0, 50)}`;
    if (r.right > document.documentElement.clientWidth + 1) {
      cut.push(`past the window's edge: ${text}`);
      continue;
    }
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      if (!clips(a)) continue;
      const box = a.getBoundingClientRect();
      if (r.right > box.right + 1 || r.left < box.left - 1) {
        cut.push(`cut by its box: ${text}`);
        break;
      }
    }
  }
  return cut;
}"""

# Every text a 2-D Plotly chart draws (ticks, axis titles, legend, annotations), its size in
# px; and legends that sit on an axis title.
CHART_TEXT = """(least) => {
  const small = [], overlaps = [];
  const meet = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom
    && b.top < a.bottom;
  for (const plot of document.querySelectorAll('[data-testid="stMain"] .js-plotly-plot')) {
    const texts = plot.querySelectorAll('.xtick text, .ytick text, .g-xtitle text, '
      + '.g-ytitle text, .legendtext, .annotation-text, .gtitle');
    for (const t of texts) {
      if (!t.textContent.trim() || !t.getBoundingClientRect().width) continue;
      const size = parseFloat(getComputedStyle(t).fontSize);
      if (size < least) small.push(`${size}px: ${t.textContent.trim().slice(0, 30)}`);
    }
    const titles = [...plot.querySelectorAll('.g-xtitle text, .g-ytitle text')]
      .filter((t) => t.textContent.trim());
    for (const entry of plot.querySelectorAll('.legend .traces')) {
      for (const title of titles) {
        if (meet(entry.getBoundingClientRect(), title.getBoundingClientRect())) {
          overlaps.push(`${title.textContent} on ${entry.textContent}`);
        }
      }
    }
  }
  return {small, overlaps};
}"""


# The page's own text that lies on a stepper's controls (two runs side by side: the leader's
# controls reach across the follower's column, over whatever the page put at its top).
ON_CONTROLS = """() => {
  const meet = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom
    && b.top < a.bottom;
  const controls = [...document.querySelectorAll('.pl-controls')].flatMap((bar) =>
    [...bar.querySelectorAll('button, select, input, label')])
    .map((el) => el.getBoundingClientRect()).filter((r) => r.width && r.height);
  const found = [];
  const main = document.querySelector('[data-testid="stMain"]');
  for (const el of main.querySelectorAll('[data-testid="stElementContainer"]')) {
    if (el.querySelector('.pl-stepper, iframe') || !el.textContent.trim()
        || el.closest('details:not([open])')
        || !el.checkVisibility({visibilityProperty: true, opacityProperty: true})) continue;
    const r = el.getBoundingClientRect();
    if (r.width && r.height && controls.some((c) => meet(r, c))) {
      found.push(el.textContent.trim().slice(0, 60));
    }
  }
  return found;
}"""


class Hosts(list):
    """The addresses a tab asked for of another host; :meth:`stop` stops listening."""

    def stop(self) -> None:
        self.tab.remove_listener("request", self.heard)


def watch_hosts(tab, own_host: str) -> Hosts:
    """Every request ``tab`` makes from now on to a host other than ``own_host``."""
    elsewhere = Hosts()

    def heard(request) -> None:
        url = urlparse(request.url)
        if url.scheme in ("http", "https", "ws", "wss") and url.netloc != own_host:
            elsewhere.append(request.url)

    elsewhere.tab, elsewhere.heard = tab, heard
    tab.on("request", heard)
    return elsewhere


def assert_on_a_projector(tab, shows: str) -> None:
    """The first chart and the step's maths on the first screen, no text clipped or cut short,
    no text on a stepper's controls, chart text readable from the back (>= 16 px)."""
    seen = tab.evaluate(ON_SCREEN)
    chart = seen["chart"]
    if shows != "text":
        assert chart is not None, "no chart"
        assert chart["visible"] >= min(chart["height"] / 2, 300), f"first chart: {chart}"
    if shows == "steps":
        assert seen["maths"], "no step maths"
        for maths in seen["maths"]:
            assert maths["visible"] >= min(maths["height"], 120), f"the step's maths: {maths}"
        for plane in seen["planes"]:
            assert plane["visible"] >= min(plane["height"] / 2, 300), f"a run's chart: {plane}"
    cut = tab.evaluate(CUT_TEXT)
    assert cut == [], cut
    assert tab.evaluate(ON_CONTROLS) == [], "the page's text on a stepper's controls"
    text = tab.evaluate(CHART_TEXT, MIN_CHART_FONT)
    assert text["small"] == [], "chart text under 16 px"
    assert text["overlaps"] == [], "legend on an axis title"
