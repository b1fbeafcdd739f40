"""The class routes against the in-process store: requests, then real event streams."""

from __future__ import annotations

import asyncio
import warnings

import pytest

from classroom import limits
from classroom.follower import Follower, Lecturer, request
from classroom.http import Classroom
from classroom.store import MemoryStore
from testkit.classroom import app_of, followed, run, serving

with warnings.catch_warnings():  # newer Starlette prefers the httpx2 fork; httpx works
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

VIEW = "data=xor-0-1&eta=0.1&lecture=1"


@pytest.fixture
def client():
    with TestClient(app_of(Classroom(MemoryStore()))) as client:
        yield client


def started(client, view: str = VIEW, step: int = 0) -> tuple[str, dict]:
    response = client.post("/class", json={"view": view, "step": step})
    assert response.status_code == 201, response.text
    data = response.json()
    return data["code"], {"X-Class-Key": data["key"]}


# ------------------------------------------------------------------ requests

def test_starting_a_class_gives_a_code_a_key_and_the_state(client):
    response = client.post("/class", json={"view": VIEW, "step": 2})
    data = response.json()
    assert response.status_code == 201 and response.headers["cache-control"] == "no-store"
    assert len(data["code"]) == 8 and len(data["key"]) == 43
    assert data["state"] == {"code": data["code"], "seq": 1, "view_seq": 1, "step": 2,
                             "ended": False, "question": None, "view": VIEW, "run": None}
    snapshot = client.get(f"/class/{data['code'].lower()}")  # typed in lower case
    assert snapshot.status_code == 200 and snapshot.json() == data["state"]


def test_unknown_and_malformed_codes_are_not_found(client):
    for code in ("ABCDEFGH", "abc", "ABCDEFG0", "%2e%2e"):
        assert client.get(f"/class/{code}").status_code == 404


def test_each_lecturer_action_moves_the_class(client):
    code, key = started(client)

    def act(action, **fields):
        response = client.post(f"/class/{code}/lecturer", json={"action": action, **fields},
                               headers=key)
        assert response.status_code == 200, response.text
        return response.json()["state"]

    assert act("step", step=4)["step"] == 4
    state = act("view", view="data=iris&eta=1", step=1)
    assert (state["view"], state["step"], state["view_seq"], state["seq"]) == (
        "data=iris&eta=1", 1, 3, 3)
    question = act("ask", kind="turn", step=2)["question"]
    assert question == {"id": 4, "step": 2, "kind": "turn", "revealed": False, "slide": 0,
                        "choices": ["no_mistake", "anticlockwise", "clockwise"]}
    revealed = act("reveal")
    assert revealed["step"] == 2 and revealed["question"]["counts"] == [0, 0, 0]
    assert act("close")["question"] is None
    assert act("touch")["seq"] == 6  # renews the quiet hour, changes nothing
    assert act("end")["ended"] is True
    assert client.get(f"/class/{code}").status_code == 410  # ended, not unknown
    response = client.post(f"/class/{code}/lecturer", json={"action": "step", "step": 1},
                           headers=key)
    assert response.status_code == 410


def test_lecturer_actions_are_checked_field_by_field(client):
    code, key = started(client)
    for body in ({"action": "jump"}, {"action": "step"}, {"action": "step", "step": -1},
                 {"action": "step", "step": "3"}, {"action": "step", "step": True},
                 {"action": "step", "step": 1, "view": "x"}, {"action": "ask", "kind": "why",
                                                              "step": 1},
                 {"action": "reveal"}, {"action": "view", "view": "<b>", "step": 0}, [1, 2]):
        response = client.post(f"/class/{code}/lecturer", json=body, headers=key)
        assert response.status_code in (400, 409), (body, response.text)
    assert client.get(f"/class/{code}").json()["seq"] == 1


