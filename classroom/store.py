"""Where classes live: the interface every store offers, and the one in this process.

``Store`` is what the routes use. ``MemoryStore`` (the default: one process, nothing
to install) keeps the classes in dicts of this process's event loop; every change
happens on that loop, between two awaits, so each is atomic. ``RedisStore``
(redis_store.py) keeps them in Redis for several processes.

What a store guarantees:

- ``change`` applies a lecturer's transition (state.py) atomically, renews the class's
  quiet-hour lifetime, and publishes the new public state to every follower when
  ``seq`` moved (on every process).
- ``vote`` counts one answer per voter token per question, atomically, and only from a
  voter who follows the class right now (has an open stream, on any process): a
  reload, a second tab or a replayed request adds nothing, and a vote costs an open
  connection, not just a request.
- a class its store lost (a redis-server restarted without its data) is not ended: its
  followers wait, told nothing new, until its lecturer's page gives it back (``recreate``).
- a class with no word from its lecturer for ``QUIET_TTL`` ends like one ended by its
  lecturer: followers get the ended state, the state is freed, and its code says
  "ended" (not "unknown") for ``TOMBSTONE_TTL``. One that no student's page follows or
  explores either ends after ``ABANDONED_TTL`` (its lecturer left; no one keeps it).
- the lecturer's tally (following, exploring, answered) reaches the streams that asked
  for it at most ``TALLY_EVERY`` after a change, and no more often.
- a view's packed run is kept under its digest (``put_run``) for the follower page to fetch
  (``get_run``): in this process a bounded cache whose least recently used runs go first
  (``RUN_BUDGET`` bytes), in Redis a key that lives ``RUN_TTL`` after it was last put, for
  every process; a run over ``MAX_RUN_BYTES`` is not kept (``put_run`` says False).
- every counted answer is kept for the class's results (classroom/results.py), with its
  voter's number within the class, in the same atomic step that counts it; the results
  (and who may read them: the lecturer's key hashes) outlive the class by its quiet hour
  (``ttl``), then go.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from classroom import codes
from classroom.hub import FOLLOW, Hub, Subscriber
from classroom.limits import (
    ABANDONED_TTL,
    LEAD_QUIET,
    MAX_CLASSES,
    MAX_RUN_BYTES,
    QUIET_TTL,
    REMOTE_TTL,
    RUN_BUDGET,
    SWEEP_EVERY,
    TALLY_EVERY,
    TOMBSTONE_TTL,
)
from classroom.results import MAX_ANSWERS, MAX_QUESTIONS, Results, asked, row
from classroom.state import ClassError, ClassState, Reading, count, end, public

Transition = Callable[[ClassState], ClassState]


def numbers_salt(state: ClassState) -> str:
    """The salt of the HMACs that number a class's voters in its results: the class's own,
    apart from presence's (so the two cannot be joined)."""
    return "numbers:" + state.salt


def not_found(ended: bool) -> ClassError:
    if ended:
        return ClassError(410, "this class has ended")
    return ClassError(404, "no class has this code")


