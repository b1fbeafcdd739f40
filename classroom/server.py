"""The classroom in the app's server: one per process, its routes and its lifespan.

app.py passes ``routes()`` and ``lifespan`` to ``st.App``; ``streamlit run app.py``
then serves them beside Streamlit's own routes on the same event loop (uvicorn's).
The routes never block that loop: a state change is a dict update (or a Redis round
trip, awaited), and publishing to N followers is N attribute stores, the socket
writes being each stream's own task. Page scripts run in Streamlit's script threads;
``call`` runs a store coroutine for them on the serving loop and waits for it.

With ``PERCEPTRON_LAB_REDIS=redis://host:port/db`` set, classes live in Redis and
every process behind deploy/nginx.conf serves every class; without it they live
in this process, which is all ``streamlit run app.py`` needs. The URL may hold Redis's
password (``redis://:PASSWORD@host:port/db``), or ``PERCEPTRON_LAB_REDIS_PASSWORD`` may.

``PERCEPTRON_LAB_SECRET`` (at least 32 characters) signs the students' voter identities
(codes.py); every process that serves one course needs the same one (deploy/run.sh makes
one when none is given). Without it each process draws its own at start, which is all one
process needs; a restart then makes its students' pages take new identities.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import threading
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, TypeVar

from classroom import limits
from classroom.http import FRAME_ANCESTORS, Classroom
from classroom.store import MemoryStore, Store

REDIS_ENV = "PERCEPTRON_LAB_REDIS"
REDIS_PASSWORD_ENV = "PERCEPTRON_LAB_REDIS_PASSWORD"
SECRET_ENV = "PERCEPTRON_LAB_SECRET"
MIN_SECRET = 32
T = TypeVar("T")

_classroom: Classroom | None = None
_loop: asyncio.AbstractEventLoop | None = None
_lock = threading.Lock()


def store_from_env() -> Store:
    """A RedisStore when PERCEPTRON_LAB_REDIS is set (redis-py imported only then)."""
    url = os.environ.get(REDIS_ENV, "").strip()
    if url:
        from classroom.redis_store import RedisStore

        return RedisStore(url, password=os.environ.get(REDIS_PASSWORD_ENV) or None)
    return MemoryStore()


def secret_from_env() -> bytes | None:
    """The shared secret that signs voter identities, or None (one of this process's own)."""
    secret = os.environ.get(SECRET_ENV, "").strip()
    if not secret:
        return None
    if len(secret) < MIN_SECRET:
        raise ValueError(f"{SECRET_ENV} must be at least {MIN_SECRET} characters "
                         "(deploy/run.sh makes one: openssl rand -hex 32)")
    return secret.encode()


WORK_ENV = "PERCEPTRON_LAB_WORK_BITS"


def work_from_env() -> None:
    """The proof of work an identity costs, in bits (limits.WORK_BITS; 0 to 16): a test's
    deployment lowers it, so that one machine can play a hall of 300 phones."""
    bits = os.environ.get(WORK_ENV, "").strip()
    if bits:
        if not bits.isdigit() or not 0 <= int(bits) <= 16:
            raise ValueError(f"{WORK_ENV} is a number of bits from 0 to 16")
        limits.WORK_BITS = int(bits)


def classroom() -> Classroom:
    """This process's classroom (made on first use)."""
    global _classroom
    with _lock:
        if _classroom is None:
            limits.fit_to_machine()  # the open files, and the streams they can hold
            work_from_env()
            _classroom = Classroom(store_from_env(), secret=secret_from_env())
        return _classroom


def frame_headers(sites: str | None = None) -> list[tuple[bytes, bytes]]:
    """Who may show the app in a frame, as headers on every response of the app's own: its
    pages and the lecturer's among them (clickjacking). The sites are deploy/run.sh's
    FRAME_ANCESTORS (PERCEPTRON_LAB_FRAME_ANCESTORS), the same nginx names; without any, the
    app's own pages alone (and X-Frame-Options for browsers without frame-ancestors).

    >>> frame_headers("")
    [(b'content-security-policy', b"frame-ancestors 'self'"), (b'x-frame-options', b'SAMEORIGIN')]
    >>> frame_headers("https://moodle.example.edu")
    [(b'content-security-policy', b"frame-ancestors 'self' https://moodle.example.edu")]
    """
    if sites is None:
        sites = os.environ.get(FRAME_ANCESTORS, "")
    named = " ".join(site for site in sites.split() if _SITE.fullmatch(site))
    policy = f"frame-ancestors 'self' {named}".strip().encode()
    headers = [(b"content-security-policy", policy)]
    if not named:  # X-Frame-Options cannot name sites; browsers follow frame-ancestors first
        headers.append((b"x-frame-options", b"SAMEORIGIN"))
    return headers


_SITE = re.compile(r"https?://(\*\.)?[A-Za-z0-9.-]+(:[0-9]{1,5})?")  # as deploy/run.sh checks


class FrameGuard:
    """ASGI middleware: ``frame_headers`` on every HTTP response (a single process reached
    directly is as safe from framing as one behind deploy/nginx.conf)."""

    def __init__(self, app: Any):
        self.app = app
        self.headers = frame_headers()

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def framed(message) -> None:
            if message["type"] == "http.response.start":
                names = {name.lower() for name, _ in message.get("headers", [])}
                extra = [h for h in self.headers if h[0] not in names]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, receive, framed)


