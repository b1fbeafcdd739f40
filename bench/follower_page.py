"""The follower page against today's class link: what a phone downloads, how soon it draws,
and a hall's burst of joins on one process.

Run from the repository root::

    python -m bench.follower_page                  # both parts
    python -m bench.follower_page --joins 50       # develop with small numbers
    python -m bench.follower_page --part bytes     # the browser part only
    python -m bench.follower_page --part burst --joins 1000 --nginx 2   # nginx, 2 processes, Redis

One Streamlit server. A lecturer's page (headless Chromium, 1280 x 800) opens ``--view``, starts
a class from its sidebar and moves to ``--step`` (its page keeps the view's run for the follower
page: ui/classroom/follow.py).

**Bytes and the first picture** (``--part bytes``). A phone (390 x 844, touch) opens the class's
link twice in a fresh browser context (cold: an empty cache; then warm: the same context, its
cache kept, a new tab), once for each link, side by side in the same run: the follower page
(``/follow?class=CODE``) and today's link to the full app (``/?class=CODE``). Bytes are Chrome's
own network events (CDP): each finished response's ``encodedDataLength`` (headers and body as
they came over the wire), what an unfinished one (the class's event stream) had received, and
every WebSocket frame's payload, until the phone's stepper shows the class's step and 1.5 s
after. The first picture is the page's own clock: from the navigation's first byte
(``responseStart``) to the first frame in which the stepper's plane is drawn at the class's
step. ``--throttle`` repeats it on a busy campus Wi-Fi (CDP network emulation: 40 ms latency,
5 Mbit/s down, 2 Mbit/s up).

**A burst of joins** (``--part burst``). ``--joins`` light clients at once on the same process,
each what the follower page does over HTTP (classroom/follower.py's raw asyncio client): GET
the page, GET the class (``/class/CODE``: its run's digest, a join ticket), GET the run, earn an
identity (a proof of work made before the burst, as each phone makes its own), open the stream;
each timed from the burst's start to the stream's first state at the class's step. Server CPU
per join: the processes' CPU time over the burst less their idle rate over 3 s before it (the
lecturer's page open), divided by the joins. ``--nginx N``: deploy/run.sh with N processes (and
Redis when N > 1) behind nginx, every request through it (its cache of the page's files and the
runs too).
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import concurrent.futures
import contextlib
import json
import os
import time

from bench._server import (
    CHROMIUM_ARGS,
    load_average,
    machine,
    percentile,
    streamlit_server,
    system_chromium,
)
from bench.classroom import cpu_seconds
from classroom import codes
from classroom.follower import Follower, request

VIEW = "data=noisy-blobs-generator&n=1000"
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
WIFI = {"offline": False, "latency": 40, "downloadThroughput": 5e6 / 8,
        "uploadThroughput": 2e6 / 8}

# the first frame in which the page's stepper shows the class's step with its plane drawn
DRAWN = """(k) => {
  const box = document.querySelector('.pl-stepper:not(.pl-follower)');
  const plot = box?.querySelector('.pl-plane .js-plotly-plot');
  if (!(plot && plot._fullLayout && box.dataset.step === String(k))) return false;
  window.__plDrawnAt ??= performance.now();
  return true;
}"""
SINCE_FIRST_BYTE = ("() => window.__plDrawnAt - "
                    "performance.getEntriesByType('navigation')[0].responseStart")


def lecture(browser, base: str, view: str, step: int):
    """A lecturer's page on ``view`` that starts a class and goes to ``step``: (page, code)."""
    from testkit.browser import wait_idle
    from testkit.class_journey import start_class

    page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    page.set_default_timeout(120_000)
    page.goto(f"{base}/?{view}")
    wait_idle(page)
    code = start_class(page)
    page.locator(".pl-status").first.click()
    for _ in range(step):
        page.keyboard.press("ArrowRight")
    page.wait_for_function("(k) => document.querySelector('.pl-stepper')?.dataset.step"
                           " === String(k)", arg=step)
    page.wait_for_timeout(1500)  # the step reaches the class
    return page, code


