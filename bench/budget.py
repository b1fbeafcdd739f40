"""Every view's cost on the largest upload the loader accepts, against the per-view budget.

Run from the repository root::

    python -m bench.budget                 # every view, then 50 sessions' memory
    python -m bench.budget --views "Variants/Kernel perceptron"
    python -m bench.budget --sessions 0    # the views only
    python -m bench.budget --sessions 0 --trace --views "Non-separable data"  # and the browser

It writes 20,000 random rows (two noisy classes, seed 0) as a CSV, starts
``streamlit run app.py`` on a free port, opens it in headless Chromium,
uploads the file in the sidebar, and then opens every lesson and every part
of a lesson in turn, in the same session. For each view it prints:

* **CPU**: the server process's CPU time (user + system, every thread) from
  the click to the settled page, plus what it spends in the two seconds
  after (work that goes on once the page is drawn);
* **memory**: the server's peak resident memory during the view above its
  idle memory (started, before any browser), sampled every 20 ms;
* **settled**: wall time from the click until the script has stopped and
  the page has not changed for 0.5 s.

Budget per view: <= 5 s CPU, <= 400 MB above idle, settled <= 20 s.

``--trace`` also records each view in a Chromium trace and prints the page's main
thread busy time, what took the most of it, and how many plotted points and lines the
page holds (what the browser spends the time on).

``--sessions N`` then opens N fresh sessions one after another, each
uploading a different 20,000-row file, choosing it, opening Your data,
clearing the data and pressing Undo, and prints the server's memory after
each fifth session, after the sessions have closed, and once the server has
released them (past its ``disconnectedSessionTTL``). A session waits for the
server's answers (the sidebar naming the upload, Clear and Undo enabling each
other), not for the browser to finish drawing: the memory is the server's.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import threading
import time
from pathlib import Path

import numpy as np
import psutil

from bench._server import CHROMIUM_ARGS, machine, streamlit_server, system_chromium

ROWS = 20_000
DISCONNECTED_TTL = 120.0  # Streamlit's server.disconnectedSessionTTL, seconds
BUDGET = {"cpu": 5.0, "memory": 400.0, "settled": 20.0}
# (page in the sidebar's navigation, part of the page or None)
VIEWS = [
    ("Step through", None),
    ("Margin and the mistake bound", None),
    ("Boolean functions and XOR", None),
    ("Non-separable data", None),
    ("Perceptron vs SVM", "Losses"),
    ("Perceptron vs SVM", "Train side by side"),
    ("Perceptron vs SVM", "Soft margin"),
    ("Perceptron vs SVM", "Generalization"),
    ("Perceptron vs SVM", "In scikit-learn"),
    ("Variants", "Averaged and voted"),
    ("Variants", "Kernel perceptron"),
    ("Variants", "More than two classes"),
    ("Your data", None),
]
SETTLED_JS = """() => {
  const app = document.querySelector('[data-testid="stApp"]');
  if (!app || app.getAttribute('data-test-script-state') !== 'notRunning') return false;
  return document.querySelectorAll('[data-testid="stSpinner"]').length === 0;
}"""


def random_rows(path: Path, seed: int) -> Path:
    """Write ROWS random labelled points, two overlapping classes, as x1,x2,label."""
    rng = np.random.default_rng(seed)
    X = rng.normal(scale=3.0, size=(ROWS, 2)).round(3)
    noisy = X[:, 0] + 0.5 * X[:, 1] + rng.normal(scale=1.5, size=ROWS)
    labels = np.where(noisy > 0, "yes", "no")
    lines = ["x1,x2,label"] + [f"{a},{b},{c}" for (a, b), c in zip(X.tolist(), labels,
                                                                     strict=True)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


class Sampler:
    """Peak resident memory of a process, sampled in a thread."""

    def __init__(self, process: psutil.Process):
        self.process = process
        self.peak = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self.peak = max(self.peak, self.process.memory_info().rss)
            except psutil.Error:
                return
            time.sleep(0.02)

    def __enter__(self) -> Sampler:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()


def cpu_seconds(process: psutil.Process) -> float:
    """User + system CPU time of the process so far."""
    times = process.cpu_times()
    return times.user + times.system


def wait_settled(tab, *, quiet: float = 0.5, timeout: float = 600) -> None:
    """Wait until the script has stopped and the page's DOM has not changed for ``quiet`` s."""
    tab.evaluate("""() => {
      window.__lastChange = performance.now();
      if (!window.__watching) {
        window.__watching = new MutationObserver(
          () => { window.__lastChange = performance.now(); });
        window.__watching.observe(document.body, {subtree: true, childList: true,
                                                  attributes: true, characterData: true});
      }
    }""")
    deadline = time.monotonic() + timeout
    tab.wait_for_timeout(300)  # the click's rerun starts
    while time.monotonic() < deadline:
        tab.wait_for_function(SETTLED_JS, timeout=timeout * 1000)
        since = tab.evaluate("() => performance.now() - window.__lastChange")
        if since >= quiet * 1000:
            return
        tab.wait_for_timeout(max(50, quiet * 1000 - since))
    raise TimeoutError("the page did not settle")


