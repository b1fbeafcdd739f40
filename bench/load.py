"""A lecture hall: many students' sessions pressing Step at once, from ONE Python process.

Run from the repository root::

    python -m bench.load --sessions 20 --duration 10            # develop with small numbers
    python -m bench.load --sessions 300                          # one Streamlit process
    python -m bench.load --sessions 300 --nginx 2                # nginx + 2 Streamlit processes
    python -m bench.load --sessions 300 --query "data=separable-generator&n=1000"

Each simulated student opens the step-through lesson over a WebSocket that
speaks Streamlit's protocol (see bench/_protocol.py), waits for the first
run, then presses Step every ``--period`` seconds for ``--duration`` seconds.
Students arrive spread over ``--ramp`` seconds, each at a random phase. A
press is timed from the BackMsg sent to the ``script_finished`` ForwardMsg
received. An error is a failed connection, a lost connection, a run that did
not finish in ``--timeout`` s or finished other than successfully, an
exception element on the page, or a "Step t" metric that does not show the
expected step. All traffic goes to 127.0.0.1; every loop is bounded in count
and time.

Memory per session: the server's resident memory (all Streamlit processes)
after the run, while every session is still connected, minus before (after
one warm-up session), divided by the sessions.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import tempfile
import time
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import psutil

from bench._protocol import SUCCESS, Session
from bench._server import load_average, machine, percentile, streamlit_server
from bench.latency import profile_report, sampled

STEP_KEY = "step_through.step"


@dataclass
class Results:
    """Everything the students measured."""

    first: list[float] = field(default_factory=list)  # first run (opening the page), s
    steps: list[float] = field(default_factory=list)  # one Step, s
    step_bytes: list[int] = field(default_factory=list)
    errors: Counter = field(default_factory=Counter)
    planned: int = 0
    late: int = 0  # presses that went out later than planned (the previous one was slow)
    connected: int = 0
    finished: int = 0  # students done pressing (or failed)
    unmade: int = 0  # planned presses left when the stepping window closed


def sticky_cookie(base: str) -> str | None:
    """GET / as a browser would; the cookie a sticky load balancer sets, if any."""
    with urllib.request.urlopen(base + "/", timeout=30) as response:
        cookies = response.headers.get_all("Set-Cookie") or []
    return "; ".join(cookie.split(";", 1)[0] for cookie in cookies) or None


async def student(base: str, query: str, arrive: float, args, results: Results,
                  everyone_done: asyncio.Event, stop_at: float) -> None:
    """One student: open the page, press Step every period, stay until everyone is done.

    No press starts after ``stop_at`` (the end of the stepping window, with
    room for one slow run): a saturated server gets fewer presses, not a
    longer benchmark.
    """
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
        step_id = first.buttons[STEP_KEY]
        fragment = first.fragments.get(step_id, "")
        total = first.metrics["Step t"].split("/")[1].strip()
        presses = int(args.duration // args.period)
        results.planned += presses
        start = time.perf_counter() + random.uniform(0, args.period)
        for k in range(1, presses + 1):
            if time.perf_counter() > stop_at:
                results.unmade += presses - k + 1
                break
            wait = start + (k - 1) * args.period - time.perf_counter()
            if wait > 0:
                await asyncio.sleep(wait)
            else:
                results.late += 1
            run = await session.rerun(step_id, fragment=fragment, timeout=args.timeout)
            results.steps.append(run.seconds)
            results.step_bytes.append(run.received)
            if run.status not in SUCCESS:
                results.errors[f"finished with status {run.status}"] += 1
            elif run.exceptions:
                results.errors["exception on the page"] += 1
            elif run.metrics.get("Step t") != f"{k} / {total}":
                results.errors["wrong step shown"] += 1
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


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU time of these processes so far."""
    return sum(sum(psutil.Process(pid).cpu_times()[:2]) for pid in pids)