class Store:
    """A home for classes; subclasses keep the states, this class does the common parts."""

    # what a store raises when its backend is away: the routes answer 503
    unavailable: tuple[type[BaseException], ...] = ()

    def __init__(self, *, ttl: float = QUIET_TTL, abandoned_ttl: float = ABANDONED_TTL,
                 max_classes: int = MAX_CLASSES, clock: Callable[[], float] = time.time):
        self.hub = Hub()
        self.ttl = ttl
        self.abandoned_ttl = min(abandoned_ttl, ttl)
        self.max_classes = max_classes
        self.clock = clock
        self._tally_due: set[str] = set()
        self.healthy = True  # the store answered last time it was asked (set_health)
        self._tasks: set[asyncio.Task] = set()

    # -------------------------------------------------------------- life
    async def start(self) -> None:
        """Start the background work (expiry, repair); call on the serving loop."""
        self._spawn(self._sweeping())

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    def _spawn(self, coroutine) -> asyncio.Task:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def _sweeping(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_EVERY)
            with contextlib.suppress(Exception):  # a failed sweep is retried next time
                await self.sweep()

    # -------------------------------------------------------------- to implement
    async def create(self, state: ClassState) -> bool:
        """Keep a new class; False if its code is taken (or was, recently)."""
        raise NotImplementedError

    async def get(self, code: str) -> ClassState | None:
        raise NotImplementedError

    async def was_ended(self, code: str) -> bool:
        raise NotImplementedError

    async def change(self, code: str, transition: Transition) -> ClassState:
        """Apply a lecturer's transition; publish; ClassError 404/410 without a class."""
        raise NotImplementedError

    async def touch(self, code: str) -> None:
        """Renew the class's quiet-hour lifetime (the lecturer's page is still there)."""
        raise NotImplementedError

    async def count(self) -> int:
        """Open classes."""
        raise NotImplementedError

    async def put_remote(self, token_hash: str, code: str) -> None:
        raise NotImplementedError

    async def put_plan(self, code: str, text: str, at: int) -> None:
        """Keep the plan a class is given from (its file) and the slide on screen, for the
        lecturer's other devices (a phone as a remote) on any process; it lives as the class."""
        raise NotImplementedError

    async def get_plan(self, code: str) -> tuple[str, int] | None:
        """The class's plan file and slide on screen, or None."""
        raise NotImplementedError

    async def take_remote(self, token_hash: str) -> str | None:
        """The class of a remote token, once: a second take finds nothing."""
        raise NotImplementedError

    async def put_run(self, digest: str, blob: bytes) -> bool:
        """Keep a view's packed run (gzipped) under its digest; False (and nothing kept) when it
        is over MAX_RUN_BYTES."""
        raise NotImplementedError

    async def get_run(self, digest: str) -> bytes | None:
        """The packed run (gzipped) kept under ``digest``, or None."""
        raise NotImplementedError

    async def has_run(self, digest: str) -> bool:
        raise NotImplementedError

    async def _count_vote(self, state: ClassState, present: str, voter: str,
                          reading: Reading, numbered: str, kept: dict[str, Any]) -> None:
        """Count ``reading.bucket`` once for ``voter`` (the question's HMAC of the token), and
        keep ``kept`` (results.row) with the voter's number (by ``numbered``, the HMAC of the
        token under the class's numbers salt), atomically; ClassError 403 unless ``present``
        (the class's HMAC) follows the class now, 409 if the voter has answered or the
        question closed meanwhile."""
        raise NotImplementedError

    async def results(self, code: str) -> Results | None:
        """The class's results (open, or ended within its quiet hour), or None."""
        raise NotImplementedError

    async def answers_since(self, code: str, question_id: int, after: int
                            ) -> tuple[list[dict[str, Any]], int]:
        """The kept answers to one question from the ``after``-th of the class's answers on,
        and the index to ask from next time."""
        raise NotImplementedError

    async def _presence_changed(self, code: str, voter: str) -> None:
        raise NotImplementedError

    async def _present(self, code: str, present: str) -> bool:
        """Whether the voter (the class's HMAC of their token) follows the class now."""
        raise NotImplementedError

    async def tally(self, code: str) -> dict[str, int]:
        raise NotImplementedError

    async def sweep(self) -> None:
        raise NotImplementedError

    # -------------------------------------------------------------- common
    async def open_class(self, state: ClassState) -> bool:
        if await self.count() >= self.max_classes:
            raise ClassError(503, "too many classes are open; try again later")
        return await self.create(state)

    async def recreate(self, state: ClassState) -> bool:
        """A class the store lost, given back by its lecturer's page (ops.restore): kept as a
        new one (False if its code is there again: another process gave it back first), and
        its state sent to every follower that waited for it, on every process. Never refused
        for the count of open classes: its lecturer has a class (a charter proves it), which
        others' starts cannot take from it."""
        if not await self.create(state):
            return False
        await self.announce(state)
        return True

    async def announce(self, state: ClassState) -> None:
        """Send ``state`` to the class's followers (on every process)."""
        self.publish(state)

    def set_health(self, ok: bool) -> None:
        """Whether the store answers: when that changes, every stream of this process is
        told (a ``store`` event), so that each page says its class is reconnecting."""
        if ok != self.healthy:
            self.healthy = ok
            self.hub.notify_all("store", {"ok": ok})

    async def heard_lecturer(self, code: str) -> None:
        """The lecturer's page said a word (an action, a touch): it is here."""
        raise NotImplementedError

    async def lecturer_here(self, code: str) -> bool:
        """Whether the lecturer's page said a word within ``LEAD_QUIET``."""
        raise NotImplementedError

    async def tell_lead(self, codes: list[str]) -> None:
        """Tell the students' streams of these classes whether their lecturer is here. With the
        store away, nothing: its pages say the class reconnects, and the sweep after it tells
        (a notice's own task raised into no one's hands)."""
        for code in codes:
            try:
                here = await self.lecturer_here(code)
            except self.unavailable:
                return
            self.hub.tell_lead(code, here)

    async def vote(self, code: str, question_id: object, choice: object, token: str) -> None:
        """Count one answer of the voter with ``token`` (their cookie), or ClassError.

        A class the voter does not follow now, whether it exists or not, is refused alike
        (403) before anything else is looked at: an answer tells nothing of other classes.
        """
        state = await self.get(code)
        if state is None or not await self._present(state.code,
                                                    codes.voter_hash(state.salt, token)):
            raise ClassError(403, "only a page that follows the class can answer")
        question = state.question
        if question is None or not question.is_open or question_id != question.id:
            raise ClassError(409, "that question is not open")
        reading = question.read(choice)  # ClassError 400: not an answer to this question
        await self._count_vote(state, codes.voter_hash(state.salt, token),
                               codes.voter_hash(question.salt, token), reading,
                               codes.voter_hash(numbers_salt(state), token),
                               row(question, reading, self.clock()))
        self.tally_soon(code)

    def stamped(self, old: ClassState, new: ClassState) -> ClassState:
        """``new`` with a question that has just opened stamped with the store's clock (the
        results count each answer's seconds from it)."""
        question = new.question
        if question is None or (old.question is not None and old.question.id == question.id):
            return new
        return replace(new, question=replace(question, opened=self.clock()))

    async def abandoned(self, code: str, quiet_for: float) -> bool:
        """Whether a class quiet this long (s) has been left: no word from its lecturer for
        ``abandoned_ttl``, and no student's page follows or explores it (on any process)."""
        if quiet_for <= self.abandoned_ttl:
            return False
        tally = await self.tally(code)
        return tally["following"] + tally["exploring"] == 0

    async def join(self, sub: Subscriber) -> None:
        self.hub.add(sub)
        await self._presence_changed(sub.code, sub.voter)

    async def leave(self, sub: Subscriber) -> None:
        self.hub.remove(sub)
        await self._presence_changed(sub.code, sub.voter)

    def publish(self, state: ClassState) -> None:
        """To this process's followers: the public state (the view only when it changed)."""
        self.deliver(public(state))

    def deliver(self, public_state: dict[str, Any]) -> None:
        """A public state (with its view) to this process's followers of its class."""
        code = public_state["code"]
        if public_state["view_seq"] != public_state["seq"]:
            public_state = {k: v for k, v in public_state.items() if k != "view"}
        self.hub.publish(code, public_state)
        if public_state["ended"]:
            self.hub.forget(code)
        else:
            self.tally_soon(code)

    def tally_soon(self, code: str) -> None:
        """Send the tally to the streams that want it, within TALLY_EVERY, at most that often."""
        if code in self._tally_due or not self.hub.wants_tally(code):
            return
        self._tally_due.add(code)
        with contextlib.suppress(RuntimeError):  # no running loop: nobody to tell
            asyncio.get_running_loop().call_later(
                TALLY_EVERY, lambda: self._spawn(self._send_tally(code)))

    async def _send_tally(self, code: str) -> None:
        self._tally_due.discard(code)
        with contextlib.suppress(Exception):
            self.hub.publish_tally(code, await self.tally(code))

    def describe(self) -> dict[str, Any]:
        return {"store": type(self).__name__, "streams": self.hub.streams}