def visit(context, url: str, step: int, throttle: bool) -> dict:
    """One open of ``url`` in ``context``'s new tab: bytes, requests, first picture (ms)."""
    page = context.new_page()
    page.set_default_timeout(180_000)
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    if throttle:
        cdp.send("Network.emulateNetworkConditions", WIFI)
    finished: dict[str, int] = {}
    streamed: dict[str, int] = {}
    socket = [0]
    cdp.on("Network.loadingFinished",
           lambda e: finished.__setitem__(e["requestId"], e["encodedDataLength"]))
    cdp.on("Network.dataReceived", lambda e: streamed.__setitem__(
        e["requestId"], streamed.get(e["requestId"], 0) + e["encodedDataLength"]))

    def frame(event):
        payload = event["response"]["payloadData"]
        socket[0] += (len(base64.b64decode(payload)) if event["response"]["opcode"] == 2
                      else len(payload))

    cdp.on("Network.webSocketFrameReceived", frame)
    page.goto(url)
    page.wait_for_function(DRAWN, arg=step, polling="raf")
    first = page.evaluate(SINCE_FIRST_BYTE)
    page.wait_for_timeout(1500)
    http = sum(finished.values()) + sum(n for r, n in streamed.items() if r not in finished)
    requests = len(set(finished) | set(streamed))
    page.close()
    return {"bytes": http + socket[0], "socket": socket[0], "requests": requests,
            "first_ms": first}


def bytes_part(browser, base: str, code: str, step: int, throttle: bool) -> list[str]:
    rows = []
    for name, path in (("follower page", f"/follow?class={code}"),
                       ("today's class link", f"/?class={code}")):
        context = browser.new_context(**PHONE)
        cold = visit(context, base + path, step, throttle)
        warm = visit(context, base + path, step, throttle)
        context.close()
        rows.append(f"| {name} (`{path.split('?')[0]}?class=CODE`) | {cold['requests']} | "
                    f"{cold['bytes'] / 1000:,.0f} | {cold['socket'] / 1000:,.0f} | "
                    f"{cold['first_ms']:,.0f} | {warm['requests']} | "
                    f"{warm['bytes'] / 1000:,.1f} | {warm['first_ms']:,.0f} |")
    return rows


# ------------------------------------------------------------------ the burst

async def get(base: str, path: str, timeout: float) -> tuple[int, dict, bytes]:
    """One GET on its own connection, asking for gzip: status, headers, body as it came."""
    from classroom.follower import _read_body, _read_head, _split

    host, port = _split(base)
    reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port), timeout)
    try:
        writer.write((f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nConnection: close\r\n"
                      "Accept-Encoding: gzip\r\n\r\n").encode())
        await writer.drain()
        status, headers, _ = await asyncio.wait_for(_read_head(reader), timeout)
        body = await asyncio.wait_for(_read_body(reader, headers), timeout)
        return status, headers, body
    finally:
        writer.close()


async def join(base: str, code: str, step: int, proof, start: float, timeout: float) -> tuple:
    """One phone: (seconds to the class's step, bytes received, problem or None)."""
    got = 0
    follower = None
    try:
        status, _, body = await get(base, f"/follow?class={code}", timeout)
        got += len(body)
        if status != 200:
            return float("nan"), got, f"page {status}"
        status, headers, body = await get(base, f"/class/{code}", timeout)
        got += len(body)
        if status != 200:
            return float("nan"), got, f"class {status}"
        state = json.loads(body)
        status, _, body = await get(base, f"/class/run/{state['run']}", timeout)
        got += len(body)
        if status != 200:
            return float("nan"), got, f"run {status}"
        follower = Follower(base, code, ticket=headers.get("x-class-ticket"), proof=proof)
        status = await follower.connect(timeout)
        if status != 200:
            return float("nan"), got, f"stream {status}"
        while True:
            event = await follower.next("state", timeout)
            if event.data["step"] == step:
                return event.received - start, got, None
    except (OSError, TimeoutError, ValueError) as failure:
        return float("nan"), got, f"{type(failure).__name__}: {failure}"
    finally:
        if follower is not None:
            await follower.close()