def open_view(tab, page: str, part: str | None, *, current: str | None = None) -> None:
    """Click the page in the sidebar's navigation (unless it is ``current``), then the part."""
    if page != current:
        tab.get_by_test_id("stSidebarNav").get_by_role("link", name=page, exact=True).click()
        if part is not None:
            wait_settled(tab)
    if part is not None:
        buttons = tab.locator('[data-testid="stButtonGroup"] button', has_text=part)
        buttons.first.click()


def upload(tab, path: Path) -> None:
    """Upload a file through the sidebar's uploader."""
    tab.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(str(path))


POINTS_JS = """() => document.querySelectorAll(
  '.js-plotly-plot .scatterlayer .point, .js-plotly-plot .scatterlayer .js-line').length"""


def browser_time(events: list) -> dict:
    """The renderer main thread's busy time in a Chromium trace and what took the most of it."""
    names = {(e["pid"], e["tid"]): e["args"]["name"] for e in events
             if e.get("ph") == "M" and e.get("name") == "thread_name"}
    main = [e for e in events if e.get("ph") == "X" and e.get("dur")
            and names.get((e["pid"], e["tid"])) == "CrRendererMain"]
    tasks = {"RunTask", "ThreadControllerImpl::RunTask"}
    inside: dict[str, float] = {}
    for e in main:
        if e["name"] not in tasks:
            inside[e["name"]] = inside.get(e["name"], 0.0) + e["dur"] / 1e6
    top = sorted(inside.items(), key=lambda item: -item[1])[:6]
    return {"busy": sum(e["dur"] for e in main if e["name"] in tasks) / 1e6, "top": top}


def measure(tab, process: psutil.Process, idle_rss: int, action, browser=None) -> dict:
    """Run ``action`` (a click) and measure CPU, peak memory above idle and time to settle.

    With ``browser``, also trace the page in Chromium: where its main thread spent the time.
    """
    cpu0 = cpu_seconds(process)
    if browser is not None:
        browser.start_tracing(page=tab, categories=["devtools.timeline",
                                                    "disabled-by-default-devtools.timeline"])
    with Sampler(process) as sampler:
        start = time.monotonic()
        action()
        wait_settled(tab)
        settled = time.monotonic() - start - 0.5  # the quiet half second is not the view's
        cpu = cpu_seconds(process) - cpu0
        traced = None
        if browser is not None:
            traced = browser_time(json.loads(browser.stop_tracing())["traceEvents"])
            traced["points"] = tab.evaluate(POINTS_JS)
        time.sleep(2.0)
        after = cpu_seconds(process) - cpu0 - cpu
    return {"cpu": cpu, "after": after, "memory": (sampler.peak - idle_rss) / 2**20,
            "settled": settled, "browser": traced}


def row(name: str, result: dict) -> str:
    """One Markdown table row, with the budget's verdict."""
    ok = all(result[key] <= limit for key, limit in BUDGET.items())
    return (f"| {name} | {result['cpu']:.2f} | {result['after']:.2f} | "
            f"{result['memory']:.0f} | {result['settled']:.1f} | {'yes' if ok else '**no**'} |")


def views(browser, url: str, process: psutil.Process, idle_rss: int, data: Path,
          chosen: list[tuple[str, str | None]], trace: bool = False) -> bool:
    """Measure each view in one session on the uploaded file; return whether all are in budget."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    tab = context.new_page()
    tab.set_default_timeout(600_000)
    tab.goto(url)
    wait_settled(tab)
    print("| view | CPU s | CPU s after | memory MB above idle | settled s | in budget |")
    print("| --- | ---: | ---: | ---: | ---: | --- |")
    results = [measure(tab, process, idle_rss, lambda: upload(tab, data))]
    print(row("upload 20,000 rows", results[-1]), flush=True)
    current = "Step through"
    for page, part in chosen:
        results.append(measure(tab, process, idle_rss,
                               lambda p=page, q=part, c=current: open_view(tab, p, q, current=c),
                               browser if trace else None))
        current = page
        exceptions = tab.get_by_test_id("stException").count()
        name = page + (f" / {part}" if part else "") + (" (EXCEPTION)" if exceptions else "")
        print(row(name, results[-1]), flush=True)
        if trace:
            seen = results[-1]["browser"]
            print(f"  browser main thread busy {seen['busy']:.1f} s; plotted points and lines "
                  f"{seen['points']:,}; most: " + ", ".join(f"{name} {sec:.1f} s"
                                                          for name, sec in seen["top"]))
    context.close()
    return all(all(r[key] <= limit for key, limit in BUDGET.items()) for r in results)


def ready(tab) -> None:
    """Wait until the server has finished the script run the last action started."""
    tab.wait_for_function(SETTLED_JS)


def press(tab, name: str, until) -> None:
    """Press a button once it is enabled; wait for the server's answer (``until``) and its end."""
    button = tab.get_by_role("button", name=name, exact=True)
    enabled(button)
    button.click()
    until()
    ready(tab)


