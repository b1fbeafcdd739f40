"""What a student, a guesser or another class can and cannot do to a class."""

from __future__ import annotations

import asyncio
import json
import time

from classroom import codes, limits
from classroom.follower import Follower, Lecturer, request
from classroom.store import MemoryStore
from testkit.classroom import run, serving

VIEW = "data=xor-0-1&eta=0.1"



async def asked(base: str) -> tuple[Lecturer, Follower, int]:
    """A class with one following student and an open question: its lecturer, the student
    and the question's id."""
    lecturer = Lecturer(base)
    await lecturer.start(VIEW)
    student = Follower(base, lecturer.code)
    await student.connect()
    _, body = await lecturer.act("ask", kind="mistake", step=1)
    return lecturer, student, body["state"]["question"]["id"]

def test_a_students_connection_cannot_drive_the_class():
    async def main():
        async with serving(MemoryStore()) as (base, _):
            lecturer = Lecturer(base)
            await lecturer.start(VIEW)
            student = Follower(base, lecturer.code)
            await student.connect()
            cookie = {"Cookie": student.cookie}
            lecture = f"/class/{lecturer.code}/lecturer"
            # no key, with the student's cookie
            assert (await request(base, "POST", lecture, {"action": "step", "step": 5},
                                  headers=cookie))[0] == 403
            # a lecturer's message on the student's route
            for body in ({"action": "step", "step": 5}, {"question": 1, "choice": "mistake",
                                                         "action": "end"}, {"step": 5}):
                status, _ = await request(base, "POST", f"/class/{lecturer.code}/answer", body,
                                          headers=cookie)
                assert status in (400, 409), body
            # the key header empty, or the class's code where the key goes
            for key in ("", lecturer.code, "x" * 43):
                assert (await request(base, "POST", lecture, {"action": "end"},
                                      headers={**cookie, "X-Class-Key": key}))[0] == 403
            status, state = await request(base, "GET", f"/class/{lecturer.code}")
            assert state["seq"] == 1 and state["step"] == 0 and not state["ended"]
            await student.close()
    run(main())


def test_guessed_keys_are_refused_and_then_slowed():
    async def main():
        async with serving(MemoryStore()) as (base, _):
            lecturer = Lecturer(base)
            await lecturer.start(VIEW)
            guesser = Lecturer(base, lecturer.code, "A" * 43)
            statuses = [(await guesser.act("step", step=1))[0]
                        for _ in range(limits.MISSES[1] + 5)]
            assert statuses[:limits.MISSES[1]] == [403] * limits.MISSES[1]
            assert set(statuses[limits.MISSES[1]:]) == {429}
            state = (await request(base, "GET", f"/class/{lecturer.code}"))
            assert state[0] == 429  # the same address is slowed on every class route
            # ... except for the right key: a student guessing behind the lecturer's own
            # address (a campus NAT) cannot lock the lecturer out
            assert (await lecturer.act("step", step=2))[0] == 200
            # and once slowed, a known code with a wrong key looks like an unknown one
            assert (await guesser.act("step", step=1))[0] == 429
            assert (await Lecturer(base, "ABCDEFGH", "A" * 43).act("end"))[0] == 429
    run(main())


def test_guessed_codes_are_slowed_to_the_stated_rate():
    async def main():
        async with serving(MemoryStore()) as (base, _):
            statuses = [(await request(base, "GET", f"/class/ABCD{n:04d}".replace("0", "2")
                                       .replace("1", "3")))[0]
                        for n in range(limits.MISSES[1] + 5)]
            assert statuses.count(404) == limits.MISSES[1]
            assert set(statuses[limits.MISSES[1]:]) == {429}
    run(main())


