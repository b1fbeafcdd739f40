"""Classes in a real redis-server: two stores (two processes) serve every class together."""

from __future__ import annotations

import asyncio
import contextlib
import random
import subprocess

import pytest
import redis.asyncio as redis
from hypothesis import given, settings
from hypothesis import strategies as st

from classroom import codes
from classroom.follower import Follower, Lecturer, request
from classroom.hub import Subscriber
from classroom.redis_store import RedisStore, key
from classroom.state import (
    ClassError,
    close_question,
    dumps,
    end,
    open_question,
    public,
    reveal,
    set_step,
    set_view,
    start,
)
from classroom.state import answer as model_answer
from testkit.classroom import (
    followed,
    redis_server,
    redis_server_binary,
    run,
    serving,
)

VIEW = "data=xor-0-1&eta=0.1"


@pytest.fixture(scope="module")
def redis_url():
    with redis_server() as url:
        yield url


@pytest.fixture(autouse=True)
def empty(redis_url):
    async def flush():
        client = redis.Redis.from_url(redis_url)
        await client.flushdb()
        await client.aclose()
    run(flush())


@pytest.fixture
def two_processes(redis_url):
    """Two processes serving classes from one Redis, as behind nginx: ``async with
    two_processes() as (one, two)`` gives their base URLs (``second=``: the second's own
    store, to sweep or stop by hand; ``ttl=``: how long a quiet class is kept)."""
    @contextlib.asynccontextmanager
    async def served(second: RedisStore | None = None, **options):
        async with serving(RedisStore(redis_url, **options)) as (one, _), \
                serving(second or RedisStore(redis_url, **options)) as (two, _):
            yield one, two
    return served


async def unannounced(url: str, write) -> None:
    """``await write(client)`` on Redis as another process would, its message lost: no
    PUBLISH (what the sweep is for)."""
    client = redis.Redis.from_url(url)
    try:
        await write(client)
    finally:
        await client.aclose()


async def everything_in(url: str) -> str:
    """Every key and value in Redis, as one string (to look for what must not be there)."""
    client = redis.Redis.from_url(url, decode_responses=True)
    out = []
    async for name in client.scan_iter("*"):
        kind = await client.type(name)
        value = {"string": client.get, "hash": client.hgetall, "set": client.smembers,
                 "zset": lambda n: client.zrange(n, 0, -1),
                 "list": lambda n: client.lrange(n, 0, -1)}[kind](name)
        out.append(f"{name}={await value}")
    await client.aclose()
    return "\n".join(out)


def test_two_processes_serve_one_class(two_processes):
    async def main():
        async with two_processes() as (one, two):
            lecturer = Lecturer(one)
            await lecturer.start(VIEW)
            here, there = Follower(one, lecturer.code), Follower(two, lecturer.code)
            for follower in (here, there):
                assert await follower.connect() == 200
                assert (await follower.next()).data["view"] == VIEW
            for step in (1, 2, 3):
                await lecturer.act("step", step=step)
                for follower in (here, there):
                    event = await follower.next()
                    assert (event.id, event.data["step"]) == (step + 1, step)
            # the lecturer's phone may be on the other process
            await Lecturer(two, lecturer.code, lecturer.key).act("view", view="data=iris",
                                                                  step=0)
            for follower in (here, there):
                assert (await follower.next()).data["view"] == "data=iris"
            await lecturer.act("end")
            for follower in (here, there):
                assert (await follower.next()).data["ended"] is True
            assert (await request(two, "GET", f"/class/{lecturer.code}"))[0] == 410
            for follower in (here, there):
                await follower.close()
    run(main())


