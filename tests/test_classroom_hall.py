"""What one client in the hall cannot do to the others: spend their joins with its guesses,
block their reconnects, read the lecturer's counts, fill the store, or make a class that
ended come back (issue: no one in the hall can spoil the class)."""

from __future__ import annotations

import asyncio
import time

from classroom import codes, limits
from classroom.follower import Follower, Lecturer, request
from classroom.state import start
from classroom.store import MemoryStore
from testkit.classroom import run, serving

VIEW = "data=xor-0-1&eta=0.1"


def _wrong(code: str) -> str:
    return "23456789" if code != "23456789" else "3456789A"


async def _spend_the_addresss_misses(base: str, lecturer: Lecturer) -> None:
    """What a script (or another site's <img src=".../class/ZZZZZZZZ">) does from the hall's
    address: unknown codes with no cookie, and wrong keys, until the address is refused."""
    wrong = _wrong(lecturer.code)
    for _ in range(limits.MISSES[1]):
        await request(base, "GET", f"/class/{wrong}")
        await request(base, "POST", f"/class/{lecturer.code}/lecturer", {"action": "end"},
                      headers={"X-Class-Key": "A" * 43})
    assert (await request(base, "GET", f"/class/{lecturer.code}"))[0] == 429


def test_others_misses_never_refuse_a_page_that_found_the_class():
    async def main():
        async with serving(MemoryStore()) as (base, room):
            lecturer = Lecturer(base)
            await lecturer.start(VIEW)
            frozen = time.monotonic()  # nothing refills, however slowly this machine runs
            room.ops.misses.clock = room.ops.address_misses.clock = lambda: frozen
            await _spend_the_addresss_misses(base, lecturer)
            # a lookup without a ticket (nor an identity) is refused as before: a guess looks
            # like any lookup
            assert await Follower(base, lecturer.code, identify_first=False).connect() == 429
            # 30 new students whose pages found the class (the page's ticket): all in, each
            # given an identity, and each can vote
            hall = [Follower(base, lecturer.code, ticket=lecturer.ticket)
                    for _ in range(30)]
            assert [await f.connect() for f in hall] == [200] * 30
            assert all(f.cookie for f in hall)
            _, body = await lecturer.act("ask", kind="mistake", step=1)
            question = body["state"]["question"]["id"]
            votes = [(await f.answer(question, "mistake"))[0] for f in hall]
            assert votes == [204] * 30
            # a lookup with the ticket too (a page asking why its stream was refused)
            ticket = hall[0].ticket
            status, _ = await request(base, "GET", f"/class/{lecturer.code}?ticket={ticket}")
            assert status == 200
            # a ticket is the class's own: another code's lookup with it is still a guess,
            # refused; and a ticket made up, or past its time, is no ticket
            assert (await request(base, "GET",
                                  f"/class/{_wrong(lecturer.code)}?ticket={ticket}"))[0] == 429
            made_up = f"{int(time.time()) + 999}.{codes.new_token()[:24]}"
            late = codes.join_ticket(room.ops.secret, lecturer.code, int(time.time()) - 1)
            for bad in (made_up, late, "1", "x" * 200):
                assert await Follower(base, lecturer.code, ticket=bad,
                                      identify_first=False).connect() == 429, bad
            for f in hall:
                await f.close()
    run(main())


def test_the_snapshot_gives_a_page_its_ticket():
    async def main():
        async with serving(MemoryStore()) as (base, room):
            lecturer = Lecturer(base)
            await lecturer.start(VIEW)
            host, port = base.removeprefix("http://").split(":")
            reader, writer = await asyncio.open_connection(host, int(port))
            writer.write(f"GET /class/{lecturer.code} HTTP/1.1\r\nHost: x\r\n"
                         "Connection: close\r\n\r\n".encode())
            head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1")
            writer.close()
            ticket = next(line.split(": ", 1)[1].strip() for line in head.splitlines()
                          if line.lower().startswith("x-class-ticket:"))
            assert room.ops.ticket_ok(lecturer.code, ticket)
            assert not room.ops.ticket_ok(_wrong(lecturer.code), ticket)
    run(main())