async def burst(base: str, pids: list[int], code: str, step: int, joins: int, timeout: float
                ) -> dict:
    _, reply = await request(base, "GET", "/class/voter")
    work = reply["work"]
    proofs = [codes.solve_work(work["bits"], work["iterations"]) for _ in range(joins)]
    before = cpu_seconds(pids)
    await asyncio.sleep(3)
    idle = (cpu_seconds(pids) - before) / 3
    start_cpu, start = cpu_seconds(pids), time.perf_counter()
    results = await asyncio.gather(*(join(base, code, step, proof, start, timeout)
                                     for proof in proofs))
    wall = time.perf_counter() - start
    used = cpu_seconds(pids) - start_cpu - idle * wall
    times = [t for t, _, problem in results if problem is None]
    problems = [problem for *_, problem in results if problem is not None]
    return {"p50": percentile(times, 50), "p95": percentile(times, 95),
            "max": max(times, default=float("nan")), "errors": len(problems),
            "first_error": problems[0] if problems else "", "wall": wall, "idle": idle,
            "cpu_ms": 1000 * used / joins,
            "bytes": sum(b for _, b, _ in results) / joins}


@contextlib.contextmanager
def served_one():
    with streamlit_server(name="follower-page") as (base, process):
        yield base, [process.pid]


def main() -> None:
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=("bytes", "burst", "both"), default="both")
    parser.add_argument("--joins", type=int, default=300)
    parser.add_argument("--view", default=VIEW)
    parser.add_argument("--step", type=int, default=25)
    parser.add_argument("--throttle", action="store_true", help="also on a busy campus Wi-Fi")
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--nginx", type=int, default=0,
                        help="N > 0: deploy/run.sh with N processes (and Redis when N > 1)")
    args = parser.parse_args()
    print(machine())
    load_before = load_average()
    # a hall's phones each make their own proof of work: here one process makes them all
    os.environ["PERCEPTRON_LAB_WORK_BITS"] = "4"
    if args.nginx:
        from bench._nginx import balanced

        served = balanced(args.nginx, precompress=False)
        where = f"nginx + {args.nginx} processes" + (" + Redis" if args.nginx > 1 else "")
    else:
        served = served_one()
        where = "one process"
    with served as (base, pids), sync_playwright() as playwright:
        browser = playwright.chromium.launch(headless=True, executable_path=system_chromium(),
                                             args=CHROMIUM_ARGS)
        lecturer, code = lecture(browser, base, args.view, args.step)
        if args.part in ("bytes", "both"):
            head = ("| a phone opens | requests (cold) | KB (cold) | of them WebSocket KB | "
                    "first picture after the first byte (ms, cold) | requests (warm) | "
                    "KB (warm) | first picture (ms, warm) |\n|---|---|---|---|---|---|---|---|")
            for throttle in (False, True) if args.throttle else (False,):
                where = "a busy campus Wi-Fi (40 ms, 5/2 Mbit/s)" if throttle else "loopback"
                print(f"\nA phone opens the class's link, view {args.view!r} at step "
                      f"{args.step}, on {where}:")
                print(head)
                print("\n".join(bytes_part(browser, base, code, args.step, throttle)))
        if args.part in ("burst", "both"):
            # (on a thread of its own: Playwright's loop runs on this one)
            with concurrent.futures.ThreadPoolExecutor(1) as pool:
                found = pool.submit(asyncio.run, burst(base, pids, code, args.step,
                                                       args.joins, args.timeout)).result()
            print(f"\n{args.joins} follower pages join at once, {where} (GET page, class, "
                  f"run; identity; stream): at the class's step p50 / p95 / max "
                  f"{found['p50']:.2f} / {found['p95']:.2f} / {found['max']:.2f} s, all in "
                  f"{found['wall']:.1f} s; errors {found['errors']} {found['first_error']}")
            print(f"  server CPU per join above idle: {found['cpu_ms']:.2f} ms (idle "
                  f"{found['idle']:.3f} s/s); bytes per join (bodies, gzipped): "
                  f"{found['bytes'] / 1000:.1f} KB")
        lecturer.context.close()
        browser.close()
    print(f"load average before {load_before:.2f}, after {load_average():.2f}")


if __name__ == "__main__":
    main()
