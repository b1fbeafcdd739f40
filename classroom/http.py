"""The HTTP routes of a class, beside Streamlit's (Starlette).

Each route reads its request and calls one operation of ``ops`` (classroom/ops.py), the
same the app's sidebar calls; the rate limits live there, so both doors share them.

Routes (every response is JSON with ``Cache-Control: no-store``, errors as
``{"error": "..."}``):

``POST /class``
    ``{"view": "<query string>", "step": 0}`` -> 201 ``{"code", "key", "charter",
    "state"}``. The key is the lecturer's: the page keeps it in its session, never in an
    address, and the charter beside it (codes.charter: what proves the class the lecturer's
    where the store lost it).
``GET /class/CODE``
    The public state, with the view (200), or 404 (no such class) / 410 (ended).
``GET /class/CODE/events?mode=follow|explore&tally=1&after=SEQ``
    A server-sent-events stream: ``state`` events (``id: seq``; data: the public
    state, with ``view`` when it changed in that event) and, with ``tally=1``,
    ``tally`` events (``{"following", "exploring", "answered"}``; a tally stream is
    the projector's and is not counted itself, nor can it vote). A page that
    connects, or reconnects with ``Last-Event-ID`` (EventSource does this by itself)
    or ``after``, gets the current state with its view at once unless it has it
    already. A ``beat`` event every ``HEARTBEAT`` s keeps proxies from closing it, and
    tells the page its stream is alive (ui/classroom_assets/stream.js). When the
    class ends the stream sends the ended state and closes; reconnecting then gets
    410. The first response sets the voter cookie (``plab_voter``, HttpOnly,
    SameSite=Strict, or SameSite=None; Secure; Partitioned where course sites may frame
    the app: ``voter_cookie``; path /class) when the browser has none: an identity the server
    makes and signs (codes.py). A cookie it did not sign gets 403 and is cleared.
``POST /class/CODE/lecturer`` with ``X-Class-Key: KEY``
    ``{"action": ...}``, one of ``ops.ACTIONS``: ``step`` (``step``), ``view``
    (``view``, ``step``), ``ask`` (``kind``: one of ``state.KINDS``, ``step``, ``spec``: the
    kind's own, ``slide``: the plan's, 1-based), ``reveal``, ``close``, ``end``, ``touch``
    (renews the quiet hour), ``remote`` (-> ``{"remote": TOKEN}``: a one-time token for a
    second device), ``answers`` (``question``, ``after`` -> ``{"answers": [{"voter",
    "answer", "right"}], "after": N}``: a line question's answers as they come, any
    question's once revealed), ``plan`` (``plan``: the file of the plan the class is given
    from, ``at``: the slide on screen; without them -> ``{"plan": TEXT, "at": N}`` or
    ``{"plan": null}``: what another device of the lecturer's needs to give it too).
    Answers ``{"state": <public state>}``.
``GET /class/CODE/results`` with ``X-Class-Key: KEY``
    The class's results as CSV (classroom/results.py): one row per answer, a summary row per
    question, while the class is open and for its quiet hour after it ends.
``POST /class/CODE/claim``
    ``{"remote": TOKEN}`` -> ``{"key": KEY, "charter": ...}``: a key of the second device's
    own; the token is spent whether or not it was right for this class.
``POST /class/CODE/restore`` with ``X-Class-Key: KEY``
    ``{"charter", "view", "view_seq", "seq", "step"}`` -> ``{"state": <public state>}``:
    the lecturer's page gives back a class its store lost (a redis-server restarted without
    its data), under the same code, at its view and step, and its followers take it
    (ops.restore); 403 for a charter that is not this class's and this key's, 410 for a
    class that ended.
``POST /class/CODE/answer`` (with the voter cookie)
    ``{"question": ID, "choice": ...}`` (a choice's name, an option's index, a number, or a
    line's two points ``[x1, y1, x2, y2]``, as the kind reads it) -> 204; 400 for an answer the
    question's kind cannot read; 409 if already answered or the
    question is not open; 403 without a signed cookie, or without an open stream on
    this class (an unknown code gets the same 403: an answer tells nothing of codes).

``GET /class/run/DIGEST``
    A view's packed run (ui/stepper/wire.py's ``pack``; the class's public state names it,
    ``run``), as the follower page fetches it: the bytes, gzipped (``Content-Encoding: gzip``
    for a browser that takes it), ``Cache-Control: public, max-age=31536000, immutable`` and
    an ETag (a digest's bytes never change), 404 for a digest no run is kept under (400 for
    one that is not 16 hex digits). It reads no class and spends no miss: a digest names a
    run, not a class, and is 64 bits of hash.
``GET /class/voter``, ``POST /class/voter`` ``{"stamp", "nonce"}``
    A student's identity: 204 when the page has one, else 401 with the work that earns one
    (``{"work": {"bits", "iterations", "salt"}}``); the POST sends the proof (stream.js's
    work.js makes it) and gets the voter cookie. A student's stream without the cookie is a
    401 (a projector's, with its tally ticket, is given one free: it cannot vote).

Join tickets (codes.join_ticket): the page that found a class (the Streamlit page, which looks
the class up in the store; ``GET /class/CODE``, whose reply carries one in ``X-Class-Ticket``)
holds a ticket for that class, signed with the server's secret and good for ``TICKET_TTL``. A
stream (``ticket=``) or a lookup (``GET /class/CODE?ticket=``) that brings it is not a guess:
it spends no misses, and none of the misses others made at its address refuse it, so its
stream and its votes never depend on them. A ticket names one code: it tells its holder
nothing it did not know, and guesses of other codes are counted as before. A page without a
ticket (a typed code) joins as before. A page of its own (a follower page without a Streamlit
session) gets its ticket the same way: the class link may carry one (``?class=CODE&ticket=``,
what the projector's link and QR code would show: then no lookup at all), or the page's first
``GET /class/CODE`` returns one, counted as a lookup of a page with an identity (its own
misses, and its address's larger budget).

Security, in numbers:

- Guessing, one machine rotating everything it can but its address: the code space is
  2**40 (1.1e12). Each identity costs a proof of work (``WORK_BITS``: about a second of one
  core, a phone's or a laptop's), and every identity at one address shares its
  ``ADDRESS_MISSES``: 5 a second per process (two processes: 10), as before tickets; a
  ticket (one code's own) adds no guess. A machine with many addresses (an IPv6 /64) is
  bounded by nginx's 200 requests a second per address and its own CPU: each guess through
  a fresh identity costs it the proof's second, 20 guesses per proof. The Streamlit page's
  own lookup (a typed code, a link) is bounded by its script runs, not by these counts.
- A class code has 40 bits (codes.py). A client may try at most ``MISSES`` unknown codes,
  wrong keys or spent tokens: 0.5 a second after a burst of 20, per address and process,
  or per identity for a page with one (its signed voter cookie), the address then spending
  ``ADDRESS_MISSES``: 5 a second after 200, so that one student mistyping behind a hall's
  NAT slows only that student. deploy/nginx.conf caps every request at 200/s per address
  (burst 6,000: a hall's page loads) before that. One address guessing for a 15-week term
  (9.1e6 s) at 5/s (identities rotated, each earned with its proof of work) tries 4.5e7
  codes: with 10 classes open all term the chance of finding one is 4.5e7 * 10 / 2**40 =
  4e-4 (4e-5 at the 0.5/s of a page without an identity); at nginx's 200/s it would be
  1.6e-2 (but each of those guesses through a fresh identity costs its proof: 20 guesses
  per proof). Classes are open for lectures, not all term, so the real chance is lower
  still. What a found code gives: the view the room sees, and one vote per identity with
  an open stream.
- A class's results (every answer, by anonymous voter number) are read only with one of
  its lecturer keys, a wrong key or an unknown code spending a miss like any other; they
  name no browser, and nothing of a student beyond the answers is kept.
- Lecturer keys have 256 bits; wrong keys count as misses, and the right key is
  never slowed (a hall behind one NAT address shares the misses of its address
  only past ``ADDRESS_MISSES``; answers spend no misses at all).
- A student can send only an answer: a JSON body of at most ``MAX_STUDENT_BODY``
  bytes with exactly ``question`` and ``choice``, checked against the open question,
  at most ``ANSWERS`` requests a second per voter, and counted once per voter per
  question by the store. Lecturer actions without a matching key are refused (403).
- Bodies are read up to their cap and no further (413), and JSON nested too deep
  for the parser is a 400; streams per process, per class, per address and per
  identity, and new identities per address are bounded (limits.py), so that no
  client and no class can take every other's room.
- Every route names its class by code and touches only that class's state; one
  class's followers are only ever sent that class's frames.
"""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import ipaddress
import json
import logging
import os
import re
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from classroom import codes, limits
from classroom.hub import EXPLORE, FOLLOW, HEARTBEAT_FRAME, RETRY_FRAME, Subscriber, frame
from classroom.limits import Buckets
from classroom.ops import ACTION_FIELDS, Operations
from classroom.results import csv_text
from classroom.state import ClassError, ClassState, check_run, public
from classroom.store import Store