def test_oversized_and_malformed_messages_are_refused():
    async def main():
        async with serving(MemoryStore()) as (base, _):
            lecturer, student, question = await asked(base)
            answer = f"/class/{lecturer.code}/answer"
            cookie = {"Cookie": student.cookie}
            padded = json.dumps({"question": question, "choice": "mistake",
                                 "pad": "x" * limits.MAX_STUDENT_BODY}).encode()
            assert (await request(base, "POST", answer, raw=padded, headers={
                **cookie, "Content-Type": "application/json"}))[0] == 413
            big_view = {"action": "view", "view": "a=" + "b" * limits.MAX_LECTURER_BODY,
                        "step": 0}
            status, _ = await request(base, "POST", f"/class/{lecturer.code}/lecturer",
                                      big_view, headers={"X-Class-Key": lecturer.key})
            assert status == 413
            # a form post (what another site could make a browser send) is not JSON
            status, _ = await request(base, "POST", answer, raw=b"question=1&choice=mistake",
                                      headers={**cookie, "Content-Type":
                                               "application/x-www-form-urlencoded"})
            assert status == 415
            for raw in (b"not json", b"[]", b'{"question": 1}', b'"mistake"'):
                status, _ = await request(base, "POST", answer, raw=raw, headers={
                    **cookie, "Content-Type": "application/json"})
                assert status in (400, 409, 429), raw  # 429: ANSWERS allows a burst of 5
            # nothing of that was counted
            _, body = await lecturer.act("reveal")
            assert body["state"]["question"]["counts"] == [0, 0]
            await student.close()
    run(main())


def test_too_frequent_answers_and_starts_are_refused():
    async def main():
        async with serving(MemoryStore()) as (base, _):
            _, student, question = await asked(base)
            statuses = [(await student.answer(question, "mistake"))[0]
                        for _ in range(limits.ANSWERS[1] + 3)]
            assert statuses[0] == 204 and set(statuses[1:limits.ANSWERS[1]]) == {409}
            assert set(statuses[limits.ANSWERS[1]:]) == {429}
            starts = [(await request(base, "POST", "/class", {"view": "", "step": 0}))[0]
                      for _ in range(limits.STARTS[1] + 2)]
            assert starts.count(201) == limits.STARTS[1] - 1  # one went to the class above
            assert starts[-1] == 429
            await student.close()
    run(main())


def test_one_browser_cannot_open_streams_without_end():
    async def main():
        async with serving(MemoryStore()) as (base, room):
            lecturer = Lecturer(base)
            await lecturer.start(VIEW)
            first = Follower(base, lecturer.code)
            await first.connect()
            tabs = [Follower(base, lecturer.code, cookie=first.cookie)
                    for _ in range(limits.STREAM_OPENS[1] + 2)]
            statuses = [await tab.connect() for tab in tabs]
            assert 429 in statuses
            assert room.store.hub.streams <= limits.MAX_STREAMS_PER_VOTER
            for follower in (first, *tabs):
                await follower.close()
    run(main())


def test_nothing_of_one_class_reaches_another():
    async def main():
        async with serving(MemoryStore()) as (base, _):
            a, b = Lecturer(base), Lecturer(base)
            await a.start("data=a")
            await b.start("data=b")
            in_a = Follower(base, a.code)
            in_b = Follower(base, b.code)
            await in_a.connect()
            await in_b.connect()
            assert (await in_b.next()).data["view"] == "data=b"
            # a's key does not drive b
            assert (await Lecturer(base, b.code, a.key).act("step", step=3))[0] == 403
            for step in range(1, 6):
                await a.act("step", step=step)
            _, body = await a.act("ask", kind="mistake", step=6)
            question = body["state"]["question"]["id"]
            await asyncio.sleep(0.3)
            assert all(event.data["code"] == b.code for event in in_b.drain())
            # the same browser in both classes: its vote in a is a's alone
            both = Follower(base, b.code, cookie=in_a.cookie)
            await both.connect()
            assert (await in_a.answer(question, "mistake"))[0] == 204
            _, body_b = await b.act("ask", kind="mistake", step=1)
            question_b = body_b["state"]["question"]["id"]
            assert (await both.answer(question, "mistake"))[0] == 409  # a's question id in b
            assert (await both.answer(question_b, "no_mistake"))[0] == 204
            _, revealed_a = await a.act("reveal")
            _, revealed_b = await b.act("reveal")
            assert revealed_a["state"]["question"]["counts"] == [1, 0]
            assert revealed_b["state"]["question"]["counts"] == [0, 1]
            for follower in (in_a, in_b, both):
                await follower.close()
    run(main())