class RunCache:
    """Packed runs by digest in this process, at most ``budget`` bytes: the least recently used
    go first; one over MAX_RUN_BYTES (or the budget) is not kept. A run's bytes never change
    under its digest, so a copy here is never stale (RedisStore keeps one in front of Redis).

    >>> cache = RunCache(10)
    >>> cache.put("a" * 16, b"123456"), cache.put("b" * 16, b"7890"), cache.put("c" * 16, b"x")
    (True, True, True)
    >>> "a" * 16 in cache, cache.get("b" * 16), cache.put("d" * 16, b"x" * 11)
    (False, b'7890', False)
    """

    def __init__(self, budget: int = RUN_BUDGET):
        self.budget = budget
        self.size = 0
        self._runs: OrderedDict[str, bytes] = OrderedDict()  # least recently used first

    def put(self, digest: str, blob: bytes) -> bool:
        if len(blob) > min(MAX_RUN_BYTES, self.budget):
            return False
        old = self._runs.pop(digest, None)
        if old is not None:
            self.size -= len(old)
        self._runs[digest] = blob
        self.size += len(blob)
        while self.size > self.budget:
            _, dropped = self._runs.popitem(last=False)
            self.size -= len(dropped)
        return True

    def get(self, digest: str) -> bytes | None:
        blob = self._runs.get(digest)
        if blob is not None:
            self._runs.move_to_end(digest)
        return blob

    def __contains__(self, digest: str) -> bool:
        return digest in self._runs