LOG = logging.getLogger(__name__)
VOTER_COOKIE = "plab_voter"
KEY_HEADER = "x-class-key"
TICKET_HEADER = "X-Class-Ticket"  # GET /class/CODE's: a join ticket for the page that found it
RESTORE_FIELDS = frozenset({"charter", "view", "view_seq", "seq", "step"})
VOTER_COOKIE_AGE = 180 * 86400  # a term
# the course sites that may show the app in a frame (deploy/run.sh's FRAME_ANCESTORS)
FRAME_ANCESTORS = "PERCEPTRON_LAB_FRAME_ANCESTORS"
NO_STORE = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"}
# what never changes under its name (a run under its digest, the follower page's hashed files)
IMMUTABLE = {"Cache-Control": "public, max-age=31536000, immutable",
             "X-Content-Type-Options": "nosniff"}


def takes_gzip(request: Request) -> bool:
    """Whether the browser takes a gzipped body (every browser does; a bare client may not)."""
    return any(part.split(";")[0].strip() in ("gzip", "*")
               for part in request.headers.get("accept-encoding", "").split(","))


def gzipped_response(request: Request, body: bytes, media_type: str, etag: str) -> Response:
    """``body`` (gzipped) as an immutable response: 304 for a browser that has it, gzipped for
    one that takes it, else whole."""
    headers = {**IMMUTABLE, "ETag": f'"{etag}"', "Vary": "Accept-Encoding"}
    if request.headers.get("if-none-match", "").strip() in (f'"{etag}"', f'W/"{etag}"'):
        return Response(status_code=304, headers=headers)
    if takes_gzip(request):
        return Response(body, media_type=media_type,
                        headers={**headers, "Content-Encoding": "gzip"})
    return Response(gzip.decompress(body), media_type=media_type, headers=headers)