def test_the_lecturers_key_never_reaches_a_student():
    async def main():
        async with serving(MemoryStore()) as (base, _):
            lecturer = Lecturer(base)
            await lecturer.start(f"{VIEW}&key=whatever&class=ABCDEFGH")
            student = Follower(base, lecturer.code)
            await student.connect()
            # a view that holds the key itself is refused, not sent on
            status, _ = await lecturer.act("view", view=f"data=x&k={lecturer.key}", step=0)
            assert status == 400
            _, remote = await lecturer.act("remote")
            await lecturer.act("view", view="data=iris&remote=abc", step=2)
            await lecturer.act("ask", kind="turn", step=3)
            await asyncio.sleep(0.3)
            seen = json.dumps([event.data for event in student.drain()])
            seen += json.dumps((await request(base, "GET", f"/class/{lecturer.code}"))[1])
            assert lecturer.key not in seen and remote["remote"] not in seen
            assert "key=" not in seen and "remote=" not in seen and "class=" not in seen
            await student.close()
    run(main())


def test_the_voter_cookie_stays_with_the_class_routes_and_this_site():
    async def main():
        async with serving(MemoryStore()) as (base, _):
            lecturer = Lecturer(base)
            await lecturer.start(VIEW)
            stamp, nonce = codes.solve_work(limits.WORK_BITS, limits.WORK_ITERATIONS)
            body = json.dumps({"stamp": stamp, "nonce": nonce})
            reader, writer = await asyncio.open_connection("127.0.0.1",
                                                           int(base.rsplit(":", 1)[1]))
            writer.write(f"POST /class/voter HTTP/1.1\r\nHost: x\r\nContent-Type: "
                         f"application/json\r\nContent-Length: {len(body)}\r\n\r\n{body}"
                         .encode())
            head = (await reader.readuntil(b"\r\n\r\n")).decode()
            writer.close()
            cookie = next(line for line in head.splitlines()
                          if line.lower().startswith("set-cookie"))
            for part in ("plab_voter=", "path=/class", "httponly", "samesite=strict"):
                assert part in cookie.lower()
            student = Follower(base, lecturer.code, cookie=cookie.split(":", 1)[1].split(";")[0]
                               .strip())
            assert await student.connect() == 200
            await student.close()
            reader, writer = await asyncio.open_connection("127.0.0.1",
                                                           int(base.rsplit(":", 1)[1]))
            writer.write(f"GET /class/{lecturer.code}/events HTTP/1.1\r\nHost: x\r\n"
                         f"Cookie: {student.cookie}\r\n\r\n".encode())
            head = (await reader.readuntil(b"\r\n\r\n")).decode().lower()
            writer.close()
            assert "x-accel-buffering: no" in head and "cache-control: no-store" in head
    run(main())


# ------------------------------------------------------------------ against a hostile client


def test_made_up_voter_cookies_get_no_stream_and_no_vote():
    async def main():
        async with serving(MemoryStore()) as (base, room):
            lecturer, student, question = await asked(base)
            signed = student.cookie.split("=", 1)[1]
            made_up = [codes.new_token() for _ in range(20)]  # the old shape, any client's
            # the signed shape, with a signature of the client's own making
            made_up += [f"{codes.new_token()[:24]}.{codes.new_token()[:24]}" for _ in range(20)]
            made_up.append(signed[:-1] + ("A" if signed[-1] != "A" else "B"))
            forged = [Follower(base, lecturer.code, cookie=f"plab_voter={token}")
                      for token in made_up]
            statuses = [await f.connect() for f in forged]
            assert set(statuses) == {403}
            assert room.store.hub.streams == 1  # the real student's only
            votes = [(await f.answer(question, "mistake"))[0] for f in forged]
            assert set(votes) == {403}
            # the refusal clears the forged cookie: the page's next try gets a real one
            status, headers = await raw_head(base, f"/class/{lecturer.code}/events",
                                             f"plab_voter={made_up[0]}")
            assert status == 403 and "plab_voter=;" in headers and "Max-Age=0" in headers
            _, body = await lecturer.act("reveal")
            assert body["state"]["question"]["counts"] == [0, 0]
            await student.close()
    run(main())


async def raw_head(base: str, path: str, cookie: str) -> tuple[int, str]:
    """The status and the raw response head of a GET with this cookie."""
    host, port = base.removeprefix("http://").split(":")
    reader, writer = await asyncio.open_connection(host, int(port))
    writer.write(f"GET {path} HTTP/1.1\r\nHost: {host}\r\nCookie: {cookie}\r\n"
                 "Connection: close\r\n\r\n".encode())
    head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1")
    writer.close()
    return int(head.split()[1]), head