def test_votes_through_either_process_count_once_and_the_tally_sees_them(redis_url, two_processes):
    async def main():
        async with two_processes() as (one, two):
            lecturer = Lecturer(one)
            await lecturer.start(VIEW)
            projector = Follower(one, lecturer.code, tally=lecturer.tally)
            await projector.connect()
            students = [Follower(random.choice((one, two)), lecturer.code) for _ in range(40)]
            for student in students:
                await student.connect()
            _, body = await lecturer.act("ask", kind="turn", step=4)
            question = body["state"]["question"]["id"]
            choices = ["no_mistake", "anticlockwise", "clockwise"]
            picks = [random.choice(choices) for _ in students]

            async def vote(student, choice):
                first = await student.answer(question, choice)
                # again, through the other process (a second tab behind nginx)
                other = one if student.base == two else two
                again = await request(other, "POST", f"/class/{lecturer.code}/answer",
                                      {"question": question, "choice": choice},
                                      headers={"Cookie": student.cookie})
                return first[0], again[0]

            results = await asyncio.gather(*(vote(s, c) for s, c in zip(students, picks,
                                                                         strict=True)))
            assert set(results) == {(204, 409)}
            await asyncio.sleep(0.6)
            tally = [e for e in projector.drain() if e.kind == "tally"][-1].data
            assert tally == {"following": 40, "exploring": 0, "answered": 40}
            _, body = await lecturer.act("reveal")
            assert body["state"]["question"]["counts"] == [picks.count(c) for c in choices]
            assert "voters" not in await everything_in(redis_url)  # dropped at the reveal
            for follower in (projector, *students):
                await follower.close()
    run(main())


def test_votes_racing_a_reveal_are_all_in_its_counts_or_refused(two_processes):
    async def main():
        async with two_processes() as (one, two):
            lecturer = Lecturer(one)
            await lecturer.start(VIEW)
            students = [Follower((one, two)[n % 2], lecturer.code) for n in range(60)]
            for student in students:
                await student.connect()
            _, body = await lecturer.act("ask", kind="mistake", step=1)
            question = body["state"]["question"]["id"]

            async def reveal_midway():
                await asyncio.sleep(0.01)
                return await lecturer.act("reveal")

            votes = [student.answer(question, "mistake") for student in students]
            *statuses, (_, revealed) = await asyncio.gather(*votes, reveal_midway())
            counted = [status for status, _ in statuses]
            assert set(counted) <= {204, 409}
            assert revealed["state"]["question"]["counts"] == [counted.count(204), 0]
            for student in students:
                await student.close()
    run(main())


def test_no_token_and_no_key_is_kept_in_redis(redis_url):
    async def main():
        async with serving(RedisStore(redis_url)) as (one, _):
            lecturer = Lecturer(one)
            await lecturer.start(VIEW)
            student = Follower(one, lecturer.code)
            await student.connect()
            _, body = await lecturer.act("ask", kind="mistake", step=1)
            await student.answer(body["state"]["question"]["id"], "mistake")
            _, remote = await lecturer.act("remote")
            stored = await everything_in(redis_url)
            token = student.cookie.split("=", 1)[1]
            for secret in (token, lecturer.key, remote["remote"]):
                assert secret not in stored
            assert codes.digest(lecturer.key) in stored  # the key's hash, as designed
            await student.close()
    run(main())


def test_a_remote_link_minted_on_one_process_is_claimed_on_the_other_once(two_processes):
    async def main():
        async with two_processes() as (one, two):
            lecturer = Lecturer(one)
            await lecturer.start(VIEW)
            _, remote = await lecturer.act("remote")
            path = f"/class/{lecturer.code}/claim"
            status, claimed = await request(two, "POST", path, {"remote": remote["remote"]})
            assert status == 200
            phone = Lecturer(one, lecturer.code, claimed["key"])
            assert (await phone.act("step", step=5))[0] == 200
            assert (await request(one, "POST", path, {"remote": remote["remote"]}))[0] == 403
    run(main())


