"""A lecture hall: 300 students stepping in their browsers, one of them a real Chromium.

Run from the repository root::

    python -m bench.load --sessions 20 --duration 10            # develop with small numbers
    python -m bench.load --sessions 300                          # one Streamlit process
    python -m bench.load --sessions 300 --nginx 2                # nginx + 2 Streamlit processes

A press steps in the page and sends nothing; what reaches the server is the
stepper's throttled sync of k (ui/stepper_assets/sync.js: 0.5 s after the
last press, at most one every 5 s). So first a real headless Chromium opens
the lesson (``--query``, by default 1,000 noisy-blob points, 2,000 steps),
presses ->, and the BackMsg its WebSocket sends for the sync is recorded
(Playwright's ``framesent``). Then ``--sessions`` simulated students open the
same lesson over Streamlit's protocol (bench/_protocol.py), arrive over
``--ramp`` s, and press every ``--period`` s for ``--duration`` s, each at a
random phase; their presses follow the page's throttle, and each sync they
send is the recorded message with their own k, query and cache (replayed).
A sync is timed from the BackMsg sent to the fragment's ``script_finished``.
Meanwhile the real Chromium student presses -> every ``--real-period`` s and
measures key -> painted with the page's own clock (bench/latency.py's probe).

An error is a failed or lost connection, a run that did not finish in
``--timeout`` s or finished other than successfully, an exception element,
an address (``page_info_changed``) that does not hold ``step=k`` after a
sync, or a real-browser press that was never painted. All traffic goes to
127.0.0.1; every loop is bounded in count and time.

Memory per session: the server's resident memory (all Streamlit processes)
after the run, while every session is still connected, minus before (after
one warm-up session), divided by the sessions.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import queue
import random
import threading
import time
import urllib.request
from collections import Counter
from dataclasses import dataclass, field

import psutil
from streamlit.proto.BackMsg_pb2 import BackMsg

from bench._protocol import SUCCESS, Session
from bench._server import (
    CHROMIUM_ARGS,
    load_average,
    machine,
    percentile,
    streamlit_server,
    system_chromium,
)
from bench.latency import INIT_SCRIPT, READY

QUERY = "data=noisy-blobs-generator&n=1000&epochs=2"
SYNC_IDLE, SYNC_EVERY = 0.5, 5.0  # the page's throttle (sync.js)


@dataclass
class Recorded:
    """The sync a real browser sent: the message, the stepper's widget id and its value."""

    message: BackMsg
    widget: str
    value: dict


@dataclass
class Results:
    """Everything the students measured."""

    first: list[float] = field(default_factory=list)  # first run (opening the page), s
    syncs: list[float] = field(default_factory=list)  # one sync's round trip, s
    sync_bytes: list[int] = field(default_factory=list)
    presses: int = 0  # presses the simulated students made (in their pages, no message)
    errors: Counter = field(default_factory=Counter)
    late: int = 0  # syncs that went out later than due (the previous one was slow)
    connected: int = 0
    finished: int = 0  # students done pressing (or failed)
    real: dict = field(default_factory=dict)  # the real Chromium student's measurements


def recorded_sync(payloads: list[bytes]) -> Recorded | None:
    """The last rerun BackMsg among these frames that reports a stepper's position."""
    found = None
    for payload in payloads:
        message = BackMsg()
        with contextlib.suppress(Exception):
            message.ParseFromString(payload)
        if message.WhichOneof("type") != "rerun_script":
            continue
        for widget in message.rerun_script.widget_states.widgets:
            if widget.WhichOneof("value") == "json_value" and '"position"' in widget.json_value:
                found = Recorded(message, widget.id, json.loads(widget.json_value))
    return found