def middleware() -> list:
    """The app's middleware, for ``st.App(middleware=...)``."""
    from starlette.middleware import Middleware

    return [Middleware(FrameGuard)]


def routes() -> list:
    """The class routes, for ``st.App(routes=...)``."""
    return classroom().routes()


@contextlib.asynccontextmanager
async def lifespan(_app: Any) -> AsyncIterator[None]:
    """Start the store on the serving loop (and stop it with the server)."""
    global _loop
    store = classroom().store
    await store.start()
    _loop = asyncio.get_running_loop()
    restore = _end_streams_on_exit(_loop, store.hub.close_all)
    try:
        yield
    finally:
        restore()
        _loop = None
        await store.close()


def _end_streams_on_exit(loop: asyncio.AbstractEventLoop, end_streams: Callable[[], None]
                         ) -> Callable[[], None]:
    """On SIGINT/SIGTERM, end the event streams, then do what the server does on them.

    uvicorn stops by waiting for every open response to finish, and an event stream
    never does: without this, Ctrl+C (or deploy/run.sh stopping) would wait forever.
    """
    previous = {}
    for signum in (signal.SIGINT, signal.SIGTERM):
        handler = signal.getsignal(signum)
        if not callable(handler):
            continue

        def chained(number, frame, handler=handler):
            loop.call_soon_threadsafe(end_streams)
            handler(number, frame)

        try:
            signal.signal(signum, chained)
        except ValueError:  # not the main thread (a test's server): nothing to chain
            continue
        previous[signum] = handler

    def restore() -> None:
        for number, handler in previous.items():
            with contextlib.suppress(ValueError):
                signal.signal(number, handler)

    return restore


def call(function: Callable[[Store], Awaitable[T]], timeout: float = 5.0) -> T:
    """Run ``function(store)`` on the serving loop from a script thread; its result.

    Without a server (AppTest, a bare script) a private loop in a daemon thread
    serves instead, with its own store started on it.
    """
    loop = _loop or _private_loop()
    future = asyncio.run_coroutine_threadsafe(function(classroom().store), loop)
    return future.result(timeout)


def _private_loop() -> asyncio.AbstractEventLoop:
    global _loop
    with _lock:
        if _loop is not None:
            return _loop
        loop = asyncio.new_event_loop()
        threading.Thread(target=loop.run_forever, name="classroom", daemon=True).start()
        _loop = loop
    asyncio.run_coroutine_threadsafe(classroom().store.start(), loop).result(5)
    return loop