class MemoryStore(Store):
    """Classes in this process: the default, for ``streamlit run app.py``."""

    def __init__(self, *, run_budget: int = RUN_BUDGET, **options: Any):
        super().__init__(**options)
        self.runs = RunCache(run_budget)
        self._states: dict[str, ClassState] = {}
        self._quiet_since: dict[str, float] = {}
        self._tombstones: dict[str, float] = {}  # code -> when it may be forgotten
        self._remotes: dict[str, tuple[str, float]] = {}  # token hash -> code, expiry
        self._plans: dict[str, tuple[str, int]] = {}  # code -> its plan file, slide on screen
        self._heard: dict[str, float] = {}  # code -> when its lecturer last said a word
        self._results: dict[str, Results] = {}  # code -> its results (results.py)
        self._numbers: dict[str, dict[str, int]] = {}  # code -> voter HMAC -> its number
        self._results_until: dict[str, float] = {}  # an ended class's -> when they go

    async def create(self, state: ClassState) -> bool:
        if state.code in self._states or state.code in self._tombstones:
            return False
        self._states[state.code] = state
        self._quiet_since[state.code] = self.clock()
        self._results[state.code] = Results(state.key_hashes)
        self._numbers[state.code] = {}
        self._results_until.pop(state.code, None)
        return True

    async def get(self, code: str) -> ClassState | None:
        return self._states.get(code)

    async def was_ended(self, code: str) -> bool:
        return code in self._tombstones

    async def change(self, code: str, transition: Transition) -> ClassState:
        state = self._states.get(code)
        if state is None:
            raise not_found(code in self._tombstones)
        new = self.stamped(state, transition(state))  # ClassError for a change not allowed
        self._keep(state, new)
        if new.ended:
            self._drop(code)
        else:
            self._states[code] = new
            self._quiet_since[code] = self.clock()
        if new.seq != state.seq:
            self.publish(new)
        return new

    def _keep(self, old: ClassState, new: ClassState) -> None:
        """What the results keep of a change: who may read them, a question that opened."""
        results = self._results.setdefault(new.code, Results(new.key_hashes))
        results.key_hashes = new.key_hashes
        question = new.question
        if question is not None and (old.question is None or old.question.id != question.id) \
                and len(results.questions) < MAX_QUESTIONS:
            results.questions.append(asked(question))

    def _drop(self, code: str) -> None:
        self._states.pop(code, None)
        self._quiet_since.pop(code, None)
        self._tombstones[code] = self.clock() + TOMBSTONE_TTL
        self._results_until[code] = self.clock() + self.ttl  # the results: a quiet hour more

    async def touch(self, code: str) -> None:
        if code not in self._states:
            raise not_found(code in self._tombstones)
        self._quiet_since[code] = self.clock()

    async def heard_lecturer(self, code: str) -> None:
        self._heard[code] = self.clock()
        self.hub.tell_lead(code, True)

    async def lecturer_here(self, code: str) -> bool:
        return self.clock() - self._heard.get(code, self.clock()) <= LEAD_QUIET

    async def count(self) -> int:
        return len(self._states)

    async def put_remote(self, token_hash: str, code: str) -> None:
        self._remotes[token_hash] = (code, self.clock() + REMOTE_TTL)

    async def take_remote(self, token_hash: str) -> str | None:
        code, expires = self._remotes.pop(token_hash, (None, 0.0))
        return code if expires > self.clock() else None

    async def put_plan(self, code: str, text: str, at: int) -> None:
        if code in self._states:
            self._plans[code] = (text, at)

    async def get_plan(self, code: str) -> tuple[str, int] | None:
        return self._plans.get(code) if code in self._states else None

    async def put_run(self, digest: str, blob: bytes) -> bool:
        return self.runs.put(digest, blob)

    async def get_run(self, digest: str) -> bytes | None:
        return self.runs.get(digest)

    async def has_run(self, digest: str) -> bool:
        return digest in self.runs

    async def _count_vote(self, state: ClassState, present: str, voter: str,
                          reading: Reading, numbered: str, kept: dict[str, Any]) -> None:
        if present not in self.hub.presence(state.code):
            raise ClassError(403, "only a page that follows the class can answer")
        current = self._states.get(state.code)
        if current is None:
            raise not_found(True)
        question = state.question
        self._states[state.code] = count(current, question.id if question else None,
                                         reading.bucket, voter)
        numbers = self._numbers.setdefault(state.code, {})
        number = numbers.setdefault(numbered, len(numbers) + 1)
        results = self._results.setdefault(state.code, Results(state.key_hashes))
        if len(results.answers) < MAX_ANSWERS:
            results.answers.append({**kept, "voter": number})

    async def results(self, code: str) -> Results | None:
        until = self._results_until.get(code)
        if until is not None and until < self.clock():
            return None
        return self._results.get(code)

    async def answers_since(self, code: str, question_id: int, after: int
                            ) -> tuple[list[dict[str, Any]], int]:
        results = self._results.get(code)
        if results is None:
            return [], after
        rows = results.answers[after:]
        return [r for r in rows if r["question"] == question_id], after + len(rows)

    async def _presence_changed(self, code: str, voter: str) -> None:
        self.tally_soon(code)

    async def _present(self, code: str, present: str) -> bool:
        return present in self.hub.presence(code)

    async def tally(self, code: str) -> dict[str, int]:
        presence = self.hub.presence(code)
        following = sum(mode == FOLLOW for mode in presence.values())
        state = self._states.get(code)
        question = state.question if state else None
        return {"following": following, "exploring": len(presence) - following,
                "answered": question.answered if question else 0}

    async def sweep(self) -> None:
        now = self.clock()
        for code, since in list(self._quiet_since.items()):
            if now - since > self.ttl or await self.abandoned(code, now - since):
                with contextlib.suppress(ClassError):
                    await self.change(code, end)
        for code, until in list(self._tombstones.items()):
            if until < now:
                del self._tombstones[code]
                self._heard.pop(code, None)
        for code, until in list(self._results_until.items()):
            if until < now:
                del self._results_until[code]
                self._results.pop(code, None)
                self._numbers.pop(code, None)
        await self.tell_lead([code for code in self.hub.codes() if code in self._states])
        for token, (_, until) in list(self._remotes.items()):
            if until < now:
                del self._remotes[token]
        for code in [code for code in self._plans if code not in self._states]:
            del self._plans[code]