async def hall(base: str, query: str, pids: list[int], args) -> tuple[Results, dict]:
    """Warm up each process with one session, then run every student; measure memory, CPU."""
    for port in listening_ports(pids):
        warm = await Session.open(f"http://127.0.0.1:{port}", query)
        first = await warm.rerun(timeout=args.timeout)
        step_id = first.buttons[STEP_KEY]
        await warm.rerun(step_id, fragment=first.fragments.get(step_id, ""), timeout=args.timeout)
        await warm.close()
    await asyncio.sleep(2)
    before = rss(pids)
    cpu_before, mine_before = cpu_seconds(pids), sum(psutil.Process().cpu_times()[:2])
    cpu_each = [cpu_seconds([pid]) for pid in pids]
    results = Results()
    everyone_done = asyncio.Event()
    random.seed(args.seed)
    arrivals = sorted(random.uniform(0, args.ramp) for _ in range(args.sessions))
    started = time.perf_counter()
    peak = before
    stop_at = started + args.ramp + args.period + args.duration + args.timeout
    tasks = [asyncio.create_task(student(base, query, arrive, args, results, everyone_done,
                                         stop_at)) for arrive in arrivals]
    deadline = stop_at + args.timeout + 10
    while results.finished < args.sessions and time.perf_counter() < deadline:
        peak = max(peak, rss(pids))
        await asyncio.sleep(1)
    after = rss(pids)
    peak = max(peak, after)
    wall = time.perf_counter() - started
    cpu = cpu_seconds(pids) - cpu_before
    split = [cpu_seconds([pid]) - before_pid for pid, before_pid in zip(pids, cpu_each,
                                                                         strict=True)]
    mine = sum(psutil.Process().cpu_times()[:2]) - mine_before
    everyone_done.set()
    _, pending = await asyncio.wait(tasks, timeout=60)
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)
    if pending:
        results.errors["still running at the deadline"] += len(pending)
    return results, dict(before=before, after=after, peak=peak, wall=wall, cpu=cpu, mine=mine,
                         split=split)


def report(results: Results, memory: dict, args, where: str, load_before: float) -> str:
    """The results as markdown."""
    steps = [s * 1000 for s in results.steps]
    first = [s * 1000 for s in results.first]
    n = args.sessions
    errors = sum(results.errors.values())
    split = " / ".join(f"{part / max(memory['cpu'], 1e-9):.0%}" for part in memory["split"])
    lines = [
        f"{n} sessions, {where}; Step every {args.period:g} s for {args.duration:g} s; "
        f"arrivals over {args.ramp:g} s; query {args.query!r}; load average before "
        f"{load_before:.2f}",
        "",
        "| measure | value |", "| --- | ---: |",
        f"| sessions connected | {results.connected} / {n} |",
        f"| Step presses done / planned | {len(steps)} / {results.planned} |",
        f"| Step latency p50 / p95 / max (ms) | {percentile(steps, 50):.0f} / "
        f"{percentile(steps, 95):.0f} / {max(steps, default=float('nan')):.0f} |",
        f"| first run (opening the page) p50 / p95 (ms) | {percentile(first, 50):.0f} / "
        f"{percentile(first, 95):.0f} |",
        f"| presses sent late (previous one still running) | {results.late} |",
        f"| presses not made (window closed) | {results.unmade} |",
        f"| errors | {errors}"
        + (f" ({', '.join(f'{k}: {v}' for k, v in results.errors.items())})" if errors else "")
        + " |",
        f"| Steps per second served | {len(steps) / memory['wall']:.1f} |",
        f"| bytes per Step (median) | {percentile(results.step_bytes, 50) / 1000:.1f} KB |",
        f"| server RSS before / after / peak (MB) | {memory['before'] / 2**20:.0f} / "
        f"{memory['after'] / 2**20:.0f} / {memory['peak'] / 2**20:.0f} |",
        f"| memory per session | {(memory['after'] - memory['before']) / n / 2**20:.2f} MB |",
        f"| server CPU (s of CPU per s of wall) | {memory['cpu'] / memory['wall']:.2f} |",
        f"| server CPU per Step (incl. page opens) | "
        f"{memory['cpu'] / max(len(steps) + len(first), 1) * 1000:.0f} ms |",
        f"| CPU split between the Streamlit processes | {split} |",
        f"| load client CPU (same machine) | {memory['mine'] / memory['wall']:.2f} |",
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=300)
    parser.add_argument("--period", type=float, default=3.0, help="seconds between Steps")
    parser.add_argument("--duration", type=float, default=60.0, help="seconds of stepping")
    parser.add_argument("--ramp", type=float, default=20.0, help="students arrive over this")
    parser.add_argument("--timeout", type=float, default=30.0, help="per run, s")
    parser.add_argument("--query", default="", help="the link's query ('' = the default page)")
    parser.add_argument("--nginx", type=int, default=0,
                        help="N > 0: nginx (deploy/nginx.conf) in front of N Streamlit processes")
    parser.add_argument("--wait-quiet", type=float, default=0,
                        help="first wait up to this many minutes for a 1-min load average < 1.5")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--profile", action="store_true",
                        help="sample the (first) Streamlit process with py-spy meanwhile")
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
        stacks = Path(tempfile.gettempdir()) / "perceptron-lab-load.stacks"
        if args.profile:
            stack.enter_context(sampled(pids[0], stacks))
        results, memory = asyncio.run(hall(base, args.query, pids, args))
    print(report(results, memory, args, where, load_before))
    if args.profile:
        print("\n" + profile_report(stacks, page="step_through.py:<module>"))


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
