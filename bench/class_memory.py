"""What 100 open classes of 300 followers each hold: the class state, in this process and in
Redis, with every follower present and every one of them having answered a question.

Run from the repository root::

    python -m bench.class_memory                       # 100 classes x 300, both stores
    python -m bench.class_memory --classes 10 --followers 50

Each class is started with a long view (a Share link holding 260 of a student's own points,
2,630 characters), its lecturer steps, asks, and every follower joins (as a stream
would: a Subscriber in the hub, without a socket) and answers. Measured:

* in this process (MemoryStore, what ``streamlit run app.py`` uses): the Python heap that the
  states, presences and answers hold (tracemalloc, after a collection), split into the
  classes' states and what the followers add;
* in Redis (RedisStore, what deploy/ uses with several processes): redis-server's
  ``used_memory`` before and after, on a throwaway server (Debian's redis-server).

The event streams themselves (a socket and its buffers each) are measured by
bench/classroom.py: about 24 KB per open stream.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import tracemalloc

from classroom import codes
from classroom.hub import FOLLOW, Subscriber
from classroom.state import open_question, set_step, start
from classroom.store import MemoryStore

VIEW = "data=user&lesson=your_data&pts=" + ";".join(
    f"{i % 97 / 10:.1f},{i % 89 / 10:.1f},{'+' if i % 2 else '-'}" for i in range(260))[:3000]


async def fill(store, classes: int, followers: int) -> tuple[list, list]:
    """Open the classes, then join every follower and answer; the subscribers."""
    states, subs = [], []
    for _ in range(classes):
        state = start(codes.new_code(), codes.digest(codes.new_key()), codes.new_salt(), VIEW,
                      3)
        assert await store.open_class(state)
        states.append(await store.change(state.code, lambda s: set_step(s, 4)))
    after_classes = await measure_now(store)
    for state in states:
        asked = await store.change(state.code,
                                   lambda s: open_question(s, "turn", 5, codes.new_salt()))
        for n in range(followers):
            token = codes.new_token()
            sub = Subscriber(state.code, codes.voter_hash(asked.salt, token), FOLLOW, seq=asked.seq)
            await store.join(sub)
            subs.append(sub)
            await store.vote(state.code, asked.question.id,
                             asked.question.choices[n % len(asked.question.choices)], token)
    return subs, after_classes


async def measure_now(store) -> int:
    if isinstance(store, MemoryStore):
        gc.collect()
        return tracemalloc.get_traced_memory()[0]
    info = await store.redis.info("memory")
    return int(info["used_memory"])


async def in_memory(classes: int, followers: int) -> tuple[int, int]:
    tracemalloc.start()
    store = MemoryStore(max_classes=classes + 1)
    base = await measure_now(store)
    subs, after_classes = await fill(store, classes, followers)
    total = await measure_now(store)
    tracemalloc.stop()
    assert len(subs) == classes * followers
    return after_classes - base, total - after_classes


async def in_redis(url: str, classes: int, followers: int) -> tuple[int, int]:
    from classroom.redis_store import RedisStore

    store = RedisStore(url, max_classes=classes + 1)
    await store.start()
    try:
        base = await measure_now(store)
        subs, after_classes = await fill(store, classes, followers)
        total = await measure_now(store)
        assert len(subs) == classes * followers
        return after_classes - base, total - after_classes
    finally:
        await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--classes", type=int, default=100)
    parser.add_argument("--followers", type=int, default=300)
    args = parser.parse_args()
    if args.classes > 1000 or args.followers > 1000:
        parser.error("bounded on purpose: at most 1,000 classes of 1,000")
    rows = [("this process (MemoryStore)", asyncio.run(in_memory(args.classes, args.followers)))]
    from testkit.classroom import redis_server

    with redis_server() as url:
        rows.append(("Redis (RedisStore), used_memory",
                     asyncio.run(in_redis(url, args.classes, args.followers))))
    n = args.classes * args.followers
    print(f"{args.classes} classes x {args.followers} followers, each present and answered; "
          f"views of {len(VIEW):,} characters\n")
    print("| where | the classes' states | the followers (presence, answers) | per follower |")
    print("| --- | ---: | ---: | ---: |")
    for name, (states, people) in rows:
        print(f"| {name} | {states / 2**20:.2f} MB | {people / 2**20:.2f} MB | "
              f"{people / n:.0f} B |")


if __name__ == "__main__":
    main()
