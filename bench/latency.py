"""A step in the browser: key press to painted step, what a press sends, what a sync costs.

Run from the repository root::

    python -m bench.latency                          # 1,000 points, 2,000 steps, 200 presses
    python -m bench.latency --n 200 --presses 60     # smaller

It starts ``streamlit run app.py`` on a free port and opens the step-through
lesson on ``--n`` noisy-blob points trained for 2 epochs (never separable, so
the run has exactly 2 x n steps) in headless Chromium. Then:

* **key -> painted**: presses -> ``--presses`` times, ``--gap`` ms apart (a
  fast student). The page records with its own clock the keydown (a capturing
  listener installed before the app's) and the moment the status line shows the
  new step; from inside that mutation it posts a message, which runs after the
  frame that holds the change has been rendered: that is "painted".
* **sent per press**: WebSocket messages the page sent between the first press
  and 100 ms after the last one (the debounced sync comes later and is counted
  apart), divided by the presses.
* **server CPU per sync**: ``--syncs`` times, one press reported at once (a
  ``pagehide`` flushes the throttled report, as leaving the page does) and a
  wait until the address bar holds the new step (the fragment rerun has come
  back); the server process's CPU time over them (psutil), per sync.
* **page-open payload**: bytes received over the WebSocket from opening the
  page until the stepper has drawn, and the stepper's own packed run.
"""

from __future__ import annotations

import argparse
import statistics

import psutil

from bench._server import CHROMIUM_ARGS, machine, percentile, streamlit_server, system_chromium

INIT_SCRIPT = """
(() => {
  window.__bench = { sent: 0, received: 0, receivedBytes: 0, presses: [] };
  const Native = window.WebSocket;
  const send = Native.prototype.send;
  Native.prototype.send = function (data) {
    window.__bench.sent += 1;
    return send.call(this, data);
  };
  function Recording(...args) {
    const socket = new Native(...args);
    socket.addEventListener('message', (event) => {
      window.__bench.received += 1;
      window.__bench.receivedBytes += event.data.byteLength ?? event.data.size ?? 0;
    });
    return socket;
  }
  Recording.prototype = Native.prototype;
  Object.assign(Recording, { CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3 });
  window.WebSocket = Recording;
  // registered before the app's own listener, so it sees every press first
  window.addEventListener('keydown', (event) => {
    if (event.key !== 'ArrowRight') return;
    const press = { key: performance.now(), shown: null, painted: null };
    window.__bench.presses.push(press);
    const status = document.querySelector('.pl-status');
    const before = status.textContent;
    const observer = new MutationObserver(() => {
      if (status.textContent === before) return;
      observer.disconnect();
      press.shown = performance.now();
      const channel = new MessageChannel();
      channel.port1.onmessage = () => { press.painted = performance.now(); };
      channel.port2.postMessage(0);  // runs once the frame with the change is rendered
    });
    observer.observe(status, { childList: true, characterData: true, subtree: true });
  }, true);
})();
"""

READY = """() => { const box = document.querySelector('.pl-stepper');
  const gd = box && box.querySelector('.pl-plane .js-plotly-plot');
  return Boolean(gd && gd._fullLayout && box.dataset.step !== undefined); }"""


def trace_presses(browser, page, *, presses: int, gap: int) -> dict:
    """Where a press's time goes in the page: a Chromium trace over ``presses`` presses.

    Returns the renderer main thread's busy time per press (its top-level tasks), the
    events inside them that took the most time, and the trace's wall time per press.
    """
    import json

    browser.start_tracing(page=page, categories=["devtools.timeline",
                                                  "disabled-by-default-devtools.timeline"])
    for _ in range(presses):
        page.keyboard.press("ArrowRight")
        page.wait_for_timeout(gap)
    events = json.loads(browser.stop_tracing())["traceEvents"]
    names = {(e["pid"], e["tid"]): e["args"]["name"] for e in events
             if e.get("ph") == "M" and e.get("name") == "thread_name"}
    main = [e for e in events if e.get("ph") == "X" and
            names.get((e["pid"], e["tid"])) == "CrRendererMain"]
    tasks = [e for e in main if e["name"] in ("RunTask", "ThreadControllerImpl::RunTask")]
    inside: dict[str, float] = {}
    for e in main:
        if e not in tasks:
            inside[e["name"]] = inside.get(e["name"], 0.0) + e.get("dur", 0) / 1000
    span = (max(e["ts"] + e.get("dur", 0) for e in main) - min(e["ts"] for e in main)) / 1000
    top = sorted(inside.items(), key=lambda item: -item[1])[:8]
    return dict(busy=sum(e.get("dur", 0) for e in tasks) / 1000 / presses,
                wall=span / presses, top=[(name, ms / presses) for name, ms in top])


