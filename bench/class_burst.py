"""The start of a class: a hall opens the class's link at once.

Run from the repository root::

    python -m bench.class_burst --joins 20                  # develop with small numbers
    python -m bench.class_burst --joins 300                 # one Streamlit process
    python -m bench.class_burst --joins 1000 --nginx 2      # nginx + 2 processes + Redis

A class is started over HTTP (classroom/follower.py's Lecturer) on ``--view`` (1,000
noisy-blob points) and moved to ``--step``. One session opens the link first (what every
process pays once). Then ``--joins`` sessions (bench/_protocol.py, as many browser tabs)
open ``/?class=CODE`` at the same moment, each timed from the burst's start to the end of
the run that draws its page at the class's view and step: the address it is given holds
``step=<the class's step>`` and no exception was drawn. That first run is the view's first
screen (ui/first_screen.py) once the process has one; its page then asks for its rest as a
browser does (ui/rest_later.py: once still, at a random moment within the spread the page
was given), and the whole page is timed to the end of that run. A real page also needs its
own JavaScript and Plotly (from the browser's cache in a hall that opened the app before)
and the class's stream; the stream's cost is bench/classroom.py's.

Server CPU per join: the Streamlit processes' CPU time (psutil) over the burst and its rests,
less their idle rate over 3 s before it, divided by the joins. All traffic goes to 127.0.0.1.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import time

import psutil

from bench._server import load_average, machine, percentile, streamlit_server
from bench.classroom import cpu_seconds
from classroom.follower import Lecturer

VIEW = "data=noisy-blobs-generator&n=1000"
REST_KEY = "pl-rest"  # ui/rest_later.py's component, by its key
QUIET_S = 0.6  # ui/rest_later.py's QUIET_MS: a page asks for its rest once this still


async def join(base: str, code: str, step: int, start: float, timeout: float,
               rest: bool = True) -> tuple:
    """One tab opening the class's link: (seconds from the burst's start to its first screen,
    to its whole page, problem or None).

    A first screen that asks for the page's rest (ui/rest_later.py's component) gets it asked
    for as the browser does: once the page has been still QUIET_S, at a random moment within
    the spread the component was given.
    """
    from bench._protocol import SUCCESS, Session

    session = None
    first = whole = float("nan")
    try:
        session = await Session.open(base, f"class={code}", timeout=timeout)
        run = await session.rerun(timeout=timeout)
        first = whole = time.perf_counter() - start
        if run.status not in SUCCESS or run.exceptions:
            return first, whole, f"run ended {run.status}: {run.exceptions[:1]}"
        if f"step={step}" not in session.query.split("&"):
            return first, whole, f"opened at {session.query!r}"
        asks = next(((name, json.loads(data)) for name, data in run.components.items()
                     if name.endswith(REST_KEY) and data), None)
        if rest and asks is not None:
            name, asked = asks
            await asyncio.sleep(QUIET_S + random.random() * asked.get("spread", 0) / 1000)
            run = await session.trigger(name, "drawn", asked["page"], timeout=timeout)
            whole = time.perf_counter() - start
            if run.status not in SUCCESS or run.exceptions:
                return first, whole, f"the rest's run ended {run.status}: {run.exceptions[:1]}"
            if f"step={step}" not in session.query.split("&"):
                return first, whole, f"its rest at {session.query!r}"
        return first, whole, None
    except (OSError, TimeoutError) as failure:
        return first, time.perf_counter() - start, f"{type(failure).__name__}: {failure}"
    finally:
        if session is not None:
            with contextlib.suppress(Exception):
                await session.close()


async def burst(base: str, pids: list[int], args) -> dict:
    lecturer = Lecturer(base)
    await lecturer.start(args.view, 0)
    status, _ = await lecturer.act("step", step=args.step)
    if status != 200:
        raise RuntimeError(f"the class did not take step {args.step}: {status}")
    warm = await join(base, lecturer.code, args.step, time.perf_counter(), args.timeout)
    if warm[2]:
        raise RuntimeError(f"the first join failed: {warm[2]}")
    before = cpu_seconds(pids)
    await asyncio.sleep(3)
    idle = (cpu_seconds(pids) - before) / 3
    start_cpu, start = cpu_seconds(pids), time.perf_counter()
    own = cpu_seconds([psutil.Process().pid])  # the clients' (this process's), on the same cores
    results = await asyncio.gather(*(join(base, lecturer.code, args.step, start, args.timeout,
                                          args.rest) for _ in range(args.joins)))
    wall = time.perf_counter() - start
    used = cpu_seconds(pids) - start_cpu - idle * wall
    clients = cpu_seconds([psutil.Process().pid]) - own
    firsts = [first for first, _, problem in results if problem is None]
    wholes = [whole for _, whole, problem in results if problem is None]
    problems = [problem for *_, problem in results if problem is not None]
    await lecturer.act("end")
    return {"p50": percentile(firsts, 50), "p95": percentile(firsts, 95),
            "max": max(firsts, default=float("nan")), "whole_p50": percentile(wholes, 50),
            "whole_p95": percentile(wholes, 95), "errors": len(problems),
            "first_error": problems[0] if problems else "", "cpu_per_join_ms":
            1000 * used / args.joins, "idle_rate": idle, "wall": wall,
            "clients_cpu": clients}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--joins", type=int, default=300)
    parser.add_argument("--nginx", type=int, default=0,
                        help="N > 0: deploy/run.sh with N processes (and Redis when N > 1)")
    parser.add_argument("--view", default=VIEW)
    parser.add_argument("--step", type=int, default=25)
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--app-dir", default=None, help="another tree's app, to compare")
    parser.add_argument("--no-rest", dest="rest", action="store_false",
                        help="never ask for a first screen's rest (the first screens alone)")
    args = parser.parse_args()
    print(machine())
    load_before = load_average()
    if args.nginx:
        from bench._nginx import balanced

        with balanced(args.nginx, precompress=False) as (base, pids):
            found = asyncio.run(burst(base, pids, args))
        where = f"nginx + {args.nginx} processes"
    else:
        with streamlit_server(name="class-burst", root=args.app_dir) as (base, process):
            found = asyncio.run(burst(base, [process.pid], args))
        where = "one process"
    print(f"{args.joins} joins at once, {where}, view {args.view!r} at step {args.step}; "
          f"load average before {load_before:.2f}, after {load_average():.2f}")
    print(f"  page at the class's step p50 / p95 / max: {found['p50']:.2f} / "
          f"{found['p95']:.2f} / {found['max']:.2f} s")
    print(f"  whole page (its rest asked for as a browser does) p50 / p95: "
          f"{found['whole_p50']:.2f} / {found['whole_p95']:.2f} s (all done in "
          f"{found['wall']:.1f} s)")
    print(f"  errors: {found['errors']} {found['first_error']}")
    print(f"  server CPU per join above idle (both runs): {found['cpu_per_join_ms']:.1f} ms "
          f"(idle {found['idle_rate']:.3f} s/s); the clients' CPU {found['clients_cpu']:.1f} s "
          f"on the same cores")


if __name__ == "__main__":
    main()
