"""From a lesson's link in a new tab to its picture drawn, on a projector, against a Streamlit
page holding one ``st.plotly_chart`` and a hello page, side by side.

Run from the repository root::

    python -m bench.lesson_open                 # 7 rounds of every page
    python -m bench.lesson_open --rounds 3 --lessons /?lecture=1
    python -m bench.lesson_open --against ../before   # another tree's app beside this one's

Three servers run with the same settings (this tree's .streamlit/config.toml, the same
flags): the app, bench/_one_chart_app.py and bench/_hello_app.py. One Chromium at 1280 x 720
opens each page in turn, round after round (so a slow moment of the machine falls on all of
them alike), each time in a new tab of a browser that has opened that server before (its
cache warm, as a student's second link). A page is drawn when its first chart in the main
area shows its points (the hello page: its words), timed from the tab's navigation start.

For each lesson it also says where the time goes: when the first message of the script
came back over the WebSocket (the server's work and the page's start), when each Plotly bundle
(Streamlit's own chunk for st.plotly_chart, the stepper's app/static/plotly.min.js) and KaTeX
finished loading, and how many charts were drawn when the first was seen, and at the end.
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
from pathlib import Path

from bench._server import CHROMIUM_ARGS, machine, streamlit_server, system_chromium

ROOT = Path(__file__).resolve().parents[1]
LESSONS = ["/?lecture=1", "/margin?lecture=1", "/svm?part=Losses&lecture=1",
           "/variants?lecture=1"]
# every script's messages, timed, before the page's own code runs
WATCH = """
(() => {
  window.__open = { messages: [] };
  const add = WebSocket.prototype.addEventListener;
  WebSocket.prototype.addEventListener = function (name, listener, ...rest) {
    if (name === 'message' && !this.__openWatched) {
      this.__openWatched = true;
      add.call(this, 'message', () => window.__open.messages.push(performance.now()));
    }
    return add.call(this, name, listener, ...rest);
  };
})();
"""
# the first chart in the main area with its points drawn (or the hello page's words): when
DRAWN = """() => {
  const main = document.querySelector('[data-testid="stMain"]');
  if (!main) return false;
  const charts = [...main.querySelectorAll('.js-plotly-plot')];
  const drawn = charts.filter((gd) => gd.querySelector('.scatterlayer .trace'));
  if (drawn.length) return { at: performance.now(), drawn: drawn.length, charts: charts.length };
  const words = [...main.querySelectorAll('[data-testid="stMarkdownContainer"] p')]
    .some((p) => p.textContent.trim() === 'hello');
  return words ? { at: performance.now(), drawn: 0, charts: 0 } : false;
}"""
PARTS = """() => {
  const ends = (pattern) => performance.getEntriesByType('resource')
    .filter((r) => pattern.test(r.name)).map((r) => Math.round(r.responseEnd));
  const main = document.querySelector('[data-testid="stMain"]');
  return {
    socket: Math.round(window.__open.messages[0] ?? NaN),
    plotly: ends(/plotly/i),
    katex: ends(/katex/i),
    charts: main.querySelectorAll('.js-plotly-plot').length,
  };
}"""


def open_once(browser_context, url: str) -> dict:
    """Open ``url`` in a new tab: when its picture was drawn, and where the time went."""
    tab = browser_context.new_page()
    try:
        tab.goto(url, wait_until="commit")
        drawn = tab.wait_for_function(DRAWN, polling="raf", timeout=120_000).json_value()
        tab.wait_for_timeout(1500)  # the rest of the page, to count its charts
        return {**drawn, **tab.evaluate(PARTS)}
    finally:
        tab.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--lessons", nargs="*", default=LESSONS)
    parser.add_argument("--against", type=Path, default=None,
                        help="a checkout whose app opens the same lessons in the same rounds "
                             "(a change's before), on a fourth server")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    print(machine())
    with contextlib.ExitStack() as stack:
        app, _ = stack.enter_context(streamlit_server(name="lesson-open-app"))
        chart, _ = stack.enter_context(streamlit_server(name="lesson-open-chart",
                                                        script="bench/_one_chart_app.py"))
        hello, _ = stack.enter_context(streamlit_server(name="lesson-open-hello",
                                                        script="bench/_hello_app.py"))
        servers = [app, chart, hello]
        pages = {link: app + link for link in args.lessons}
        if args.against:
            other, _ = stack.enter_context(streamlit_server(name="lesson-open-against",
                                                            root=args.against.resolve()))
            servers.append(other)
            pages.update({f"{link} ({args.against.name})": other + link for link in args.lessons})
        pages.update({"one st.plotly_chart": chart + "/", "hello": hello + "/"})
        playwright = stack.enter_context(sync_playwright())
        browser = playwright.chromium.launch(headless=True, executable_path=system_chromium(),
                                             args=CHROMIUM_ARGS)
        contexts = {}  # one browser profile per server, as a student's
        for server in servers:
            contexts[server] = browser.new_context(viewport={"width": 1280, "height": 720})
            contexts[server].add_init_script(WATCH)
        server_of = {name: next(s for s in contexts if url.startswith(s))
                     for name, url in pages.items()}
        for name, url in pages.items():  # each page once first: caches warm, imports done
            open_once(contexts[server_of[name]], url)
        seen = {name: [] for name in pages}
        for _ in range(args.rounds):
            for name, url in pages.items():
                seen[name].append(open_once(contexts[server_of[name]], url))
        browser.close()
    base = statistics.median(r["at"] for r in seen["one st.plotly_chart"])
    hello_ms = statistics.median(r["at"] for r in seen["hello"])
    print(f"\n{args.rounds} rounds, medians (ms from the new tab's navigation start)")
    print("| page | picture drawn | / one chart | / hello | first message | Plotly loaded "
          "| KaTeX loaded | charts drawn at first sight / on the page |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name, runs in seen.items():
        at = statistics.median(r["at"] for r in runs)
        socket = statistics.median(r["socket"] for r in runs)
        plotly = [r["plotly"][0] for r in runs if r["plotly"]]
        katex = [r["katex"][0] for r in runs if r["katex"]]
        median = lambda v: f"{statistics.median(v):.0f}" if v else "-"
        print(f"| {name} | {at:.0f} | {at / base:.2f} | {at / hello_ms:.2f} | {socket:.0f} "
              f"| {median(plotly)} | {median(katex)} "
              f"| {statistics.median(r['drawn'] for r in runs):.0f} / "
              f"{statistics.median(r['charts'] for r in runs):.0f} |")


if __name__ == "__main__":
    main()
