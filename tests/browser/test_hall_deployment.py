"""No one in the hall can spoil the class, through the deployment deploy/ ships: nginx in front
of two Streamlit processes and a redis-server (deploy/run.sh, started by deployment.py).

One deployment for the module; each test is one finding of a hall's attacker: others' misses
(through nginx, spread over both processes), a rotating X-Forwarded-For, the open files every
program may hold, and Redis's memory."""

from __future__ import annotations

import asyncio
import os
import re
import resource
import time
from pathlib import Path

import pytest

from classroom import limits
from classroom.follower import Follower, Lecturer, request
from testkit.classroom import run
from testkit.deployment import deployed

pytestmark = pytest.mark.browser
VIEW = "data=xor-0-1&eta=0.1"


@pytest.fixture(scope="module")
def deployment():
    # started as Debian starts a service by default: 1,024 open files (the soft limit),
    # whatever the machine allows; deploy/run.sh raises it for every program it starts
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(1024, soft), hard))
    try:
        # an identity's work lowered to 4 bits: this one machine plays 300 phones, each of
        # which makes its own proof in the hall (bench/README.md: what the full work costs)
        with deployed(2, name="deployment-hall",
                      env={"PERCEPTRON_LAB_WORK_BITS": "4"}) as running:
            resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))  # this test's own
            yield running
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def _open_files(pid: int) -> int:
    text = Path(f"/proc/{pid}/limits").read_text()
    return int(re.search(r"Max open files\s+(\d+)", text).group(1))


def test_every_program_may_hold_the_files_a_hall_needs(deployment):
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    wanted = min(65536, hard if hard != resource.RLIM_INFINITY else 65536)
    for port in deployment.ports:
        assert _open_files(deployment.pid(f"streamlit-{port}")) == wanted
    nginx = deployment.pid("nginx")
    workers = [int(p) for p in os.listdir("/proc") if p.isdigit()
               and Path(f"/proc/{p}/stat").read_text().split(") ")[1].split()[1] == str(nginx)]
    assert workers and all(_open_files(pid) == wanted for pid in workers)


def test_redis_is_bounded_and_evicts_no_live_class(deployment):
    redis = deployment.redis()
    assert int(redis.config_get("maxmemory")["maxmemory"]) > 0
    assert redis.config_get("maxmemory-policy")["maxmemory-policy"] == "noeviction"


def test_a_rotating_x_forwarded_for_guesses_no_faster(deployment):
    async def main():
        wrong = "ZZZZ2345"
        statuses = [(await request(deployment.url, "GET", f"/class/{wrong}", headers={
            "X-Forwarded-For": f"10.{n // 250}.{n % 250}.7"}, source="127.0.0.9"))[0]
            for n in range(3 * limits.MISSES[1])]
        # two processes count for themselves: at most twice the burst gets an answer
        assert statuses.count(404) <= 2 * limits.MISSES[1] + 2, statuses
        assert statuses[-1] == 429
    run(main())


def test_others_misses_through_nginx_never_refuse_the_hall_of_300(deployment):
    async def main():
        base = deployment.url
        lecturer = Lecturer(base)
        await lecturer.start(VIEW)
        # a script at the hall's address: unknown codes, no cookie, over both processes (each
        # request to either, at random, as a page without a cookie is): at once, so that the
        # misses refill nothing while they are spent, even on a loaded machine
        await asyncio.gather(*(request(base, "GET", "/class/ZZZZ3456")
                               for _ in range(6 * limits.MISSES[1])))
        # the misses are real: a lookup of the class from that address with neither a ticket nor
        # an identity is refused
        assert (await request(base, "GET", f"/class/{lecturer.code}"))[0] == 429
        began = time.monotonic()
        hall = [Follower(base, lecturer.code, ticket=lecturer.ticket) for _ in range(300)]
        statuses = await asyncio.gather(*(f.connect(timeout=30) for f in hall))
        joined = time.monotonic() - began
        assert statuses.count(200) == 300, {s: statuses.count(s) for s in set(statuses)}
        assert joined < 10, joined
        _, body = await lecturer.act("ask", kind="mistake", step=1)
        question = body["state"]["question"]["id"]
        await asyncio.sleep(limits.SWEEP_EVERY / 10)  # each stream seen before the votes
        votes = await asyncio.gather(*(f.answer(question, "mistake") for f in hall))
        assert [status for status, _ in votes].count(204) == 300
        _, body = await lecturer.act("reveal")
        assert body["state"]["question"]["counts"] == [300, 0]
        for f in hall:
            await f.close()
    run(main(), timeout=120)