def real_student(base: str, query: str, args, recorded: queue.Queue, go: threading.Event,
                 results: Results) -> None:
    """A real Chromium: record one sync, then press every real-period s while the hall runs."""
    from playwright.sync_api import sync_playwright

    real = results.real
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(headless=True, executable_path=system_chromium(),
                                             args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.set_default_timeout(args.timeout * 1000 * 4)
            sent: list[bytes] = []
            page.on("websocket", lambda ws: ws.on(
                "framesent", lambda f: sent.append(f if isinstance(f, bytes) else b"")))
            page.add_init_script(INIT_SCRIPT)
            page.goto(f"{base}/?{query}")
            page.wait_for_function(READY)
            page.keyboard.press("ArrowRight")
            page.wait_for_function("() => new URLSearchParams(location.search).get('step') "
                                   "=== '1'")
            recorded.put(recorded_sync(sent))
            if not go.wait(args.ramp + args.timeout * 4 + 120):
                return
            page.evaluate("() => { window.__bench.presses = []; window.__bench.sent = 0; }")
            sent.clear()
            presses = int(args.duration // args.real_period)
            started = time.perf_counter()
            for i in range(presses):
                wait = started + i * args.real_period - time.perf_counter()
                if wait > 0:
                    page.wait_for_timeout(wait * 1000)
                page.keyboard.press("ArrowRight")
            k = 1 + presses
            page.wait_for_function(
                "(n) => window.__bench.presses.length === n && window.__bench.presses.every("
                "(p) => p.painted !== null)", arg=presses)
            page.wait_for_function("(k) => new URLSearchParams(location.search).get('step') "
                                   "=== k", arg=str(k))
            rows = page.evaluate("() => window.__bench.presses")
            real.update(presses=presses, paint=[r["painted"] - r["key"] for r in rows],
                        syncs=len(recorded_sync_all(sent)),
                        status=page.inner_text(".pl-status"))
        except Exception as error:  # counted, never hides the hall's numbers
            real["error"] = f"{type(error).__name__}: {str(error).splitlines()[0][:120]}"
        finally:
            browser.close()


def recorded_sync_all(payloads: list[bytes]) -> list[int]:
    """The k of every sync among these frames."""
    ks = []
    for payload in payloads:
        one = recorded_sync([payload])
        if one is not None:
            ks.append(one.value["position"]["k"])
    return ks


def sticky_cookie(base: str) -> str | None:
    """GET / as a browser would; the cookie a sticky load balancer sets, if any."""
    with urllib.request.urlopen(base + "/", timeout=30) as response:
        cookies = response.headers.get_all("Set-Cookie") or []
    return "; ".join(cookie.split(";", 1)[0] for cookie in cookies) or None


def sync_times(presses: list[float]) -> list[tuple[float, int]]:
    """When the page sends its syncs for presses at these times, and the k each reports.

    The same rule as sync.js's Sync.queue: due SYNC_IDLE after the last press, or
    SYNC_EVERY after the first unreported one, never sooner than SYNC_EVERY after the
    previous sync.

    Examples
    --------
    >>> sync_times([0.0, 0.1, 0.2])
    [(0.7, 3)]
    >>> sync_times([0.0, 3.0, 6.0])
    [(0.5, 1), (5.5, 2), (10.5, 3)]
    """
    out: list[tuple[float, int]] = []
    sent_at, unsynced, due = None, None, None
    for k, t in enumerate([*presses, float("inf")]):
        while due is not None and due <= t:
            out.append((round(due, 6), k))  # k presses made so far
            sent_at, unsynced, due = due, None, None
        if t == float("inf"):
            break
        unsynced = t if unsynced is None else unsynced
        due = max(min(t + SYNC_IDLE, unsynced + SYNC_EVERY),
                  -float("inf") if sent_at is None else sent_at + SYNC_EVERY)
    return out


async def student(base: str, query: str, arrive: float, args, recorded: Recorded,
                  results: Results, everyone_done: asyncio.Event, stop_at: float) -> None:
    """One student: open the page, press every period, send the page's syncs, stay on."""
    await asyncio.sleep(arrive)
    loop = asyncio.get_running_loop()
    session = None
    try:
        cookie = await loop.run_in_executor(None, sticky_cookie, base) if args.nginx else None
        session = await Session.open(base, query, cookie, timeout=args.timeout)
        results.connected += 1
        first = await session.rerun(timeout=args.timeout)
        results.first.append(first.seconds)
        if first.status not in SUCCESS or first.exceptions:
            results.errors["first run failed"] += 1
            return
        phase = random.uniform(0, args.period)
        presses = [phase + i * args.period for i in range(int(args.duration // args.period))]
        results.presses += len(presses)
        start = time.perf_counter()
        for due, k in sync_times(presses):
            if start + due > stop_at:
                break
            wait = start + due - time.perf_counter()
            if wait > 0:
                await asyncio.sleep(wait)
            else:
                results.late += 1
            value = {**recorded.value, "position": {**recorded.value["position"], "k": k}}
            run = await session.replay(recorded.message, {recorded.widget: json.dumps(value)},
                                       timeout=args.timeout)
            results.syncs.append(run.seconds)
            results.sync_bytes.append(run.received)
            if run.status not in SUCCESS:
                results.errors[f"finished with status {run.status}"] += 1
            elif run.exceptions:
                results.errors["exception on the page"] += 1
            elif f"step={k}" not in session.query.split("&"):
                results.errors["address without step=k"] += 1
    except TimeoutError:
        results.errors["timed out"] += 1
    except Exception as error:  # every failure counts, none stops the others
        results.errors[type(error).__name__] += 1
    finally:
        results.finished += 1
        # stay connected until everyone is done, so memory is measured with all sessions open
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(everyone_done.wait(), args.ramp + args.duration + 120)
        if session is not None:
            with contextlib.suppress(Exception):
                await session.close()


def listening_ports(pids: list[int]) -> list[int]:
    """The TCP ports these processes listen on (one per Streamlit process)."""
    ports = []
    for pid in pids:
        ports += [c.laddr.port for c in psutil.Process(pid).net_connections(kind="tcp")
                  if c.status == psutil.CONN_LISTEN]
    return ports


def rss(pids: list[int]) -> int:
    """Resident memory of these processes, bytes."""
    return sum(psutil.Process(pid).memory_info().rss for pid in pids)


IDLE_SECONDS = 3.0  # the server's idle CPU rate is measured this long before the arrivals


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU time of these processes so far."""
    return sum(sum(psutil.Process(pid).cpu_times()[:2]) for pid in pids)


async def hall(base: str, query: str, pids: list[int], args) -> tuple[Results, dict]:
    """Record a real sync, warm up each process, run every student; measure memory, CPU."""
    loop = asyncio.get_running_loop()
    results = Results()
    recorded_q: queue.Queue = queue.Queue()
    go = threading.Event()
    real = loop.run_in_executor(None, real_student, base, query, args, recorded_q, go, results)
    try:
        recorded = await loop.run_in_executor(None, recorded_q.get, True, args.timeout * 8)
    except queue.Empty:
        recorded = None
    if recorded is None:
        go.set()
        await real
        raise SystemExit(f"no sync recorded from the real browser: {results.real}")
    for port in listening_ports(pids):
        warm = await Session.open(f"http://127.0.0.1:{port}", query)
        await warm.rerun(timeout=args.timeout)
        await warm.close()
    await asyncio.sleep(2)
    before = rss(pids)
    idle_from, idle_wall = cpu_seconds(pids), time.perf_counter()  # the idle server's own rate
    await asyncio.sleep(IDLE_SECONDS)
    idle = (cpu_seconds(pids) - idle_from) / (time.perf_counter() - idle_wall)
    cpu_before, mine_before = cpu_seconds(pids), sum(psutil.Process().cpu_times()[:2])
    cpu_each = [cpu_seconds([pid]) for pid in pids]
    everyone_done = asyncio.Event()
    random.seed(args.seed)
    arrivals = sorted(random.uniform(0, args.ramp) for _ in range(args.sessions))
    started = time.perf_counter()
    peak = before
    stop_at = started + args.ramp + args.period + args.duration + SYNC_EVERY + args.timeout
    tasks = [asyncio.create_task(student(base, query, arrive, args, recorded, results,
                                         everyone_done, stop_at)) for arrive in arrivals]
    # the real student presses while the hall is full: from the end of the ramp
    loop.call_later(args.ramp, go.set)
    deadline = stop_at + args.timeout + 10
    opened = None  # (CPU, wall) once every session has had its first run
    while (results.finished < args.sessions or not real.done()) \
            and time.perf_counter() < deadline:
        peak = max(peak, rss(pids))
        if opened is None and len(results.first) >= args.sessions:
            opened = (cpu_seconds(pids) - cpu_before, time.perf_counter() - started)
        await asyncio.sleep(0.25 if opened is None else 1)
    after = rss(pids)
    peak = max(peak, after)
    wall = time.perf_counter() - started
    cpu = cpu_seconds(pids) - cpu_before
    split = [cpu_seconds([pid]) - before_pid for pid, before_pid in zip(pids, cpu_each,
                                                                         strict=True)]
    mine = sum(psutil.Process().cpu_times()[:2]) - mine_before
    everyone_done.set()
    go.set()
    _, pending = await asyncio.wait(tasks, timeout=60)
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)
    if pending:
        results.errors["still running at the deadline"] += len(pending)
    await asyncio.wait_for(real, 120)
    return results, dict(before=before, after=after, peak=peak, wall=wall, cpu=cpu, mine=mine,
                         split=split, idle=idle, opened=opened)


def report(results: Results, memory: dict, args, where: str, load_before: float) -> str:
    """The results as markdown."""
    syncs = [s * 1000 for s in results.syncs]
    first = [s * 1000 for s in results.first]
    real = results.real
    paint = real.get("paint", [])
    n = args.sessions
    if "error" in real:
        results.errors[f"real browser: {real['error']}"] += 1
    elif len(paint) != real.get("presses"):
        results.errors["real browser: presses not painted"] += 1
    errors = sum(results.errors.values())
    split = " / ".join(f"{part / max(memory['cpu'], 1e-9):.0%}" for part in memory["split"])
    lines = [
        f"{n} simulated students + 1 real Chromium, {where}; presses every {args.period:g} s "
        f"(the real one every {args.real_period:g} s) for {args.duration:g} s; arrivals over "
        f"{args.ramp:g} s; query {args.query!r}; load average before {load_before:.2f}, "
        f"after {load_average():.2f}",
        "",
        "| measure | value |", "| --- | ---: |",
        f"| sessions connected | {results.connected} / {n} |",
        f"| real student: key -> painted p50 / p95 / max (ms) | {percentile(paint, 50):.1f} / "
        f"{percentile(paint, 95):.1f} / {max(paint, default=float('nan')):.1f} |",
        f"| real student: presses / syncs it sent | {real.get('presses', 0)} / "
        f"{real.get('syncs', 0)} |",
        f"| presses (in the pages) / syncs sent | {results.presses} / {len(syncs)} |",
        f"| sync round trip p50 / p95 / max (ms) | {percentile(syncs, 50):.0f} / "
        f"{percentile(syncs, 95):.0f} / {max(syncs, default=float('nan')):.0f} |",
        f"| first run (opening the page) p50 / p95 (ms) | {percentile(first, 50):.0f} / "
        f"{percentile(first, 95):.0f} |",
        f"| syncs sent late (previous one still running) | {results.late} |",
        f"| errors | {errors}"
        + (f" ({', '.join(f'{k}: {v}' for k, v in results.errors.items())})" if errors else "")
        + " |",
        f"| syncs per second served | {len(syncs) / memory['wall']:.1f} |",
        f"| bytes per sync (median) | {percentile(results.sync_bytes, 50) / 1000:.1f} KB |",
        f"| server RSS before / after / peak (MB) | {memory['before'] / 2**20:.0f} / "
        f"{memory['after'] / 2**20:.0f} / {memory['peak'] / 2**20:.0f} |",
        f"| memory per session | {(memory['after'] - memory['before']) / n / 2**20:.2f} MB |",
        f"| server CPU (s of CPU per s of wall) | {memory['cpu'] / memory['wall']:.2f} |",
        f"| server CPU idle before the arrivals (s per s) | {memory['idle']:.2f} |",
        "| server CPU per page open above idle, until every page had opened (ms) | "
        + (f"{(memory['opened'][0] - memory['idle'] * memory['opened'][1]) / n * 1000:.0f} "
           f"(over {memory['opened'][1]:.1f} s) |" if memory["opened"] else "- |"),
        f"| server CPU per sync (incl. page opens) | "
        f"{memory['cpu'] / max(len(syncs) + len(first), 1) * 1000:.0f} ms |",
        f"| CPU split between the Streamlit processes | {split} |",
        f"| load client CPU (same machine) | {memory['mine'] / memory['wall']:.2f} |",
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=300)
    parser.add_argument("--period", type=float, default=3.0, help="seconds between presses")
    parser.add_argument("--real-period", type=float, default=1.0,
                        help="seconds between the real Chromium student's presses")
    parser.add_argument("--duration", type=float, default=60.0, help="seconds of stepping")
    parser.add_argument("--ramp", type=float, default=20.0, help="students arrive over this")
    parser.add_argument("--timeout", type=float, default=30.0, help="per run, s")
    parser.add_argument("--query", default=QUERY, help="the lesson's link query")
    parser.add_argument("--nginx", type=int, default=0,
                        help="N > 0: nginx (deploy/nginx.conf) in front of N Streamlit processes")
    parser.add_argument("--wait-quiet", type=float, default=0,
                        help="first wait up to this many minutes for a 1-min load average < 1.5")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--whatif", default=None,
                        help="bench-only patches from bench/_whatif.py, e.g. lean-template")
    parser.add_argument("--app-dir", default=None,
                        help="run the app from another tree (one process only)")
    parser.add_argument("--option", action="append", default=[],
                        help="extra streamlit flag, e.g. --option=--runner.postScriptGC=true")
    args = parser.parse_args()
    if args.sessions > 1000 or args.duration > 600 or args.ramp > 300:
        parser.error("bounded on purpose: at most 1000 sessions, 600 s of stepping, 300 s ramp")
    if args.nginx and (args.whatif or args.app_dir):
        parser.error("--whatif and --app-dir run one Streamlit process: leave out --nginx")
    wait_for_quiet(args.wait_quiet)
    load_before = load_average()
    print(f"Machine: {machine()}")
    with contextlib.ExitStack() as stack:
        if args.nginx:
            from bench._nginx import balanced

            base, pids = stack.enter_context(balanced(args.nginx, *args.option))
            where = f"nginx in front of {args.nginx} Streamlit processes"
        else:
            base, process = stack.enter_context(
                streamlit_server(*args.option, name="load", root=args.app_dir,
                                 whatif=args.whatif))
            pids, where = [process.pid], "one Streamlit process"
        results, memory = asyncio.run(hall(base, args.query, pids, args))
    print(report(results, memory, args, where, load_before))


def wait_for_quiet(minutes: float, below: float = 1.5) -> None:
    """Wait (checking every 30 s, at most ``minutes``) for the 1-minute load average < below."""
    deadline = time.monotonic() + minutes * 60
    while minutes and load_average() >= below and time.monotonic() < deadline:
        print(f"load average {load_average():.2f} >= {below}; waiting", flush=True)
        time.sleep(30)
    if minutes and load_average() >= below:
        print(f"load average still {load_average():.2f} after {minutes:g} min: running anyway")


if __name__ == "__main__":
    main()