def test_one_clients_streams_never_take_another_classs_room(monkeypatch):
    # a server of 60 streams; one address may hold 20 of them, one class 40
    monkeypatch.setattr(limits, "MAX_STREAMS", 60)
    monkeypatch.setattr(limits, "MAX_STREAMS_PER_ADDRESS", 20)
    monkeypatch.setattr(limits, "MAX_STREAMS_PER_CLASS", 40)

    async def main():
        async with serving(MemoryStore()) as (base, room):
            own = Lecturer(base)
            await own.start(VIEW)
            # a script at 127.0.0.2 takes identities the server gives (one per stream, or
            # eight streams on each) and opens all it can
            script = [Follower(base, own.code, source="127.0.0.2") for _ in range(70)]
            statuses = [await f.connect() for f in script]
            assert statuses.count(200) == 20 and set(statuses[20:]) == {429}
            tabs = [Follower(base, own.code, source="127.0.0.2", cookie=script[0].cookie)
                    for _ in range(5)]
            assert {await t.connect() for t in tabs} == {429}
            # a student of another class, elsewhere, still gets in
            other = Lecturer(base)
            await other.start(VIEW)
            student = Follower(base, other.code, source="127.0.0.3")
            assert await student.connect() == 200
            # one class holds at most its share: a hall filling it leaves the rest to others
            hall = [Follower(base, own.code, source=f"127.0.1.{i}") for i in range(30)]
            statuses = [await f.connect() for f in hall]
            assert statuses.count(200) == 40 - 20 and set(statuses[20:]) == {503}
            late = Follower(base, other.code, source="127.0.0.4")
            assert await late.connect() == 200
            assert room.store.hub.streams == 20 + 20 + 2
            for f in (*script, *tabs, *hall, student, late):
                await f.close()
    run(main())


def test_a_hall_of_300_behind_one_address_all_follow_and_vote():
    async def main():
        async with serving(MemoryStore()) as (base, room):
            lecturer = Lecturer(base)
            await lecturer.start(VIEW)
            hall = [Follower(base, lecturer.code) for _ in range(300)]
            statuses = await asyncio.gather(*(f.connect() for f in hall))
            assert set(statuses) == {200} and room.store.hub.streams == 300
            _, body = await lecturer.act("ask", kind="mistake", step=1)
            question = body["state"]["question"]["id"]
            votes = await asyncio.gather(*(f.answer(question, "mistake") for f in hall))
            assert {status for status, _ in votes} == {204}
            for f in hall:
                await f.close()
    run(main(), timeout=120)


def test_one_students_misses_never_refuse_the_others_answers():
    async def main():
        async with serving(MemoryStore()) as (base, _):
            lecturer, first, question = await asked(base)
            others = [Follower(base, lecturer.code) for _ in range(3)]
            typist = Follower(base, lecturer.code)
            for other in (*others, typist):
                await other.connect()
            # one student at the hall's address mistypes the code, again and again
            wrong = "2345-6789" if lecturer.code != "23456789" else "3456-789A"
            for _ in range(limits.MISSES[1] + 5):
                await request(base, "GET", f"/class/{wrong}")
                await request(base, "POST", f"/class/{wrong}/answer",
                              {"question": question, "choice": "mistake"},
                              headers={"Cookie": typist.cookie})
            statuses = [(await f.answer(question, "mistake"))[0] for f in (first, *others)]
            assert statuses == [204] * 4
            _, body = await lecturer.act("reveal")
            assert body["state"]["question"]["counts"] == [4, 0]
            for f in (first, *others, typist):
                await f.close()
    run(main())


def test_an_answer_to_a_class_one_does_not_follow_says_nothing_of_whether_it_exists():
    async def main():
        async with serving(MemoryStore()) as (base, _):
            _, student, question = await asked(base)
            other = Lecturer(base)
            await other.start(VIEW)
            for code in (other.code, "23456789", "ZZZZZZZZ"):
                status, body = await request(base, "POST", f"/class/{code}/answer",
                                             {"question": question, "choice": "mistake"},
                                             headers={"Cookie": student.cookie})
                assert (status, body) == (403, {"error": "only a page that follows the class "
                                                         "can answer"}), code
            await student.close()
    run(main())