def run(url: str, server: psutil.Process, *, n: int, presses: int, gap: int,
        syncs: int, trace: bool = False) -> dict:
    """Open the page, press, sync; the measurements (ms, bytes, counts)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(headless=True, executable_path=system_chromium(),
                                             args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.set_default_timeout(120_000)
        page.add_init_script(INIT_SCRIPT)
        page.goto(f"{url}/?data=noisy-blobs-generator&n={n}&epochs=2")
        page.wait_for_function(READY)
        opened = page.evaluate("() => ({...window.__bench})")
        status = page.inner_text(".pl-status")
        steps = int(status.split("/")[1].split("·")[0])
        run_bytes = page.evaluate("""() => {
          const box = document.querySelector('.pl-stepper').parentElement;
          return box.__plStepper.run.columns.X.values.buffer.byteLength; }""")
        page.wait_for_timeout(1000)  # anything left over from opening
        # fast presses
        sent_before = page.evaluate("() => window.__bench.sent")
        for _ in range(presses):
            page.keyboard.press("ArrowRight")
            page.wait_for_timeout(gap)
        page.wait_for_function(
            "(n) => window.__bench.presses.length === n && window.__bench.presses.every("
            "(p) => p.painted !== null)", arg=presses)
        sent_during = page.evaluate("() => window.__bench.sent") - sent_before
        rows = page.evaluate("() => window.__bench.presses")
        page.wait_for_function("(k) => new URLSearchParams(location.search).get('step') === k",
                               arg=str(presses))
        page.wait_for_timeout(1000)
        # syncs: one press, reported at once (as when the page is left: the throttle would
        # hold each report up to 5 s), then wait for the server's reply in the address bar
        cpu = server.cpu_times()
        for i in range(syncs):
            page.keyboard.press("ArrowRight")
            page.evaluate("() => window.dispatchEvent(new PageTransitionEvent('pagehide'))")
            page.wait_for_function(
                "(k) => new URLSearchParams(location.search).get('step') === k",
                arg=str(presses + i + 1))
        used = server.cpu_times()
        profile = trace_presses(browser, page, presses=min(presses, 40), gap=gap) \
            if trace else None
        browser.close()
    sync_cpu = (used.user + used.system - cpu.user - cpu.system) / syncs * 1000
    key_to_paint = [r["painted"] - r["key"] for r in rows]
    key_to_shown = [r["shown"] - r["key"] for r in rows]
    return dict(steps=steps, presses=presses, key_to_paint=key_to_paint,
                key_to_shown=key_to_shown, sent_per_press=sent_during / presses,
                sync_cpu_ms=sync_cpu, open_bytes=opened["receivedBytes"],
                open_messages=opened["received"], run_bytes=run_bytes, profile=profile)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1000, help="points (2 x n steps)")
    parser.add_argument("--presses", type=int, default=200)
    parser.add_argument("--gap", type=int, default=100, help="ms between presses")
    parser.add_argument("--syncs", type=int, default=20)
    parser.add_argument("--trace", action="store_true",
                        help="also trace 40 presses in Chromium: where a press's time goes")
    args = parser.parse_args()
    print(machine())
    with streamlit_server(name="latency") as (url, process):
        result = run(url, psutil.Process(process.pid), n=args.n, presses=args.presses,
                     gap=args.gap, syncs=args.syncs, trace=args.trace)
    paint, shown = result["key_to_paint"], result["key_to_shown"]
    print("| points | steps | presses | key -> painted p50 / p95 / max (ms) | key -> shown p50 "
          "(ms) | sent per press | server CPU per sync | page open over WebSocket |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    print(f"| {args.n:,} | {result['steps']:,} | {result['presses']} | "
          f"{percentile(paint, 50):.1f} / {percentile(paint, 95):.1f} / {max(paint):.1f} | "
          f"{statistics.median(shown):.1f} | {result['sent_per_press']:.2f} | "
          f"{result['sync_cpu_ms']:.1f} ms | {result['open_bytes'] / 1024:.1f} KB in "
          f"{result['open_messages']} messages (the run: {result['run_bytes'] / 1024:.1f} KB) |")


    if result["profile"]:
        profile = result["profile"]
        print(f"\nChromium trace, per press: renderer main thread busy "
              f"{profile['busy']:.1f} ms of {profile['wall']:.1f} ms; inside its tasks:")
        for name, ms in profile["top"]:
            print(f"- {name}: {ms:.2f} ms")


if __name__ == "__main__":
    main()
