"""A view's packed run, kept by digest for the follower page: the stores (this process's bounded
cache, and Redis, shared by every process), the route that serves it, and the class's state
that names it."""

from __future__ import annotations

import gzip
import warnings

import httpx
import numpy as np
import pytest
import redis.asyncio as redis

from classroom import limits
from classroom.http import Classroom
from classroom.redis_store import RedisStore
from classroom.state import ClassError, public
from classroom.store import MemoryStore, RunCache
from testkit.classroom import app_of, run, serving, with_store
from ui.stepper.wire import pack

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

VIEW = "data=xor-0-1&eta=0.1"


def packed_run(n: int = 40, seed: int = 0) -> tuple[str, bytes, bytes]:
    """A packed run: its digest (read from its header as the page's wire.js reads it), its
    bytes, and those bytes gzipped as the class keeps them."""
    rng = np.random.default_rng(seed)
    blob = pack({"steps": n}, {"X": rng.normal(size=(n, 2)), "y": rng.choice([-1, 1], n)
                               .astype(np.int8)})
    length = int.from_bytes(blob[:4], "little")
    import json

    digest = json.loads(blob[4:4 + length])["digest"]
    return digest, blob, gzip.compress(blob)


# ------------------------------------------------------------------ the stores

def test_a_run_is_kept_under_its_digest_and_one_too_large_is_not(make_store, monkeypatch):
    digest, _, kept = packed_run()
    other, _, _ = packed_run(seed=1)

    async def main(store, ops):
        assert await store.get_run(digest) is None and not await store.has_run(digest)
        assert await store.put_run(digest, kept)
        assert await store.get_run(digest) == kept and await store.has_run(digest)
        assert await store.get_run(other) is None
        monkeypatch.setattr("classroom.store.MAX_RUN_BYTES", len(kept) - 1)
        monkeypatch.setattr("classroom.redis_store.MAX_RUN_BYTES", len(kept) - 1)
        assert not await store.put_run(other, kept)  # too large: not kept, and said so
        assert await store.get_run(other) is None
    with_store(make_store, main)


def test_this_process_keeps_runs_within_its_budget_the_least_recently_used_going_first():
    runs = [packed_run(seed=s) for s in range(4)]  # four runs of one size (unzipped)
    assert len({len(blob) for _, blob, _ in runs}) == 1
    budget = 3 * len(runs[0][1])

    async def main(store, ops):
        for digest, blob, _ in runs[:3]:
            assert await store.put_run(digest, blob)
        assert await store.get_run(runs[0][0]) is not None  # used: the second is now the oldest
        assert await store.put_run(runs[3][0], runs[3][1])
        kept = [await store.has_run(d) for d, _, _ in runs]
        assert kept == [True, False, True, True]
        assert store.runs.size <= budget
    with_store(MemoryStore, main, run_budget=budget)


def test_a_run_cache_counts_its_bytes_against_a_reference():
    cache, reference = RunCache(100), []  # reference: (digest, size) least recently used first
    rng = np.random.default_rng(3)
    for _ in range(300):
        digest = f"{int(rng.integers(8)):016x}"
        if rng.random() < 0.5:
            size = int(rng.integers(1, 60))
            kept = cache.put(digest, b"x" * size)
            assert kept == (size <= 100)
            reference = [r for r in reference if r[0] != digest]
            if kept:
                reference.append((digest, size))
                while sum(s for _, s in reference) > 100:
                    reference.pop(0)
        else:
            found = cache.get(digest)
            match = [r for r in reference if r[0] == digest]
            assert (found is None) == (not match)
            if match:
                reference.remove(match[0])
                reference.append(match[0])
        assert cache.size == sum(s for _, s in reference)
        assert all(d in cache for d, _ in reference)