def test_rotating_identities_never_refuse_the_halls_reconnects_nor_their_votes():
    async def main():
        async with serving(MemoryStore()) as (base, room):
            lecturer = Lecturer(base)
            await lecturer.start(VIEW)
            ticket = lecturer.ticket  # what its page was given (ui/classroom/)
            hall = [Follower(base, lecturer.code, ticket=ticket) for _ in range(20)]
            assert [await f.connect() for f in hall] == [200] * 20
            frozen = time.monotonic()
            room.ops.misses.clock = room.ops.address_misses.clock = lambda: frozen
            # a script at the hall's address rotates identities the server gave it, each
            # spending its misses, until the address's are spent
            wrong = _wrong(lecturer.code)
            statuses = []
            while len(statuses) < limits.ADDRESS_MISSES[1] + 40:
                token = room.ops.new_voter("127.0.0.1")
                for _ in range(limits.MISSES[1]):
                    statuses.append((await request(base, "GET", f"/class/{wrong}", headers={
                        "Cookie": f"plab_voter={token}"}))[0])
            assert statuses[-1] == 429
            # the hall's phones roam, and come back: every one reconnects, and votes
            await asyncio.sleep(1.1)  # a page may open a stream a second (STREAM_OPENS)
            assert [await f.reconnect() for f in hall] == [200] * 20
            _, body = await lecturer.act("ask", kind="mistake", step=1)
            question = body["state"]["question"]["id"]
            assert [(await f.answer(question, "mistake"))[0] for f in hall] == [204] * 20
            for f in hall:
                await f.close()
    run(main())


def test_a_bad_last_event_id_is_a_400_never_a_traceback():
    async def main():
        async with serving(MemoryStore()) as (base, _):
            lecturer = Lecturer(base)
            await lecturer.start(VIEW)
            host, port = base.removeprefix("http://").split(":")
            events = f"/class/{lecturer.code}/events?ticket={lecturer.ticket}"
            for head, query in (("Last-Event-ID: \xb2", ""), ("Last-Event-ID: 1e3", ""),
                                ("Last-Event-ID: -1", ""), ("", "&after=%C2%B2"),
                                ("", "&after=abc"), ("", "&after=" + "9" * 13)):
                reader, writer = await asyncio.open_connection(host, int(port))
                lines = [f"GET {events}{query} HTTP/1.1", "Host: x", "Connection: close"]
                if head:
                    lines.append(head)
                writer.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"))
                answer = (await reader.read()).decode("latin-1")
                writer.close()
                assert answer.split()[1] == "400", (head, query, answer[:200])
                assert "event id" in answer and "Traceback" not in answer
            # a number still resumes
            follower = Follower(base, lecturer.code, ticket=lecturer.ticket, last_id=1)
            assert await follower.connect() == 200
            await follower.close()
    run(main())


def test_the_tally_is_the_lecturers_alone():
    async def main():
        async with serving(MemoryStore()) as (base, _):
            lecturer = Lecturer(base)
            await lecturer.start(VIEW)
            other = Lecturer(base)
            await other.start(VIEW)
            for tally in (True, "x" * 24, other.tally):  # "1", made up, another class's
                spy = Follower(base, lecturer.code, ticket=lecturer.ticket, tally=tally)
                assert await spy.connect() == 403, tally
            projector = Follower(base, lecturer.code, ticket=lecturer.ticket,
                                 tally=lecturer.tally)
            assert await projector.connect() == 200
            assert (await projector.next("tally")).data["following"] == 0
            await projector.close()
    run(main())


def test_remote_links_are_bounded_per_class():
    async def main():
        async with serving(MemoryStore()) as (base, room):
            lecturer = Lecturer(base)
            await lecturer.start(VIEW)
            statuses = [(await lecturer.act("remote"))[0] for _ in range(30)]
            assert statuses[:limits.REMOTES[1]] == [200] * limits.REMOTES[1]
            assert set(statuses[limits.REMOTES[1]:]) == {429}
            assert len(room.store._remotes) == limits.REMOTES[1]
            # another class's lecturer is not held back
            other = Lecturer(base)
            await other.start(VIEW)
            assert (await other.act("remote"))[0] == 200
    run(main())


