"""Classes in Redis, so that every process behind deploy/nginx.conf serves every class.

Used when PERCEPTRON_LAB_REDIS is set; redis-py (its asyncio API) is imported only
here. Keys of a class share the hash tag ``{CODE}`` (one slot, should it ever run
on a cluster), and all of them expire with the class's quiet hour, renewed by every
lecturer action:

=================================  ===========================================
``plab:{CODE}:state``              the state (state.dumps): view, step, question,
                                   seq, lecturer key hashes, salts
``plab:{CODE}:open``               the id of the open question, while one is open
``plab:{CODE}:counts:ID``          answers per choice (a hash)
``plab:{CODE}:voters:ID``          HMACs of the voters' tokens under the question's
                                   salt (a set), deleted when the question is
                                   revealed or closed: it refuses a second answer
                                   and says nothing of which answer anyone gave
``plab:{CODE}:follow``, ``:explore``  HMACs of followers' tokens under the class's
                                   salt, scored by when their presence lapses
``plab:{CODE}:lead``               its lecturer's page said a word lately (an
                                   action, a touch): lives ``LEAD_QUIET`` s
``plab:{CODE}:known``              the class was open: lives a day longer than it,
                                   so an ended or expired code says "ended"
``plab:{CODE}:answers``            the results' rows (a list: "N {json}", N the
                                   voter's number, results.row), at most
                                   results.MAX_ANSWERS
``plab:{CODE}:numbers``            the voters' numbers (a hash: HMAC of a token under
                                   the class's numbers salt -> N; "#" the last N)
``plab:{CODE}:questions``          the questions asked (a list of results.asked)
``plab:{CODE}:readers``            the lecturer's key hashes, for the results
                                   (these four live a quiet hour longer than the
                                   class: after its end, or its expiry)
``plab:{CODE}:plan``               the plan the class is given from and the slide on
                                   screen (JSON), for the lecturer's other devices:
                                   lives as the class
``plab:remote:HASH``               a remote token's class (ten minutes, taken once
                                   with GETDEL)
``plab:classes``                   open classes, scored by when they lapse
``plab:run:DIGEST``                a view's packed run, gzipped (bytes), for the
                                   follower page: ``RUN_TTL`` after it was last put,
                                   and all of them ``RUN_BUDGET`` bytes at most
                                   (Redis evicts nothing: the oldest put go first)
``plab:runs``, ``:sizes``, ``:bytes``  the runs kept, by when they were put; their
                                   sizes; their total (PUT_RUN)
=================================  ===========================================

Changes go out on the channel ``plab:{CODE}``: ``{"t": "state", "s": <public state
with its view>}`` after every lecturer transition, ``{"t": "tally"}`` after a vote or
a change of presence. Each process subscribes to the channels of the classes it has
followers of, and hands what arrives to its hub. A lecturer's transition is a
WATCH/MULTI transaction (retried when a vote or another device's action lands in
between); a vote is one Lua script: the question still open, the voter present, SADD
of the voter, HINCRBY of the count, the voter's number and the results' row, PUBLISH of a
tally notice, all or nothing.

Pub/sub delivers at most once. Every ``SWEEP_EVERY`` s a process compares the seq
of each class it serves with Redis and delivers what it missed (or the end of a
class that expired: its ``known`` key outlives it; a class whose keys are all gone was
lost, not ended, and waits for its lecturer's page to give it back), renews its
followers' presence, and sends its lecturers' streams the tally afresh (a lost notice,
or the followers of a process that died lapsing).

A voter's presence is written from this process's hub as it is at the moment of
writing, and one voter's writes are made one after another: a tab that leaves and a
tab that explores, written on two connections, would otherwise land in either order.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from dataclasses import replace
from typing import Any

import redis.asyncio as redis
from redis.exceptions import RedisError, WatchError

from classroom.hub import FOLLOW, Subscriber
from classroom.limits import (
    LEAD_QUIET,
    MAX_RUN_BYTES,
    PRESENCE_TTL,
    REMOTE_TTL,
    RUN_BUDGET,
    RUN_TTL,
    TOMBSTONE_TTL,
)
from classroom.results import MAX_ANSWERS, MAX_QUESTIONS, Results, asked
from classroom.state import ClassError, ClassState, Reading, dumps, end, loads, public
from classroom.store import RunCache, Store, Transition, not_found

LOG = logging.getLogger(__name__)
MAX_CONNECTIONS = 64  # to Redis, per process
PROCESS_CHANNEL = "plab:processes"  # keeps the listener subscribed to something
TALLY_NOTICE = '{"t":"tally"}'
LEAD_NOTICE = '{"t":"lead"}'
PRESENCE_LOCKS = 64  # a voter's presence writes queue on one of these (by hash)
HEALTH_EVERY = 1.0  # s between two probes of Redis (a PING)
# s each step of closing may take: redis-py's pub/sub close can wait for ever for its socket to
# close (redis/redis-py#3941), which held a test server's shutdown past 15 s
CLOSE_S = 2.0

VOTE = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return -1 end
local now = tonumber(ARGV[7])
local f = redis.call('ZSCORE', KEYS[4], ARGV[6])
local x = redis.call('ZSCORE', KEYS[5], ARGV[6])
if not ((f and tonumber(f) >= now) or (x and tonumber(x) >= now)) then return -2 end
if redis.call('SADD', KEYS[2], ARGV[2]) == 0 then return 0 end
redis.call('EXPIRE', KEYS[2], ARGV[4])
redis.call('HINCRBY', KEYS[3], ARGV[3], 1)
redis.call('EXPIRE', KEYS[3], ARGV[4])
local n = redis.call('HGET', KEYS[6], ARGV[9])
if not n then
  n = redis.call('HINCRBY', KEYS[6], '#', 1)
  redis.call('HSET', KEYS[6], ARGV[9], n)
end
redis.call('EXPIRE', KEYS[6], ARGV[12])
if redis.call('LLEN', KEYS[7]) < tonumber(ARGV[11]) then
  redis.call('RPUSH', KEYS[7], n .. ' ' .. ARGV[10])
end
redis.call('EXPIRE', KEYS[7], ARGV[12])
redis.call('PUBLISH', ARGV[5], ARGV[8])
return 1
"""
RESULTS_KEYS = ("answers", "numbers", "questions", "readers")