def test_json_nested_thousands_deep_is_refused_plainly_on_every_route():
    deep = b"[" * 7000 + b"]" * 7000
    deep_object = b'{"view":' * 1500 + b"1" + b"}" * 1500

    async def main():
        async with serving(MemoryStore()) as (base, _):
            lecturer, student, _ = await asked(base)
            json_type = {"Content-Type": "application/json"}
            for raw in (deep, deep_object):
                assert (await request(base, "POST", "/class", raw=raw, headers=json_type))[0] \
                    == 400
                assert (await request(base, "POST", f"/class/{lecturer.code}/lecturer",
                                      raw=raw, headers={**json_type,
                                                        "X-Class-Key": lecturer.key}))[0] == 400
                # the student's routes read 256 bytes at most: too short to nest deep
                for path, cookie in (("claim", {}), ("answer", {"Cookie": student.cookie})):
                    status, _ = await request(base, "POST", f"/class/{lecturer.code}/{path}",
                                              raw=raw, headers={**json_type, **cookie})
                    assert status == 413, path
                shallow = raw[:120] + raw[-120:]
                for path, cookie in (("claim", {}), ("answer", {"Cookie": student.cookie})):
                    status, _ = await request(base, "POST", f"/class/{lecturer.code}/{path}",
                                              raw=shallow, headers={**json_type, **cookie})
                    assert status == 400, path
            await student.close()
    run(main())


def test_one_students_mistyped_codes_slow_that_student_and_never_the_halls_joins():
    async def main():
        async with serving(MemoryStore()) as (base, _):
            lecturer = Lecturer(base)
            await lecturer.start(VIEW)
            hall = [Follower(base, lecturer.code) for _ in range(5)]
            for f in hall:
                assert await f.connect() == 200
            typist, others = hall[0], hall[1:]
            wrong = "23456789" if lecturer.code != "23456789" else "3456789A"
            statuses = [(await request(base, "GET", f"/class/{wrong}",
                                       headers={"Cookie": typist.cookie}))[0]
                        for _ in range(limits.MISSES[1] + 5)]
            assert statuses.count(404) == limits.MISSES[1] and statuses[-1] == 429
            # the typist is slowed, found code or not; the hall reconnects and joins
            assert await typist.reconnect() == 429
            assert [await f.reconnect() for f in others] == [200] * len(others)
            newcomer = Follower(base, lecturer.code)
            assert await newcomer.connect() == 200
            # a page without an identity guesses at the address's own pace (the old bound)
            plain = [(await request(base, "GET", f"/class/{wrong}"))[0]
                     for _ in range(limits.MISSES[1] + 2)]
            assert plain.count(404) == limits.MISSES[1] and plain[-1] == 429
            for f in (*hall, newcomer):
                await f.close()
    run(main())


def test_identities_rotated_to_guess_codes_meet_the_addresss_bound():
    async def main():
        async with serving(MemoryStore()) as (base, room):
            lecturer = Lecturer(base)
            await lecturer.start(VIEW)
            # the buckets' time stands still: nothing refills however slowly this machine runs
            frozen = time.monotonic()
            room.ops.misses.clock = room.ops.address_misses.clock = lambda: frozen
            wrong = "23456789" if lecturer.code != "23456789" else "3456789A"
            statuses = []
            while len(statuses) < limits.ADDRESS_MISSES[1] + 40:
                token = room.ops.new_voter("127.0.0.1")  # as many as the server would give
                for _ in range(limits.MISSES[1]):
                    statuses.append((await request(base, "GET", f"/class/{wrong}", headers={
                        "Cookie": f"plab_voter={token}"}))[0])
            assert statuses.count(404) == limits.ADDRESS_MISSES[1]
            assert statuses[-1] == 429
            # then the address's lookups are refused, a fresh identity's too, whether the
            # code exists or not
            fresh = room.ops.new_voter("127.0.0.1")
            status, _ = await request(base, "GET", f"/class/{lecturer.code}",
                                      headers={"Cookie": f"plab_voter={fresh}"})
            assert status == 429
    run(main())