def error(status: int, message: str, *, headers: dict[str, str] | None = None) -> Response:
    return JSONResponse({"error": message}, status, headers={**NO_STORE, **(headers or {})})


def address(request: Request) -> str:
    return request.client.host if request.client else "unknown"


async def read_json(request: Request, cap: int, fields: frozenset[str] | None = None
                    ) -> dict[str, Any]:
    """The JSON object in the body: at most ``cap`` bytes, only ``fields`` if given."""
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        raise ClassError(415, "send JSON (Content-Type: application/json)")
    length = request.headers.get("content-length", "")
    if length and (not length.isdigit() or int(length) > cap):
        raise ClassError(413, f"at most {cap} bytes")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > cap:
            raise ClassError(413, f"at most {cap} bytes")
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):  # RecursionError: nested thousands of levels deep
        raise ClassError(400, "the body is not JSON, or is nested too deep") from None
    if not isinstance(data, dict):
        raise ClassError(400, "the body is a JSON object")
    if fields is not None and not set(data) <= fields:
        raise ClassError(400, f"unexpected fields: {sorted(set(data) - fields)}")
    return data


class Classroom:
    """The routes of every class served by one store; its operations (and their limits)
    are ``ops``, which the app's pages call too."""

    def __init__(self, store: Store, *, clock: Callable[[], float] | None = None,
                 secret: bytes | None = None):
        self.store = store
        self.ops = Operations(store, clock=clock, secret=secret)
        options = {"clock": clock} if clock else {}
        self.stream_opens = Buckets(*limits.STREAM_OPENS, **options)
        self.answers = Buckets(*limits.ANSWERS, **options)

    def routes(self) -> list[Route]:
        return [
            Route("/class", self.guarded(self.start), methods=["POST"]),
            Route("/class/voter", self.guarded(self.voter), methods=["GET", "POST"]),
            Route("/class/run/{digest}", self.guarded(self.run), methods=["GET"]),
            Route("/class/{code}", self.guarded(self.snapshot), methods=["GET"]),
            Route("/class/{code}/events", Events(self), methods=["GET"]),
            Route("/class/{code}/lecturer", self.guarded(self.lecturer), methods=["POST"]),
            Route("/class/{code}/claim", self.guarded(self.claim), methods=["POST"]),
            Route("/class/{code}/restore", self.guarded(self.restore), methods=["POST"]),
            Route("/class/{code}/answer", self.guarded(self.answer), methods=["POST"]),
            Route("/class/{code}/results", self.guarded(self.results), methods=["GET"]),
        ]

    def guarded(self, handler: Callable[[Request], Awaitable[Response]]
                ) -> Callable[[Request], Awaitable[Response]]:
        async def endpoint(request: Request) -> Response:
            try:
                return await handler(request)
            except ClassError as refused:
                headers = {"Retry-After": "2"} if refused.status in (429, 503) else None
                return error(refused.status, refused.message, headers=headers)
            except self.store.unavailable as failure:
                LOG.warning("class store unavailable: %r", failure)
                return error(503, "classes are unavailable for a moment; try again",
                             headers={"Retry-After": "2"})
        endpoint.__name__ = handler.__name__
        return endpoint

    # -------------------------------------------------------------- routes
    async def start(self, request: Request) -> Response:
        body = await read_json(request, limits.MAX_LECTURER_BODY, frozenset({"view", "step"}))
        key, state = await self.ops.start(address(request), body.get("view", ""),
                                          body.get("step", 0))
        return JSONResponse({"code": state.code, "key": key,
                             "charter": self.ops.charter(state, key), "state": public(state),
                             **self.lead_tickets(state)}, 201, headers=NO_STORE)

    def lead_tickets(self, state: ClassState) -> dict[str, str]:
        """What a device holding a lecturer key streams its class with: its join ticket and
        the ticket of its counts (``tally``)."""
        return {"ticket": self.ops.ticket(state.code), "tally": self.ops.tally_ticket(state)}

    async def snapshot(self, request: Request) -> Response:
        code = _code(request)
        state = await self.ops.look_up(address(request), code, self.identity(request),
                                       request.query_params.get("ticket"))
        return JSONResponse(public(state), headers={
            **NO_STORE, TICKET_HEADER: self.ops.ticket(state.code)})

    async def run(self, request: Request) -> Response:
        """``GET /class/run/DIGEST``: a view's packed run (see the module's docstring)."""
        try:
            digest = check_run(request.path_params["digest"])
        except ClassError:
            raise ClassError(400, "a run's digest is 16 hex digits 0-9, a-f") from None
        blob = await self.store.get_run(digest)
        if blob is None:
            raise ClassError(404, "no run is kept under this digest: open the full app")
        return gzipped_response(request, blob, "application/octet-stream", digest)

    def identity(self, request: Request) -> str | None:
        """The page's identity when its voter cookie is the server's (else None)."""
        token = request.cookies.get(VOTER_COOKIE)
        return codes.identity(token) if self.ops.voter_ok(token) else None

    async def lecturer(self, request: Request) -> Response:
        who, code, key = address(request), _code(request), request.headers.get(KEY_HEADER)
        state = await self.ops.lead(who, code, key)  # a stranger's body is never read
        body = await read_json(request, limits.MAX_LECTURER_BODY, ACTION_FIELDS)
        state, extra = await self.ops.act(who, code, key, body, state=state)
        if body.get("action") == "touch" and not state.ended:
            # the page's charter, renewed with the quiet hour it renews (ops.charter)
            extra = {**extra, "charter": self.ops.charter(state, str(key))}
        return JSONResponse({**extra, "state": public(state)}, headers=NO_STORE)

    async def results(self, request: Request) -> Response:
        results = await self.ops.results(address(request), _code(request),
                                         request.headers.get(KEY_HEADER))
        return Response(csv_text(results), media_type="text/csv; charset=utf-8", headers={
            **NO_STORE, "Content-Disposition": 'attachment; filename="class-results.csv"'})

    async def claim(self, request: Request) -> Response:
        body = await read_json(request, limits.MAX_STUDENT_BODY, frozenset({"remote"}))
        key = await self.ops.claim(address(request), _code(request), body.get("remote"))
        state = await self.store.get(_code(request))
        charter = self.ops.charter(state, key) if state is not None else None
        tickets = self.lead_tickets(state) if state is not None else {}
        return JSONResponse({"key": key, "charter": charter, **tickets}, headers=NO_STORE)

    async def restore(self, request: Request) -> Response:
        who, code, key = address(request), _code(request), request.headers.get(KEY_HEADER)
        body = await read_json(request, limits.MAX_LECTURER_BODY, RESTORE_FIELDS)
        state = await self.ops.restore(who, code, key, body.get("charter"), body)
        return JSONResponse({"state": public(state)}, headers=NO_STORE)

    async def voter(self, request: Request) -> Response:
        """``GET /class/voter``: 204 when the page has an identity (a signed voter cookie), else
        401 with the work that earns one; ``POST`` ``{"stamp", "nonce"}``: the proof (what the
        page's stream.js made), 204 and the cookie."""
        token = request.cookies.get(VOTER_COOKIE)
        if request.method == "GET":
            if self.ops.voter_ok(token):
                return Response(status_code=204, headers=NO_STORE)
            return JSONResponse({"error": "make a proof of work first", "work": {
                "bits": limits.WORK_BITS, "iterations": limits.WORK_ITERATIONS,
                "salt": codes.WORK_SALT.decode()}}, 401, headers=NO_STORE)
        body = await read_json(request, limits.MAX_STUDENT_BODY, frozenset({"stamp", "nonce"}))
        earned = self.ops.voter_of_work(body.get("stamp"), body.get("nonce"))
        return Response(status_code=204, headers={
            **NO_STORE, "Set-Cookie": voter_cookie(request, earned, VOTER_COOKIE_AGE)})

    async def answer(self, request: Request) -> Response:
        token = request.cookies.get(VOTER_COOKIE)
        if not self.ops.voter_ok(token):
            raise ClassError(403, "open the class's page first")
        if not self.answers.allow(token):
            raise self.ops.too_many("answers")
        body = await read_json(request, limits.MAX_STUDENT_BODY,
                               frozenset({"question", "choice"}))
        if set(body) != {"question", "choice"}:
            raise ClassError(400, "an answer is {question, choice}")
        await self.ops.answer(_code(request), token, body["question"], body["choice"])
        return Response(status_code=204, headers=NO_STORE)