def test_a_plan_kept_on_one_process_is_read_by_a_remote_on_the_other(two_processes):
    async def main():
        async with two_processes() as (one, two):
            lecturer = Lecturer(one)
            await lecturer.start(VIEW)
            assert (await lecturer.act("plan", plan="FILE", at=5))[0] == 200
            _, remote = await lecturer.act("remote")
            path = f"/class/{lecturer.code}/claim"
            _, claimed = await request(two, "POST", path, {"remote": remote["remote"]})
            phone = Lecturer(two, lecturer.code, claimed["key"])
            status, reply = await phone.act("plan")
            assert status == 200 and (reply["plan"], reply["at"]) == ("FILE", 5)
    run(main())


def test_a_quiet_class_expires_in_redis_and_every_process_says_so(redis_url, two_processes):
    async def main():
        store = RedisStore(redis_url, ttl=1)
        async with two_processes(store, ttl=1) as (one, two):
            lecturer = Lecturer(one)
            await lecturer.start(VIEW)
            follower = Follower(two, lecturer.code)
            await follower.connect()
            await follower.next()
            await asyncio.sleep(2.2)  # Redis expires the state after its quiet second
            await store.sweep()  # each process looks every SWEEP_EVERY seconds
            assert (await follower.next()).data["ended"] is True
            assert (await request(one, "GET", f"/class/{lecturer.code}"))[0] == 410
            assert await store.count() == 0
            await follower.close()
    run(main())


def test_a_change_lost_on_the_way_is_delivered_by_the_sweep(redis_url):
    async def main():
        store = RedisStore(redis_url)
        async with serving(store) as (base, _):
            lecturer, follower = await followed(base, VIEW)
            state = await store.get(lecturer.code)
            await unannounced(redis_url, lambda client: client.set(
                key(lecturer.code, "state"), dumps(set_step(state, 9)), ex=60))
            await store.sweep()
            event = await follower.next()
            assert (event.id, event.data["step"], event.data["view_seq"]) == (2, 9, 1)
            await follower.close()
    run(main())


def test_a_tab_that_leaves_as_another_explores_is_counted_exploring(redis_url):
    """Two presence writes of one voter on two connections: the first made lands last
    unless they queue (a follow stream closing as the same browser's explore stream opens)."""
    async def main():
        store = RedisStore(redis_url)
        await store.start()
        try:
            code, voter = codes.new_code(), "voter"
            following = Subscriber(code, voter)
            await store.join(following)
            real, delays = store.redis.pipeline, [0.3]

            def pipeline(*args, **kwargs):  # the next write waits for a new connection
                pipe = real(*args, **kwargs)
                execute, delay = pipe.execute, delays.pop() if delays else 0

                async def late(*a, **k):
                    await asyncio.sleep(delay)
                    return await execute(*a, **k)
                pipe.execute = late
                return pipe

            store.redis.pipeline = pipeline
            await asyncio.gather(store.leave(following),
                                 store.join(Subscriber(code, voter, "explore")))
            assert await store.tally(code) == {"following": 0, "exploring": 1, "answered": 0}
        finally:
            await store.close()
    run(main())


def test_the_sweep_sends_the_lecturer_a_tally_whose_notice_was_lost(redis_url):
    async def main():
        store = RedisStore(redis_url)
        async with serving(store) as (base, _):
            lecturer, projector = await followed(base, VIEW, tally=True)
            assert (await projector.next("tally")).data["exploring"] == 0
            await asyncio.sleep(0.6)  # the tally of the projector's own arrival, if any
            projector.drain()
            # a student present through another process
            await unannounced(redis_url, lambda client: client.zadd(
                key(lecturer.code, "explore"), {"voter": store.clock() + 60}))
            await store.sweep()
            assert (await projector.next("tally", timeout=3)).data["exploring"] == 1
            await projector.close()
    run(main())


# ------------------------------------------------------------------ the same as the model

