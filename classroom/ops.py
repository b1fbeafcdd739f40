"""The operations of a class, one place for each: what the HTTP routes and the sidebar both do.

``POST /class`` and the sidebar's *Start a class* are two doors to :meth:`Operations.start`;
``POST .../claim`` and a remote link opened in the app are two doors to
:meth:`Operations.claim`; the lecturer's route and the sidebar's *End*, *Phone as a remote*
and the published view all go through :meth:`Operations.act`, which looks the action up in
:data:`ACTIONS`. The rate limits live here too, so each door spends the same budget (a
lecturer who starts five classes by ``POST /class`` cannot start a sixth from the sidebar).

An action of :data:`ACTIONS` names the fields it takes (besides ``action``) and what it does:
a transition of the class's state (state.py), applied by the store, or a write of its own
(``touch`` renews the quiet hour, ``remote`` mints a one-time token for a second device).
Adding an action is one row here, and the routes and the page both have it.

Nothing here imports Streamlit; every method is a coroutine run on the serving loop.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from classroom import codes, limits
from classroom.limits import Buckets
from classroom.results import Results
from classroom.state import (
    INCOMING,
    ClassError,
    ClassState,
    add_key,
    check_run,
    check_spec,
    close_question,
    end,
    open_question,
    restored,
    reveal,
    set_run,
    set_step,
    set_view,
    start,
)
from classroom.store import Store, Transition, not_found

# what an action does besides a transition: (operations, the class, its fields) -> extra reply
Effect = Callable[["Operations", ClassState, dict[str, Any]], Awaitable[dict[str, Any]]]


@dataclass(frozen=True)
class Action:
    """One thing a lecturer's device may do to its class.

    ``fields``: what the action takes besides ``action``. ``change``: the transition it
    makes, from those fields (and the sender's key, which a view must never hold), or None
    for an action that writes something else (``effect``).
    """

    fields: frozenset[str]
    change: Callable[[dict[str, Any], str], Transition] | None = None
    effect: Effect | None = None


def _view(body: dict[str, Any], key: str) -> Transition:
    view = body.get("view")
    if isinstance(view, str) and key and key in view:
        raise ClassError(400, "a view never holds the lecturer's key")
    run = check_run(body.get("run"))  # refused before the store is asked
    return lambda s: set_view(s, view, body.get("step", 0), run)


def _run(body: dict[str, Any], _key: str) -> Transition:
    run = check_run(body.get("run"))
    return lambda s: set_run(s, run)


def _ask(body: dict[str, Any], _key: str) -> Transition:
    salt = codes.new_salt()  # the question's own, drawn once (a retried change keeps it)
    spec = check_spec(body.get("kind"), body.get("spec"))  # refused before the store is asked
    return lambda s: open_question(s, body.get("kind"), body.get("step"), salt, spec,
                                   body.get("slide", 0))


async def _answers(ops: Operations, state: ClassState, body: dict[str, Any]
                   ) -> dict[str, Any]:
    """The answers to a question as they come, for the lecturer's devices (the projector's
    faint lines): of a kind in INCOMING while it is open, of any kind once revealed."""
    question, after = body.get("question"), body.get("after", 0)
    if isinstance(after, bool) or not isinstance(after, int) or after < 0:
        raise ClassError(400, "after is a whole number, the next of the answers asked for")
    current = state.question
    if current is None or current.id != question:
        raise ClassError(409, "that question is not on the class's screens")
    if current.is_open and current.kind not in INCOMING:
        raise ClassError(409, "the answers to this question are hidden until it is revealed")
    rows, after = await ops.store.answers_since(state.code, current.id, after)
    return {"answers": [{"voter": r["voter"], "answer": r["answer"], "right": r["right"]}
                        for r in rows], "after": after}


async def _touch(ops: Operations, state: ClassState, _body: dict[str, Any]) -> dict[str, Any]:
    await ops.store.touch(state.code)
    return {}


async def _remote(ops: Operations, state: ClassState, _body: dict[str, Any]) -> dict[str, Any]:
    if not ops.remotes.allow(state.code):  # each token is a key in the store for 10 minutes
        raise ops.too_many("remote links for this class")
    token = codes.new_token()
    await ops.store.put_remote(codes.digest(token), state.code)
    return {"remote": token}


async def _plan(ops: Operations, state: ClassState, body: dict[str, Any]) -> dict[str, Any]:
    """The plan the class is given from, kept for the lecturer's other devices (``plan``: its
    file, as classroom.plan.dump writes it; ``at``: the slide on screen, from 0); without
    them, what is kept: ``{"plan": TEXT, "at": N}``, or ``{"plan": None}``."""
    from classroom.plan import MAX_PLAN_BYTES

    if "plan" not in body and "at" not in body:
        kept = await ops.store.get_plan(state.code)
        return {"plan": None} if kept is None else {"plan": kept[0], "at": kept[1]}
    text, at = body.get("plan"), body.get("at")
    if not isinstance(text, str) or len(text.encode()) > MAX_PLAN_BYTES:
        raise ClassError(400, f"a plan is its file's text, at most {MAX_PLAN_BYTES} bytes")
    if isinstance(at, bool) or not isinstance(at, int) or at < 0:
        raise ClassError(400, "at is the slide on screen, a whole number from 0")
    await ops.store.put_plan(state.code, text, at)
    return {}


ACTIONS: dict[str, Action] = {
    "step": Action(frozenset({"step"}), lambda b, _k: lambda s: set_step(s, b.get("step"))),
    # with "run": the digest of the view's packed run, kept in the store (Store.put_run)
    "view": Action(frozenset({"view", "step", "run"}), _view),
    "run": Action(frozenset({"run"}), _run),  # the view's run, kept later (or again)
    "ask": Action(frozenset({"kind", "step", "spec", "slide"}), _ask),
    "reveal": Action(frozenset(), lambda _b, _k: reveal),
    "close": Action(frozenset(), lambda _b, _k: close_question),
    "end": Action(frozenset(), lambda _b, _k: end),
    "touch": Action(frozenset(), effect=_touch),  # the lecturer's page is still there
    "remote": Action(frozenset(), effect=_remote),  # -> {"remote": TOKEN}, once, 10 minutes
    # -> {"answers": [{voter, answer, right}], "after": N}: the question's answers so far
    "answers": Action(frozenset({"question", "after"}), effect=_answers),
    # the plan given, for the lecturer's other devices: kept ({plan, at}), or read ({})
    "plan": Action(frozenset({"plan", "at"}), effect=_plan),
}
# every field some action takes: a body with any other is refused before it is read further
ACTION_FIELDS = frozenset({"action"}).union(*(a.fields for a in ACTIONS.values()))


def check_action(body: dict[str, Any]) -> Action:
    """The action a body names, its fields checked; ClassError 400 otherwise."""
    name = body.get("action")
    if name not in ACTIONS:
        raise ClassError(400, f"an action is one of {sorted(ACTIONS)}")
    action = ACTIONS[name]
    if not set(body) - {"action"} <= action.fields:
        raise ClassError(400, f"{name} takes {sorted(action.fields)}")
    return action


class Operations:
    """Every class operation on one store, with the rate limits every door shares."""

    def __init__(self, store: Store, *, clock: Callable[[], float] | None = None,
                 secret: bytes | None = None):
        self.store = store
        # signs voter identities; every process behind one proxy needs the same one
        # (PERCEPTRON_LAB_SECRET, server.py), else each signs its own and refuses others'
        self.secret = secret or secrets.token_bytes(32)
        options = {"clock": clock} if clock else {}
        self.misses = Buckets(*limits.MISSES, **options)  # by address, or by identity
        self.address_misses = Buckets(*limits.ADDRESS_MISSES, **options)  # with identities
        self.starts = Buckets(*limits.STARTS, **options)
        self.all_starts = Buckets(*limits.STARTS_ALL, **options)  # every address's together
        self.actions = Buckets(*limits.ACTIONS, **options)
        self.new_voters = Buckets(*limits.NEW_VOTERS, **options)
        self.remotes = Buckets(*limits.REMOTES, **options)  # per class
        self.wall = time.time  # tickets and charters expire by the wall clock (every process's)

    def too_many(self, what: str = "requests") -> ClassError:
        return ClassError(429, f"too many {what}; wait a little")

    # -------------------------------------------------------------- starting
    async def start(self, who: str, view: object = "", step: object = 0) -> tuple[str, ClassState]:
        """A new class on ``view`` at ``step`` for the client at address ``who``: its
        lecturer key and state. ClassError 429 past the address's starts."""
        if not self.starts.allow(who):
            raise self.too_many("new classes from this address")
        if not self.all_starts.allow(""):
            raise ClassError(503, "many classes are starting at once; try again in a moment")
        key = codes.new_key()
        for _ in range(10):  # a taken code is a 1-in-1e9 event; ten in a row never happens
            state = start(codes.new_code(), codes.digest(key), codes.new_salt(), view, step)
            if await self.store.open_class(state):
                await self.store.heard_lecturer(state.code)
                return key, state
        raise ClassError(503, "no free code; try again")

    # -------------------------------------------------------------- finding a class
    async def find(self, who: str, code: str | None, identity: str | None = None
                   ) -> ClassState:
        """The class ``code`` names; a miss (unknown or ended) is counted, and once the
        misses are spent every lookup is refused, found or not (so a refusal tells nothing).

        Without an identity the misses are the address's (``who``). A page with one (its
        signed voter cookie, ``codes.identity``) spends its own, and the address's larger
        ``ADDRESS_MISSES``: one student mistyping a code behind a hall's NAT slows that
        student, never the hall's joins.
        """
        keys = [(self.misses, who)] if identity is None else \
            [(self.misses, identity), (self.address_misses, who)]
        if not all(bucket.peek(key) for bucket, key in keys):
            raise self.too_many("unknown codes or wrong keys")
        state = await self.store.get(code) if code else None
        if state is None:
            for bucket, key in keys:
                bucket.allow(key)
            raise not_found(bool(code) and await self.store.was_ended(code))
        return state

    def ticket(self, code: str) -> str:
        """A join ticket for a page that found the class ``code`` (codes.join_ticket): its
        stream and its lookups of this class are then never a guess (:meth:`look_up`)."""
        return codes.join_ticket(self.secret, code, int(self.wall() + limits.TICKET_TTL))

    def ticket_ok(self, code: str | None, ticket: object) -> bool:
        return codes.ticket_ok(ticket, self.secret, code, now=self.wall())

    async def look_up(self, who: str, code: str | None, identity: str | None,
                      ticket: object) -> ClassState:
        """The class for a page's stream or lookup: with a join ticket for this code, straight
        from the store (no miss spent, none of the address's misses can refuse it: a page that
        holds one has the class's link); without one, a guess's lookup (:meth:`find`)."""
        if not self.ticket_ok(code, ticket):
            return await self.find(who, code, identity)
        state = await self.store.get(code)
        if state is None:
            raise not_found(await self.store.was_ended(code) or self.store.hub.ended(code))
        return state

    def tally_ticket(self, state: ClassState) -> str:
        """What a lecturer's page (it holds a key) brings to see its class's live counts."""
        return codes.tally_ticket(self.secret, state.code, state.salt)

    async def lead(self, who: str, code: str | None, key: object) -> ClassState:
        """The class, for a holder of one of its lecturer keys. The right key always passes
        (students who guess behind the lecturer's own address, one campus NAT, cannot lock
        the lecturer out); anything else is a miss of ``who``."""
        state = await self.store.get(code) if code else None
        if state is None or not codes.key_matches(key, state.key_hashes):
            if not self.misses.allow(who):
                raise self.too_many("unknown codes or wrong keys")
            if state is None:
                raise not_found(bool(code) and await self.store.was_ended(code))
            raise ClassError(403, "only the lecturer's key can drive the class")
        return state

    # -------------------------------------------------------------- the lecturer
    async def act(self, who: str, code: str | None, key: object, body: dict[str, Any], *,
                  state: ClassState | None = None) -> tuple[ClassState, dict[str, Any]]:
        """A lecturer's action (``body["action"]`` and its fields): the class's state after
        it and what else the reply holds (a remote token). ``state``: the class as
        :meth:`lead` found it already for this key."""
        if state is None:
            state = await self.lead(who, code, key)
        if not self.actions.allow(state.code):
            raise self.too_many("actions on this class")
        action = check_action(body)
        extra: dict[str, Any] = {}
        if action.change is not None:
            state = await self.store.change(state.code, action.change(body, str(key)))
        if action.effect is not None:
            extra = await action.effect(self, state, body)
        if not state.ended:
            await self.store.heard_lecturer(state.code)  # its students' pages: it is here
        return state, extra

    def charter(self, state: ClassState, key: str) -> str:
        """What the page holding ``key`` keeps beside it to give the class back to a store
        that lost it (:meth:`restore`): signed with the server's secret (codes.charter)."""
        return codes.charter(self.secret, state.code, state.salt, key,
                             int(self.wall() + limits.QUIET_TTL))

    async def restore(self, who: str, code: str | None, key: object, charter: object,
                      body: dict[str, Any]) -> ClassState:
        """The class ``code`` given back by its lecturer's page where the store lost it (a
        redis-server restarted without its data, a flush): under the same code and salt,
        on the page's view (``body["view"]``, ``body["view_seq"]``) and step, at a seq above
        ``body["seq"]`` (the newest the page has seen) and above any this process sent.

        Only a page with the class's key and its charter (signed with the server's secret,
        which no store holds) can: a forged charter, or another class's, or one for another
        key is a miss of ``who`` (403). A class that ended (by its lecturer, or its quiet hour)
        stays ended (410). A class the store still has (another device of the lecturer's, or
        another process, gave it back first) is found, the key added to it if it lacks it.
        """
        salt = codes.charter_salt(charter, self.secret, code, key, now=self.wall()) \
            if code else None
        if salt is None or not isinstance(body, dict):
            if not self.misses.allow(who):
                raise self.too_many("unknown codes or wrong keys")
            raise ClassError(403, "only the lecturer's page can give its class back")
        if not self.actions.allow(code):
            raise self.too_many("actions on this class")
        for _ in range(3):
            state = await self.store.get(code)
            if state is not None:
                return await self._rejoin(state, salt, str(key))
            if await self.store.was_ended(code) or self.store.hub.ended(code):
                raise not_found(True)
            seq = body.get("seq", 0)
            seq = (seq if isinstance(seq, int) and not isinstance(seq, bool) else 0)
            seq = max(seq, self.store.hub.newest(code)) + 1
            state = restored(code, codes.digest(str(key)), salt, body.get("view", ""),
                             body.get("step", 0), seq, body.get("view_seq", seq))
            if await self.store.recreate(state):
                await self.store.heard_lecturer(code)
                return state
        raise ClassError(503, "the class is being given back; try again")

    async def _rejoin(self, state: ClassState, salt: str, key: str) -> ClassState:
        if not secrets.compare_digest(state.salt, salt):  # another class under this code
            raise ClassError(403, "only the lecturer's page can give its class back")
        if codes.key_matches(key, state.key_hashes):
            return state
        return await self.store.change(state.code, lambda s: add_key(s, codes.digest(key)))

    async def results(self, who: str, code: str | None, key: object) -> Results:
        """The class's results (classroom/results.py) for a holder of one of its lecturer keys,
        while it is open and for its quiet hour after it ended; anything else is a miss of
        ``who`` (404 for a class with no results, 403 for a wrong key)."""
        results = await self.store.results(code) if code else None
        if results is None or not codes.key_matches(key, results.key_hashes):
            if not self.misses.allow(who):
                raise self.too_many("unknown codes or wrong keys")
            if results is None:
                raise ClassError(404, "no results are kept for this code (a class's are kept "
                                      "for an hour after it ends)")
            raise ClassError(403, "only the lecturer's key can read the results")
        return results

    async def claim(self, who: str, code: str | None, token: object) -> str:
        """A key of a second device's own for a one-time remote token of this class. The
        token is spent whether or not it was right for this class; a wrong one is a miss."""
        state = await self.find(who, code)
        claimed = await self.store.take_remote(codes.digest(token)) \
            if codes.is_token(token) else None
        if claimed != state.code:
            self.misses.allow(who)
            raise ClassError(403, "this remote link was used already, or expired")
        key = codes.new_key()
        await self.store.change(state.code, lambda s: add_key(s, codes.digest(key)))
        return key

    # -------------------------------------------------------------- a student
    def new_voter(self, who: str) -> str:
        """A new voter identity, signed, for a browser at ``who``: at most ``NEW_VOTERS``
        per address (a hall's NAT joins at once; a script cannot mint hundreds a minute)."""
        if not self.new_voters.allow(who):
            raise self.too_many("new pages from this address")
        return codes.new_voter(self.secret)

    def voter_of_work(self, stamp: object, nonce: object) -> str:
        """A student's identity for a proof of work its page made (codes.work_ok, at
        ``limits.WORK_BITS``): what a vote costs. Never refused for anyone else's requests: a
        proof is checked by one try (about a millisecond), and a proof sent again earns the
        same identity. ClassError 400 for a proof that proves nothing."""
        if not codes.work_ok(stamp, nonce, limits.WORK_BITS, limits.WORK_ITERATIONS):
            raise ClassError(400, "this proof of work does not hold; make a new one")
        return codes.voter_of_work(self.secret, str(stamp))

    def voter_ok(self, token: object) -> bool:
        """Whether ``token`` is a voter identity this server (any of its processes) made."""
        return codes.voter_ok(token, self.secret)

    async def answer(self, code: str | None, voter: str, question: object, choice: object
                     ) -> None:
        """A student's answer (``voter``: their checked identity). A class the voter does not
        follow, known or not, is refused alike (403): answers tell a guesser nothing, so
        they spend no misses and are never refused for anyone else's."""
        if not code:
            raise ClassError(403, "only a page that follows the class can answer")
        await self.store.vote(code, question, choice, voter)