# a run kept, and the oldest dropped while the runs' total is over the budget (Redis runs with
# noeviction: a store full of runs would refuse the classes' own writes). A run that expired
# is still counted until it is the oldest: the total errs on the safe side.
PUT_RUN = """
local key = 'plab:run:' .. ARGV[1]
local old = redis.call('HGET', KEYS[2], ARGV[1])
if old then redis.call('DECRBY', KEYS[3], old) end
redis.call('SET', key, ARGV[2], 'EX', ARGV[5])
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], string.len(ARGV[2]))
local total = redis.call('INCRBY', KEYS[3], string.len(ARGV[2]))
while total > tonumber(ARGV[4]) do
  local oldest = redis.call('ZPOPMIN', KEYS[1])
  if #oldest == 0 then break end
  local size = redis.call('HGET', KEYS[2], oldest[1]) or 0
  redis.call('HDEL', KEYS[2], oldest[1])
  redis.call('DEL', 'plab:run:' .. oldest[1])
  total = redis.call('DECRBY', KEYS[3], size)
end
return total
"""
RUN_KEYS = ("plab:runs", "plab:runs:sizes", "plab:runs:bytes")


def key(code: str, *parts: object) -> str:
    return ":".join([f"plab:{{{code}}}", *map(str, parts)])


def channel(code: str) -> str:
    return f"plab:{{{code}}}"


def _row(raw: str) -> dict[str, Any]:
    """A results row as the vote script keeps it: "N {json}"."""
    number, _, data = raw.partition(" ")
    return {**json.loads(data), "voter": int(number)}