actions = st.lists(st.one_of(
    st.tuples(st.just("step"), st.integers(0, 9)),
    st.tuples(st.just("view"), st.sampled_from(["data=xor", "data=iris"]), st.integers(0, 9)),
    st.tuples(st.just("ask"), st.sampled_from(["mistake", "turn"]), st.integers(0, 9)),
    st.tuples(st.just("answer"), st.integers(0, 3),
              st.sampled_from(["mistake", "no_mistake", "clockwise"])),
    st.tuples(st.just("reveal")), st.tuples(st.just("close")), st.tuples(st.just("end")),
), max_size=25)


@settings(max_examples=40, deadline=None)
@given(actions)
def test_the_redis_store_changes_a_class_as_the_model_does(redis_url, sequence):
    async def main():
        stores = [RedisStore(redis_url), RedisStore(redis_url)]  # two processes
        for store in stores:
            await store.start()
        try:
            code = codes.new_code()
            model = start(code, "keyhash", "salt", VIEW, 0)
            assert await stores[0].create(model)
            tokens = [codes.new_token() for _ in range(4)]
            for n, token in enumerate(tokens):  # present on either process
                await stores[n % 2].join(Subscriber(code, codes.voter_hash("salt", token)))
            for n, action in enumerate(sequence):
                store = stores[n % 2]
                transition = {
                    "step": lambda s, a=action: set_step(s, a[1]),
                    "view": lambda s, a=action: set_view(s, a[1], a[2]),
                    "ask": lambda s, a=action, n=n: open_question(s, a[1], a[2], f"q{n}"),
                    "reveal": reveal, "close": close_question, "end": end,
                }.get(action[0])
                try:
                    if transition is None:  # an answer
                        token = tokens[action[1]]
                        question = model.question
                        expected = model_answer(
                            model, question.id if question else None, action[2],
                            codes.voter_hash(question.salt, token) if question else "")
                    else:
                        expected = transition(model)
                except ClassError as refused:
                    with pytest.raises(ClassError) as also:
                        if transition is None:
                            await store.vote(code, question.id if question else None,
                                             action[2], token)
                        else:
                            await store.change(code, transition)
                    assert also.value.status == refused.status or model.ended
                    continue
                if transition is None:
                    await store.vote(code, model.question.id, action[2], token)
                else:
                    await store.change(code, transition)
                model = expected
                for either in stores:
                    got = await either.get(code)
                    if model.ended:
                        assert got is None and await either.was_ended(code)
                    else:
                        assert public(got) == public(model)
                        assert got.question is None or got.question.answered == \
                            model.question.answered
        finally:
            for store in stores:
                await store.close()
    run(main())


def test_a_store_closes_within_its_bound_when_redis_py_would_wait_for_ever(redis_url):
    """A process that stops (a restart, supervisord's stop) closes its store: redis-py's
    pub/sub close can wait for ever on its socket; each step waits CLOSE_S at most."""
    from classroom.redis_store import CLOSE_S

    async def never() -> None:
        await asyncio.Event().wait()

    async def main():
        store = RedisStore(redis_url)
        await store.start()
        store._pubsub.aclose = never
        began = asyncio.get_running_loop().time()
        await store.close()
        return asyncio.get_running_loop().time() - began

    assert CLOSE_S <= run(main(), timeout=30) < CLOSE_S + 5


def test_the_redis_store_keeps_no_answer_by_voter(redis_url):
    """What Redis holds about a vote: a count per choice and, until the reveal, HMACs."""
    async def main():
        store = RedisStore(redis_url)
        await store.start()
        client = redis.Redis.from_url(redis_url, decode_responses=True)
        try:
            code = codes.new_code()
            await store.create(start(code, "k", "salt", VIEW, 0))
            token = codes.new_token()
            await store.join(Subscriber(code, codes.voter_hash("salt", token)))
            await store.change(code, lambda s: open_question(s, "mistake", 1, "qsalt"))
            question = (await store.get(code)).question.id
            await store.vote(code, question, "mistake", token)
            assert await client.smembers(key(code, "voters", question)) == {
                codes.voter_hash("qsalt", token)}  # who voted, not what
            assert await client.hgetall(key(code, "counts", question)) == {"mistake": "1"}
            await store.change(code, reveal)
            assert not await client.exists(key(code, "voters", question))
        finally:
            await client.aclose()
            await store.close()
    run(main())