def _code(request: Request) -> str | None:
    return codes.normalize_code(request.path_params["code"])


class Events:
    """``GET /class/CODE/events``: the stream a page follows (a raw ASGI endpoint)."""

    def __init__(self, classroom: Classroom):
        self.classroom = classroom

    async def __call__(self, scope, receive, send) -> None:
        request = Request(scope, receive)
        try:
            sub, cookie, state = await self.admit(request)
        except ClassError as refused:
            headers = {"Retry-After": "2"} if refused.status in (429, 503) else {}
            if isinstance(refused, Refused):
                headers["Set-Cookie"] = refused.cookie
            await error(refused.status, refused.message, headers=headers)(scope, receive, send)
            return
        except self.classroom.store.unavailable as failure:
            LOG.warning("class store unavailable: %r", failure)
            await error(503, "classes are unavailable for a moment; try again",
                        headers={"Retry-After": "2"})(scope, receive, send)
            return
        store = self.classroom.store
        try:
            await store.join(sub)
        except store.unavailable as failure:
            LOG.warning("class store unavailable: %r", failure)
            store.hub.remove(sub)
            await error(503, "classes are unavailable for a moment; try again",
                        headers={"Retry-After": "2"})(scope, receive, send)
            return
        closed = asyncio.Event()

        async def watch() -> None:  # the client going away is a message on receive
            with contextlib.suppress(Exception):
                while (await receive())["type"] != "http.disconnect":
                    pass
            closed.set()
            sub.wake.set()

        watcher = asyncio.get_running_loop().create_task(watch())
        try:
            headers = [(b"content-type", b"text/event-stream; charset=utf-8"),
                       (b"cache-control", b"no-store"),
                       (b"x-accel-buffering", b"no")]  # nginx: pass each event on at once
            if cookie:
                headers.append((b"set-cookie", cookie.encode()))
            await send({"type": "http.response.start", "status": 200, "headers": headers})
            first = [RETRY_FRAME]
            current = await store.get(sub.code) or state
            if current.seq != sub.seq:  # new, behind, or ahead (a stale id): all of it
                first.append(frame("state", public(current), current.seq))
            if sub.pending_seq <= current.seq:
                sub.pending, sub.pending_seq = None, current.seq
            sub.seq = current.seq
            if sub.wants_tally:
                first.append(frame("tally", await store.tally(sub.code)))
            elif not store.hub.lead_here.get(sub.code, True):
                first.append(frame("lead", {"here": False}))  # its lecturer is away
            await send({"type": "http.response.body", "body": b"".join(first),
                        "more_body": True})
            loop = asyncio.get_running_loop()
            while not closed.is_set():
                beat = loop.call_later(limits.HEARTBEAT, sub.wake.set)
                await sub.wake.wait()
                beat.cancel()
                if closed.is_set():
                    break
                chunk = b"".join(sub.take()) or HEARTBEAT_FRAME
                await send({"type": "http.response.body", "body": chunk, "more_body": True})
                if sub.closing:
                    break
            with contextlib.suppress(Exception):
                await send({"type": "http.response.body", "body": b"", "more_body": False})
        finally:
            watcher.cancel()
            await store.leave(sub)

    async def admit(self, request: Request) -> tuple[Subscriber, str | None, ClassState]:
        """Who may open this stream, as what; the cookie to set; the class.

        The identity is the server's: a student's page without the voter cookie is refused
        (401: it earns one with its proof of work, ``GET``/``POST /class/voter``); the
        projector's stream (its tally ticket) is given one (at most ``NEW_VOTERS`` per
        address); a cookie the server did not sign is refused, its cookie cleared. The class
        is looked up by ``ops.look_up``: with the page's join ticket no miss is spent or
        checked. Streams are bounded per identity, per address and per class, inside the
        process's cap and its reserve for small classes, so that no client and no class can
        take every other's room.
        """
        room, ops = self.classroom, self.classroom.ops
        hub, who = room.store.hub, address(request)
        seq = last_event_id(request)  # ClassError 400 before anything else is read
        if hub.streams >= limits.MAX_STREAMS:
            raise ClassError(503, "this server follows as many pages as it can")
        code = _code(request)
        state = await ops.look_up(who, code, room.identity(request),
                                  request.query_params.get("ticket"))
        mode = request.query_params.get("mode", FOLLOW)
        if mode not in (FOLLOW, EXPLORE):
            raise ClassError(400, "mode is follow or explore")
        wants_tally = "tally" in request.query_params
        if wants_tally and not codes.tally_ok(request.query_params.get("tally"), ops.secret,
                                              state.code, state.salt):
            raise ClassError(403, "the class's counts are its lecturer's: open it with the key")
        token = request.cookies.get(VOTER_COOKIE)
        cookie = None
        if token is not None and not ops.voter_ok(token):
            raise Refused(403, "this page's class cookie is not the server's; reload the page",
                          clear_cookie(request))
        if token is None:
            if not wants_tally:  # a student's identity costs its proof of work (POST above)
                raise ClassError(401, "this page has no identity yet: GET /class/voter")
            token = ops.new_voter(who)  # the projector's: it cannot vote (ClassError 429 past
            cookie = voter_cookie(request, token, VOTER_COOKIE_AGE)  # the address's bound)
        if hub.streams_of_class(state.code) >= limits.MAX_STREAMS_PER_CLASS or \
                not limits.room_for(hub.streams, hub.streams_of_class(state.code)):
            raise ClassError(503, "this class follows as many pages as this server can")
        if hub.streams_from(who) >= limits.MAX_STREAMS_PER_ADDRESS:
            raise ClassError(429, "too many pages follow classes from this address")
        identity = codes.identity(token)
        if hub.streams_of_identity(identity) >= limits.MAX_STREAMS_PER_VOTER:
            raise ClassError(429, "this browser follows classes in too many tabs")
        if not room.stream_opens.allow(token):
            raise ClassError(429, "reconnecting too often; wait a little")
        sub = Subscriber(state.code, codes.voter_hash(state.salt, token), mode, seq=seq,
                         wants_tally=wants_tally, address=who, identity=identity)
        return sub, cookie, state


