"""A class of N followers: lecturer presses -> event on every follower's stream, and a vote.

Run from the repository root::

    python -m bench.classroom --followers 300                 # one Streamlit process
    python -m bench.classroom --followers 300 --busy 0        # ... with its scripts idle
    python -m bench.classroom --followers 1000 --nginx 2      # deploy/run.sh: nginx, 2
                                                              # processes, its redis-server

It starts ``streamlit run app.py`` (which serves the class routes beside
Streamlit's), starts a class over HTTP as the lecturer's page would, and opens
``--followers`` event streams (classroom/follower.py: raw asyncio HTTP, the
protocol a page's EventSource speaks, each with its own voter cookie) plus one
projector stream with the tally. Meanwhile ``--busy`` simulated students keep
the server's script threads working (each reruns the default lesson over
Streamlit's own protocol, bench/_protocol.py, one rerun after another), so the
event loop that serves the streams shares the process with real script runs.

Then the lecturer presses -> every ``--period`` s, ``--presses`` times. A press
is timed from just before its POST to the moment each follower has read the
event with the new seq (one client clock, on the same machine); a follower
that never reads it counts as missed. Last, a vote: the lecturer asks, every
follower answers at once, and the script times the last answer's 204 and the
projector's tally reaching N answered; the reveal's counts must equal N.

Memory: the server's resident memory with every stream open minus before the
streams, divided by the streams. CPU: the server's CPU seconds per wall second
while pressing, and the client's (the client runs on the same 2 cores). All
traffic goes to 127.0.0.1; every loop is bounded in count and time.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import time
from collections import Counter

import psutil

from bench._protocol import Session
from bench._server import load_average, machine, percentile, streamlit_server
from classroom.follower import Follower, Lecturer
from classroom.server import REDIS_ENV


def cpu_seconds(pids: list[int]) -> float:
    return sum(sum(psutil.Process(pid).cpu_times()[:2]) for pid in pids)


def rss(pids: list[int]) -> int:
    return sum(psutil.Process(pid).memory_info().rss for pid in pids)


async def keep_busy(base: str, stop: asyncio.Event, runs: list[float]) -> None:
    """One student's session rerunning the default lesson until ``stop``."""
    session = await Session.open(base, "")
    try:
        while not stop.is_set():
            run = await session.rerun(timeout=120)
            runs.append(run.seconds)
    finally:
        with contextlib.suppress(Exception):
            await session.close()


HALL = 300  # followers behind one address (a lecture hall's NAT): 127.0.1.1, 127.0.1.2, ...


async def open_followers(base: str, code: str, n: int, batch: int = 25) -> list[Follower]:
    """N followers, each given its voter identity by the server (as N browsers), from one
    loopback address per ``HALL`` of them, opened in batches."""
    followers = [Follower(base, code, source=f"127.0.1.{1 + i // HALL}") for i in range(n)]
    for start in range(0, n, batch):
        statuses = await asyncio.gather(*(f.connect(timeout=30)
                                          for f in followers[start:start + batch]))
        refused = [s for s in statuses if s != 200]
        if refused:
            raise SystemExit(f"streams refused: {refused[:5]} ({len(refused)} of a batch)")
    return followers


async def measure(base: str, pids: list[int], args) -> dict:
    lecturer = Lecturer(base)
    await lecturer.start("data=noisy-blobs-generator&n=1000&epochs=2", 0)
    stop = asyncio.Event()
    busy_runs: list[float] = []
    busy = [asyncio.create_task(keep_busy(base, stop, busy_runs)) for _ in range(args.busy)]
    await asyncio.sleep(3 if args.busy else 0.5)
    before = rss(pids)
    projector = Follower(base, lecturer.code, tally=lecturer.tally)
    await projector.connect()
    followers = await open_followers(base, lecturer.code, args.followers)
    await asyncio.sleep(1)
    with_streams = rss(pids)
    for follower in followers:
        follower.drain()
    projector.drain()

    cpu0, mine0, wall0 = cpu_seconds(pids), sum(psutil.Process().cpu_times()[:2]), \
        time.perf_counter()
    sent: dict[int, float] = {}
    posts = []
    for press in range(1, args.presses + 1):
        started = time.perf_counter()
        status, body = await lecturer.act("step", step=press)
        posts.append(time.perf_counter() - started)
        if status != 200:
            raise SystemExit(f"the lecturer's press was refused: {status} {body}")
        sent[body["state"]["seq"]] = started
        await asyncio.sleep(max(0.0, args.period - (time.perf_counter() - started)))
    await asyncio.sleep(1)
    wall = time.perf_counter() - wall0
    cpu = cpu_seconds(pids) - cpu0
    mine = sum(psutil.Process().cpu_times()[:2]) - mine0

    latencies, missed = [], 0
    for follower in followers:
        seen = {event.id: event.received for event in follower.drain() if event.kind == "state"}
        for seq, started in sent.items():
            if seq in seen:
                latencies.append((seen[seq] - started) * 1000)
            else:
                missed += 1

    # the vote: everyone answers at once
    _, body = await lecturer.act("ask", kind="mistake", step=args.presses + 1)
    question = body["state"]["question"]["id"]
    projector.drain()
    voted = time.perf_counter()
    answers = await asyncio.gather(*(f.answer(question, ("mistake", "no_mistake")[n % 2])
                                     for n, f in enumerate(followers)))
    all_answered = time.perf_counter() - voted
    tally_at = None
    deadline = time.perf_counter() + 10
    while tally_at is None and time.perf_counter() < deadline:
        with contextlib.suppress(TimeoutError):
            event = await projector.next("tally", timeout=deadline - time.perf_counter())
            if event.data["answered"] >= args.followers:
                tally_at = event.received - voted
    _, revealed = await lecturer.act("reveal")
    counts = revealed["state"]["question"]["counts"]

    stop.set()
    for follower in (projector, *followers):
        await follower.close()
    await asyncio.gather(*busy, return_exceptions=True)
    await lecturer.act("end")
    return dict(latencies=latencies, missed=missed, posts=[p * 1000 for p in posts],
                cpu=cpu / wall, mine=mine / wall, before=before, with_streams=with_streams,
                answers=[status for status, _ in answers], all_answered=all_answered,
                tally_at=tally_at, counts=counts, busy_runs=busy_runs)