def test_without_redis_the_routes_say_unavailable():
    async def main():
        with redis_server() as url:
            store = RedisStore(url)
            async with serving(store) as (base, _):
                lecturer = Lecturer(base)
                await lecturer.start(VIEW)
                client = redis.Redis.from_url(url)
                await client.shutdown(nosave=True)  # Redis goes away
                await client.aclose()
                assert (await request(base, "POST", "/class", {"view": VIEW}))[0] == 503
                assert (await lecturer.act("step", step=1))[0] == 503
                follower = Follower(base, lecturer.code)
                assert await follower.connect() == 503
                assert store.hub.streams == 0
    run(main())


def test_a_redis_with_a_password_serves_classes_and_refuses_a_store_without_it(monkeypatch):
    from classroom import server

    password = codes.new_key()
    with redis_server(password=password) as url:
        async def main():
            for store in (RedisStore(url.replace("redis://", f"redis://:{password}@")),
                          RedisStore(url, password=password)):
                async with serving(store) as (base, _):
                    lecturer, follower = await followed(base, VIEW)
                    _, body = await lecturer.act("ask", kind="mistake", step=1)
                    assert (await follower.answer(body["state"]["question"]["id"],
                                                  "mistake"))[0] == 204
                    await follower.close()
            # the password from its own variable (deploy/run.sh's way: not in the URL)
            monkeypatch.setenv(server.REDIS_ENV, url)
            monkeypatch.setenv(server.REDIS_PASSWORD_ENV, password)
            store = server.store_from_env()
            await store.start()
            assert await store.count() == 2  # the two classes above
            await store.close()
            stranger = RedisStore(url)  # any other local process, without the password
            with pytest.raises(stranger.unavailable):
                await stranger.start()
            await stranger.close()
        run(main())


def test_a_class_redis_lost_is_given_back_by_its_lecturers_page_and_by_no_one_else(redis_url,
                                                                                   two_processes):
    """redis-server restarted without its data: the sweep ends no one; the lecturer's key and
    charter give the class back under its code, at its step, and the followers go on."""
    async def main():
        store = RedisStore(redis_url)
        async with two_processes(store) as (one, two):
            status, data = await request(one, "POST", "/class", {"view": VIEW, "step": 0})
            code, key, charter = data["code"], data["key"], data["charter"]
            lecturer = Lecturer(one, code, key)
            _, other = await request(one, "POST", "/class", {"view": VIEW, "step": 0})
            follower = Follower(two, code)
            await follower.connect()
            await follower.next("state")
            assert (await lecturer.act("step", step=4))[0] == 200
            assert (await follower.next("state")).data["step"] == 4
            await unannounced(redis_url, lambda client: client.flushall())
            await store.sweep()  # lost is not ended: the follower is told nothing
            assert follower.drain() == []
            assert (await lecturer.act("step", step=5))[0] == 404
            body = {"charter": charter, "view": VIEW, "view_seq": 1, "seq": 2, "step": 5}
            path = f"/class/{code}/restore"
            forged = [
                ({"X-Class-Key": key}, {**body, "charter": "ab" * 16 + "." + "A" * 43}),
                ({"X-Class-Key": key}, {**body, "charter": other["charter"]}),  # another's
                ({"X-Class-Key": other["key"]}, {**body, "charter": other["charter"]}),
                ({"X-Class-Key": codes.new_key()}, body),  # the charter without its key
            ]
            for headers, sent in forged:
                assert (await request(two, "POST", path, sent, headers=headers))[0] == 403
            assert await store.get(code) is None
            status, data = await request(two, "POST", path, body,
                                         headers={"X-Class-Key": key})
            assert status == 200 and data["state"]["step"] == 5
            event = await follower.next("state")
            assert (event.data["code"], event.data["step"], event.data["ended"]) == \
                (code, 5, False)
            assert event.id > 2 and event.data["view_seq"] == 1  # the same view: no run
            # a second give-back (another process, another device) finds it
            assert (await request(one, "POST", path, body,
                                  headers={"X-Class-Key": key}))[0] == 200
            assert (await lecturer.act("step", step=6))[0] == 200
            assert (await follower.next("state")).data["step"] == 6
            # an ended class stays ended: its charter gives it back no more
            assert (await lecturer.act("end"))[0] == 200
            assert (await follower.next("state")).data["ended"] is True
            assert (await request(one, "POST", path, body,
                                  headers={"X-Class-Key": key}))[0] == 410
            await follower.close()
    run(main())