def enabled(button) -> None:
    """Wait until a button is on the page and can be pressed."""
    button.wait_for()
    button.page.wait_for_function("(b) => !b.disabled", arg=button.element_handle())


def disabled(button) -> None:
    """Wait until a button on the page cannot be pressed."""
    button.page.wait_for_function("(b) => b.disabled", arg=button.element_handle())


def one_session(browser, url: str, data: Path) -> None:
    """A fresh session: open, upload its own file, Your data, Clear, Undo, leave.

    Each action waits for the server's answer that shows it was done (the sidebar names
    the upload, Clear and Undo enable each other) and for the script run to end, not for
    the browser to finish drawing: the memory measured is the server's.
    """
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        tab = context.new_page()
        tab.set_default_timeout(300_000)
        tab.goto(url)
        tab.get_by_test_id("stFileUploaderDropzoneInput").wait_for(state="attached")
        ready(tab)
        # the sidebar names the upload once the server has read it; a page still starting
        # can miss the file, so it is given again
        read = tab.get_by_test_id("stSidebar").get_by_text(f"{ROWS:,} points")
        for attempt in range(3):
            upload(tab, data)
            try:
                read.wait_for(timeout=60_000)
                break
            except Exception:
                if attempt == 2:
                    raise
        ready(tab)
        open_view(tab, "Your data", None)
        clear = tab.get_by_role("button", name="Clear", exact=True)
        undo = tab.get_by_role("button", name="Undo", exact=True)
        enabled(clear)
        ready(tab)
        press(tab, "Clear", lambda: (enabled(undo), disabled(clear)))
        press(tab, "Undo", lambda: enabled(clear))
    finally:
        context.close()


def sessions(browser, url: str, process: psutil.Process, idle_rss: int, count: int,
             folder: Path, verbose: bool = False, ttl: float = DISCONNECTED_TTL) -> None:
    """Fresh sessions one after another, each with its own upload, a lesson, Clear and Undo."""
    print()
    print(f"Memory of the server over {count} sessions, each uploading a different "
          f"{ROWS:,}-row file, then on Your data clearing its points and pressing Undo:")
    print()
    print("| sessions so far | server memory above idle, MB |")
    print("| ---: | ---: |")
    for k in range(1, count + 1):
        started = time.monotonic()
        data = random_rows(folder / f"rows-{k}.csv", seed=k)
        try:
            one_session(browser, url, data)
        except Exception as error:  # a session lost to the loaded machine is tried once more
            print(f"session {k} failed ({type(error).__name__}: {str(error)[:200]}), once more",
                  flush=True)
            one_session(browser, url, data)
        data.unlink()
        if verbose:
            print(f"session {k}: {time.monotonic() - started:.1f} s", flush=True)
        if k % 5 == 0 or k == count:
            rss = process.memory_info().rss
            print(f"| {k} | {(rss - idle_rss) / 2**20:.0f} |", flush=True)
    time.sleep(5)
    print(f"| all closed, 5 s later | {(process.memory_info().rss - idle_rss) / 2**20:.0f} |")
    # a closed session's state is kept for the server's disconnectedSessionTTL, then released
    time.sleep(ttl + 15)
    print(f"| all closed, {ttl + 20:.0f} s later (past the {ttl:.0f} s the server keeps a "
          f"closed session) | {(process.memory_info().rss - idle_rss) / 2**20:.0f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--views", nargs="*", help='only these, as "Page" or "Page/Part"')
    parser.add_argument("--sessions", type=int, default=50)
    parser.add_argument("--verbose", action="store_true", help="print each session's time")
    parser.add_argument("--trace", action="store_true",
                        help="trace each view in Chromium: where the browser's time goes")
    args = parser.parse_args()
    chosen = VIEWS
    if args.views:
        wanted = set(args.views)
        chosen = [(p, q) for p, q in VIEWS if (f"{p}/{q}" if q else p) in wanted]

    from playwright.sync_api import sync_playwright

    print(machine())
    folder = Path(tempfile.mkdtemp(prefix="budget-"))
    data = random_rows(folder / "largest.csv", seed=0)
    print(f"Upload: {data.stat().st_size / 1e6:.2f} MB, {ROWS:,} rows. Budget per view: "
          f"<= {BUDGET['cpu']:g} s CPU, <= {BUDGET['memory']:g} MB, settled <= "
          f"{BUDGET['settled']:g} s.")
    print()
    with streamlit_server(name="budget") as (url, server), sync_playwright() as playwright:
        process = psutil.Process(server.pid)
        time.sleep(2)
        idle_rss = process.memory_info().rss
        browser = playwright.chromium.launch(headless=True, executable_path=system_chromium(),
                                             args=CHROMIUM_ARGS)
        within = views(browser, url, process, idle_rss, data, chosen, args.trace)
        print()
        print("Every view within budget." if within else "SOME VIEWS ARE OVER BUDGET.")
        if args.sessions:
            sessions(browser, url, process, idle_rss, args.sessions, folder, args.verbose)
        browser.close()


if __name__ == "__main__":
    main()