class RedisStore(Store):
    """Classes in Redis; this process's followers fed from its pub/sub."""

    unavailable = (RedisError, OSError)

    def __init__(self, url: str, *, password: str | None = None, **options: Any):
        super().__init__(**options)
        self.url = url
        # requests wait for a free connection (a vote of 500 at once on one process) rather
        # than fail; the pub/sub listener holds one of them for good
        pool = redis.BlockingConnectionPool.from_url(
            url, decode_responses=True, health_check_interval=30,
            max_connections=MAX_CONNECTIONS, timeout=10,
            **({"password": password} if password else {}))
        self.redis = redis.Redis(connection_pool=pool)
        # the packed runs are bytes: a client of their own that decodes nothing, and the runs
        # this process served kept in front of it (a digest's bytes never change)
        self.bytes = redis.Redis(connection_pool=redis.BlockingConnectionPool.from_url(
            url, decode_responses=False, health_check_interval=30, max_connections=8,
            timeout=10, **({"password": password} if password else {})))
        self.runs = RunCache(RUN_BUDGET // 4)
        self.run_budget = RUN_BUDGET
        self._put_run = self.bytes.register_script(PUT_RUN)
        self._pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        self._vote = self.redis.register_script(VOTE)
        self._subscribed: set[str] = set()
        self._subscribing = asyncio.Lock()
        self._presence_locks = [asyncio.Lock() for _ in range(PRESENCE_LOCKS)]

    # -------------------------------------------------------------- life
    async def start(self) -> None:
        await self.redis.ping()
        await self._pubsub.subscribe(PROCESS_CHANNEL)
        self._spawn(self._listening())
        self._spawn(self._probing())
        await super().start()

    async def close(self) -> None:
        """Stop the background work and let go of Redis, each step CLOSE_S at most: a closing
        process (a restart, supervisord's stop) must not hang on a socket."""
        await super().close()
        for closing in (self._pubsub.aclose, self.redis.aclose,
                        self.redis.connection_pool.disconnect, self.bytes.aclose,
                        self.bytes.connection_pool.disconnect):
            with contextlib.suppress(Exception):  # (a step's timeout among them)
                await asyncio.wait_for(closing(), CLOSE_S)

    async def _listening(self) -> None:
        while True:
            try:
                async for message in self._pubsub.listen():
                    if message.get("type") == "message":
                        self._dispatch(message["channel"], message["data"])
            except asyncio.CancelledError:
                raise
            except Exception as failure:  # Redis restarted, a network blip: go on
                if self.healthy:
                    LOG.warning("class pub/sub: %s; resubscribing", failure)
                self.set_health(False)  # every page says its class is reconnecting
                await asyncio.sleep(0.5)
                with contextlib.suppress(Exception):
                    await self._pubsub.subscribe(PROCESS_CHANNEL, *self._subscribed)
                    await self.redis.ping()
                    self.set_health(True)
                    await self.sweep()

    async def _probing(self) -> None:
        """Whether Redis answers, every ``HEALTH_EVERY`` s: every page hears when it stops
        (its class says it reconnects) and when it answers again (this process then repairs
        what it missed). The pub/sub listener may say so first, or never: redis-py may
        reconnect it by itself."""
        while True:
            await asyncio.sleep(HEALTH_EVERY)
            try:
                await asyncio.wait_for(self.redis.ping(), 2 * HEALTH_EVERY)
            except asyncio.CancelledError:
                raise
            except Exception:
                self.set_health(False)
                continue
            if not self.healthy:
                self.set_health(True)
                with contextlib.suppress(Exception):
                    await self.sweep()

    def _dispatch(self, name: str, data: str) -> None:
        code = name[len("plab:{"):-1]
        try:
            message = json.loads(data)
        except ValueError:
            return
        if message.get("t") == "state":
            self.deliver(message["s"])
        elif message.get("t") == "tally":
            self.tally_soon(code)
        elif message.get("t") == "lead":
            self._spawn(self.tell_lead([code]))

    async def _follow_channel(self, code: str, on: bool) -> None:
        async with self._subscribing:
            if on and code not in self._subscribed:
                await self._pubsub.subscribe(channel(code))
                self._subscribed.add(code)
            elif not on and code in self._subscribed and not self.hub.count(code):
                await self._pubsub.unsubscribe(channel(code))
                self._subscribed.discard(code)

    # -------------------------------------------------------------- classes
    async def create(self, state: ClassState) -> bool:
        code, ttl = state.code, int(self.ttl)
        if await self.redis.exists(key(code, "known")):
            return False
        if not await self.redis.set(key(code, "state"), dumps(state), nx=True, ex=ttl):
            return False
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.set(key(code, "known"), "1", ex=ttl + int(TOMBSTONE_TTL))
            pipe.zadd("plab:classes", {code: self.clock() + self.ttl})
            pipe.delete(*(key(code, name) for name in RESULTS_KEYS))  # a lost class's, if any
            pipe.set(key(code, "readers"), json.dumps(state.key_hashes), ex=2 * ttl)
            await pipe.execute()
        return True

    async def get(self, code: str) -> ClassState | None:
        raw = await self.redis.get(key(code, "state"))
        if raw is None:
            return None
        state = loads(raw)
        if state.question is not None and state.question.is_open:
            counts = await self.redis.hgetall(key(code, "counts", state.question.id))
            state = self._with_counts(state, counts)
        return state

    @staticmethod
    def _with_counts(state: ClassState, counts: dict[str, str]) -> ClassState:
        question = state.question
        if question is None:
            return state
        tally = tuple(int(counts.get(choice, 0)) for choice in question.choices)
        return replace(state, question=replace(question, counts=tally))

    async def was_ended(self, code: str) -> bool:
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.exists(key(code, "known"))
            pipe.exists(key(code, "state"))
            known, open_ = await pipe.execute()
        return bool(known) and not open_

    def _class_keys(self, code: str, question_id: int | None) -> list[str]:
        keys = [key(code, "state"), key(code, "open"), key(code, "follow"),
                key(code, "explore"), key(code, "plan")]
        if question_id is not None:
            keys += [key(code, "counts", question_id), key(code, "voters", question_id)]
        return keys

    async def change(self, code: str, transition: Transition) -> ClassState:
        state_key = key(code, "state")
        async with self.redis.pipeline(transaction=True) as pipe:
            for _ in range(50):
                try:
                    await pipe.watch(state_key)
                    raw = await pipe.get(state_key)
                    if raw is None:
                        await pipe.reset()
                        raise not_found(await self.was_ended(code))
                    state = loads(raw)
                    old = state.question
                    if old is not None and old.is_open:
                        await pipe.watch(key(code, "counts", old.id))
                        counts = await pipe.hgetall(key(code, "counts", old.id))
                        state = self._with_counts(state, counts)
                    new = self.stamped(state, transition(state))  # ClassError: nothing written
                    pipe.multi()
                    self._write(pipe, state, new)
                    await pipe.execute()
                    break
                except WatchError:
                    continue
            else:
                raise ClassError(503, "the class is too busy; try again")
        if new.seq != state.seq:
            self.publish(new)  # this process's followers at once; the others via Redis
        return new

    def _write(self, pipe, state: ClassState, new: ClassState) -> None:
        code, ttl = new.code, int(self.ttl)
        old, question = state.question, new.question
        if new.key_hashes != state.key_hashes:
            pipe.set(key(code, "readers"), json.dumps(new.key_hashes), ex=2 * ttl)
        if question is not None and (old is None or old.id != question.id):
            pipe.rpush(key(code, "questions"), json.dumps(asked(question)))
            pipe.ltrim(key(code, "questions"), 0, MAX_QUESTIONS - 1)
        if new.ended:
            pipe.delete(*self._class_keys(code, old.id if old else None))
            pipe.set(key(code, "known"), "1", ex=int(TOMBSTONE_TTL))
            pipe.zrem("plab:classes", code)
            for name in RESULTS_KEYS:  # the results: a quiet hour more
                pipe.expire(key(code, name), ttl)
        else:
            pipe.set(key(code, "state"), dumps(new), ex=ttl)
            if old is not None and old.is_open and (question is None or question.id != old.id
                                                    or question.revealed):
                pipe.delete(key(code, "open"), key(code, "voters", old.id))
            if old is not None and (question is None or question.id != old.id):
                pipe.delete(key(code, "counts", old.id))
            if question is not None and question.is_open and (old is None or old.id != question.id):
                pipe.set(key(code, "open"), str(question.id), ex=ttl)
            self._renew(pipe, code, question.id if question else None)
        if new.seq != state.seq:
            pipe.publish(channel(code), json.dumps({"t": "state", "s": public(new)},
                                                   separators=(",", ":")))

    def _renew(self, pipe, code: str, question_id: int | None) -> None:
        ttl = int(self.ttl)
        for name in self._class_keys(code, question_id):
            pipe.expire(name, ttl)
        for name in RESULTS_KEYS:  # a quiet hour past the class's own expiry
            pipe.expire(key(code, name), 2 * ttl)
        pipe.expire(key(code, "known"), ttl + int(TOMBSTONE_TTL))
        pipe.zadd("plab:classes", {code: self.clock() + self.ttl})

    async def touch(self, code: str) -> None:
        state = await self.get(code)
        if state is None:
            raise not_found(await self.was_ended(code))
        async with self.redis.pipeline(transaction=True) as pipe:
            self._renew(pipe, code, state.question.id if state.question else None)
            await pipe.execute()

    async def heard_lecturer(self, code: str) -> None:
        if not await self.redis.set(key(code, "lead"), "1", ex=int(LEAD_QUIET), get=True):
            # back after a silence: every process tells its students at once
            await self.redis.publish(channel(code), LEAD_NOTICE)
        self.hub.tell_lead(code, True)

    async def lecturer_here(self, code: str) -> bool:
        return bool(await self.redis.exists(key(code, "lead")))

    async def count(self) -> int:
        return await self.redis.zcount("plab:classes", self.clock(), "+inf")

    async def put_remote(self, token_hash: str, code: str) -> None:
        await self.redis.set(f"plab:remote:{token_hash}", code, ex=int(REMOTE_TTL))

    async def take_remote(self, token_hash: str) -> str | None:
        return await self.redis.getdel(f"plab:remote:{token_hash}")

    async def put_plan(self, code: str, text: str, at: int) -> None:
        await self.redis.set(key(code, "plan"), json.dumps({"text": text, "at": at}),
                             ex=int(self.ttl))

    async def get_plan(self, code: str) -> tuple[str, int] | None:
        found = await self.redis.get(key(code, "plan"))
        if found is None:
            return None
        kept = json.loads(found)
        return kept["text"], kept["at"]

    async def put_run(self, digest: str, blob: bytes) -> bool:
        if len(blob) > min(MAX_RUN_BYTES, self.run_budget):
            return False
        await self._put_run(keys=list(RUN_KEYS), args=[digest, blob, self.clock(),
                                                       self.run_budget, int(RUN_TTL)])
        self.runs.put(digest, blob)
        return True

    async def get_run(self, digest: str) -> bytes | None:
        blob = self.runs.get(digest)
        if blob is None:
            blob = await self.bytes.get(f"plab:run:{digest}")
            if blob is not None:
                self.runs.put(digest, blob)
        return blob

    async def has_run(self, digest: str) -> bool:
        return digest in self.runs or bool(await self.bytes.exists(f"plab:run:{digest}"))

    async def announce(self, state: ClassState) -> None:
        self.publish(state)
        await self.redis.publish(channel(state.code), json.dumps(
            {"t": "state", "s": public(state)}, separators=(",", ":")))

    # -------------------------------------------------------------- votes
    async def _count_vote(self, state: ClassState, present: str, voter: str,
                          reading: Reading, numbered: str, kept: dict[str, Any]) -> None:
        code, question = state.code, state.question
        assert question is not None
        result = await self._vote(
            keys=[key(code, "open"), key(code, "voters", question.id),
                  key(code, "counts", question.id), key(code, "follow"), key(code, "explore"),
                  key(code, "numbers"), key(code, "answers")],
            args=[str(question.id), voter, reading.bucket, int(self.ttl), channel(code),
                  present, self.clock(), TALLY_NOTICE, numbered,
                  json.dumps(kept, separators=(",", ":")), MAX_ANSWERS, 2 * int(self.ttl)])
        if result == -1:
            raise ClassError(409, "that question is not open")
        if result == -2:
            raise ClassError(403, "only a page that follows the class can answer")
        if result == 0:
            raise ClassError(409, "already answered")

    async def results(self, code: str) -> Results | None:
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.get(key(code, "readers"))
            pipe.lrange(key(code, "questions"), 0, -1)
            pipe.lrange(key(code, "answers"), 0, -1)
            readers, questions, answers = await pipe.execute()
        if readers is None:
            return None
        return Results(tuple(json.loads(readers)), [json.loads(q) for q in questions],
                       [_row(a) for a in answers])

    async def answers_since(self, code: str, question_id: int, after: int
                            ) -> tuple[list[dict[str, Any]], int]:
        raw = await self.redis.lrange(key(code, "answers"), after, -1)
        rows = [_row(a) for a in raw]
        return [r for r in rows if r["question"] == question_id], after + len(rows)

    # -------------------------------------------------------------- presence
    async def join(self, sub: Subscriber) -> None:
        self.hub.add(sub)
        await self._follow_channel(sub.code, True)
        await self._presence_changed(sub.code, sub.voter)

    async def leave(self, sub: Subscriber) -> None:
        self.hub.remove(sub)
        with contextlib.suppress(RedisError, ConnectionError):
            await self._presence_changed(sub.code, sub.voter)
            await self._follow_channel(sub.code, False)

    async def _presence_changed(self, code: str, voter: str) -> None:
        lock = self._presence_locks[hash((code, voter)) % PRESENCE_LOCKS]
        async with lock, self.redis.pipeline(transaction=False) as pipe:
            mode = self.hub.presence(code).get(voter)  # as it is now, not when asked
            follow, explore = key(code, "follow"), key(code, "explore")
            if mode is None:
                pipe.zrem(follow, voter)
                pipe.zrem(explore, voter)
            else:
                here, other = (follow, explore) if mode == FOLLOW else (explore, follow)
                pipe.zadd(here, {voter: self.clock() + PRESENCE_TTL})
                pipe.zrem(other, voter)
                pipe.expire(here, int(self.ttl))
            pipe.publish(channel(code), TALLY_NOTICE)
            await pipe.execute()

    async def _present(self, code: str, present: str) -> bool:
        now = self.clock()
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.zscore(key(code, "follow"), present)
            pipe.zscore(key(code, "explore"), present)
            scores = await pipe.execute()
        return any(score is not None and score >= now for score in scores)

    async def tally(self, code: str) -> dict[str, int]:
        now = self.clock()
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.zcount(key(code, "follow"), now, "+inf")
            pipe.zcount(key(code, "explore"), now, "+inf")
            pipe.get(key(code, "open"))
            following, exploring, open_id = await pipe.execute()
        answered = 0
        if open_id is not None:
            answered = sum(map(int, await self.redis.hvals(key(code, "counts", open_id))))
        return {"following": following, "exploring": exploring, "answered": answered}

    # -------------------------------------------------------------- repair and expiry
    async def sweep(self) -> None:
        now = self.clock()
        codes = self.hub.codes()
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.zremrangebyscore("plab:classes", "-inf", now)
            for code in codes:
                pipe.get(key(code, "state"))
                pipe.exists(key(code, "known"))
            results = await pipe.execute()
        live = []
        for code, raw, known in zip(codes, results[1::2], results[2::2], strict=True):
            newest = self.hub.newest(code)
            if raw is None and known:  # ended or expired while we were not told
                self.deliver({"code": code, "seq": newest + 1, "view_seq": 0, "step": 0,
                              "ended": True, "question": None})
                continue
            if raw is None:  # lost (Redis restarted without its data): not ended; its
                continue  # lecturer's page gives it back (ops.restore), its followers wait
            live.append(code)
            state = loads(raw)
            if state.seq > newest:
                self.deliver(public(state))
        async with self.redis.pipeline(transaction=False) as pipe:
            for code in live:  # renew this process's followers' presence
                for voter, mode in self.hub.presence(code).items():
                    pipe.zadd(key(code, "follow" if mode == FOLLOW else "explore"),
                              {voter: now + PRESENCE_TTL})
                for name in (key(code, "follow"), key(code, "explore")):
                    pipe.zremrangebyscore(name, "-inf", now)
                    pipe.expire(name, int(self.ttl))
            await pipe.execute()
        for code in live:
            self.tally_soon(code)
        await self.tell_lead(live)
        await self._end_abandoned(now)

    async def _end_abandoned(self, now: float) -> None:
        """End every class (of any process) quiet for ``abandoned_ttl`` that no one follows;
        each process may try, the first ends it."""
        # a class's score is when its quiet hour lapses: its lecturer's last word + ttl
        quiet = await self.redis.zrangebyscore(
            "plab:classes", now, now + self.ttl - self.abandoned_ttl, withscores=True)
        for code, lapses in quiet:
            if await self.abandoned(code, now - (lapses - self.ttl)):
                with contextlib.suppress(ClassError):
                    await self.change(code, end)
