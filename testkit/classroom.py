"""What the classroom tests share: a real server on a free port, a real redis-server."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import AsyncIterator, Iterator

import pytest
import uvicorn
from starlette.applications import Starlette

from classroom import limits
from classroom.follower import Follower, Lecturer
from classroom.http import Classroom
from classroom.store import Store
from testkit.chromium import free_port
from testkit.servers import stop


async def followed(base: str, view: str, **options) -> tuple[Lecturer, Follower]:
    """A new class on ``view``, and a page following it (``options``: Follower's), with the
    class's first state read."""
    lecturer = Lecturer(base)
    await lecturer.start(view)
    if options.get("tally") is True:  # the projector's stream: with its lecturer's ticket
        options["tally"] = lecturer.tally
    follower = Follower(base, lecturer.code, **options)
    await follower.connect()
    await follower.next("state")
    return lecturer, follower


def app_of(room: Classroom) -> Starlette:
    """A Starlette app serving the class routes of ``room`` (and starting its store)."""

    @contextlib.asynccontextmanager
    async def lifespan(_app):
        await room.store.start()
        yield
        await room.store.close()

    return Starlette(routes=room.routes(), lifespan=lifespan)


# the secret every test server signs voter identities with: two servers of one test are two
# processes of one course (deploy/run.sh gives them all one PERCEPTRON_LAB_SECRET)
SECRET = b"the-tests-shared-secret-0123456789abcdef"
WORK_BITS = 2  # the work of a test server's identities (classroom/limits.py: WORK_BITS)


@contextlib.asynccontextmanager
async def serving(store: Store, *, secret: bytes = SECRET, work_bits: int = WORK_BITS
                  ) -> AsyncIterator[tuple[str, Classroom]]:
    """uvicorn serving a classroom on ``store`` on 127.0.0.1, in this event loop; an identity
    costs ``work_bits`` of work (WORK_BITS: a test's hundreds of followers are made by one
    process, where a hall's phones each make their own)."""
    kept, limits.WORK_BITS = limits.WORK_BITS, work_bits
    try:
        async with _serving(store, secret) as served:
            yield served
    finally:
        limits.WORK_BITS = kept


@contextlib.asynccontextmanager
async def _serving(store: Store, secret: bytes) -> AsyncIterator[tuple[str, Classroom]]:
    room = Classroom(store, secret=secret)
    server = uvicorn.Server(uvicorn.Config(app_of(room), host="127.0.0.1", port=free_port(),
                                           log_level="warning", lifespan="on",
                                           timeout_graceful_shutdown=5))
    task = asyncio.get_running_loop().create_task(server.serve())
    deadline = time.monotonic() + 10
    while not server.started:
        if task.done() or time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        await asyncio.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{server.config.port}", room
    finally:
        room.store.hub.close_all()  # as app.py's server does on a signal
        server.should_exit = True
        await asyncio.wait_for(task, 15)


def run(coroutine, timeout: float = 60):
    """Run one test's coroutine to the end, within ``timeout`` s, on a thread of its own.

    A thread of its own because Playwright's sync API leaves its event loop set as running on
    the main thread of a worker that ran a browser test, and asyncio.run refuses to start there.
    """
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, asyncio.wait_for(coroutine, timeout)).result()


def redis_server_binary() -> str:
    """Debian's redis-server (scripts/test.sh installs it). Missing: fail in CI, else skip."""
    found = shutil.which("redis-server") or next(
        (p for p in ("/usr/bin/redis-server", "/usr/sbin/redis-server") if os.path.exists(p)),
        None)
    if found is None:
        message = "redis-server is not installed (scripts/test.sh installs it)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return found


@contextlib.contextmanager
def redis_server(password: str | None = None) -> Iterator[str]:
    """A throwaway redis-server on a free loopback port, nothing saved (with ``password``
    required if given: the URL yielded does not hold it); yields its URL."""
    binary = redis_server_binary()
    port = free_port()
    folder = tempfile.mkdtemp(prefix="plab-redis-")
    process = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
         "--appendonly", "no", "--dir", folder, "--protected-mode", "yes",
         *(["--requirepass", password] if password else [])],
        stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    hello = (f"AUTH {password}\r\n" if password else "").encode() + b"PING\r\n"
    try:
        deadline = time.monotonic() + 10
        while True:
            with contextlib.suppress(OSError):
                import socket

                with socket.create_connection(("127.0.0.1", port), timeout=0.5) as probe:
                    probe.sendall(hello)
                    time.sleep(0.02)
                    if b"+PONG" in probe.recv(64):
                        break
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("redis-server did not start")
            time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        stop(process)
        shutil.rmtree(folder, ignore_errors=True)


# ------------------------------------------------------------------ a store of each kind
# (tests import these: ``from testkit.classroom import make_store, redis_url, with_store``)

@pytest.fixture(scope="module")
def redis_url():
    """A redis-server of the test module's own: its URL."""
    with redis_server() as url:
        yield url


@pytest.fixture(params=["memory", "redis"])
def make_store(request):
    """A function making a store of the parametrized kind (``clock``, ``ttl`` as Store's); a
    Redis store's database is emptied first."""
    from classroom.store import MemoryStore

    if request.param == "memory":
        yield MemoryStore
        return
    import redis.asyncio as redis

    from classroom.redis_store import RedisStore

    url = request.getfixturevalue("redis_url")

    async def flush():
        client = redis.Redis.from_url(url)
        await client.flushdb()
        await client.aclose()
    run(flush())
    yield lambda **options: RedisStore(url, **options)


def with_store(make, main, **options):
    """Run ``main(store, ops)`` on a started store of the kind; close it after."""
    from classroom.ops import Operations

    async def body():
        store = make(**options)
        await store.start()
        try:
            await main(store, Operations(store, secret=SECRET))
        finally:
            await store.close()
    run(body())