def test_a_run_in_redis_is_one_key_with_a_lifetime_every_process_serves(redis_url):
    digest, _, kept = packed_run()

    async def main():
        one, two = RedisStore(redis_url), RedisStore(redis_url)
        await one.start()
        await two.start()
        try:
            assert await one.put_run(digest, kept)
            assert await two.get_run(digest) == kept  # another process: from Redis
            ttl = await one.bytes.ttl(f"plab:run:{digest}")
            assert limits.RUN_TTL - 60 < ttl <= limits.RUN_TTL
        finally:
            await one.close()
            await two.close()
    run(main())


# ------------------------------------------------------------------ the class names its run

def test_the_class_names_its_views_run_and_a_new_view_forgets_it(make_store):
    digest, _, _ = packed_run()

    async def main(store, ops):
        key, state = await ops.start("10.0.0.1", VIEW)
        assert public(state)["run"] is None
        state, _ = await ops.act("10.0.0.1", state.code, key, {"action": "run", "run": digest})
        assert public(state)["run"] == digest and state.view_seq == 1 and state.seq == 2
        again, _ = await ops.act("10.0.0.1", state.code, key, {"action": "run", "run": digest})
        assert again.seq == state.seq  # nothing new: followers hear nothing
        state, _ = await ops.act("10.0.0.1", state.code, key,
                                 {"action": "view", "view": "data=iris", "step": 0})
        assert state.run is None  # a view with no stepper (Boolean's table) has no run
        assert (await store.get(state.code)).run is None
        for bad in ("0123", "0123456789ABCDEF", "0123456789abcdeg", 12, ["0123456789abcdef"]):
            with pytest.raises(ClassError) as raised:
                await ops.act("10.0.0.1", state.code, key, {"action": "run", "run": bad})
            assert raised.value.status == 400
            with pytest.raises(ClassError):
                await ops.act("10.0.0.1", state.code, key,
                              {"action": "view", "view": "data=iris", "step": 0, "run": bad})
    with_store(make_store, main)


# ------------------------------------------------------------------ the route

@pytest.fixture
def served():
    room = Classroom(MemoryStore())
    with TestClient(app_of(room)) as client:
        yield client, room


def test_the_route_answers_the_bytes_immutable_with_an_etag(served):
    client, room = served
    digest, blob, kept = packed_run()
    run_in = client.portal.call if hasattr(client, "portal") else None
    assert run_in is not None
    assert run_in(room.store.put_run, digest, kept)
    response = client.get(f"/class/run/{digest}", headers={"Accept-Encoding": "gzip"})
    assert response.status_code == 200 and response.content == blob  # (httpx unzips it)
    assert response.headers["content-encoding"] == "gzip"
    assert response.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert response.headers["etag"] == f'"{digest}"'
    assert response.headers["content-type"] == "application/octet-stream"
    plain = client.get(f"/class/run/{digest}", headers={"Accept-Encoding": "identity"})
    assert plain.content == blob and "content-encoding" not in plain.headers
    again = client.get(f"/class/run/{digest}", headers={"If-None-Match": f'"{digest}"'})
    assert again.status_code == 304 and again.content == b""


def test_the_route_refuses_an_unknown_or_malformed_digest_in_words(served):
    client, _ = served
    unknown = client.get("/class/run/0123456789abcdef")
    assert unknown.status_code == 404 and "no run" in unknown.json()["error"]
    assert unknown.headers["cache-control"] == "no-store"
    for bad in ("0123", "0123456789ABCDEF", "0123456789abcdef0"):
        response = client.get(f"/class/run/{bad}")
        assert response.status_code == 400, bad
        assert "16 hex digits" in response.json()["error"]
    assert client.get("/class/run/..%2F..%2Fetc%2Fpasswd").status_code in (400, 404)
    assert client.get("/class/run/0123456789abcdeZ").status_code == 400


def test_two_processes_with_redis_serve_a_run_one_of_them_kept(redis_url):
    digest, blob, kept = packed_run()

    async def main():
        async with serving(RedisStore(redis_url)) as (_, room_one), \
                serving(RedisStore(redis_url)) as (two, _room):
            assert await room_one.store.put_run(digest, kept)
            async with httpx.AsyncClient() as client:
                response = await client.get(f"{two}/class/run/{digest}")
            assert response.status_code == 200 and response.content == blob
    run(main())


