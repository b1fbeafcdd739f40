"""A press at a student's rhythm while syncs come and go: key to painted, and what was busy.

Run from the repository root::

    python -m bench.rhythm                      # 1,000 points: 40 presses a second apart,
                                                # then 8 bursts of 5 presses 150 ms apart
    python -m bench.rhythm --n 200 --seconds 20
    python -m bench.rhythm --app-dir /tmp/before       # another commit's tree, side by side
    python -m bench.rhythm --url http://127.0.0.1:PORT # in a hall: bench/load.py's server

bench/latency.py waits for each sync before the next press, so no press of its meets one.
Here the presses come as a student's do: one a second (the stepper's debounced sync of k
leaves 0.5 s after a press, so its fragment rerun comes back around the next press), then
bursts of five 150 ms apart. Each press is timed key -> painted with the page's own clock
(bench/latency.py's probe). Meanwhile the page records its long tasks (over 50 ms, the
browser's PerformanceObserver) and the arrival of every WebSocket message, so a slow press
can be put beside what held the main thread: a message from the server (a sync's reply) or
the page's own work.
"""

from __future__ import annotations

import argparse
import contextlib
import statistics

from bench._server import CHROMIUM_ARGS, machine, percentile, streamlit_server, system_chromium
from bench.latency import INIT_SCRIPT, READY

WATCH = """
(() => {
  window.__rhythm = { long: [], messages: [] };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      window.__rhythm.long.push([entry.startTime, entry.duration]);
    }
  }).observe({ type: 'longtask', buffered: true });
  // every socket's messages, timed (bench/latency.py's recording socket adds a listener to each)
  const add = WebSocket.prototype.addEventListener;
  WebSocket.prototype.addEventListener = function (name, listener, ...rest) {
    if (name === 'message' && !this.__rhythmWatched) {
      this.__rhythmWatched = true;
      add.call(this, 'message', (event) => window.__rhythm.messages.push(
        [performance.now(), event.data.byteLength ?? event.data.size ?? 0]));
    }
    return add.call(this, name, listener, ...rest);
  };
})();
"""


def presses(page, *, seconds: int, bursts: int) -> list[dict]:
    """Press -> once a second for ``seconds`` s, then ``bursts`` bursts of 5, 150 ms apart."""
    page.locator(".pl-status").first.click()
    for _ in range(seconds):
        page.keyboard.press("ArrowRight")
        page.wait_for_timeout(1000)
    for _ in range(bursts):
        for _ in range(5):
            page.keyboard.press("ArrowRight")
            page.wait_for_timeout(150)
        page.wait_for_timeout(1400)
    page.wait_for_timeout(1500)
    return page.evaluate("() => window.__bench.presses")


def slow_presses(timed: list[dict], rhythm: dict, over: float) -> list[dict]:
    """Each press slower than ``over`` ms, with the long tasks and messages in its span."""
    out = []
    for press in timed:
        took = press["painted"] - press["key"]
        if took <= over:
            continue
        start, end = press["key"] - 1000, press["painted"]
        out.append({
            "ms": round(took, 1),
            "long_tasks": [(round(t - press["key"]), round(d)) for t, d in rhythm["long"]
                           if t + d >= start and t <= end],
            "messages": [(round(t - press["key"]), size) for t, size in rhythm["messages"]
                         if start <= t <= end],
        })
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=1000, help="noisy-blob points")
    parser.add_argument("--seconds", type=int, default=40, help="presses a second apart")
    parser.add_argument("--bursts", type=int, default=8, help="bursts of 5 presses")
    parser.add_argument("--slow", type=float, default=50.0, help="a press slower is listed")
    parser.add_argument("--app-dir", default=None,
                        help="serve the app from this tree (another commit's worktree)")
    parser.add_argument("--url", default=None,
                        help="a server already running (e.g. bench/load.py's hall) instead")
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright

    with contextlib.ExitStack() as stack:
        url = args.url or stack.enter_context(
            streamlit_server(name="rhythm", root=args.app_dir))[0]
        playwright = stack.enter_context(sync_playwright())
        browser = playwright.chromium.launch(headless=True, executable_path=system_chromium(),
                                             args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.add_init_script(INIT_SCRIPT)
        page.add_init_script(WATCH)
        page.goto(f"{url}/?data=noisy-blobs-generator&n={args.n}&epochs=2")
        page.wait_for_function(READY, timeout=120_000)
        page.wait_for_timeout(1500)
        page.evaluate("() => { window.__bench.presses = []; window.__rhythm.long = []; }")
        timed = [p for p in presses(page, seconds=args.seconds, bursts=args.bursts)
                 if p["painted"] is not None]
        rhythm = page.evaluate("() => window.__rhythm")
        browser.close()
    took = sorted(p["painted"] - p["key"] for p in timed)
    print(machine())
    print(f"{len(took)} presses painted: key -> painted p50 {statistics.median(took):.1f} ms, "
          f"p95 {percentile(took, 95):.1f} ms, max {took[-1]:.1f} ms")
    for press in slow_presses(timed, rhythm, args.slow):
        print(f"  {press['ms']} ms; long tasks (start after the key, ms): {press['long_tasks']}; "
              f"messages (ms after the key, bytes): {press['messages']}")


if __name__ == "__main__":
    main()