def report(m: dict, args, where: str, load_before: float) -> str:
    lat, n = m["latencies"], args.followers
    ok = sum(status == 204 for status in m["answers"])
    others = Counter(status for status in m["answers"] if status != 204)
    per_stream = (m["with_streams"] - m["before"]) / (n + 1) / 1024
    tally = "never" if m["tally_at"] is None else f"{m['tally_at'] * 1000:.0f} ms"
    runs = m["busy_runs"]
    return "\n".join([
        f"{n} followers + 1 projector, {where}; {args.presses} presses every "
        f"{args.period:g} s; {args.busy} busy script sessions; load average before "
        f"{load_before:.2f}, after {load_average():.2f}",
        "",
        "| measure | value |", "| --- | ---: |",
        f"| press -> event read, p50 / p95 / max (ms) | {percentile(lat, 50):.1f} / "
        f"{percentile(lat, 95):.1f} / {max(lat, default=float('nan')):.1f} |",
        f"| events read / missed | {len(lat)} / {m['missed']} |",
        f"| lecturer's POST round trip p50 / p95 (ms) | {percentile(m['posts'], 50):.1f} / "
        f"{percentile(m['posts'], 95):.1f} |",
        f"| vote: answers counted (204) / followers | {ok} / {n}"
        + (f" (others: {dict(others)})" if others else "") + " |",
        f"| vote: all answers sent and acknowledged | {m['all_answered'] * 1000:.0f} ms |",
        f"| vote: projector's tally shows all of them | {tally} |",
        f"| vote: revealed counts | {m['counts']} (sum {sum(m['counts'])}) |",
        f"| server memory per stream | {per_stream:.0f} KB |",
        f"| server RSS before streams / with them (MB) | {m['before'] / 2**20:.0f} / "
        f"{m['with_streams'] / 2**20:.0f} |",
        f"| server CPU while pressing (s per s) | {m['cpu']:.2f} |",
        f"| busy sessions' reruns (count, p50 ms) | {len(runs)}, "
        f"{percentile([r * 1000 for r in runs], 50):.0f} |",
        f"| client CPU (same machine, s per s) | {m['mine']:.2f} |",
    ])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--followers", type=int, default=300)
    parser.add_argument("--presses", type=int, default=40)
    parser.add_argument("--period", type=float, default=0.5, help="seconds between presses")
    parser.add_argument("--busy", type=int, default=2,
                        help="Streamlit sessions rerunning the lesson meanwhile")
    parser.add_argument("--nginx", type=int, default=0,
                        help="N > 0: nginx in front of N processes sharing a redis-server")
    args = parser.parse_args()
    if args.followers > 2000 or args.presses > 500 or args.busy > 50:
        parser.error("bounded on purpose: at most 2000 followers, 500 presses, 50 busy")
    load_before = load_average()
    print(f"Machine: {machine()}")
    # an identity's proof of work is each phone's own, made in parallel (bench/work.py times
    # it); this one process plays every follower, so the servers ask none (one try each)
    os.environ["PERCEPTRON_LAB_WORK_BITS"] = "0"
    with contextlib.ExitStack() as stack:
        if args.nginx:
            from bench._nginx import balanced

            # deploy/run.sh starts a redis-server for more than one process, as in a course
            os.environ.pop(REDIS_ENV, None)
            base, pids = stack.enter_context(balanced(args.nginx))
            where = f"nginx in front of {args.nginx} Streamlit processes, classes in Redis"
        else:
            base, process = stack.enter_context(streamlit_server(name="classroom"))
            pids, where = [process.pid], "one Streamlit process, classes in it"
        measured = asyncio.run(asyncio.wait_for(measure(base, pids, args), 900))
    print(report(measured, args, where, load_before))


if __name__ == "__main__":
    main()