# ------------------------------------------------------------------ the lecturer's page keeps it

def _unpacked_header(blob: bytes) -> dict:
    import json

    length = int.from_bytes(blob[:4], "little")
    return json.loads(blob[4:4 + length])


def test_a_lecturers_page_keeps_its_pictures_run_and_the_class_names_it():
    from streamlit.testing.v1 import AppTest

    from classroom import server
    from tests.apptest import ROOT, assert_clean, by_key, switch

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.run()
    by_key(at.button, "class.start").click()
    at.run()
    assert_clean(at)
    code = at.session_state["class.code"]
    state = server.call(lambda store: store.get(code))
    assert state.run is not None
    kept = server.call(lambda store: store.get_run(state.run))
    header = _unpacked_header(gzip.decompress(kept))
    # the run of the page's own stepper, as the follower page steps it: from its start, with
    # the keys, not in a projector's type (whatever the lecturer's page was at)
    blobs = [value[1] for k, value in at.session_state._state.filtered_state.items()
             if str(k).endswith(".stepper.blob")]
    sent = _unpacked_header(blobs[0])
    assert header["digest"] == state.run and header["run"] == sent["run"]
    assert (header["start"], header["keys"], header["lecture"]) == (0, True, False)
    assert header["columns"].keys() == sent["columns"].keys()
    # a setting changes the run: the class names the new one, kept too
    by_key(at.number_input, "train.eta").set_value(0.5).run()
    assert_clean(at)
    moved = server.call(lambda store: store.get(code))
    assert moved.run not in (None, state.run) and moved.view_seq > state.view_seq
    assert server.call(lambda store: store.has_run(moved.run))
    # a view with no stepper (Boolean's truth table): no run
    switch(at, "boolean").run()
    assert_clean(at)
    assert server.call(lambda store: store.get(code)).run is None
    by_key(at.button, "class.end").click()
    at.run()


def test_the_runs_in_redis_keep_within_their_budget_the_oldest_put_going_first(redis_url):
    runs = [packed_run(seed=s) for s in range(4)]  # four runs of one size
    size = len(runs[0][1])

    async def main():
        client = redis.Redis.from_url(redis_url)
        await client.flushdb()
        store = RedisStore(redis_url)
        await store.start()
        store.run_budget = 3 * size
        try:
            for digest, blob, _ in runs:
                assert await store.put_run(digest, blob)
            kept = [bool(await client.exists(f"plab:run:{d}")) for d, _, _ in runs]
            assert kept == [False, True, True, True]
            assert int(await client.get("plab:runs:bytes")) == 3 * size
            assert await store.put_run(runs[1][0], runs[1][1])  # put again: counted once
            assert int(await client.get("plab:runs:bytes")) == 3 * size
            assert not await store.put_run("f" * 16, b"x" * (3 * size + 1))  # over the budget
        finally:
            await store.close()
            await client.aclose()
    run(main())


def test_a_students_full_page_gives_the_run_back_to_a_store_that_lost_it():
    from streamlit.testing.v1 import AppTest

    from classroom import server
    from tests.apptest import ROOT, assert_clean, by_key
    from ui.classroom import store as page_store

    lecturer = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    lecturer.run()
    by_key(lecturer.button, "class.start").click()
    lecturer.run()
    code = lecturer.session_state["class.code"]
    digest = server.call(lambda store: store.get(code)).run
    assert digest is not None
    store = server.classroom().store
    store.runs = RunCache()  # the store lost it (a process's cache full, Redis restarted)
    page_store._KEPT_RUNS.clear()  # (and this process forgot it had kept it)
    assert not server.call(lambda s: s.has_run(digest))
    student = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    student.query_params["class"] = code
    student.run()
    assert_clean(student)
    assert student.session_state["class.role"] == "student"
    kept = server.call(lambda s: s.get_run(digest))
    assert kept is not None and _unpacked_header(gzip.decompress(kept))["digest"] == digest
    by_key(lecturer.button, "class.end").click()
    lecturer.run()