def test_a_remote_link_gives_a_second_device_its_own_key_once(client):
    code, key = started(client)
    token = client.post(f"/class/{code}/lecturer", json={"action": "remote"},
                        headers=key).json()["remote"]
    claimed = client.post(f"/class/{code}/claim", json={"remote": token})
    assert claimed.status_code == 200
    phone = {"X-Class-Key": claimed.json()["key"]}
    assert phone != key
    response = client.post(f"/class/{code}/lecturer", json={"action": "step", "step": 9},
                           headers=phone)
    assert response.status_code == 200 and response.json()["state"]["step"] == 9
    assert client.post(f"/class/{code}/claim", json={"remote": token}).status_code == 403


def test_a_remote_token_works_only_for_its_class(client):
    code, key = started(client)
    other, _ = started(client)
    token = client.post(f"/class/{code}/lecturer", json={"action": "remote"},
                        headers=key).json()["remote"]
    assert client.post(f"/class/{other}/claim", json={"remote": token}).status_code == 403
    assert client.post(f"/class/{code}/claim", json={"remote": token}).status_code == 403


# ------------------------------------------------------------------ event streams

async def class_with(base: str, view: str = VIEW) -> Lecturer:
    lecturer = Lecturer(base)
    await lecturer.start(view, 0)
    return lecturer


def test_a_follower_gets_the_state_then_every_step():
    async def main():
        async with serving(MemoryStore()) as (base, _):
            lecturer = await class_with(base)
            follower = Follower(base, lecturer.code)
            assert await follower.connect() == 200
            first = await follower.next()
            assert first.kind == "state" and first.id == 1 and first.data["view"] == VIEW
            for step in (1, 2, 3):
                status, _ = await lecturer.act("step", step=step)
                event = await follower.next()
                assert status == 200 and (event.data["step"], event.id) == (step, step + 1)
                assert "view" not in event.data  # a step paints; it carries no view
            await lecturer.act("view", view="data=iris", step=0)
            event = await follower.next()
            assert event.data["view"] == "data=iris" and event.data["view_seq"] == event.id
            await follower.close()
    run(main())


def test_a_follower_back_from_a_lost_network_resumes_from_its_last_event():
    async def main():
        async with serving(MemoryStore()) as (base, _):
            lecturer, follower = await followed(base, VIEW)
            await follower.close()  # the network drops
            for step in (5, 6, 7):
                await lecturer.act("step", step=step)
            assert await follower.reconnect() == 200  # sends Last-Event-ID: 1
            event = await follower.next()
            assert (event.id, event.data["step"], event.data["view"]) == (4, 7, VIEW)
            await follower.reconnect()  # nothing missed: nothing sent but the retry
            await asyncio.sleep(0.2)
            assert follower.drain() == []
            await lecturer.act("step", step=8)
            assert (await follower.next()).data["step"] == 8
            await follower.close()
    run(main())


def test_a_quiet_stream_beats_without_moving_the_pages_last_event(monkeypatch):
    # a browser hears the beat (tests/browser/js/test_stream.py); it carries no id
    monkeypatch.setattr(limits, "HEARTBEAT", 0.1)

    async def main():
        async with serving(MemoryStore()) as (base, _):
            _, follower = await followed(base, VIEW)
            first = follower.heard
            await asyncio.sleep(0.35)
            assert follower.heard > first  # beats came, and were neither a state nor a step
            assert follower.last_id == 1 and follower.drain() == []
            await follower.close()
    run(main())


def test_the_tally_counts_following_exploring_and_answers():
    async def main():
        async with serving(MemoryStore()) as (base, _):
            lecturer = await class_with(base)
            projector = Follower(base, lecturer.code, tally=lecturer.tally)
            await projector.connect()
            # the projector's own stream is not a student
            assert (await projector.next("tally")).data == {
                "following": 0, "exploring": 0, "answered": 0}
            students = [Follower(base, lecturer.code) for _ in range(3)]
            students.append(Follower(base, lecturer.code, mode="explore"))
            for student in students:
                await student.connect()
            await asyncio.sleep(0.4)
            assert projector.drain()[-1].data == {"following": 3, "exploring": 1, "answered": 0}
            _, body = await lecturer.act("ask", kind="mistake", step=1)
            question = body["state"]["question"]["id"]
            for student in students[:3]:
                assert (await student.answer(question, "no_mistake"))[0] == 204
            await asyncio.sleep(0.4)
            tallies = [e for e in projector.drain() if e.kind == "tally"]
            assert tallies[-1].data["answered"] == 3
            # the projector's tally comes at most every TALLY_EVERY, not once per vote
            assert len(tallies) <= 2
            await students[0].close()
            await asyncio.sleep(0.4)
            assert projector.drain()[-1].data["following"] == 2
            for follower in (projector, *students):
                await follower.close()
    run(main())