_SEQ = re.compile(r"[0-9]{1,12}")


def last_event_id(request: Request) -> int:
    """The last event a reconnecting page had (``Last-Event-ID``, as EventSource sends it,
    or ``after``): 0 when it sends none, ClassError 400 when it is not a number of at most 12
    ASCII digits (a header's bytes arrive as Latin-1: "²" is a digit to Python, not to us)."""
    last = request.headers.get("last-event-id")
    if last is None:
        last = request.query_params.get("after", "")
    if last == "":
        return 0
    if _SEQ.fullmatch(last) is None:
        raise ClassError(400, "Last-Event-ID and after are event ids: 1 to 12 digits 0-9")
    return int(last)


class Refused(ClassError):
    """A refusal that also sets a cookie (clears a forged one)."""

    def __init__(self, status: int, message: str, cookie: str):
        super().__init__(status, message)
        self.cookie = cookie


def voter_cookie(request: Request, token: str, age: int) -> str:
    """The voter cookie: SameSite=Strict, unless course sites may frame the app
    (PERCEPTRON_LAB_FRAME_ANCESTORS, deploy/run.sh's FRAME_ANCESTORS): a page framed by another
    site is sent no Strict or Lax cookie, nor (as browsers block third-party cookies) a plain
    SameSite=None one, only one Partitioned to that site, which must be Secure (set over https,
    or on a loopback host, which Chromium counts as secure)."""
    https = request.url.scheme == "https" or \
        request.headers.get("x-forwarded-proto", "").lower() == "https"
    secure = "; Secure" if https else ""
    if os.environ.get(FRAME_ANCESTORS, "").strip() and (https or _loopback(request.url.hostname)):
        secure = "; Secure; Partitioned"
        same_site = "None"
    else:
        same_site = "Strict"
    return (f"{VOTER_COOKIE}={token}; Path=/class; Max-Age={age}; "
            f"HttpOnly; SameSite={same_site}{secure}")


def _loopback(host: str | None) -> bool:
    try:
        return host == "localhost" or ipaddress.ip_address(host or "").is_loopback
    except ValueError:
        return False


def clear_cookie(request: Request) -> str:
    return voter_cookie(request, "", 0)