def test_a_charter_expires_with_its_classs_quiet_hour_and_a_touch_renews_it():
    async def main():
        async with serving(MemoryStore()) as (base, room):
            lecturer = Lecturer(base)
            data = await lecturer.start(VIEW)
            body = {"charter": data["charter"], "view": VIEW, "view_seq": 1, "seq": 1,
                    "step": 0}
            restore = f"/class/{lecturer.code}/restore"
            key = {"X-Class-Key": lecturer.key}
            assert (await request(base, "POST", restore, body, headers=key))[0] == 200
            now = time.time()
            room.ops.wall = lambda: now + limits.QUIET_TTL - 60
            status, touched = await lecturer.act("touch")
            assert status == 200 and touched["charter"] != data["charter"]
            room.ops.wall = lambda: now + limits.QUIET_TTL + 60
            # the first charter is past its hour; the touch's is good for an hour after it
            assert (await request(base, "POST", restore, body, headers=key))[0] == 403
            renewed = {**body, "charter": touched["charter"]}
            assert (await request(base, "POST", restore, renewed, headers=key))[0] == 200
    run(main())


def test_a_class_that_ended_never_comes_back_after_its_store_lost_it():
    async def main():
        store = MemoryStore()
        async with serving(store) as (base, _):
            lecturer = Lecturer(base)
            data = await lecturer.start(VIEW)
            assert (await lecturer.act("end"))[0] == 200
            store._tombstones.clear()  # the store lost everything (a redis-server restarted)
            body = {"charter": data["charter"], "view": VIEW, "view_seq": 1, "seq": 1,
                    "step": 0}
            status, _ = await request(base, "POST", f"/class/{lecturer.code}/restore", body,
                                      headers={"X-Class-Key": lecturer.key})
            assert status == 410
            assert await store.get(lecturer.code) is None
    run(main())


def test_the_app_itself_says_who_may_frame_it(monkeypatch):
    from starlette.applications import Starlette
    from starlette.responses import PlainTextResponse
    from starlette.routing import Route
    from starlette.testclient import TestClient

    from classroom import server
    from classroom.http import FRAME_ANCESTORS

    def page(_request):
        return PlainTextResponse("the lecturer's page")

    def served() -> TestClient:
        return TestClient(Starlette(routes=[Route("/", page)], middleware=server.middleware()))

    monkeypatch.delenv(FRAME_ANCESTORS, raising=False)
    headers = served().get("/").headers
    assert headers["content-security-policy"] == "frame-ancestors 'self'"
    assert headers["x-frame-options"] == "SAMEORIGIN"
    # the course sites deploy/run.sh's FRAME_ANCESTORS names, and nothing that is not a site
    monkeypatch.setenv(FRAME_ANCESTORS, "https://moodle.example.edu 'unsafe-inline' *")
    headers = served().get("/").headers
    assert headers["content-security-policy"] == "frame-ancestors 'self' https://moodle.example.edu"
    assert "x-frame-options" not in headers


# ------------------------------------------------------------------ limits that fit the machine


def test_streams_from_many_addresses_leave_room_for_another_class(monkeypatch):
    # a process of 60 streams: one class may hold 40, one address 20; the last fifth is kept
    # for classes with fewer than 10 streams here
    monkeypatch.setattr(limits, "MAX_STREAMS", 60)
    monkeypatch.setattr(limits, "MAX_STREAMS_PER_ADDRESS", 20)
    monkeypatch.setattr(limits, "MAX_STREAMS_PER_CLASS", 40)
    monkeypatch.setattr(limits, "SMALL_CLASS", 10, raising=False)

    async def main():
        async with serving(MemoryStore()) as (base, room):
            own = [Lecturer(base), Lecturer(base)]
            for lecturer in own:
                await lecturer.start(VIEW)
            # scripts at three addresses fill two classes of their own
            flood = [Follower(base, own[n % 2].code, source=f"127.0.0.{2 + n // 20}")
                     for n in range(60)]
            statuses = [await f.connect() for f in flood]
            assert statuses.count(200) == 48 and room.store.hub.streams == 48
            # another class's students still get in, up to the process's cap
            other = Lecturer(base)
            await other.start(VIEW)
            hall = [Follower(base, other.code, source=f"127.0.1.{n}") for n in range(12)]
            assert [await f.connect() for f in hall] == [200] * 10 + [503] * 2
            for f in (*flood, *hall):
                await f.close()
    run(main())


