"""What signing the students' voter identities costs the server, per join.

Run from the repository root::

    python -m bench.identity                  # 300 joins, 5 rounds
    python -m bench.identity --joins 1000 --rounds 3

Two measures, side by side:

* the operations alone, in this process (best of ``--rounds``, µs per call): a signed
  identity made (``codes.new_voter``: 144 random bits and an HMAC-SHA-256) and checked
  (``codes.voter_ok``, on every stream opened and every answer), against what a join did
  before identities were signed (a random token, its shape checked);
* a server's CPU per join: the class routes on uvicorn in a process of their own, ``--joins``
  pages opening their stream without a cookie (each is given an identity) from one loopback
  address per 300 (a hall's NAT), the server process's CPU time (psutil) over the joins,
  divided by them; once as served, once with the identity's signature replaced by the old
  random token (the same server otherwise). The difference is what signing adds to a join.
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import time
import timeit

from bench._server import class_server, cpu_of, load_average, machine
from classroom import codes
from classroom.follower import Follower, Lecturer

SERVER = """
import os, secrets, uvicorn
from classroom import codes
from classroom.http import Classroom
from classroom.store import MemoryStore
from testkit.classroom import app_of
from classroom import limits
limits.WORK_BITS = 0  # an identity's proof of work is bench/work.py's: here one try each
room = Classroom(MemoryStore(), secret=b"b" * 32)
room.ops.voter_of_work = lambda stamp, nonce: room.ops.new_voter("bench")  # signed, as made
if os.environ.get("BENCH_UNSIGNED"):  # the old identity: any random token of its shape
    room.ops.new_voter = lambda who: secrets.token_urlsafe(24) + "." + "A" * 24
    room.ops.voter_ok = lambda token: isinstance(token, str) and len(token) == 57
uvicorn.run(app_of(room), host="127.0.0.1", port=int(os.environ["PORT"]), log_level="warning")
"""


def per_call(statement, number: int, rounds: int) -> float:
    """Microseconds per call, best of ``rounds``."""
    return min(timeit.repeat(statement, number=number, repeat=rounds)) / number * 1e6


def operations(rounds: int) -> dict[str, float]:
    secret = secrets.token_bytes(32)
    token = codes.new_voter(secret)
    old = codes.new_token()
    return {
        "signed: made": per_call(lambda: codes.new_voter(secret), 20000, rounds),
        "signed: checked": per_call(lambda: codes.voter_ok(token, secret), 20000, rounds),
        "old: made": per_call(codes.new_token, 20000, rounds),
        "old: checked": per_call(lambda: codes.is_token(old), 20000, rounds),
    }


async def joins(base: str, n: int) -> None:
    lecturer = Lecturer(base)
    await lecturer.start("data=xor")
    followers = [Follower(base, lecturer.code, source=f"127.0.1.{1 + i // 300}")
                 for i in range(n)]
    for start in range(0, n, 50):
        statuses = await asyncio.gather(*(f.connect(timeout=30)
                                          for f in followers[start:start + 50]))
        if set(statuses) != {200}:
            raise SystemExit(f"streams refused: {sorted(set(statuses))}")
    for follower in followers:
        await follower.close()


def server_cpu_per_join(n: int, unsigned: bool) -> float:
    """Milliseconds of the server process's CPU per join (its idle rate taken off)."""
    with class_server(SERVER, **({"BENCH_UNSIGNED": "1"} if unsigned else {})) as (
            base, process, idle_rate):
        cpu0, wall0 = cpu_of(process), time.perf_counter()
        asyncio.run(joins(base, n))
        cpu, wall = cpu_of(process) - cpu0, time.perf_counter() - wall0
        return (cpu - idle_rate * wall) / n * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--joins", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    print(machine(), f"load {load_average():.1f}")
    ops = operations(args.rounds)
    print("| operation | signed (µs) | old random token (µs) | signed / old |")
    print("| --- | ---: | ---: | ---: |")
    for what in ("made", "checked"):
        signed, old = ops[f"signed: {what}"], ops[f"old: {what}"]
        print(f"| {what} | {signed:.2f} | {old:.2f} | {signed / old:.1f} |")
    rows = []
    for _ in range(args.rounds):
        rows.append((server_cpu_per_join(args.joins, False),
                     server_cpu_per_join(args.joins, True)))
    signed = min(r[0] for r in rows)
    old = min(r[1] for r in rows)
    print(f"\n| {args.joins} joins, server CPU per join (best of {args.rounds}) | signed | "
          "old | signed - old |")
    print("| --- | ---: | ---: | ---: |")
    print(f"| ms | {signed:.3f} | {old:.3f} | {signed - old:+.3f} |")
    print("every round (signed, old):", ", ".join(f"({a:.3f}, {b:.3f})" for a, b in rows))


if __name__ == "__main__":
    main()
