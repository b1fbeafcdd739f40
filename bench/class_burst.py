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
``step=<the class's step>`` and no exception was drawn. A real page then needs its own
JavaScript and Plotly (from the browser's cache in a hall that opened the app before) and
the class's stream; the stream's cost is bench/classroom.py's.

Server CPU per join: the Streamlit processes' CPU time (psutil) over the burst, less their
idle rate over 3 s before it, divided by the joins. All traffic goes to 127.0.0.1.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import time

import psutil

from bench._server import load_average, machine, percentile, streamlit_server
from classroom.follower import Lecturer

VIEW = "data=noisy-blobs-generator&n=1000"


async def join(base: str, code: str, step: int, start: float, timeout: float) -> tuple:
    """One tab opening the class's link: (seconds from the burst's start, problem or None)."""
    from bench._protocol import SUCCESS, Session

    session = None
    try:
        session = await Session.open(base, f"class={code}", timeout=timeout)
        run = await session.rerun(timeout=timeout)
        took = time.perf_counter() - start
        if run.status not in SUCCESS or run.exceptions:
            return took, f"run ended {run.status}: {run.exceptions[:1]}"
        if f"step={step}" not in session.query.split("&"):
            return took, f"opened at {session.query!r}"
        return took, None
    except (OSError, TimeoutError, asyncio.TimeoutError) as failure:
        return time.perf_counter() - start, f"{type(failure).__name__}: {failure}"
    finally:
        if session is not None:
            with contextlib.suppress(Exception):
                await session.close()


def cpu(pids: list[int]) -> float:
    total = 0.0
    for pid in pids:
        times = psutil.Process(pid).cpu_times()
        total += times.user + times.system
    return total


async def burst(base: str, pids: list[int], args) -> dict:
    lecturer = Lecturer(base)
    await lecturer.start(args.view, 0)
    status, _ = await lecturer.act("step", step=args.step)
    if status != 200:
        raise RuntimeError(f"the class did not take step {args.step}: {status}")
    warm = await join(base, lecturer.code, args.step, time.perf_counter(), args.timeout)
    if warm[1]:
        raise RuntimeError(f"the first join failed: {warm[1]}")
    before = cpu(pids)
    await asyncio.sleep(3)
    idle = (cpu(pids) - before) / 3
    start_cpu, start = cpu(pids), time.perf_counter()
    results = await asyncio.gather(*(join(base, lecturer.code, args.step, start, args.timeout)
                                     for _ in range(args.joins)))
    wall = time.perf_counter() - start
    used = cpu(pids) - start_cpu - idle * wall
    times = [t for t, problem in results if problem is None]
    problems = [problem for _, problem in results if problem is not None]
    await lecturer.act("end")
    return {"p50": percentile(times, 50), "p95": percentile(times, 95),
            "max": max(times, default=float("nan")), "errors": len(problems),
            "first_error": problems[0] if problems else "", "cpu_per_join_ms":
            1000 * used / args.joins, "idle_rate": idle, "wall": wall}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--joins", type=int, default=300)
    parser.add_argument("--nginx", type=int, default=0,
                        help="N > 0: deploy/run.sh with N processes (and Redis when N > 1)")
    parser.add_argument("--view", default=VIEW)
    parser.add_argument("--step", type=int, default=25)
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--app-dir", default=None, help="another tree's app, to compare")
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
          f"{found['p95']:.2f} / {found['max']:.2f} s (all done in {found['wall']:.1f} s)")
    print(f"  errors: {found['errors']} {found['first_error']}")
    print(f"  server CPU per join above idle: {found['cpu_per_join_ms']:.1f} ms "
          f"(idle {found['idle_rate']:.3f} s/s)")


if __name__ == "__main__":
    main()