def test_a_process_raises_its_open_files_and_fits_its_streams_to_them():
    import subprocess
    import sys

    probe = ("import resource\n"
             "soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)\n"
             "resource.setrlimit(resource.RLIMIT_NOFILE, (1024, {hard}))\n"
             "from classroom import limits, server\n"
             "server.classroom()\n"
             "print(*resource.getrlimit(resource.RLIMIT_NOFILE),"
             " limits.MAX_STREAMS, limits.MAX_STREAMS_PER_CLASS)\n")
    for hard in ("hard", "1024"):  # a machine that allows more; one that does not
        out = subprocess.run([sys.executable, "-c", probe.format(hard=hard)], check=True,
                             capture_output=True, text=True, cwd=str(_root())).stdout.split()
        files, ceiling, streams, per_class = map(int, out)
        assert files == min(ceiling, 65536)
        # the streams leave room for the pages: a stream and a page are a file each
        assert streams * 2 + 512 <= max(files, 2 * 64 + 512)
        assert per_class < streams
        if hard == "1024":
            assert streams < 1024 // 2


def _root():
    from pathlib import Path

    return Path(__file__).resolve().parents[1]


def test_a_flood_of_starts_is_bounded_and_never_takes_a_lecturers_class():
    async def main():
        store = MemoryStore(max_classes=70)
        async with serving(store) as (base, _):
            mine = Lecturer(base)
            data = await mine.start(VIEW)
            # 200 addresses start classes as fast as they can
            statuses = await asyncio.gather(*(request(base, "POST", "/class", {"view": VIEW},
                                                      source=f"127.0.{1 + n // 100}.{n % 100}")
                                              for n in range(200)))
            started = sum(status == 201 for status, _ in statuses)
            assert started <= 60 + 5  # STARTS_ALL's burst, and what refilled meanwhile
            # the lecturer who has a class drives it; and when the store lost it (and others
            # filled the store meanwhile), gives it back under its code
            assert (await mine.act("step", step=3))[0] == 200
            store._states.pop(mine.code)
            while await store.count() < 70:
                await store.create(start(codes.new_code(), codes.digest(codes.new_key()),
                                         codes.new_salt(), VIEW, 0))
            body = {"charter": data["charter"], "view": VIEW, "view_seq": 1, "seq": 4,
                    "step": 3}
            status, _ = await request(base, "POST", f"/class/{mine.code}/restore", body,
                                      headers={"X-Class-Key": mine.key})
            assert status == 200 and (await store.get(mine.code)).step == 3
    run(main())


# ------------------------------------------------------------------ a vote costs work


def test_an_identity_costs_a_proof_of_work_and_a_proof_earns_one_vote():
    async def main():
        async with serving(MemoryStore(), work_bits=8) as (base, _):
            lecturer = Lecturer(base)
            await lecturer.start(VIEW)
            # a script opening streams with no cookie is given no identity (it was given one
            # free, 400 at once and 10 a second, each a vote)
            script = [Follower(base, lecturer.code, ticket=lecturer.ticket,
                               identify_first=False) for _ in range(20)]
            assert {await f.connect() for f in script} == {401}
            assert not any(f.cookie for f in script)
            status, reply = await request(base, "GET", "/class/voter")
            assert status == 401 and reply["work"]["bits"] == 8
            # made-up proofs earn nothing (one in 256 holds by chance: those are left out)
            made_up = [(codes.new_token()[:24], nonce) for nonce in range(30)]
            made_up = [p for p in made_up if not codes.work_ok(*p, 8, limits.WORK_ITERATIONS)]
            for stamp, nonce in made_up[:20]:
                status, _ = await request(base, "POST", "/class/voter",
                                          {"stamp": stamp, "nonce": nonce})
                assert status == 400
            # the hall: ten phones, each with its own proof
            hall = [Follower(base, lecturer.code, ticket=lecturer.ticket) for _ in range(10)]
            assert [await f.connect() for f in hall] == [200] * 10
            # the script's one real proof, sent again and again: one identity, one vote
            proof = codes.solve_work(8, limits.WORK_ITERATIONS)
            copies = [Follower(base, lecturer.code, ticket=lecturer.ticket, proof=proof)
                      for _ in range(5)]
            assert [await f.connect() for f in copies] == [200] * 5
            assert len({f.cookie for f in copies}) == 1
            _, body = await lecturer.act("ask", kind="mistake", step=1)
            question = body["state"]["question"]["id"]
            honest = [(await f.answer(question, "no_mistake"))[0] for f in hall]
            stuffed = [(await f.answer(question, "mistake"))[0] for f in copies]
            assert honest == [204] * 10 and stuffed == [204] + [409] * 4
            _, body = await lecturer.act("reveal")
            assert body["state"]["question"]["counts"] == [1, 10]
            for f in (*hall, *copies):
                await f.close()
    run(main())
