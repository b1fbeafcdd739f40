"""A class in real browsers: the lecturer's page presses ->, a student's page shows the step.

Run from the repository root::

    python -m bench.class_browsers --followers 300              # one Streamlit process
    python -m bench.class_browsers --followers 1000 --nginx 2   # deploy/run.sh: nginx,
                                                                # 2 processes, Redis

bench/classroom.py times the server's side (press -> event read by a stream). Here the
ends are pages: a real Chromium lecturer page (1280 x 720, lecture mode) starts a class
from its sidebar on the step-through lesson (1,000 noisy-blob points), a real Chromium
student page opens the class's link and follows, and ``--followers`` - 1 simulated
followers hold event streams as browsers would (classroom/follower.py, each with its own
voter cookie). Then the lecturer presses -> every ``--period`` s, ``--presses`` times. A
press is timed from the keydown on the lecturer's page to the frame in which the student's
page shows "Step k / K", both with the machine's one wall clock (Date.now()). A press the
student's page never shows counts as missed.

Server CPU: the server processes' CPU per wall second for ``--idle`` s before the presses
(everything open, nobody pressing), then while pressing; the difference over the presses
is the CPU per lecturer step, spent for every follower together.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import re
import statistics
import threading
import time

from bench._server import (
    CHROMIUM_ARGS,
    load_average,
    machine,
    percentile,
    streamlit_server,
    system_chromium,
)
from bench.classroom import cpu_seconds, open_followers
from bench.latency import READY

LINK = "/?data=noisy-blobs-generator&n=1000&epochs=2"
KEYS = """
window.__keys = [];
addEventListener('keydown', (e) => { if (e.key === 'ArrowRight') __keys.push(Date.now()); },
                 true);
"""
# every status line the page shows, with the wall-clock time of the frame that holds it
SHOWN = """
window.__shown = [];
new MutationObserver(() => {
  const line = document.querySelector('.pl-status')?.textContent ?? '';
  const last = window.__shown[window.__shown.length - 1];
  if (!last || last[1] !== line) {
    const seen = [0, line];
    window.__shown.push(seen);
    const channel = new MessageChannel();
    channel.port1.onmessage = () => { seen[0] = Date.now(); };
    channel.port2.postMessage(0);
  }
}).observe(document, { subtree: true, childList: true, characterData: true });
"""


class Loop:
    """An asyncio loop on a thread of its own, for the simulated followers."""

    def __init__(self):
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def run(self, coroutine, timeout: float = 300):
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


def start_class(browser, base: str):
    """The lecturer's page with a class started from its sidebar; the page and the code."""
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    page.add_init_script(KEYS)
    page.goto(f"{base}{LINK}&lecture=1")
    page.wait_for_function(READY, timeout=120_000)
    bar = page.get_by_test_id("stSidebar")
    if bar.get_attribute("aria-expanded") == "false" or \
            bar.get_attribute("data-collapsed") == "true":  # lecture mode folds it away
        page.get_by_test_id("stExpandSidebarButton").click()
        page.wait_for_timeout(400)
    bar.get_by_role("button", name="Start a class").click()
    page.wait_for_function("() => /Class [A-Z0-9]{4}-[A-Z0-9]{4}/.test("
                           "document.querySelector('.pl-class')?.innerText ?? '')",
                           timeout=60_000)
    code = "".join(re.search(r"Class (\w{4})-(\w{4})",
                             page.locator(".pl-class").inner_text()).group(1, 2))
    page.wait_for_function(READY, timeout=60_000)
    return page, code