def test_a_reload_or_a_second_tab_does_not_add_a_vote():
    async def main():
        async with serving(MemoryStore()) as (base, _):
            lecturer = await class_with(base)
            tab = Follower(base, lecturer.code)
            await tab.connect()
            _, body = await lecturer.act("ask", kind="turn", step=3)
            question = body["state"]["question"]["id"]
            assert (await tab.answer(question, "clockwise"))[0] == 204
            await tab.reconnect()  # a reload keeps the browser's cookie
            assert (await tab.answer(question, "clockwise"))[0] == 409
            second = Follower(base, lecturer.code, cookie=tab.cookie)
            await second.connect()
            assert (await second.answer(question, "anticlockwise"))[0] == 409
            assert (await second.answer(question + 1, "clockwise"))[0] == 409
            stranger = Follower(base, lecturer.code)
            await stranger.connect()
            assert (await stranger.answer(question, "no_mistake"))[0] == 204
            _, body = await lecturer.act("reveal")
            assert body["state"]["question"]["counts"] == [1, 0, 1]
            for follower in (tab, second, stranger):
                await follower.close()
    run(main())


def test_a_vote_needs_an_open_stream():
    async def main():
        async with serving(MemoryStore()) as (base, _):
            lecturer = await class_with(base)
            follower = Follower(base, lecturer.code)
            await follower.connect()
            await follower.close()
            await asyncio.sleep(0.1)
            _, body = await lecturer.act("ask", kind="mistake", step=1)
            question = body["state"]["question"]["id"]
            status, _ = await follower.answer(question, "mistake")
            assert status == 403
    run(main())


def test_the_end_reaches_every_follower_and_the_code_then_says_ended():
    async def main():
        async with serving(MemoryStore()) as (base, _):
            lecturer = await class_with(base)
            followers = [Follower(base, lecturer.code) for _ in range(3)]
            for follower in followers:
                await follower.connect()
                await follower.next()
            await lecturer.act("end")
            for follower in followers:
                event = await follower.next()
                assert event.data["ended"] is True
                await asyncio.wait_for(follower.closed.wait(), 5)  # the server closes it
                assert await follower.reconnect() == 410
            assert (await request(base, "GET", f"/class/{lecturer.code}"))[0] == 410
    run(main())


def test_a_quiet_class_expires_like_an_ended_one():
    async def main():
        now = [1000.0]
        store = MemoryStore(ttl=3600, clock=lambda: now[0])
        async with serving(store) as (base, _):
            lecturer = await class_with(base)
            follower = Follower(base, lecturer.code)
            await follower.connect()
            await follower.next()
            now[0] += 3000
            await lecturer.act("touch")  # the lecturer's page is still there
            now[0] += 3000
            await store.sweep()
            assert await store.get(lecturer.code) is not None
            now[0] += 3601
            await store.sweep()
            assert (await follower.next()).data["ended"] is True
            assert await store.get(lecturer.code) is None and await store.count() == 0
            assert (await request(base, "GET", f"/class/{lecturer.code}"))[0] == 410
            await follower.close()
    run(main())


def test_publishing_to_many_followers_does_not_wait_for_a_slow_one():
    async def main():
        async with serving(MemoryStore()) as (base, room):
            lecturer = await class_with(base)
            followers = [Follower(base, lecturer.code) for _ in range(50)]
            for follower in followers:
                await follower.connect()
            for step in range(1, 21):
                await lecturer.act("step", step=step)
            for follower in followers:
                last = None
                while last is None or last.data["step"] != 20:
                    last = await follower.next()
            assert room.store.hub.streams == 50
            for follower in followers:
                await follower.close()
            await asyncio.sleep(0.2)
            assert room.store.hub.streams == 0
    run(main())