def test_students_hear_when_their_lecturer_goes_quiet_and_comes_back(redis_url, two_processes):
    """A lecturer's page not heard from for LEAD_QUIET (its network dropped) is away for its
    students on every process; its next word (a touch, a press) is back, at once."""
    async def main():
        store = RedisStore(redis_url)
        async with two_processes(store) as (one, two):
            lecturer = Lecturer(one)
            await lecturer.start(VIEW)
            follower = Follower(two, lecturer.code)
            await follower.connect()
            await follower.next("state")
            await store.sweep()
            assert [e.kind for e in follower.drain()] in ([], ["tally"])  # here: no word
            # LEAD_QUIET s without a word: its key lapses (deleted here, as its expiry would)
            await unannounced(redis_url, lambda client: client.delete(
                key(lecturer.code, "lead")))
            await store.sweep()
            assert (await follower.next("lead")).data == {"here": False}
            late = Follower(two, lecturer.code)  # a page that joins meanwhile hears it too
            await late.connect()
            assert (await late.next("lead")).data == {"here": False}
            assert (await lecturer.act("touch"))[0] == 200  # back, on the other process
            assert (await follower.next("lead")).data == {"here": True}
            assert (await late.next("lead")).data == {"here": True}
            await follower.close()
            await late.close()
    run(main())


def test_a_lecturers_notice_heard_as_redis_goes_away_is_told_later_not_raised():
    """Each process tells its students whether their lecturer is here when the notice comes
    (a task of its own) and at every sweep: a notice whose question to Redis finds it gone is
    left to the sweep after it, not an exception no one retrieves (a server log's traceback)."""
    async def main():
        with redis_server() as url:
            store = RedisStore(url)
            async with serving(store):
                client = redis.Redis.from_url(url)
                await client.shutdown(nosave=True)  # Redis goes away
                await client.aclose()
                await store.tell_lead(["ABCDEFGH"])  # what the notice's task runs: no raise
    run(main())


def test_every_stream_hears_when_redis_stops_answering_and_when_it_answers_again():
    """A page's stream is told at once (a store event) that the store is away, and again
    when it is back, so that every page says its class reconnects meanwhile."""
    async def main():
        with redis_server() as url:
            store = RedisStore(url)
            async with serving(store) as (base, _):
                _, follower = await followed(base, VIEW)
                port = url.rsplit(":", 1)[1].split("/")[0]
                await redis.Redis.from_url(url).shutdown(nosave=True)  # redis-server stops
                assert (await follower.next("store", timeout=5)).data == {"ok": False}
                again = subprocess.Popen(  # and starts again on its port, empty
                    [redis_server_binary(), "--port", port, "--bind", "127.0.0.1",
                     "--save", "", "--appendonly", "no"],
                    stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
                try:
                    assert (await follower.next("store", timeout=10)).data == {"ok": True}
                    await follower.close()
                finally:
                    again.kill()
                    again.wait()
    run(main())