def measure(browser, base: str, pids: list[int], args) -> dict:
    lecturer, code = start_class(browser, base)
    student = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    student.add_init_script(SHOWN)
    student.goto(f"{base}/?class={code}")
    student.wait_for_function(READY, timeout=120_000)
    student.wait_for_function("() => /Following the class/.test("
                              "document.querySelector('.pl-class')?.innerText ?? '')")
    loop = Loop()
    try:
        followers = loop.run(open_followers(base, code, args.followers - 1))
        time.sleep(2)
        loop.run(count_events(followers))  # what they read on joining
        cpu0, wall0 = cpu_seconds(pids), time.perf_counter()
        time.sleep(args.idle)
        idle = (cpu_seconds(pids) - cpu0) / (time.perf_counter() - wall0)
        lecturer.locator(".pl-status").first.click()
        cpu0, wall0 = cpu_seconds(pids), time.perf_counter()
        for _ in range(args.presses):
            lecturer.keyboard.press("ArrowRight")
            lecturer.wait_for_timeout(args.period * 1000)
        pressing = (cpu_seconds(pids) - cpu0) / (time.perf_counter() - wall0)
        wall = time.perf_counter() - wall0
        keys = lecturer.evaluate("() => window.__keys")
        shown = student.evaluate("() => window.__shown")
        events = loop.run(count_events(followers))
        loop.run(close_all(followers))
    finally:
        loop.stop()
    first_seen = {}
    for at, line in shown:
        match = re.match(r"Step (\d+) /", line)
        if match and at and int(match.group(1)) not in first_seen:
            first_seen[int(match.group(1))] = at
    latencies = [first_seen[k] - keys[k - 1] for k in range(1, len(keys) + 1)
                 if k in first_seen]
    return {"latencies": latencies, "missed": len(keys) - len(latencies), "idle": idle,
            "pressing": pressing, "wall": wall, "presses": len(keys), "events": events}


async def count_events(followers) -> int:
    """State events the simulated followers have read since last asked (each should read
    every press)."""
    total = 0
    for follower in followers:
        while not follower.events.empty():
            total += follower.events.get_nowait().kind == "state"
    return total


async def close_all(followers) -> None:
    await asyncio.gather(*(follower.close() for follower in followers),
                         return_exceptions=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--followers", type=int, default=300,
                        help="followers in all: the real student's page and simulated ones")
    parser.add_argument("--presses", type=int, default=30)
    parser.add_argument("--period", type=float, default=1.0, help="seconds between presses")
    parser.add_argument("--idle", type=float, default=5.0, help="seconds of idle CPU measured")
    parser.add_argument("--nginx", type=int, default=0,
                        help="this many Streamlit processes behind nginx, classes in Redis")
    args = parser.parse_args()
    if args.followers > 2000 or args.presses > 200:
        parser.error("bounded on purpose: at most 2,000 followers and 200 presses")
    from playwright.sync_api import sync_playwright

    load_before = load_average()
    with contextlib.ExitStack() as stack:
        if args.nginx:
            from bench._nginx import balanced

            base, pids = stack.enter_context(balanced(args.nginx))
            where = f"nginx in front of {args.nginx} Streamlit processes, classes in Redis"
        else:
            base, process = stack.enter_context(streamlit_server(name="class_browsers"))
            pids, where = [process.pid], "one Streamlit process"
        playwright = stack.enter_context(sync_playwright())
        browser = playwright.chromium.launch(headless=True, executable_path=system_chromium(),
                                             args=CHROMIUM_ARGS)
        result = measure(browser, base, pids, args)
        browser.close()
    took = sorted(result["latencies"])
    per_step = (result["pressing"] - result["idle"]) * result["wall"] / max(result["presses"], 1)
    print(f"Machine: {machine()}")
    print(f"{args.followers} followers (1 real Chromium student page + {args.followers - 1} "
          f"simulated streams) and a real Chromium lecturer page, {where}; {args.presses} "
          f"presses every {args.period:g} s; load average before {load_before:.2f}, after "
          f"{load_average():.2f}\n")
    print("| measure | value |\n| --- | ---: |")
    if took:
        print(f"| lecturer's key -> student's page shows the step, p50 / p95 / max (ms) | "
              f"{statistics.median(took):.0f} / {percentile(took, 95):.0f} / {took[-1]:.0f} |")
    print(f"| presses shown / missed on the student's page | {len(took)} / {result['missed']} |")
    print(f"| state events read by the simulated followers | {result['events']} "
          f"(of {(args.followers - 1) * result['presses']} steps) |")
    print(f"| server CPU idle / while pressing (s per s) | {result['idle']:.2f} / "
          f"{result['pressing']:.2f} |")
    print(f"| server CPU per lecturer step, all followers, above idle | {per_step * 1000:.0f} ms |")


if __name__ == "__main__":
    main()
